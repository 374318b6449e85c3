/**
 * readLending (cli/core/lending.ts) over a scripted node (a Viewer): a reverted `position` view is
 * "not held" only for a pair with an unlisted asset; a listed pair whose view reverts fails the
 * read, never a guessed zero. The vToken hints are rewritten from what the read learnt even when
 * it fails: a hint that failed or was contradicted is dropped, one the read confirmed is kept.
 * readPair names the asset the pool does not list (whichever view reverts first), and a read that
 * fails in transport keeps its own error: it is never taken for an unlisted asset.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RpcError } from 'starknet';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { feltHex } from '../../shared/felt.js';
import { listTokens, resolveToken } from '../../shared/tokens.js';
import type { ChainReader } from './chain/account.js';
import type { ViewCall, Viewer } from './chain/views.js';
import { lendingPool } from './lending-pool.js';
import { readLending } from './lending.js';
import { readPair } from './lending-plan-reads.js';
import { loadVTokenHints, VTOKEN_HINTS_FILE } from './vtoken-hints.js';

const ACCOUNT = feltHex(0xacc0n);
const reader = { address: ACCOUNT, network: 'mainnet' } as unknown as ChainReader;
const pool = lendingPool('mainnet');
const ETH = resolveToken('mainnet', 'ETH');
const USDC = resolveToken('mainnet', 'USDC');
const STRK = resolveToken('mainnet', 'STRK');
const E18 = 10n ** 18n;
/** the borrow rate per second every listed asset's interest_rate answers: ~8 % a year */
const RATE = 2_536_783_358n;
/** each listed asset's vToken: its address + 1 */
const vTokenOf = (asset: string): bigint => BigInt(asset) + 1n;

const reverted = (): RpcError =>
  new RpcError({ code: 40, message: 'Contract error' } as never, 'starknet_call', {});
const unreachable = (): AppError =>
  new AppError(ErrorCode.CHAIN_UNREACHABLE, 'the Starknet RPC did not answer');

interface Node {
  /** assets the pool does not list (the factory names no vToken) */
  unlisted?: string[];
  /** a pair's `position` view, by "collateral/debt" symbols: reverted, or failed in transport */
  position?: Record<string, 'revert' | 'down'>;
  /** a contract's `balance_of` fails in transport */
  downBalances?: bigint[];
  /** assets whose `asset_config` reverts though the factory lists them */
  configReverts?: string[];
}

/** An AssetConfig of 22 felts: reserve 60, total nominal debt 40 (1e18 scale), fee 10 %. */
const assetConfig = (scale: bigint): bigint[] => [
  ...[100n * E18, 0n],
  ...[40n * E18, 0n],
  ...[60n * scale, 0n],
  ...[(95n * E18) / 100n, 0n],
  ...[10n * E18, 0n],
  ...[scale, 0n],
  0n,
  1_700_000_000n,
  ...[E18, 0n],
  ...[RATE, 0n],
  ...[E18 / 10n, 0n],
  ...[0n, 0n],
];

/** The pool's views as a node answers them: no position held, nothing supplied. */
const nodeOf =
  (node: Node): Viewer =>
  async (call: ViewCall) => {
    const args = (call.calldata ?? []).map((x) => BigInt(x));
    const symbolOf = (address: bigint) =>
      listTokens('mainnet').find((t) => BigInt(t.address) === address)?.symbol;
    const listed = (address: bigint) => !node.unlisted?.includes(symbolOf(address) ?? '');
    switch (call.entrypoint) {
      case 'asset_config': {
        const asset = args[0] as bigint;
        if (!listed(asset) || node.configReverts?.includes(symbolOf(asset) ?? '')) throw reverted();
        const token = listTokens('mainnet').find((t) => BigInt(t.address) === asset);
        return assetConfig(10n ** BigInt(token?.decimals ?? 18));
      }
      case 'utilization':
        if (!listed(args[0] as bigint)) throw reverted();
        return [(4n * E18) / 10n, 0n];
      case 'interest_rate':
        // (asset, utilization, last_updated, last_full_utilization_rate) as asset_config gave them
        expect(args.slice(1)).toEqual([(4n * E18) / 10n, 0n, 1_700_000_000n, RATE, 0n]);
        return [RATE, 0n];
      case 'v_token_for_asset': {
        const asset = args[1] as bigint;
        const symbol = symbolOf(asset);
        return [symbol !== undefined && node.unlisted?.includes(symbol) ? 0n : asset + 1n];
      }
      case 'balance_of':
        if (node.downBalances?.includes(BigInt(call.contractAddress))) throw unreachable();
        return [0n, 0n];
      case 'position': {
        const pair = `${symbolOf(args[0] as bigint)}/${symbolOf(args[1] as bigint)}`;
        const outcome = node.position?.[pair];
        if (outcome === 'revert') throw reverted();
        if (outcome === 'down') throw unreachable();
        return Array.from({ length: 8 }, () => 0n);
      }
      default:
        throw new Error(`unexpected view ${call.entrypoint}`);
    }
  };

