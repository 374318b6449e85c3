/**
 * A plan's own lending reads (cli/core/lending-plan-reads.ts readPair, readSupply, readVToken) over a scripted
 * node whose views are answered a round at a time, as chain/views.ts batches them: the rounds are
 * counted. readPair is one round (the prices through the pool's `context`); readSupply is one round
 * with a hint the factory confirms, and a wrong or planted hint costs a round, never an amount
 * (docs/decisions.md "A plan's lending reads: one round").
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RpcError } from 'starknet';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { feltHex } from '../../shared/felt.js';
import { listTokens, resolveToken, type Token } from '../../shared/tokens.js';
import {
  byteArrayFelts,
  SANDBOX_VTOKEN_CLASS_HASH,
  sandboxVTokenAddress,
  sandboxVTokenWords,
} from '../../shared/vesu.js';
import type { ChainReader } from './chain/account.js';
import type { ViewCall, Viewer } from './chain/views.js';
import { decodeContextPrices, decodePairConfig } from './lending-decode.js';
import { lendingPool } from './lending-pool.js';
import { readPair, readSupply, readVToken } from './lending-plan-reads.js';
import { loadVTokenHints, VTOKEN_HINTS_FILE } from './vtoken-hints.js';

const ACCOUNT = feltHex(0xacc0n);
/** the node's class hash of every vToken (the sandbox's label: the vTokens are where it puts them) */
const reader = {
  address: ACCOUNT,
  network: 'mainnet',
  provider: { getClassHashAt: () => Promise.resolve(feltHex(SANDBOX_VTOKEN_CLASS_HASH)) },
} as unknown as ChainReader;
const pool = lendingPool('mainnet');
const ETH = resolveToken('mainnet', 'ETH');
const USDC = resolveToken('mainnet', 'USDC');
const DAI = resolveToken('mainnet', 'DAI');
const SCALE = 10n ** 18n;
const U128 = 1n << 128n;
const u256 = (v: bigint): bigint[] => [v % U128, v / U128];
/** each listed asset's vToken: where the factory deploys it (shared/vesu.ts vTokenAddress) */
const vTokenOf = (token: Token): bigint => BigInt(sandboxVTokenAddress('mainnet', token));
const tokenAt = (asset: bigint): Token | undefined =>
  listTokens('mainnet').find((t) => BigInt(t.address) === asset);
const PLANTED = 0xbad0n;

const reverted = (): RpcError =>
  new RpcError({ code: 40, message: 'Contract error' } as never, 'starknet_call', {});

/** An AssetConfig of 22 felts, as Vesu v2's (only what the checks read is set). */
const assetConfig = (reserve: bigint): bigint[] => [
  ...u256(0n),
  ...u256(0n),
  ...u256(reserve),
  ...u256((95n * SCALE) / 100n),
  ...u256(10n * SCALE),
  ...u256(10n ** 18n),
  0n,
  0n,
  ...u256(SCALE),
  ...u256(0n),
  ...u256(0n),
  ...u256(0n),
];

interface Supply {
  shares: bigint;
  /** what the shares are worth (preview_redeem) */
  worth: bigint;
  /** max_redeem: the shares the reserve lets go (default: all) */
  maxRedeem?: bigint;
  /** max_withdraw: the worth, capped (default: the worth) */
  maxWithdraw?: bigint;
  /** convert_to_assets(1e18) */
  perShare: bigint;
  /** balance_of answered in a shape that is not a u256 */
  garbled?: bigint[];
}

interface Node {
  unlisted?: Token[];
  prices?: Record<string, { usd: bigint; valid?: boolean }>;
  /** the account's supply in each asset's real vToken */
  supply?: Map<bigint, Supply>;
  /** the context view's answer, as the node sends it */
  context?: (f: bigint[]) => bigint[];
}

