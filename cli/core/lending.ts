/**
 * The wallet's lending positions (docs/commands.md "Lending", docs/portfolio.md "Positions"): the
 * `lending` command's document — every supply and borrow of the account in the network's pool,
 * with each listed asset's rates — read in as few rounds as it can (docs/decisions.md "Position
 * reads: one round, batched"), and the wallet's liquidations beside it. The pool and its pins
 * are lending-pool.ts, the answers' decoding lending-decode.ts, the health lending-health.ts.
 */
import { formatAmount } from '../../shared/amount.js';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { printable } from '../../shared/printable.js';
import { listTokens, type Network, type Token } from '../../shared/tokens.js';
import type { VesuPool } from '../../shared/vesu.js';
import type { CallOptions } from './call.js';
import type { ChainReader } from './chain/account.js';
import { batchedViews, type Viewer } from './chain/views.js';
import type { Endpoints } from './endpoints.js';
import { sessionReader } from './execution.js';
import { marketRates, percentWords } from './lending-rates.js';
import {
  decodePrice,
  garbled,
  hex,
  type OraclePrice,
  pairStateOf,
  reverted,
  U128,
  u256,
} from './lending-decode.js';
import { healthWords, liquidationPrice, pairHealth, usdValue } from './lending-health.js';
import { settledOf } from './lending-plan-reads.js';
import {
  factoryOf,
  factoryVToken,
  type LendingReadOptions,
  lendingPool,
  pinsOf,
  scoped,
  type VTokenHints,
} from './lending-pool.js';
import { loadVTokenHints } from './vtoken-hints.js';
import {
  type Liquidation,
  type LiquidationRead,
  liquidationScope,
  readLiquidations,
} from './liquidations.js';

/** The `lending` command's document (docs/commands.md "Lending"). */
export interface LendingDocument {
  /** `sandbox` on the sandbox (mainnet-like: its pool is at mainnet's address) */
  network: Network | 'sandbox';
  account: string;
  pools: Array<{ name: string; address: string }>;
  supplied: Array<{
    pool: string;
    token: string;
    amount: string;
    baseUnits: string;
    valueUsd: string | null;
    vToken: string;
  }>;
  /**
   * Each asset the pool lists, with what supplying earns and borrowing costs now (percent, 2
   * decimals, rounded down; cli/core/lending-rates.ts) and its utilisation
   */
  markets: Array<{
    pool: string;
    token: string;
    utilization: string;
    supplyApr: string;
    supplyApy: string;
    borrowApr: string;
    borrowApy: string;
  }>;
  borrows: Array<{
    pool: string;
    collateral: { token: string; amount: string; baseUnits: string };
    debt: { token: string; amount: string; baseUnits: string };
    healthFactor: string | null;
    maxLtv: string;
    liquidationPrice: string | null;
    limits: { debtFloorUsd: string; debtCap: string | null; maxUtilization: string };
  }>;
}

const money = (amount: bigint, token: Token) => ({
  token: token.symbol,
  amount: formatAmount(amount, token.decimals),
  baseUnits: amount.toString(),
});

/**
 * A view the contract reverted (Starknet JSON-RPC error 40 CONTRACT_ERROR: e.g. a pair the pool
 * does not list) → undefined; any other failure (the node, a limit, the transport) is thrown.
 */
const unlessReverted = (error: unknown): undefined => {
  if (reverted(error)) return undefined;
  throw error;
};

/**
 * Every position of the account in the network's pools: each registry token's supply (its vToken
 * found by the factory) and each ordered pair's position (docs/portfolio.md "Positions").
 * Round 1, every view at once, as JSON-RPC batches (chain/views.ts): each
 * token's vToken from the factory and — where a hint names it — the account's shares in it, and
 * every pair's position (its amounts included). Round 2, only for what is held, all at once: what
 * the shares redeem for (`preview_redeem`, the vault's own rounding), the held pairs'
 * `pair_config` (max LTV, debt cap) and totals, and the pool's `price` of the held tokens. Without a hint (or with one the
 * factory contradicts) the shares are asked in round 2 and their worth in a third. A failed read
 * fails the whole document (positions leaves the family out with a note); only a revert of a
 * pair's `position` where the factory names no vToken for one of its assets (an unlisted pair) is
 * skipped as "not held"; a listed pair's reverted view fails the read (CHAIN_ERROR). With the
 * rates (the default; not the portfolio's read), each token's `asset_config` and `utilization`
 * are asked in round 1 and each listed asset's `interest_rate` in round 2: the `markets`
 * (cli/core/lending-rates.ts).
 */