const dirs: string[] = [];
const hintsIn = (entries: Record<string, string>): string => {
  const d = mkdtempSync(join(tmpdir(), 'finance-tui-lending-'));
  dirs.push(d);
  const key = (asset: string) =>
    `mainnet|${feltHex(BigInt(pool.address))}|${feltHex(BigInt(asset))}`;
  writeFileSync(
    join(d, VTOKEN_HINTS_FILE),
    JSON.stringify(Object.fromEntries(Object.entries(entries).map(([a, v]) => [key(a), v]))),
  );
  return d;
};
const hintsOf = async (d: string) => {
  const hints = await loadVTokenHints(d, 'mainnet');
  return (asset: string) => hints.get(pool.address, asset);
};
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

describe('readLending', () => {
  it('a reverted position of a pair with an unlisted asset is not held; the read goes on', async () => {
    const doc = await readLending(reader, {
      views: nodeOf({
        unlisted: ['STRK'],
        position: { 'STRK/USDC': 'revert', 'ETH/STRK': 'revert' },
      }),
    });
    expect(doc.borrows).toEqual([]);
    expect(doc.supplied).toEqual([]);
  });

  it("lists each asset the pool lists with its rates, from the pool's own rate views", async () => {
    const doc = await readLending(reader, { views: nodeOf({ unlisted: ['STRK'] }) });
    const listed = listTokens('mainnet').filter((t) => t.symbol !== 'STRK');
    expect(doc.markets.map((m) => m.token)).toEqual(listed.map((t) => t.symbol));
    // r = 2536783358 / s: APR r × 365 days = 7.9999…%; APY (1 + r)^year − 1 = 8.3287…%; the
    // supply rate r × utilisation 40 % × (1 − fee 10 %) = 36 % of it: 2.8799…% APR, 2.9219…% APY
    expect(doc.markets[0]).toEqual({
      pool: 'Prime',
      token: listed[0]?.symbol,
      utilization: '40.00',
      borrowApr: '7.99',
      borrowApy: '8.32',
      supplyApr: '2.87',
      supplyApy: '2.92',
    });
  });

  it("rates: false (the portfolio's read) lists no markets and asks none of their views", async () => {
    const asked: string[] = [];
    const node = nodeOf({});
    const doc = await readLending(reader, {
      rates: false,
      views: (call) => {
        asked.push(call.entrypoint);
        return node(call);
      },
    });
    expect(doc.markets).toEqual([]);
    expect(
      asked.filter((e) => ['asset_config', 'utilization', 'interest_rate'].includes(e)),
    ).toEqual([]);
  });

  it("a listed asset whose asset_config reverts fails the read (CHAIN_ERROR), never 'not listed'", async () => {
    const error = await failure(
      readLending(reader, { views: nodeOf({ configReverts: ['USDC'] }) }),
    );
    expect(error.code).toBe(ErrorCode.CHAIN_ERROR);
    expect(error.message).toContain('USDC');
    expect(error.details).not.toMatchObject({ reason: 'not-listed' });
  });

  it('a reverted position of a pair whose two assets are listed fails the read (CHAIN_ERROR), never a zero', async () => {
    const error = await failure(
      readLending(reader, { views: nodeOf({ position: { 'ETH/USDC': 'revert' } }) }),
    );
    expect(error.code).toBe(ErrorCode.CHAIN_ERROR);
    expect(error.details).toEqual({ collateral: 'ETH', debt: 'USDC' });
  });

  it('a read that fails drops the hints that failed or were contradicted, keeps the ones it confirmed', async () => {
    const d = hintsIn({
      // contradicted by the factory (a stale or planted address)
      [ETH.address]: feltHex(0xdeadn),
      // the factory's own vToken, but its balance view fails
      [USDC.address]: feltHex(vTokenOf(USDC.address)),
      // the factory's vToken, its balance read: confirmed
      [STRK.address]: feltHex(vTokenOf(STRK.address)),
    });
    const error = await failure(
      readLending(reader, {
        views: nodeOf({
          position: { 'ETH/USDC': 'down' },
          downBalances: [vTokenOf(USDC.address)],
        }),
        vTokens: await loadVTokenHints(d, 'mainnet'),
      }),
    );
    expect(error.code).toBe(ErrorCode.CHAIN_UNREACHABLE);
    const hint = await hintsOf(d);
    // the factory's answer replaces the contradicted hint
    expect(hint(ETH.address)).toBe(feltHex(vTokenOf(ETH.address)));
    expect(hint(USDC.address)).toBeUndefined();
    expect(hint(STRK.address)).toBe(feltHex(vTokenOf(STRK.address)));
    expect(readFileSync(join(d, VTOKEN_HINTS_FILE), 'utf8')).not.toContain(feltHex(0xdeadn));
  });

  it('a read that never gets the factory answers (the node down) keeps no hint it did not confirm', async () => {
    const d = hintsIn({ [ETH.address]: feltHex(vTokenOf(ETH.address)) });
    const down: Viewer = () => Promise.reject(unreachable());
    const error = await failure(
      readLending(reader, { views: down, vTokens: await loadVTokenHints(d, 'mainnet') }),
    );
    expect(error.code).toBe(ErrorCode.CHAIN_UNREACHABLE);
    expect((await hintsOf(d))(ETH.address)).toBeUndefined();
  });
});

