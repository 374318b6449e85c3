/**
 * The bundle's patches of dependency code (scripts/bundle-plugins.mjs) change when work is done,
 * never its result: each copy of @scure/starknet the bin bundles (starknet.js's and ours), bundled
 * with and without lazyPedersenTables, gives the same Pedersen hashes (random felts, small ones, a
 * hash chain) and the same Poseidon hashes; string-width, bundled with and without
 * stringWidthNarrowFastPath, measures every string alike.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a build script in plain JS (no declarations)
import { lazyPedersenTables, stringWidthNarrowFastPath } from '../scripts/bundle-plugins.mjs';

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

async function bundled<Module = PedersenModule>(
  path: string,
  plugins: Plugin[],
  names = 'pedersen, computeHashOnElements, poseidonHashMany',
): Promise<Module & { text: string }> {
  const result = await build({
    stdin: {
      contents: `export { ${names} } from '${path}';`,
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
  // a new module each time (a comment of its own): an instance used by one test is not another's
  const module = (await import(
    `data:text/javascript,${encodeURIComponent(`${text}\n// ${randomBytes(8).toString('hex')}`)}`
  )) as Module;
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

type StringWidth = (text: string, options?: { ambiguousIsNarrow?: boolean }) => number;

describe('stringWidthNarrowFastPath', () => {
  // Ink's copy; the bin bundles four more of the same file (widest-line's, cli-truncate's, …)
  const PATH = './node_modules/ink/node_modules/string-width/index.js';
  const widths = async (plugins: Plugin[]): Promise<{ stringWidth: StringWidth; text: string }> =>
    bundled<{ stringWidth: StringWidth }>(PATH, plugins, 'default as stringWidth');

  it('measures every character of the blocks it looks at, and any mix, as the original', async () => {
    const original = await widths([]);
    const patched = await widths([stringWidthNarrowFastPath as Plugin]);
    // the segmenter and the emoji expression are built on first use, not at load
    expect(patched.text).toContain('segmenterOf()');
    expect(patched.text).toContain('rgiEmojiRegexOf()');
    expect(original.text).not.toContain('segmenterOf()');
    const blocks: Array<[number, number]> = [
      [0xa0, 0x24f],
      [0x370, 0x4ff],
      [0x2010, 0x2bff],
    ];
    const chars = blocks.flatMap(([from, to]) =>
      Array.from({ length: to - from + 1 }, (_, i) => String.fromCharCode(from + i)),
    );
    for (const ch of chars)
      for (const options of [{}, { ambiguousIsNarrow: false }])
        expect(patched.stringWidth(ch, options), `U+${ch.charCodeAt(0).toString(16)}`).toBe(
          original.stringWidth(ch, options),
        );
    // the characters that would join a neighbour or are wide: combining marks, joiners,
    // variation selectors, emoji, CJK, Hangul jamo, controls, ANSI colour
    const others = [
      '\u0301',
      '\u200d',
      '\ufe0f',
      '\u{1f600}',
      '\u{1f1eb}',
      '\u{1f1f7}',
      '\u4e2d',
      '\u1100',
      '\u1161',
      '\u0007',
      '\u001b[31m',
      '\u001b[0m',
      '\t',
      '\u00ad',
      '\u0e33',
      '\u094d',
    ];
    const pieces = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...chars) },
      { weight: 4, arbitrary: fc.string({ maxLength: 3 }) },
      { weight: 1, arbitrary: fc.constantFrom(...others) },
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 12 }), fc.boolean(), (parts, narrow) => {
        const text = parts.join('');
        const options = { ambiguousIsNarrow: narrow };
        expect(patched.stringWidth(text, options)).toBe(original.stringWidth(text, options));
      }),
      { numRuns: 3000 },
    );
  });

  it('answers the usual text of a frame without segmenting it', async () => {
    const patched = await widths([stringWidthNarrowFastPath as Plugin]);
    const intl = Intl as { Segmenter: typeof Intl.Segmenter };
    const Segmenter = intl.Segmenter;
    try {
      intl.Segmenter = class {
        constructor() {
          throw new Error('segmented');
        }
      } as unknown as typeof Intl.Segmenter;
      expect(patched.stringWidth('⠋ connecting… — 1.5 × 2 → ↑ · ✓ ✗ ≤ │ █')).toBe(39);
      expect(() => patched.stringWidth('\u4e2d')).toThrow('segmented');
    } finally {
      intl.Segmenter = Segmenter;
    }
  });
});
