/**
 * The rounds of the wallet's positions read (`readLending`, cli/core/lending.ts; docs/decisions.md
 * "Position reads: one round, batched"), one concern each: round 1's views (every token's vToken,
 * config and hinted shares; every pair's position), then what round 2 derives from them (the
 * prices, the listed assets' states, the markets, the supplies, the borrows) and the hints
 * rewritten from what the read learnt. Each step takes round 1's promises, so every view of a
 * round still leaves in the same batch (chain/views.ts).
 */
import { AppError, ErrorCode } from '../../shared/errors.js';
import type { Token } from '../../shared/tokens.js';
import type { VesuPool } from '../../shared/vesu.js';
import type { ChainReader } from './chain/account.js';
import type { Viewer } from './chain/views.js';
import { marketRates } from './lending-rates.js';
import {
  decodePrice,
  garbled,
  hex,
  type OraclePrice,
  type PairState,
  pairStateOf,
  reverted,
  U128,
  u256,
} from './lending-decode.js';
import { settledOf } from './lending-plan-reads.js';
import {
  factoryVToken,
  type LendingReadOptions,
  pinsOf,
  type VTokenHints,
} from './lending-pool.js';

/** What every step of one positions read shares: the account, the pool, its views, the hints. */
export interface PositionsRead {
  reader: ChainReader;
  pool: VesuPool;
  factory: string;
  views: Viewer;
  /** one view of the read's batch */
  v: (contractAddress: string, entrypoint: string, calldata?: string[]) => Promise<bigint[]>;
  options: LendingReadOptions & { vTokens?: VTokenHints | undefined };
}

/** A read awaited later, maybe after another read failed: its rejection is not unhandled. */
const quiet = <T>(p: Promise<T>): Promise<T> => {
  p.catch(() => undefined);
  return p;
};

/**
 * A view the contract reverted (Starknet JSON-RPC error 40 CONTRACT_ERROR: e.g. a pair the pool
 * does not list) → undefined; any other failure (the node, a limit, the transport) is thrown.
 */
const unlessReverted = (error: unknown): undefined => {
  if (reverted(error)) return undefined;
  throw error;
};

/** One registry token's round-1 views, and what each has come to so far. */
interface SupplyRow {
  token: Token;
  hint: string | undefined;
  /** the factory's vToken for the token (0: not listed) */
  found: Promise<bigint>;
  config: Promise<bigint[]> | undefined;
  utilization: Promise<bigint[]> | undefined;
  hintedShares: Promise<bigint> | undefined;
  foundNow: { value?: bigint };
  hintedSharesNow: { value?: bigint } | undefined;
}

/**
 * Round 1 for each token: its vToken from the factory, the account's shares where a hint names
 * the vToken, and — with the rates — the asset's config and utilisation (they follow from them,
 * and a held pair's limits); without the rates the config is asked in round 2, for a held pair
 * only.
 */
export function supplyRowsOf(
  read: PositionsRead,
  tokens: readonly Token[],
  withRates: boolean,
): SupplyRow[] {
  const { reader, pool, v } = read;
  return tokens.map((token) => {
    const hint = read.options.vTokens?.get(pool.address, token.address);
    const found = quiet(
      factoryVToken(read.views, read.factory, pool, token, pinsOf(reader, read.options)),
    );
    const config = withRates ? quiet(v(pool.address, 'asset_config', [token.address])) : undefined;
    const utilization = withRates
      ? quiet(v(pool.address, 'utilization', [token.address]))
      : undefined;
    const hintedShares =
      hint === undefined
        ? undefined
        : quiet(v(hint, 'balance_of', [reader.address]).then((f) => u256(f, 0)));
    return {
      token,
      hint,
      found,
      config,
      utilization,
      hintedShares,
      // what each has come to so far: the hints are rewritten from it, even when the read fails
      foundNow: settledOf(found),
      hintedSharesNow: hintedShares === undefined ? undefined : settledOf(hintedShares),
    };
  });
}

/** A pair's position as the pool answered it; undefined for a pair the pool does not list. */
type PositionRead = { c: Token; d: Token; f: bigint[] } | undefined;

/**
 * Round 1 for each ordered pair: the account's position. Not held only when the pool does not
 * list one of the two (the factory names no vToken for it, answered in this same round); a listed
 * pair whose view reverts may hold a debt: its amounts are unknown, never guessed as zero.
 */
