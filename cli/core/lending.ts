/**
 * The wallet's lending positions (docs/commands.md "Lending", docs/portfolio.md "Positions"): the
 * `lending` command's document — every supply and borrow of the account in the network's pool,
 * with each listed asset's rates — read in as few rounds as it can (docs/decisions.md "Position
 * reads: one round, batched"), and the wallet's liquidations beside it. The pool and its pins
 * are lending-pool.ts, the rounds of the read lending-positions.ts, the answers' decoding
 * lending-decode.ts, the health lending-health.ts.
 */
import { formatAmount } from '../../shared/amount.js';
import { AppError } from '../../shared/errors.js';
import { printable } from '../../shared/printable.js';
import { listTokens, type Network, type Token } from '../../shared/tokens.js';
import type { VesuPool } from '../../shared/vesu.js';
import type { CallOptions } from './call.js';
import type { ChainReader } from './chain/account.js';
import { batchedViews, type Viewer } from './chain/views.js';
import type { Endpoints } from './endpoints.js';
import { sessionReader } from './execution.js';
import { type PairState } from './lending-decode.js';
import { healthWords, liquidationPrice, pairHealth, usdValue } from './lending-health.js';
import {
  factoryOf,
  type LendingReadOptions,
  lendingPool,
  scoped,
  type VTokenHints,
} from './lending-pool.js';
import {
  borrowsOf,
  listedStatesOf,
  type MarketState,
  marketsOf,
  positionsOf,
  type PositionsRead,
  pricesOf,
  rewriteHints,
  suppliesOf,
  supplyRowsOf,
  type SupplyState,
} from './lending-positions.js';
import { percentWords } from './lending-rates.js';
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
  const tokens = listTokens(network);
  const pairs = tokens.flatMap((c) =>
    tokens.filter((d) => d.address !== c.address).map((d) => ({ c, d })),
  );
  const views = options.views ?? batchedViews(reader);
  const read: PositionsRead = {
    reader,
    pool,
    factory: factoryOf(network),
    views,
    v: (contractAddress, entrypoint, calldata = []) =>
      views({ contractAddress, entrypoint, calldata }),
    options,
  };
  const withRates = options.rates !== false;
  return scoped(options, async () => {
    // round 1, every view at once
    const rows = supplyRowsOf(read, tokens, withRates);
    const positions = positionsOf(read, pairs, rows);
    // round 2, from what round 1 answers
    const priceOf = pricesOf(read);
    const { listedState, configOf } = listedStatesOf(read, rows);
    const markets = marketsOf(read, withRates ? rows : [], listedState);
    const supplies = suppliesOf(read, rows, priceOf);
    const borrows = borrowsOf(read, positions, configOf, priceOf);
    let supplyStates: Awaited<typeof supplies>;
    let pairStates: Awaited<typeof borrows>;
    let marketStates: Awaited<typeof markets>;
    try {
      [supplyStates, pairStates, marketStates] = await Promise.all([supplies, borrows, markets]);
    } finally {
      await rewriteHints(read, rows);
    }
    return {
      network,
      account: reader.address,
      pools: [{ name: pool.name, address: pool.address }],
      ...positionsDocument(pool, supplyStates, pairStates, marketStates),
    };
  });
}

/** The document's supplies, markets and borrows, in the words and amounts the faces show. */
function positionsDocument(
  pool: VesuPool,
  supplyStates: Array<SupplyState | undefined>,
  pairStates: PairState[],
  marketStates: Array<MarketState | undefined>,
): Pick<LendingDocument, 'supplied' | 'markets' | 'borrows'> {
  const supplied = supplyStates.filter(
    (s): s is NonNullable<typeof s> => s !== undefined && s.shares !== 0n,
  );
  return {
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
