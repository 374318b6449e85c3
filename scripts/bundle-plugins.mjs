/**
 * esbuild plugins of the bin's bundle (scripts/bundle.mjs) that change a dependency's code as it is
 * bundled, kept apart so a test can bundle with them (test/bundle-patches.test.ts).
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * @scure/starknet builds its Pedersen tables (2 × 252 curve points, ~500 point doublings) when it
 * is loaded, in both copies the bin bundles: starknet.js's (1.1, pinned by it) and ours (2.x,
 * shared/starknet.ts). Every money command loads both, and none hashes with Pedersen once the
 * account's address is remembered (docs/decisions.md "Hashing once per account"; starknet.js's
 * copy's Pedersen no command uses), so the tables are built on first use instead: ~10 ms of CPU
 * per command for each copy (docs/benchmarks.md "Issue 35"). The same statements, run later; if
 * a package changes them, the build fails here rather than silently getting slower.
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
/**
 * starknet.js's copy also derives its Poseidon round constants when it is loaded: 273 SHA-256
 * hashes of short strings ("Hades0", …) through @noble/hashes' JavaScript SHA-256 (~10 ms of a
 * trade's CPU: docs/benchmarks.md "Issue 35, fifth round"). They are hashed by node:crypto's
 * SHA-256 instead (the same digest; required, not imported: docs/decisions.md "Built-ins required,
 * TypeBox by name"), and only when starknet.js first hashes with Poseidon: a money command's
 * SNIP-12 hash no longer does (cli/core/chain/outside-hash.ts; docs/benchmarks.md "Issue 35,
 * sixth round"). If starknet.js came to import `poseidonSmall` itself, the bundle would fail (the
 * name is no longer exported). test/bundle-patches.test.ts holds the patched copy's Poseidon equal
 * to the original's.
 */
const POSEIDON_SMALL =
  'export const poseidonSmall = poseidonBasic({ Fp: Fp251, rate: 2, capacity: 1, roundsFull: 8, roundsPartial: 83 }, MDS_SMALL);';
const POSEIDON_LAZY = [
  [
    'const val = Fp.fromBytes(sha256(utf8ToBytes(`${name}${idx}`)));',
    "const val = Fp.fromBytes(new Uint8Array(require('node:crypto').createHash('sha256').update(`${name}${idx}`, 'utf8').digest()));",
  ],
  [
    POSEIDON_SMALL,
    `let POSEIDON_SMALL;\nconst poseidonSmallOf = () => (POSEIDON_SMALL ??= ${POSEIDON_SMALL.slice('export const poseidonSmall = '.length, -1)});`,
  ],
  ...[
    'poseidonHash(x, y',
    'poseidonHashFunc(x, y',
    'poseidonHashSingle(x',
    'poseidonHashMany(values',
  ].map((head) => [
    `export function ${head}, fn = poseidonSmall)`,
    `export function ${head}, fn = poseidonSmallOf())`,
  ]),
];

/** Our own copy (2.x): the same tables, each built by an arrow function called at once. */
const PEDERSEN_EAGER_2 = [
  [
    'const PEDERSEN_POINTS1 = /* @__PURE__ */ (() => pedersenPrecompute(PEDERSEN_POINTS[1], PEDERSEN_POINTS[2]))();\nconst PEDERSEN_POINTS2 = /* @__PURE__ */ (() => pedersenPrecompute(PEDERSEN_POINTS[3], PEDERSEN_POINTS[4]))();\n',
    PEDERSEN_EAGER[0][1],
  ],
  PEDERSEN_EAGER[1],
];

/** `source` with each statement replaced by its patched form; throws when one is not there once. */
function replaceOnce(path, source, replacements) {
  let patched = source;
  for (const [original, replacement] of replacements) {
    if (patched.split(original).length !== 2)
      throw new Error(
        `${path}: the code patched changed; update its plugin in scripts/bundle-plugins.mjs`,
      );
    patched = patched.replace(original, () => replacement);
  }
  return patched;
}

/** `source` with each eager table statement replaced by its lazy one. */
function lazyTables(path, source, replacements) {
  const patched = replaceOnce(path, source, replacements);
  if (patched.split('PEDERSEN_POINTS1').length !== 3)
    throw new Error(`${path}: PEDERSEN_POINTS1 is read elsewhere; update lazyPedersenTables`);
  return patched;
}