/** A node answering views a round at a time, as chain/views.ts sends them (one batch per turn). */
function scripted(node: Node): { views: Viewer; rounds: ViewCall[][] } {
  const rounds: ViewCall[][] = [];
  let queue: Array<{
    call: ViewCall;
    resolve: (f: bigint[]) => void;
    reject: (e: unknown) => void;
  }> = [];
  const listed = (asset: bigint) => !(node.unlisted ?? []).some((t) => BigInt(t.address) === asset);
  const asset = (a: bigint) => {
    if (!listed(a)) throw reverted();
    return a;
  };
  const priceOf = (a: bigint): bigint[] => {
    const p = Object.entries(node.prices ?? {}).find(
      ([symbol]) => BigInt(resolveToken('mainnet', symbol).address) === a,
    )?.[1];
    return [...u256(p?.usd ?? SCALE), p?.valid === false ? 0n : 1n];
  };
  const answer = (call: ViewCall): bigint[] => {
    const args = (call.calldata ?? []).map((x) => BigInt(x));
    const [a, b, c] = args as [bigint, bigint, bigint];
    const at = BigInt(call.contractAddress);
    if (at === PLANTED)
      // a planted contract: it answers any owner view with a fortune
      return u256(10n ** 30n);
    if (at === BigInt(pool.address))
      switch (call.entrypoint) {
        case 'position':
          asset(a);
          asset(b);
          return [...u256(2n * SCALE), ...u256(0n), ...u256(2n * SCALE), ...u256(0n)];
        case 'asset_config':
          return assetConfig(asset(a) === BigInt(USDC.address) ? 10n ** 12n : 10n ** 21n);
        case 'pair_config':
          // PairConfig { max_ltv: u64, liquidation_factor: u64, debt_cap: u128 }
          return [(8n * SCALE) / 10n, (9n * SCALE) / 10n, 0n];
        case 'pairs':
          return [...u256(0n), ...u256(0n)];
        case 'context': {
          asset(a);
          asset(b);
          const f = [
            a,
            b,
            ...assetConfig(1n),
            ...assetConfig(1n),
            ...priceOf(a),
            ...priceOf(b),
            (8n * SCALE) / 10n,
            c,
            ...u256(2n * SCALE),
            ...u256(0n),
          ];
          return node.context ? node.context(f) : f;
        }
        case 'oracle':
          throw new Error('the plan asks the prices through the pool, not its oracle');
        case 'ltv_config':
        case 'liquidation_config':
        case 'debt_caps':
          throw new Error(`${call.entrypoint} is Vesu v1's: v2's pool has no such view`);
      }
    if (call.entrypoint === 'v_token_for_asset') {
      const token = tokenAt(b);
      return [listed(b) && token !== undefined ? vTokenOf(token) : 0n];
    }
    const named = listTokens('mainnet').find((t) => vTokenOf(t) === at);
    if (named !== undefined && (call.entrypoint === 'name' || call.entrypoint === 'symbol'))
      return byteArrayFelts(sandboxVTokenWords(named.symbol)[call.entrypoint]);
    const s = node.supply?.get(at) ?? { shares: 0n, worth: 0n, perShare: 10n ** 6n };
    switch (call.entrypoint) {
      case 'balance_of':
        return s.garbled ?? u256(s.shares);
      case 'max_redeem':
        return u256(s.maxRedeem ?? s.shares);
      case 'max_withdraw':
        return u256(s.maxWithdraw ?? s.worth);
      case 'convert_to_assets':
        expect(args).toEqual(u256(SCALE));
        return u256(s.perShare);
      case 'preview_redeem':
        expect(args).toEqual(u256(s.shares));
        return u256(s.worth);
    }
    throw new Error(`unexpected view ${call.entrypoint} of ${call.contractAddress}`);
  };
  const views: Viewer = (call) =>
    new Promise((resolve, reject) => {
      if (queue.length === 0)
        setImmediate(() => {
          const round = queue;
          queue = [];
          rounds.push(round.map((p) => p.call));
          for (const p of round) {
            try {
              p.resolve(answer(p.call));
            } catch (error) {
              p.reject(error);
            }
          }
        });
      queue.push({ call, resolve, reject });
    });
  return { views, rounds };
}

const dirs: string[] = [];
const home = (entries: Record<string, string> = {}): string => {
  const d = mkdtempSync(join(tmpdir(), 'finance-tui-plan-reads-'));
  dirs.push(d);
  const key = (asset: string) =>
    `mainnet|${feltHex(BigInt(pool.address))}|${feltHex(BigInt(asset))}`;
  writeFileSync(
    join(d, VTOKEN_HINTS_FILE),
    JSON.stringify(Object.fromEntries(Object.entries(entries).map(([a, v]) => [key(a), v]))),
  );
  return d;
};
const hintOf = async (d: string, token: Token) =>
  (await loadVTokenHints(d, 'mainnet')).get(pool.address, token.address);
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const failure = async (p: Promise<unknown>): Promise<AppError> => {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
};