describe('readPair', () => {
  const DAI = resolveToken('mainnet', 'DAI');
  /** A node whose pool lists every asset but DAI; `position` answers first, as `failPosition` says. */
  const pairReader = (failPosition: 'revert' | 'down'): ChainReader =>
    ({
      address: ACCOUNT,
      network: 'mainnet',
      provider: {
        callContract: async (call: { entrypoint: string; calldata?: string[] }) => {
          const args = (call.calldata ?? []).map((x) => BigInt(x));
          switch (call.entrypoint) {
            case 'position':
              throw failPosition === 'revert' ? reverted() : unreachable();
            case 'asset_config':
              // a later answer than the position's: the refusal must still name this asset
              await new Promise((resolve) => setImmediate(resolve));
              if (args[0] === BigInt(DAI.address)) throw reverted();
              return Array.from({ length: 22 }, () => '0x0');
            case 'v_token_for_asset':
              return [args[1] === BigInt(DAI.address) ? '0x0' : feltHex((args[1] as bigint) + 1n)];
            default:
              return Array.from({ length: 4 }, () => '0x0');
          }
        },
      },
    }) as unknown as ChainReader;

  it('names the unlisted debt asset, not the collateral, when the position view reverts first', async () => {
    const error = await failure(readPair(pairReader('revert'), pool, ETH, DAI));
    expect(error.code).toBe(ErrorCode.LENDING_LIMIT);
    expect(error.details).toMatchObject({ reason: 'not-listed', token: 'DAI' });
  });

  it("an asset_config that reverts where the factory lists the asset is CHAIN_ERROR, never 'not listed'", async () => {
    const listedButReverting = {
      address: ACCOUNT,
      network: 'mainnet',
      provider: {
        callContract: async (call: { entrypoint: string; calldata?: string[] }) => {
          const args = (call.calldata ?? []).map((x) => BigInt(x));
          if (call.entrypoint === 'asset_config') throw reverted();
          if (call.entrypoint === 'v_token_for_asset') return [feltHex((args[1] as bigint) + 1n)];
          return Array.from({ length: 4 }, () => '0x0');
        },
      },
    } as unknown as ChainReader;
    const error = await failure(readPair(listedButReverting, pool, ETH, USDC));
    expect(error.code).toBe(ErrorCode.CHAIN_ERROR);
    expect(error.details).toEqual({ token: 'USDC' });
  });

  it('a position read that fails in transport is that failure, never "not listed"', async () => {
    const error = await failure(readPair(pairReader('down'), pool, ETH, USDC));
    expect(error.code).toBe(ErrorCode.CHAIN_UNREACHABLE);
  });
});
