/**
 * esbuild plugins of the bin's bundle (scripts/bundle.mjs) that change a dependency's code as it is
 * bundled, kept apart so a test can bundle with them (test/bundle-patches.test.ts).
 */
import { readFile } from 'node:fs/promises';

/**
 * starknet.js pins an older @scure/starknet (1.1), which builds its Pedersen tables (2 × 252
 * curve points, ~500 point doublings) when it is loaded. Every money command loads starknet.js,
 * and none uses that copy's Pedersen (our own hashing is shared/starknet.ts, over @scure/starknet
 * 2), so the tables are built on first use instead: ~10 ms of CPU per command
 * (docs/benchmarks.md "Issue 35"). The same statements, run later; if the package changes them,
 * the build fails here rather than silently getting slower.
 */
const PEDERSEN_EAGER = [
  [
    'const PEDERSEN_POINTS1 = pedersenPrecompute(PEDERSEN_POINTS[1], PEDERSEN_POINTS[2]);\nconst PEDERSEN_POINTS2 = pedersenPrecompute(PEDERSEN_POINTS[3], PEDERSEN_POINTS[4]);\n',
    'let PEDERSEN_TABLES;\nconst pedersenTables = () => (PEDERSEN_TABLES ??= [pedersenPrecompute(PEDERSEN_POINTS[1], PEDERSEN_POINTS[2]), pedersenPrecompute(PEDERSEN_POINTS[3], PEDERSEN_POINTS[4])]);\n',
  ],
  [
    '    point = pedersenSingle(point, x, PEDERSEN_POINTS1);\n    point = pedersenSingle(point, y, PEDERSEN_POINTS2);\n',
    '    const [PEDERSEN_POINTS1, PEDERSEN_POINTS2] = pedersenTables();\n    point = pedersenSingle(point, x, PEDERSEN_POINTS1);\n    point = pedersenSingle(point, y, PEDERSEN_POINTS2);\n',
  ],
];
export const lazyPedersenTables = {
  name: 'lazy-pedersen-tables',
  setup(b) {
    b.onLoad(
      {
        filter: /starknet[\\/]node_modules[\\/]@scure[\\/]starknet[\\/]lib[\\/]esm[\\/]index\.js$/,
      },
      async (args) => {
        let source = await readFile(args.path, 'utf8');
        for (const [eager, lazy] of PEDERSEN_EAGER) {
          if (source.split(eager).length !== 2)
            throw new Error(
              `${args.path}: the Pedersen tables changed; update lazyPedersenTables in scripts/bundle.mjs`,
            );
          source = source.replace(eager, lazy);
        }
        if (source.split('PEDERSEN_POINTS1').length !== 3)
          throw new Error(
            `${args.path}: PEDERSEN_POINTS1 is read elsewhere; update lazyPedersenTables`,
          );
        return { contents: source, loader: 'js' };
      },
    );
  },
};