describe('readPair', () => {
  it('reads a pair in one round: the prices through the pool’s context, beside everything else', async () => {
    const node = scripted({ prices: { ETH: { usd: 3000n * SCALE }, USDC: { usd: SCALE } } });
    const pair = await readPair(reader, pool, ETH, USDC, { views: node.views });
    expect(node.rounds).toHaveLength(1);
    expect(node.rounds[0]?.map((c) => c.entrypoint).sort()).toEqual(
      ['asset_config', 'asset_config', 'context', 'pair_config', 'pairs', 'position'].sort(),
    );
    expect(pair.prices).toEqual({
      collateral: { value: 3000n * SCALE, valid: true },
      debt: { value: SCALE, valid: true },
    });
    expect(pair.collateralAmount).toBe(2n * SCALE);
    expect(pair.maxLtv).toBe((8n * SCALE) / 10n);
  });

  it('an invalid price is read as invalid, not as a number', async () => {
    const node = scripted({ prices: { USDC: { usd: 0n, valid: false } } });
    const pair = await readPair(reader, pool, ETH, USDC, { views: node.views });
    expect(pair.prices.debt).toEqual({ value: 0n, valid: false });
  });

  it('an unlisted asset is named (LENDING_LIMIT not-listed), though several views revert at once', async () => {
    for (const [collateral, debt, unlisted] of [
      [ETH, DAI, DAI],
      [DAI, USDC, DAI],
    ] as const) {
      const node = scripted({ unlisted: [unlisted] });
      const error = await failure(readPair(reader, pool, collateral, debt, { views: node.views }));
      expect(error.code).toBe(ErrorCode.LENDING_LIMIT);
      expect(error.details).toEqual({ reason: 'not-listed', token: 'DAI' });
    }
  });

  it('a context that names another pair or user, or a price that is not a u256 and a bool, is garbled (CHAIN_ERROR)', async () => {
    const tampered: Array<(f: bigint[]) => bigint[]> = [
      (f) => f.map((x, i) => (i === f.length - 5 ? 0xbeefn : x)), // another user
      (f) => [f[1] as bigint, f[0] as bigint, ...f.slice(2)], // the pair reversed
      (f) => f.map((x, i) => (i === 2 + 44 + 2 ? 2n : x)), // is_valid = 2
      (f) => f.map((x, i) => (i === 2 + 44 + 1 ? U128 : x)), // a high limb past u128
      (f) => f.slice(0, -1), // one felt short
      (f) => f.slice(0, 20), // far too short
    ];
    for (const context of tampered) {
      const node = scripted({ context });
      const error = await failure(readPair(reader, pool, ETH, USDC, { views: node.views }));
      expect(error.code).toBe(ErrorCode.CHAIN_ERROR);
    }
  });

  it("a pair_config that is not v2's PairConfig (3 felts: u64, u64, u128) is garbled (CHAIN_ERROR)", () => {
    expect(decodePairConfig([1n, 2n, 3n])).toEqual({
      maxLtv: 1n,
      liquidationFactor: 2n,
      debtCap: 3n,
    });
    for (const f of [
      [1n],
      [1n, 2n, 3n, 4n],
      [1n << 64n, 0n, 0n],
      [0n, 1n << 64n, 0n],
      [0n, 0n, U128],
    ])
      expect(() => decodePairConfig(f)).toThrow(AppError);
  });

  it('decodes an AssetConfig of any length from both ends', () => {
    const config = Array.from({ length: 16 }, () => 7n);
    const f = [
      BigInt(ETH.address),
      BigInt(USDC.address),
      ...config,
      ...config,
      ...u256(5n),
      1n,
      ...u256(6n),
      0n,
      1n,
      BigInt(ACCOUNT),
      0n,
      0n,
      0n,
      0n,
    ];
    expect(decodeContextPrices(f, ETH, USDC, ACCOUNT)).toEqual({
      collateral: { value: 5n, valid: true },
      debt: { value: 6n, valid: false },
    });
  });
});