export const lazyPedersenTables = {
  name: 'lazy-pedersen-tables',
  setup(b) {
    b.onLoad(
      {
        filter: /starknet[\\/]node_modules[\\/]@scure[\\/]starknet[\\/]lib[\\/]esm[\\/]index\.js$/,
      },
      async (args) => ({
        contents: replaceOnce(
          args.path,
          lazyTables(args.path, await readFile(args.path, 'utf8'), PEDERSEN_EAGER),
          POSEIDON_LAZY,
        ),
        loader: 'js',
      }),
    );
    b.onLoad({ filter: /node_modules[\\/]@scure[\\/]starknet[\\/]index\.js$/ }, async (args) => ({
      contents: lazyTables(args.path, await readFile(args.path, 'utf8'), PEDERSEN_EAGER_2),
      loader: 'js',
    }));
  },
};

/**
 * starknet.js hashes every entry-point name it sends (a call, the paymaster's safety check of the
 * calls) with its JavaScript keccak, cold on every command: a trade ran 17 (10 names), ~8 ms of
 * its CPU (docs/benchmarks.md "Issue 35, seventh round"). Its getSelectorFromName first looks the
 * name up in the program's table of known selectors (shared/selectors.ts, each held equal to the
 * hash by shared/selectors.test.ts) and hashes any other name as before. The table module imports
 * nothing, so starknet.js's chunk gains no dependency but it. If starknet.js changes the function,
 * the build fails here; test/bundle-patches.test.ts holds the patched function equal to the
 * original for every known name and for others.
 */
const SELECTORS_MODULE = fileURLToPath(new URL('../shared/selectors.ts', import.meta.url));
const GET_SELECTOR_FROM_NAME = [
  [
    'function getSelectorFromName(funcName) {\n  return toHex(starknetKeccak(funcName));\n}\n',
    'function getSelectorFromName(funcName) {\n  return __knownSelector(funcName) ?? toHex(starknetKeccak(funcName));\n}\n',
  ],
];

export const knownSelectors = {
  name: 'known-selectors',
  setup(b) {
    b.onLoad({ filter: /node_modules[\\/]starknet[\\/]dist[\\/]index\.mjs$/ }, async (args) => ({
      contents: `import { knownSelector as __knownSelector } from ${JSON.stringify(SELECTORS_MODULE)};\n${replaceOnce(args.path, await readFile(args.path, 'utf8'), GET_SELECTOR_FROM_NAME)}`,
      loader: 'js',
    }));
  },
};

/**
 * The history file's validator, generated when the bin is built instead of compiled by each
 * command that records a transaction (cli/core/history-check.ts): TypeBox's `Code` turns the
 * schema (cli/core/history-schema.ts, bundled here on its own) into a standalone module — the
 * check's code, importing TypeBox's guard and hashing helpers, and the patterns it tests as
 * external values — which replaces history-check.ts in the bundle, its patterns written out as
 * RegExp literals. ~10 ms of a trade's CPU (TypeBox's compiler loaded, the code built and
 * evaluated: docs/benchmarks.md "Issue 35, seventh round"). If TypeBox's output changes shape (an
 * external that is not a RegExp), the build fails here; test/bundle-patches.test.ts holds the
 * generated check to TypeBox's answers.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

async function historyCheckModule() {
  const generator = await build({
    stdin: {
      contents:
        "import { Code } from 'typebox/compile'; import { HistoryFile } from './cli/core/history-schema.ts'; export default Code(HistoryFile);",
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'silent',
  });
  const { default: generated } = await import(
    `data:text/javascript,${encodeURIComponent(generator.outputFiles[0].text)}`
  );
  const { Code, External } = generated;
  const variables = External?.variables;
  if (typeof Code !== 'string' || !Array.isArray(variables) || External.identifier !== 'External')
    throw new Error('typebox/compile Code changed its output; update standaloneHistoryCheck');
  for (const value of variables)
    if (!(value instanceof RegExp))
      throw new Error(
        `the history validator has an external ${typeof value}, not a RegExp; update standaloneHistoryCheck`,
      );
  return [
    '// generated when the bin was built: scripts/bundle-plugins.mjs standaloneHistoryCheck',
    Code,
    `SetExternal({ variables: [${variables.map((re) => re.toString()).join(', ')}] });`,
    'const validator = Promise.resolve({ Check });',
    'export const historyFileCheck = () => validator;',
    '',
  ].join('\n');
}

export const standaloneHistoryCheck = {
  name: 'standalone-history-check',
  setup(b) {
    b.onLoad({ filter: /[\\/]cli[\\/]core[\\/]history-check\.ts$/ }, async (args) => ({
      contents: await historyCheckModule(),
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};