export function positionsOf(
  read: PositionsRead,
  pairs: Array<{ c: Token; d: Token }>,
  rows: SupplyRow[],
): Promise<PositionRead[]> {
  const { pool, reader, v } = read;
  const listedNow = (token: Token): Promise<boolean> =>
    (rows.find((row) => row.token === token)?.found ?? Promise.resolve(0n)).then(
      (found) => found !== 0n,
    );
  return quiet(
    Promise.all(
      pairs.map(({ c, d }) =>
        v(pool.address, 'position', [c.address, d.address, reader.address]).then(
          (f) => ({ c, d, f }),
          async (error: unknown) => {
            unlessReverted(error);
            const [cListed, dListed] = await Promise.all([listedNow(c), listedNow(d)]);
            if (!cListed || !dListed) return undefined;
            throw new AppError(
              ErrorCode.CHAIN_ERROR,
              `the ${pool.name} pool could not report the ${c.symbol}/${d.symbol} position (its view reverted though both are listed): its amounts are unknown`,
              { details: { collateral: c.symbol, debt: d.symbol }, cause: error },
            );
          },
        ),
      ),
    ),
  );
}

/** Round 2's prices: each asked once, whoever needs it, of the pool's own `price` view. */
export function pricesOf(read: PositionsRead): (token: Token) => Promise<OraclePrice> {
  const priceReads = new Map<string, Promise<OraclePrice>>();
  return (token) => {
    let price = priceReads.get(token.address);
    if (price === undefined) {
      price = quiet(read.v(read.pool.address, 'price', [token.address]).then(decodePrice));
      priceReads.set(token.address, price);
    }
    return price;
  };
}

/** A listed asset's config and utilisation (undefined where round 1 did not ask it). */
interface ListedState {
  config: bigint[];
  utilization: bigint | undefined;
}

/**
 * A listed asset's config and utilisation as round 1 read them (the config asked once in round 2
 * where round 1 did not); a revert where the factory names a vToken is the pool failing to answer
 * (CHAIN_ERROR), never "not listed". `configOf` is a held pair's asset's config.
 */
export function listedStatesOf(
  read: PositionsRead,
  rows: SupplyRow[],
): {
  listedState: (row: SupplyRow) => Promise<ListedState | undefined>;
  configOf: (token: Token) => Promise<bigint[]>;
} {
  const { pool, v } = read;
  const lateConfigs = new Map<Token, Promise<bigint[]>>();
  const listedState = async (row: SupplyRow): Promise<ListedState | undefined> => {
    if ((await row.found) === 0n) return undefined;
    const failed = (error: unknown): never => {
      throw new AppError(
        ErrorCode.CHAIN_ERROR,
        `the ${pool.name} pool could not report ${row.token.symbol} (its view reverted though its factory lists it)`,
        { details: { token: row.token.symbol }, cause: error },
      );
    };
    let configRead = row.config ?? lateConfigs.get(row.token);
    if (configRead === undefined) {
      configRead = quiet(v(pool.address, 'asset_config', [row.token.address]));
      lateConfigs.set(row.token, configRead);
    }
    const [config, utilization] = await Promise.all([
      configRead.catch(failed),
      row.utilization?.catch(failed),
    ]);
    if (config.length !== 22 || (utilization !== undefined && utilization.length !== 2))
      throw garbled('an asset config');
    return { config, utilization: utilization === undefined ? undefined : u256(utilization, 0) };
  };
  const configOf = async (token: Token): Promise<bigint[]> => {
    const row = rows.find((r) => r.token === token);
    const state = row === undefined ? undefined : await listedState(row);
    if (state === undefined) throw garbled('a position of an asset it does not list');
    return state.config;
  };
  return { listedState, configOf };
}

/** A listed asset's market: its utilisation and rates (cli/core/lending-rates.ts). */
export interface MarketState {
  token: Token;
  utilization: bigint;
  rates: ReturnType<typeof marketRates>;
}

/**
 * Round 2 for each listed asset of `rows`: its `interest_rate` with the config accrued to now (the
 * rate per second from this block on), and the rates that follow.
 */
export function marketsOf(
  read: PositionsRead,
  rows: SupplyRow[],
  listedState: (row: SupplyRow) => Promise<ListedState | undefined>,
): Promise<Array<MarketState | undefined>> {
  const { pool, v } = read;
  return quiet(
    Promise.all(
      rows.map(async (row) => {
        const state = await listedState(row);
        if (state === undefined) return undefined;
        const { config } = state;
        const utilization = state.utilization ?? 0n;
        // interest_rate(asset, utilization: u256, last_updated: u64, last_full_utilization_rate:
        // u256)
        const rate = await v(pool.address, 'interest_rate', [
          row.token.address,
          hex(utilization % U128),
          hex(utilization >> 128n),
          hex(config[13] as bigint),
          hex(config[16] as bigint),
          hex(config[17] as bigint),
        ]);
        if (rate.length !== 2 || (rate[0] as bigint) >= U128 || (rate[1] as bigint) >= U128)
          throw garbled('an interest rate');
        return {
          token: row.token,
          utilization,
          rates: marketRates(u256(rate, 0), utilization, u256(config, 18)),
        };
      }),
    ),
  );
}