export async function readLending(
  reader: ChainReader,
  options: LendingReadOptions & {
    pool?: string | undefined;
    views?: Viewer | undefined;
    vTokens?: VTokenHints | undefined;
    /** false: no `markets` (positions only; the portfolio's read), none of their views asked */
    rates?: boolean | undefined;
  } = {},
): Promise<LendingDocument> {
  const network = reader.network;
  const pool = lendingPool(network, options.pool);
  const factory = factoryOf(network);
  const tokens = listTokens(network);
  const pairs = tokens.flatMap((c) =>
    tokens.filter((d) => d.address !== c.address).map((d) => ({ c, d })),
  );
  const views = options.views ?? batchedViews(reader);
  const v = (contractAddress: string, entrypoint: string, calldata: string[] = []) =>
    views({ contractAddress, entrypoint, calldata });
  const quiet = <T>(p: Promise<T>): Promise<T> => {
    p.catch(() => undefined); // awaited later, maybe after another read failed
    return p;
  };
  const withRates = options.rates !== false;
  return scoped(options, async () => {
    // round 1
    const supplyRows = tokens.map((token) => {
      const hint = options.vTokens?.get(pool.address, token.address);
      const found = quiet(factoryVToken(views, factory, pool, token, pinsOf(reader, options)));
      // the asset's config and utilisation in round 1 where the rates are asked: they follow from
      // them (and a held pair's limits); else the config is asked in round 2, for a held pair only
      const config = withRates
        ? quiet(v(pool.address, 'asset_config', [token.address]))
        : undefined;
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
    const listedNow = (token: Token): Promise<boolean> =>
      (supplyRows.find((row) => row.token === token)?.found ?? Promise.resolve(0n)).then(
        (found) => found !== 0n,
      );
    const positions = quiet(
      Promise.all(
        pairs.map(({ c, d }) =>
          v(pool.address, 'position', [c.address, d.address, reader.address]).then(
            (f) => ({ c, d, f }),
            async (error: unknown) => {
              unlessReverted(error);
              // not held only when the pool does not list one of the two (the factory names no
              // vToken for it, answered in this same round); a listed pair whose view reverts may
              // hold a debt: its amounts are unknown, never guessed as zero
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
    // round 2: each price asked once, whoever needs it, of the pool's own `price` view
    const priceReads = new Map<string, Promise<OraclePrice>>();
    const priceOf = (token: Token): Promise<OraclePrice> => {
      let read = priceReads.get(token.address);
      if (read === undefined) {
        read = quiet(v(pool.address, 'price', [token.address]).then(decodePrice));
        priceReads.set(token.address, read);
      }
      return read;
    };
    /**
     * A listed asset's config and utilisation as round 1 read them; a revert where the factory
     * names a vToken is the pool failing to answer (CHAIN_ERROR), never "not listed".
     */
    const lateConfigs = new Map<Token, Promise<bigint[]>>();
    const listedState = async (
      row: (typeof supplyRows)[number],
    ): Promise<{ config: bigint[]; utilization: bigint | undefined } | undefined> => {
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
      const row = supplyRows.find((r) => r.token === token);
      const state = row === undefined ? undefined : await listedState(row);
      if (state === undefined) throw garbled('a position of an asset it does not list');
      return state.config;
    };
    const markets = quiet(
      Promise.all(
        (withRates ? supplyRows : []).map(async (row) => {
          const state = await listedState(row);
          if (state === undefined) return undefined;
          const { config } = state;
          const utilization = state.utilization ?? 0n;
          // interest_rate(asset, utilization: u256, last_updated: u64, last_full_utilization_rate:
          // u256), with the config accrued to now: the rate per second from this block on
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
    const supplies = quiet(
      Promise.all(
        supplyRows.map(async (row) => {
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
    const borrows = quiet(
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
    /**
     * The hints rewritten when this read learnt otherwise: each asset the factory named in this
     * read (none for an unlisted one), except where the read used the hint and its shares' view
     * failed or never answered. Run when the read fails too, so a hint that fails, hangs or is
     * contradicted is gone from the file, not kept to fail or stall every later read.
     */
    const rewriteHints = async (): Promise<void> => {
      if (options.vTokens === undefined) return;
      const vouched = supplyRows.flatMap((row) => {
        const found = row.foundNow.value;
        if (found === undefined || found === 0n) return [];
        const used = row.hint !== undefined && BigInt(row.hint) === found;
        if (used && row.hintedSharesNow?.value === undefined) return [];
        return [{ pool: pool.address, asset: row.token.address, vToken: hex(found) }];
      });
      if (
        supplyRows.some(
          (row) => row.hint !== vouched.find((x) => x.asset === row.token.address)?.vToken,
        )
      )
        await options.vTokens.put(pool.address, vouched);
    };
    let supplyStates: Awaited<typeof supplies>;
    let pairStates: Awaited<typeof borrows>;
    let marketStates: Awaited<typeof markets>;
    try {
      [supplyStates, pairStates, marketStates] = await Promise.all([supplies, borrows, markets]);
    } finally {
      await rewriteHints();
    }
    const listed = supplyStates.filter((s): s is NonNullable<typeof s> => s !== undefined);
    const supplied = listed.filter((s) => s.shares !== 0n);
    return {
      network,
      account: reader.address,
      pools: [{ name: pool.name, address: pool.address }],
      supplied: supplied.map((s) => ({
        pool: pool.name,
        ...money(s.assets, s.token),
        valueUsd:
          s.price === undefined || !s.price.valid
            ? null
            : formatAmount(usdValue(s.assets, s.price.value, s.token), 18, {
                maxFractionDigits: 2,
              }),
        vToken: s.vToken,
      })),
      markets: marketStates
        .filter((m): m is NonNullable<typeof m> => m !== undefined)
        .map(({ token, utilization, rates }) => ({
          pool: pool.name,
          token: token.symbol,
          utilization: percentWords(utilization),
          supplyApr: percentWords(rates.supplyApr),
          supplyApy: percentWords(rates.supplyApy),
          borrowApr: percentWords(rates.borrowApr),
          borrowApy: percentWords(rates.borrowApy),
        })),
      borrows: pairStates.map((p) => {
        const hf = pairHealth(p, p.collateralAmount, p.debtAmount);
        const liq = liquidationPrice(p, p.collateralAmount, p.debtAmount);
        return {
          pool: pool.name,
          collateral: money(p.collateralAmount, p.collateral),
          debt: money(p.debtAmount, p.debt),
          healthFactor: healthWords(hf),
          maxLtv: formatAmount(p.maxLtv, 18),
          liquidationPrice:
            liq === undefined ? null : formatAmount(liq, 18, { maxFractionDigits: 6 }),
          limits: {
            debtFloorUsd: formatAmount(p.debtLimits.floor, 18),
            debtCap: p.debtCap === 0n ? null : formatAmount(p.debtCap, p.debt.decimals),
            maxUtilization: formatAmount(p.debtLimits.maxUtilization, 18),
          },
        };
      }),
    };
  });
}

/** The `lending` command: the session wallet's positions on the chosen network, read-only. */
export async function lendingPositions(
  endpoints: Endpoints,
  options: { pool?: string | undefined; now?: () => number },
  call: CallOptions = {},
): Promise<LendingDocument & { email: string; liquidations: Liquidation[] }> {
  lendingPool(endpoints.network, options.pool);
  const [{ session, reader }, vTokens] = await Promise.all([
    sessionReader(endpoints, options),
    loadVTokenHints(endpoints.dataDir, endpoints.sandbox ? 'sandbox' : endpoints.network),
  ]);
  const [doc, liquidations] = await Promise.all([
    readLending(reader, { pool: options.pool, signal: call.signal, vTokens }),
    // the chain's LiquidatePosition events for this wallet (liquidations.ts)
    readLiquidations(reader, lendingPool(endpoints.network, options.pool)),
  ]);
  // the sandbox is mainnet-like, but its positions are the sandbox's (as `staking` says)
  return {
    email: session.email,
    ...doc,
    network: endpoints.sandbox ? 'sandbox' : doc.network,
    liquidations,
  };
}

/**
 * The session wallet's liquidations on the endpoints' network, for the faces beside `lending`
 * (`history`, `portfolio`, the app; cli/core/liquidations.ts). Never throws but for a cancel: a
 * network without a pool has none to read; no session or a chain that does not answer gives a note.
 */
export async function walletLiquidations(
  endpoints: Endpoints,
  call: CallOptions = {},
  options: { now?: () => number } = {},
): Promise<LiquidationRead> {
  let pool: VesuPool;
  try {
    pool = lendingPool(endpoints.network);
  } catch {
    return { liquidations: [], scope: `no Vesu pool on ${endpoints.network}`, note: null };
  }
  const scope = liquidationScope(pool);
  try {
    const { reader } = await sessionReader(endpoints, options);
    return { liquidations: await readLiquidations(reader, pool), scope, note: null };
  } catch (error) {
    if (call.signal?.aborted === true) throw error;
    const why =
      error instanceof AppError
        ? `${error.code}: ${printable(error.message)}`
        : 'the chain did not answer';
    return { liquidations: [], scope, note: `liquidations not read (${why})`.slice(0, 300) };
  }
}