describe('readSupply', () => {
  const usdcSupply: Supply = { shares: 5n * SCALE, worth: 5_123_456n, perShare: 1_024_691n };

  it('first read: the factory, then the shares (2 rounds), and the hint written; then one round, the same amounts', async () => {
    const d = home();
    const supply = new Map([[vTokenOf(USDC), usdcSupply]]);
    const cold = scripted({ supply });
    const first = await readSupply(reader, pool, USDC, {
      views: cold.views,
      vTokens: await loadVTokenHints(d, 'mainnet'),
    });
    expect(cold.rounds).toHaveLength(2);
    expect(await hintOf(d, USDC)).toBe(feltHex(vTokenOf(USDC)));

    const warm = scripted({ supply });
    const second = await readSupply(reader, pool, USDC, {
      views: warm.views,
      vTokens: await loadVTokenHints(d, 'mainnet'),
    });
    expect(warm.rounds).toHaveLength(1);
    expect(warm.rounds[0]?.map((c) => c.entrypoint).sort()).toEqual(
      ['balance_of', 'convert_to_assets', 'max_redeem', 'max_withdraw', 'v_token_for_asset'].sort(),
    );
    for (const s of [first, second])
      expect(s).toMatchObject({
        vToken: feltHex(vTokenOf(USDC)),
        shares: 5n * SCALE,
        assets: 5_123_456n,
        maxRedeem: 5n * SCALE,
      });
  });

  it('a planted hint costs one round, never an amount: the factory’s vToken is counted and the hint replaced', async () => {
    const d = home({ [USDC.address]: feltHex(PLANTED) });
    const node = scripted({ supply: new Map([[vTokenOf(USDC), usdcSupply]]) });
    const s = await readSupply(reader, pool, USDC, {
      views: node.views,
      vTokens: await loadVTokenHints(d, 'mainnet'),
    });
    // round 1: the factory beside the planted vToken; round 2: the factory's vToken
    expect(node.rounds).toHaveLength(2);
    expect(s).toMatchObject({
      vToken: feltHex(vTokenOf(USDC)),
      shares: 5n * SCALE,
      assets: 5_123_456n,
    });
    expect(await hintOf(d, USDC)).toBe(feltHex(vTokenOf(USDC)));
    expect(readFileSync(join(d, VTOKEN_HINTS_FILE), 'utf8')).not.toContain(feltHex(PLANTED));
  });

  it('asks preview_redeem in one more round where max_withdraw is not proved the worth', async () => {
    const hinted = (token: Token) => home({ [token.address]: feltHex(vTokenOf(token)) });
    const cases: Array<{ token: Token; supply: Supply }> = [
      // a share worth a unit or more (an 18-decimal asset): max_withdraw may be a unit short
      {
        token: ETH,
        supply: { shares: SCALE, worth: SCALE + 5n, maxWithdraw: SCALE + 4n, perShare: SCALE + 5n },
      },
      // the reserve binds: max_redeem is not the whole balance
      {
        token: USDC,
        supply: { ...usdcSupply, maxRedeem: SCALE, maxWithdraw: 1_000_000n },
      },
    ];
    for (const { token, supply } of cases) {
      const node = scripted({ supply: new Map([[vTokenOf(token), supply]]) });
      const s = await readSupply(reader, pool, token, {
        views: node.views,
        vTokens: await loadVTokenHints(hinted(token), 'mainnet'),
      });
      expect(node.rounds).toHaveLength(2);
      expect(node.rounds[1]?.map((c) => c.entrypoint)).toEqual(['preview_redeem']);
      expect(s.assets).toBe(supply.worth);
    }
  });

  it('a vToken amount that is not a u256 is garbled (CHAIN_ERROR), never read as shares', async () => {
    for (const garbled of [[1n], [1n, 0n, 0n], [U128, 0n], [0n, U128]]) {
      const node = scripted({ supply: new Map([[vTokenOf(USDC), { ...usdcSupply, garbled }]]) });
      const error = await failure(readSupply(reader, pool, USDC, { views: node.views }));
      expect(error.code).toBe(ErrorCode.CHAIN_ERROR);
    }
  });

  it('nothing supplied: no worth asked; an unlisted asset is refused and its hint dropped', async () => {
    const d = home({
      [USDC.address]: feltHex(vTokenOf(USDC)),
      [DAI.address]: feltHex(vTokenOf(DAI)),
    });
    const node = scripted({ unlisted: [DAI] });
    const s = await readSupply(reader, pool, USDC, {
      views: node.views,
      vTokens: await loadVTokenHints(d, 'mainnet'),
    });
    expect(node.rounds).toHaveLength(1);
    expect(s).toMatchObject({ shares: 0n, assets: 0n });
    const error = await failure(
      readSupply(reader, pool, DAI, {
        views: scripted({ unlisted: [DAI] }).views,
        vTokens: await loadVTokenHints(d, 'mainnet'),
      }),
    );
    expect(error.details).toEqual({ reason: 'not-listed', token: 'DAI' });
    expect(await hintOf(d, DAI)).toBeUndefined();
    expect(await hintOf(d, USDC)).toBe(feltHex(vTokenOf(USDC)));
  });
});

describe('readVToken (a supply plan)', () => {
  it('keeps the factory’s answer as the hint, so a later withdrawal reads in one round', async () => {
    const d = home();
    const node = scripted({});
    const vToken = await readVToken(reader, pool, USDC, {
      views: node.views,
      vTokens: await loadVTokenHints(d, 'mainnet'),
    });
    expect(vToken).toBe(feltHex(vTokenOf(USDC)));
    // the factory, then the vToken's class, name and symbol (its deploy address checked)
    expect(node.rounds).toHaveLength(2);
    expect(node.rounds[1]?.map((c) => c.entrypoint)).toEqual(['name', 'symbol']);
    expect(await hintOf(d, USDC)).toBe(vToken);
  });
});