/** A listed asset's supply: the account's shares in its vToken and what they redeem for. */
export interface SupplyState {
  token: Token;
  vToken: string;
  found: bigint;
  shares: bigint;
  assets: bigint;
  price?: OraclePrice | undefined;
}

/**
 * Each listed asset's supply: the shares as the hint's view read them in round 1 where the
 * factory confirms the hint, else asked now; what held shares redeem for (`preview_redeem`, the
 * vault's own rounding) and the asset's price beside it.
 */
export function suppliesOf(
  read: PositionsRead,
  rows: SupplyRow[],
  priceOf: (token: Token) => Promise<OraclePrice>,
): Promise<Array<SupplyState | undefined>> {
  const { reader, v } = read;
  return quiet(
    Promise.all(
      rows.map(async (row) => {
        const found = await row.found;
        if (found === 0n) return undefined; // not listed in this pool
        const vToken = hex(found);
        const hinted = row.hint !== undefined && BigInt(row.hint) === found;
        const shares =
          hinted && row.hintedShares !== undefined
            ? await row.hintedShares
            : u256(await v(vToken, 'balance_of', [reader.address]), 0);
        if (shares === 0n) return { token: row.token, vToken, found, shares, assets: 0n };
        const [assets, price] = await Promise.all([
          v(vToken, 'preview_redeem', [
            `0x${(shares % U128).toString(16)}`,
            `0x${(shares >> 128n).toString(16)}`,
          ]).then((f) => u256(f, 0)),
          priceOf(row.token).catch(() => undefined),
        ]);
        return { token: row.token, vToken, found, shares, assets, price };
      }),
    ),
  );
}

/**
 * Each held pair's state (a position with collateral or debt): its `pair_config` and totals,
 * both assets' configs and prices, decoded together (lending-decode.ts `pairStateOf`).
 */
export function borrowsOf(
  read: PositionsRead,
  positions: Promise<PositionRead[]>,
  configOf: (token: Token) => Promise<bigint[]>,
  priceOf: (token: Token) => Promise<OraclePrice>,
): Promise<PairState[]> {
  const { pool, v } = read;
  return quiet(
    positions.then((all) =>
      Promise.all(
        all
          .filter((p): p is NonNullable<typeof p> => p !== undefined)
          .filter((p) => {
            if (p.f.length < 8) throw garbled('a position');
            return u256(p.f, 0) !== 0n || u256(p.f, 2) !== 0n;
          })
          .map(async ({ c, d, f }) => {
            const pair = [c.address, d.address];
            const [pairConfig, config, collateralConfig, totals, cPrice, dPrice] =
              await Promise.all([
                v(pool.address, 'pair_config', pair),
                configOf(d),
                configOf(c),
                v(pool.address, 'pairs', pair),
                priceOf(c),
                priceOf(d),
              ]);
            return pairStateOf(
              { pool, collateral: c, debt: d },
              { position: f, pairConfig, config, collateralConfig, totals },
              [cPrice, dPrice],
            );
          }),
      ),
    ),
  );
}

/**
 * The hints rewritten when this read learnt otherwise: each asset the factory named in this read
 * (none for an unlisted one), except where the read used the hint and its shares' view failed or
 * never answered. Run when the read fails too, so a hint that fails, hangs or is contradicted is
 * gone from the file, not kept to fail or stall every later read.
 */
export async function rewriteHints(read: PositionsRead, rows: SupplyRow[]): Promise<void> {
  const hints = read.options.vTokens;
  if (hints === undefined) return;
  const pool = read.pool.address;
  const vouched = rows.flatMap((row) => {
    const found = row.foundNow.value;
    if (found === undefined || found === 0n) return [];
    const used = row.hint !== undefined && BigInt(row.hint) === found;
    if (used && row.hintedSharesNow?.value === undefined) return [];
    return [{ pool, asset: row.token.address, vToken: hex(found) }];
  });
  if (rows.some((row) => row.hint !== vouched.find((x) => x.asset === row.token.address)?.vToken))
    await hints.put(pool, vouched);
}
