/**
 * The bundle's patches of dependency code (scripts/bundle-plugins.mjs) change when work is done,
 * never its result: each copy of @scure/starknet the bin bundles (starknet.js's and ours), bundled
 * with and without lazyPedersenTables, gives the same Pedersen hashes (random felts, small ones, a
 * hash chain) and the same Poseidon hashes; starknet.js bundled with and without knownSelectors
 * gives the same selector for every known name and for names it has to hash; the history's
 * validator generated at build time (standaloneHistoryCheck) answers as TypeBox's check of the
 * schema, for good documents and for each kind of bad one; string-width, bundled with and without
 * stringWidthNarrowFastPath, measures every string alike.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Check } from 'typebox/schema';
import { HistoryFile } from '../cli/core/history-schema.js';
// @ts-expect-error: a build script in plain JS (no declarations)
import * as plugins from '../scripts/bundle-plugins.mjs';
import { KNOWN_SELECTORS } from '../shared/selectors.js';

const { knownSelectors, lazyPedersenTables, standaloneHistoryCheck, stringWidthNarrowFastPath } =
  plugins as {
    knownSelectors: Plugin;
    lazyPedersenTables: Plugin;
    standaloneHistoryCheck: Plugin;
    stringWidthNarrowFastPath: Plugin;
  };
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
      const patched = await bundled(path, [lazyPedersenTables]);
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
    const { hash, text } = await bundled<{
      hash: { getSelectorFromName(name: string): string };
    }>('starknet', plugins, 'hash');
    return { getSelectorFromName: hash.getSelectorFromName, text };
  }

  it("starknet.js's patched getSelectorFromName answers exactly as the original", async () => {
    const original = await selectorFunction([]);
    const patched = await selectorFunction([knownSelectors]);
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

describe('standaloneHistoryCheck', () => {
  const account = `0x${'ab'.repeat(32)}`;
  const entry = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
    id: '0123456789abcdef',
    time: '2026-11-29T23:00:00.000Z',
    updatedAt: '2026-11-29T23:00:01.000Z',
    kind: 'trade',
    network: 'mainnet',
    sandbox: true,
    chain: 'sandbox:abc-123',
    account,
    hash: `0x${'1'.repeat(64)}`,
    status: 'succeeded',
    summary: 'swap 0.01 ETH → at least 29.6 USDC',
    amounts: [
      {
        direction: 'out',
        symbol: 'ETH',
        address: account,
        amount: '0.01',
        baseUnits: '10000000000000000',
        basis: 'sent',
      },
      {
        direction: 'in',
        symbol: 'USDC',
        address: account,
        amount: '29.6',
        baseUnits: '29600000',
        basis: 'minimum',
        to: account,
      },
    ],
    fee: { symbol: 'STRK', amount: '0.1', baseUnits: '100000000000000000' },
    fingerprint: 'f'.repeat(64),
    outside: { nonce: '0x1', messageHash: '0xABC', executeBefore: 1_900_000_000 },
    ...overrides,
  });
  const documents: Array<[string, unknown]> = [
    ['an empty history', { version: 1, entries: [] }],
    ['a full entry', { version: 1, entries: [entry()] }],
    ['a bare entry', { version: 1, entries: [entry({ id: undefined, chain: undefined })] }],
    ['many entries', { version: 1, entries: Array.from({ length: 50 }, () => entry()) }],
    ['version 2', { version: 2, entries: [] }],
    ['no entries', { version: 1 }],
    ['an extra top-level key', { version: 1, entries: [], more: 1 }],
    ['an extra entry key', { version: 1, entries: [entry({ extra: true })] }],
    ['an unknown kind', { version: 1, entries: [entry({ kind: 'steal' })] }],
    ['a short account', { version: 1, entries: [entry({ account: '0x12' })] }],
    ['an upper-case account', { version: 1, entries: [entry({ account: account.toUpperCase() })] }],
    ['a long summary', { version: 1, entries: [entry({ summary: 'x'.repeat(501) })] }],
    ['a bad chain', { version: 1, entries: [entry({ chain: 'sandbox:ABC' })] }],
    ['a bad id', { version: 1, entries: [entry({ id: 'xyz' })] }],
    ['a bad status', { version: 1, entries: [entry({ status: 'done' })] }],
    [
      'a negative deadline',
      {
        version: 1,
        entries: [entry({ outside: { nonce: '0x1', messageHash: '0x2', executeBefore: -1 } })],
      },
    ],
    [
      'a non-numeric amount',
      { version: 1, entries: [entry({ fee: { symbol: 'STRK', amount: '1', baseUnits: '1e18' } })] },
    ],
    ['an array', []],
    ['null', null],
    ['too many entries', { version: 1, entries: Array.from({ length: 1001 }, () => entry()) }],
  ];

  it('answers every document as TypeBox checks the schema', async () => {
    const result = await build({
      entryPoints: [`${ROOT}cli/core/history-check.ts`],
      bundle: true,
      format: 'esm',
      platform: 'node',
      write: false,
      logLevel: 'silent',
      plugins: [standaloneHistoryCheck],
    });
    const text = result.outputFiles[0]?.text ?? '';
    // generated at build time: no compiler in the module, the patterns as literals
    expect(text).toContain('SetExternal({ variables: [/');
    expect(text).not.toMatch(/typebox\/build\/compile/);
    const { historyFileCheck } = (await import(
      `data:text/javascript,${encodeURIComponent(text)}`
    )) as { historyFileCheck(): Promise<{ Check(value: unknown): boolean }> };
    const generated = await historyFileCheck();
    let good = 0;
    for (const [what, document] of documents) {
      const expected = Check(HistoryFile, document);
      if (expected) good += 1;
      expect(generated.Check(document), what).toBe(expected);
    }
    // both kinds were asked
    expect(good).toBe(4);
  }, 60_000);
});

type StringWidth = (text: string, options?: { ambiguousIsNarrow?: boolean }) => number;

describe('stringWidthNarrowFastPath', () => {
  // Ink's copy; the bin bundles four more of the same file (widest-line's, cli-truncate's, …)
  const PATH = './node_modules/ink/node_modules/string-width/index.js';
  const widths = async (plugins: Plugin[]): Promise<{ stringWidth: StringWidth; text: string }> =>
    bundled<{ stringWidth: StringWidth }>(PATH, plugins, 'default as stringWidth');

  it('measures every character of the blocks it looks at, and any mix, as the original', async () => {
    const original = await widths([]);
    const patched = await widths([stringWidthNarrowFastPath]);
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
    const patched = await widths([stringWidthNarrowFastPath]);
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
