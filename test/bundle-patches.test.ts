/**
 * The bundle's patches of dependency code (scripts/bundle-plugins.mjs) change when work is done,
 * never its result: each copy of @scure/starknet the bin bundles (starknet.js's and ours), bundled
 * with and without lazyPedersenTables, gives the same Pedersen hashes (random felts, small ones, a
 * hash chain) and the same Poseidon hashes; starknet.js bundled with and without knownSelectors
 * gives the same selector for every known name and for names it has to hash.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JS (no declarations)
import { knownSelectors, lazyPedersenTables } from '../scripts/bundle-plugins.mjs';
import { KNOWN_SELECTORS } from '../shared/selectors.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const COPIES = {
  "starknet.js's (1.1)": './node_modules/starknet/node_modules/@scure/starknet/lib/esm/index.js',
  'ours (2.x)': './node_modules/@scure/starknet/index.js',
};

interface PedersenModule {
  pedersen(x: bigint, y: bigint): string;
  computeHashOnElements(data: bigint[]): string;
  poseidonHashMany(values: bigint[]): bigint;
}

async function bundled(
  path: string,
  plugins: Plugin[],
): Promise<PedersenModule & { text: string }> {
  const result = await build({
    stdin: {
      contents: `export { pedersen, computeHashOnElements, poseidonHashMany } from '${path}';`,
      resolveDir: ROOT,
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    write: false,
    logLevel: 'silent',
    plugins,
    // what the bin's chunks have (scripts/bundle.mjs): `require` for the built-ins a patch requires
    banner: {
      js: `import { createRequire } from 'node:module'; const require = createRequire(${JSON.stringify(`${ROOT}package.json`)});`,
    },
  });
  const text = result.outputFiles[0]?.text ?? '';
  const module = (await import(
    `data:text/javascript,${encodeURIComponent(text)}`
  )) as PedersenModule;
  return { ...module, text };
}

const felt = (): bigint => BigInt(`0x${randomBytes(32).toString('hex')}`) % 2n ** 251n;

describe('lazyPedersenTables', () => {
  it.each(Object.entries(COPIES))(
    '%s patched copy hashes exactly as the original',
    async (_, path) => {
      const original = await bundled(path, []);
      const patched = await bundled(path, [lazyPedersenTables as Plugin]);
      // the tables are built on first use in the patched copy, at load in the original
      expect(patched.text).toContain('pedersenTables()');
      expect(original.text).not.toContain('pedersenTables()');
      const pairs: Array<[bigint, bigint]> = [
        [0n, 0n],
        [1n, 2n],
        [2n ** 251n, 3n],
        ...Array.from({ length: 60 }, (_, i): [bigint, bigint] => [
          felt(),
          i % 5 === 0 ? BigInt(i) : felt(),
        ]),
      ];
      for (const [x, y] of pairs)
        expect(patched.pedersen(x, y), `${x}, ${y}`).toBe(original.pedersen(x, y));
      const chain = [felt(), 0n, felt(), 5n];
      expect(patched.computeHashOnElements(chain)).toBe(original.computeHashOnElements(chain));
      // starknet.js's copy derives its Poseidon constants with node:crypto's SHA-256 when patched
      for (const values of [
        [],
        [0n],
        [1n, 2n],
        [felt(), felt(), felt()],
        pairs.flat().slice(0, 41),
      ])
        expect(patched.poseidonHashMany(values)).toBe(original.poseidonHashMany(values));
    },
  );
});

describe('knownSelectors', () => {
  async function selectorFunction(plugins: Plugin[]): Promise<{
    getSelectorFromName(name: string): string;
    text: string;
  }> {
    const result = await build({
      stdin: { contents: `export { hash } from 'starknet';`, resolveDir: ROOT },
      bundle: true,
      format: 'esm',
      platform: 'node',
      write: false,
      logLevel: 'silent',
      plugins,
      banner: {
        js: `import { createRequire } from 'node:module'; const require = createRequire(${JSON.stringify(`${ROOT}package.json`)});`,
      },
    });
    const text = result.outputFiles[0]?.text ?? '';
    const module = (await import(`data:text/javascript,${encodeURIComponent(text)}`)) as {
      hash: { getSelectorFromName(name: string): string };
    };
    return { getSelectorFromName: module.hash.getSelectorFromName, text };
  }

  it("starknet.js's patched getSelectorFromName answers exactly as the original", async () => {
    const original = await selectorFunction([]);
    const patched = await selectorFunction([knownSelectors as Plugin]);
    // the patched copy looks the name up first; the original only hashes
    expect(patched.text).toMatch(/knownSelector\(funcName\) \?\? toHex/);
    expect(original.text).not.toMatch(/knownSelector/i);
    const names = [
      ...KNOWN_SELECTORS.keys(),
      'transfer2',
      'Transfer ',
      '',
      '__proto__',
      ...Array.from({ length: 10 }, () => `n_${randomBytes(6).toString('hex')}`),
    ];
    for (const name of names)
      expect(patched.getSelectorFromName(name), name).toBe(original.getSelectorFromName(name));
  }, 60_000);
});
