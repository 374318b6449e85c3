/**
 * The bundle's patches of dependency code (scripts/bundle-plugins.mjs) change when work is done,
 * never its result: each copy of @scure/starknet the bin bundles (starknet.js's and ours), bundled
 * with and without lazyPedersenTables, gives the same Pedersen hashes (random felts, small ones, a
 * hash chain) and the same Poseidon hashes; starknet.js bundled with and without knownSelectors
 * gives the same selector for every known name and for names it has to hash; the history's
 * validator generated at build time (standaloneHistoryCheck) answers as TypeBox's check of the
 * schema, for good documents and for each kind of bad one; so do the checks generated for the
 * modules that make them at their top level (standaloneChecks: the aggregator's answers, the
 * settings, session and sandbox files, the server's health, root and signature answers), on their
 * usual documents and every one-step mutation of them; string-width, bundled with and without
 * stringWidthNarrowFastPath, measures every string alike.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TSchema } from 'typebox';
import { Check } from 'typebox/schema';
import { HistoryFile } from '../cli/core/history-schema.js';
// @ts-expect-error: a build script in plain JS (no declarations)
import * as plugins from '../scripts/bundle-plugins.mjs';
import { KNOWN_SELECTORS } from '../shared/selectors.js';

const {
  bundleWithoutPackages,
  importFromCheckout,
  knownSelectors,
  lazyPedersenTables,
  STANDALONE_CHECK_MODULES,
  standaloneChecks,
  standaloneHistoryCheck,
  stringWidthNarrowFastPath,
} = plugins as {
  bundleWithoutPackages: (contents: string, plugins: Plugin[]) => Promise<string>;
  importFromCheckout: (text: string) => Promise<Record<string, unknown>>;
  knownSelectors: Plugin;
  lazyPedersenTables: Plugin;
  STANDALONE_CHECK_MODULES: string[];
  standaloneChecks: Plugin;
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

describe('standaloneChecks', () => {
  const ETH = '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7';
  const USDC = '0x033068f6539f8e6e6b131e6b2b814e6c34a5224bc66947c47dab9dfee93b35fb';
  const account = `0x04${'d'.repeat(62)}`;
  const route = {
    success: true,
    inputToken: { name: 'Ether', symbol: 'ETH', address: ETH, decimals: 18, price: 3000 },
    outputToken: { name: 'USD Coin', symbol: 'USDC', address: USDC, decimals: '6', price: '1' },
    inputAmount: '10000000000000000',
    outputAmount: '29973387',
    estimatedGasUsed: '190000',
    estimatedGasUsedInUsd: 0.1501,
    route: [
      {
        percent: '100%',
        swaps: [
          [
            {
              protocol: 3,
              poolName: 'ETH/USDC 5bps',
              poolAddress: `0x${'5a4d'.padEnd(64, '0')}`,
              fromTokenAddress: ETH,
              toTokenAddress: USDC,
              percent: '100%',
            },
          ],
        ],
      },
    ],
    time: 0.0014,
  };
  const noRoute = { success: false, errorMessage: 'no route' };
  const calldata = ['0x1', '123', `0x${'f'.repeat(60)}`];
  const session = {
    session: {
      email: 'u1@example.com',
      token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln',
      expiresAt: '2026-12-07T01:09:52.000Z',
      userId: 'did:privy:mjzpcuqqu9gm7sgn2qmi7swme',
      walletId: '45tz9jixz0wxn6jey76mxay6',
      address: account,
      publicKey: `0x00${'1'.repeat(62)}`,
      serverUrl: 'http://127.0.0.1:32905',
      network: 'mainnet',
      sandbox: true,
    },
  };
  /** the usual documents of each check: every check must take at least one of them */
  const samples: unknown[] = [
    route,
    noRoute,
    { route, calldata },
    [route, route],
    { success: true, routes: [route, noRoute] },
    [calldata, calldata],
    { staus: 200, message: 'ok' },
    { staus: '200' },
    { status: 'ok' },
    { name: 'finance-tui-auth', version: '1.2.3', status: 'ok', sandbox: true },
    { signature: `0x${'0a'.repeat(64)}` },
    {
      serverUrl: 'http://127.0.0.1:3001',
      aggregatorUrl: 'https://api.fibrous.finance/starknet',
      network: 'mainnet',
      sandbox: false,
      slippageBps: 100,
      gasToken: 'STRK',
    },
    session,
    {},
    {
      event: 'ready',
      sandbox: true,
      serverUrl: 'http://127.0.0.1:32905',
      identityUrl: 'http://127.0.0.1:42115',
      aggregatorUrl: 'http://127.0.0.1:43283',
      chainUrl: 'http://127.0.0.1:43809',
      rpcUrl: 'http://127.0.0.1:43809/rpc',
      paymasterUrl: 'http://127.0.0.1:43809/paymaster',
      chainId: '0x534e5f53414e44424f58',
      network: 'mainnet',
      chainInstance: 'ad89f48d-7aa7-4f58-a580-b817719f3ae4',
      pid: 25961,
      startedAt: '2026-11-30T01:09:49.662Z',
      logFile: '/tmp/sandbox/server.log',
    },
  ];
  const ODD: unknown[] = [null, 0, -1, 1.5, 1e21, 'x', '', 'x'.repeat(3000), true, [], {}, '0xZZ'];
  /** `value` and each value one step away from it: a key removed, replaced or added, at any depth */
  function* mutations(value: unknown, depth = 0): Generator<unknown> {
    yield value;
    if (depth > 6 || typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      yield [];
      yield [...value, ...value];
      yield [...value, null];
      for (let i = 0; i < value.length; i++)
        for (const changed of mutations(value[i], depth + 1))
          if (changed !== value[i]) yield value.map((v, j) => (j === i ? changed : v));
      return;
    }
    const record = value as Record<string, unknown>;
    yield { ...record, unexpected: 1 };
    for (const key of Object.keys(record)) {
      const { [key]: _, ...without } = record;
      yield without;
      for (const odd of ODD) yield { ...record, [key]: odd };
      for (const changed of mutations(record[key], depth + 1))
        if (changed !== record[key]) yield { ...record, [key]: changed };
    }
  }

  it.each(STANDALONE_CHECK_MODULES)(
    '%s: each generated check answers as TypeBox checks its schema',
    async (file) => {
      const text = (await bundleWithoutPackages(
        `import ${JSON.stringify(`./${file}`)}; export { issued } from ${JSON.stringify(`standalone-checks:${file}`)};`,
        [standaloneChecks],
      )) as string;
      // generated at build time: no compiler in the module, bundled or imported
      expect(text).not.toMatch(/typebox\/(build\/)?compile/);
      const { issued } = (await importFromCheckout(text)) as {
        issued: Array<{ Check(value: unknown): boolean; schema: TSchema; compiled: boolean }>;
      };
      expect(issued.length).toBeGreaterThan(0);
      for (const [i, check] of issued.entries()) {
        expect(check.compiled).toBe(true);
        let good = 0;
        let asked = 0;
        for (const sample of samples)
          for (const document of mutations(sample)) {
            const expected = Check(check.schema, document);
            if (expected) good += 1;
            asked += 1;
            if (check.Check(document) !== expected)
              expect.fail(`${file} check ${i}: ${JSON.stringify(document).slice(0, 400)}`);
          }
        // both kinds were asked
        expect(good, `${file} check ${i}`).toBeGreaterThan(0);
        expect(asked - good, `${file} check ${i}`).toBeGreaterThan(0);
      }
    },
    120_000,
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
