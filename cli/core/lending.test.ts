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
import { lendingPool, readLending, readPair } from './lending.js';
import { loadVTokenHints, VTOKEN_HINTS_FILE } from './vtoken-hints.js';

const ACCOUNT = feltHex(0xacc0n);
const reader = { address: ACCOUNT, network: 'mainnet' } as unknown as ChainReader;
const pool = lendingPool('mainnet');
const ETH = resolveToken('mainnet', 'ETH');
const USDC = resolveToken('mainnet', 'USDC');
const STRK = resolveToken('mainnet', 'STRK');
const ORACLE = 0x0dac1en;
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
}

/** The pool's views as a node answers them: no position held, nothing supplied. */
const nodeOf =
  (node: Node): Viewer =>
  async (call: ViewCall) => {
    const args = (call.calldata ?? []).map((x) => BigInt(x));
    const symbolOf = (address: bigint) =>
      listTokens('mainnet').find((t) => BigInt(t.address) === address)?.symbol;
    switch (call.entrypoint) {
      case 'oracle':
        return [ORACLE];
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
            case 'oracle':
              return [feltHex(ORACLE)];
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

  it('a position read that fails in transport is that failure, never "not listed"', async () => {
    const error = await failure(readPair(pairReader('down'), pool, ETH, USDC));
    expect(error.code).toBe(ErrorCode.CHAIN_UNREACHABLE);
  });
});
