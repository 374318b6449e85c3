/**
 * What a plan's outflows are worth in US cents, from what a route itself exchanges
 * (docs/checks.md "What the caps trust"): the one valuation the spending caps (caps.ts) and the
 * tool server's budget use. With the plan's oracle prices (../oracle.ts), each outflow counts at
 * the larger of that value and Pragma's, and an outflow Pragma cannot price is refused
 * (ORACLE_PRICE_UNAVAILABLE): the aggregator alone never decides what a cap counts.
 *
 * Each outflow `{token, amount}`:
 * - a USD stablecoin of the registry (USDC, USDC.e, USDT, DAI) counts at face value, $1 a unit;
 * - any other token is valued at what a route of exactly that amount into USDC pays (gross, before
 *   the service fee), counted at $1 a USDC — for a swap into a stablecoin, the swap's own route
 *   (`quote`), else a route asked for it;
 * - the aggregator's USD price field on that route is then checked against the route's own rate:
 *   a price that values the amount more than PRICE_AGREEMENT_BPS below what the route pays is a
 *   price that cannot be true (no honest market pays more than the price says, beyond fees), so the
 *   valuation is refused. A price above the route's rate is the route's price impact: the outflow
 *   counts at the higher of the two (a cap never counts less than the price says).
 *
 * Fails closed: no route (or a route that is not for the asked amount and pair) means no value,
 * and an outflow that has none is refused (LIMIT_EXCEEDED), never counted as zero. Pure but for
 * the route requests; bigint throughout.
 */
import { formatAmount } from '../../../shared/amount.js';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { formatBpsAsPercent, usdCentsAt } from '../../../shared/fees.js';
import { findToken, type Network, sameAddress, type Token } from '../../../shared/tokens.js';
import type { AggregatorClient } from '../../clients/aggregator.js';
import type { CallOptions } from '../call.js';
import { oracleCentsOf, type OraclePrices, oracleQuoteOf, requireOraclePrices } from '../oracle.js';

/** How far below the route's own rate the price field may value an amount: 5 %. */
export const PRICE_AGREEMENT_BPS = 500n;

/** The registry's USD stablecoins: valued at $1 a unit, asking nothing. */
const STABLECOINS = ['USDC', 'USDC.e', 'USDT', 'DAI'] as const;

export interface Outflow {
  token: Token;
  amount: bigint;
  /**
   * A swap's own quote for this outflow: when it goes into a stablecoin, its route's output is
   * the value and no route is asked.
   */
  quote?: { to: Token; grossOutput: bigint; inputPrice: unknown } | undefined;
}

interface OutflowValue {
  token: Token;
  amount: bigint;
  cents: bigint;
  /** face: a stablecoin; route: what a route pays (the price field agreeing or absent); price: the price field, above the route's rate; oracle: Pragma's price, above both */
  basis: 'face' | 'route' | 'price' | 'oracle';
}

interface Valuation {
  cents: bigint;
  outflows: OutflowValue[];
}

function isStablecoin(network: Network, token: Token): boolean {
  return STABLECOINS.some((symbol) => {
    const stable = findToken(network, symbol);
    return stable !== undefined && sameAddress(stable.address, token.address);
  });
}

/** Cents of `amount` of a stablecoin at $1 a unit (floor). */
const faceCents = (amount: bigint, decimals: number): bigint =>
  (amount * 100n) / 10n ** BigInt(decimals);

type Valued =
  | { ok: true; value: OutflowValue }
  | { ok: false; token: Token; why: 'unpriced' }
  | { ok: false; token: Token; why: 'disagree'; routeCents: bigint; priceCents: bigint };

/** One outflow from a route's output (in a stablecoin) and the price field on its input. */
export function judge(outflow: Outflow, routeCents: bigint, price: unknown): Valued {
  const priceCents = usdCentsAt(outflow.amount, outflow.token.decimals, price);
  const base = { token: outflow.token, amount: outflow.amount };
  if (priceCents === undefined)
    return { ok: true, value: { ...base, cents: routeCents, basis: 'route' } };
  // price × 10000 < route × (10000 − tolerance): the price field says less than the route pays
  if (priceCents * 10_000n < routeCents * (10_000n - PRICE_AGREEMENT_BPS))
    return { ok: false, token: outflow.token, why: 'disagree', routeCents, priceCents };
  return priceCents > routeCents
    ? { ok: true, value: { ...base, cents: priceCents, basis: 'price' } }
    : { ok: true, value: { ...base, cents: routeCents, basis: 'route' } };
}

async function valueOne(
  outflow: Outflow,
  aggregator: AggregatorClient,
  usdc: Token | undefined,
  call: CallOptions,
): Promise<Valued> {
  const { network } = aggregator;
  const { token, amount } = outflow;
  if (amount < 0n) return { ok: false, token, why: 'unpriced' };
  if (isStablecoin(network, token))
    return {
      ok: true,
      value: { token, amount, cents: faceCents(amount, token.decimals), basis: 'face' },
    };
  const quote = outflow.quote;
  if (quote !== undefined && isStablecoin(network, quote.to))
    return judge(outflow, faceCents(quote.grossOutput, quote.to.decimals), quote.inputPrice);
  if (usdc === undefined || amount === 0n) return { ok: false, token, why: 'unpriced' };
  try {
    const route = await aggregator.getRoute(
      { amount, tokenIn: token.address, tokenOut: usdc.address },
      { signal: call.signal },
    );
    // a route for another amount or pair says nothing about this one
    if (
      route.inputAmount !== amount ||
      !sameAddress(route.inputToken.address, token.address) ||
      !sameAddress(route.outputToken.address, usdc.address)
    )
      return { ok: false, token, why: 'unpriced' };
    return judge(outflow, faceCents(route.outputAmount, usdc.decimals), route.inputToken.price);
  } catch (error) {
    if (call.signal?.aborted) throw error;
    return { ok: false, token, why: 'unpriced' };
  }
}

const dollars = (cents: bigint): string => `$${formatAmount(cents, 2)}`;

/** The outflow at Pragma's price when that is higher than the aggregator's value. */
function atLeastOracle(value: OutflowValue, oracle: OraclePrices): OutflowValue {
  const q = oracleQuoteOf(oracle, value.token);
  if (q === undefined || !q.ok) return value;
  const cents = oracleCentsOf(value.amount, value.token, q.usd);
  return cents > value.cents ? { ...value, cents, basis: 'oracle' } : value;
}

/**
 * The USD value of `outflows` (see the module's comment), asked at once. Throws LIMIT_EXCEEDED
 * ("nothing was signed: …") when one of them has no value the valuation can stand behind.
 */
export async function valueOutflows(
  outflows: readonly Outflow[],
  aggregator: AggregatorClient,
  call: CallOptions = {},
  oracle?: OraclePrices,
): Promise<Valuation> {
  // the independent price first: an outflow it cannot price is refused before any route is asked
  if (oracle !== undefined)
    requireOraclePrices(
      oracle,
      outflows.map((o) => o.token),
      "the plan's value",
    );
  const usdc = findToken(aggregator.network, 'USDC');
  const valued = await Promise.all(outflows.map((o) => valueOne(o, aggregator, usdc, call)));
  const disagree = valued.filter((v) => !v.ok && v.why === 'disagree');
  const unpriced = valued.filter((v) => !v.ok && v.why === 'unpriced');
  if (disagree.length > 0) {
    const parts = disagree.map((v) =>
      v.ok || v.why !== 'disagree'
        ? ''
        : `${v.token.symbol} at ${dollars(v.priceCents)} by its USD price but ${dollars(v.routeCents)} by what its route pays`,
    );
    throw new AppError(
      ErrorCode.LIMIT_EXCEEDED,
      `nothing was signed: the aggregator's prices cannot be trusted: it values ${parts.join('; ')} (more than ${formatBpsAsPercent(Number(PRICE_AGREEMENT_BPS))} apart), so the plan's value cannot be checked`,
      {
        details: {
          reason: 'prices-disagree',
          toleranceBps: Number(PRICE_AGREEMENT_BPS),
          tokens: disagree.map((v) => v.token.symbol),
        },
      },
    );
  }
  if (unpriced.length > 0) {
    const symbols = [...new Set(unpriced.map((v) => v.token.symbol))];
    throw new AppError(
      ErrorCode.LIMIT_EXCEEDED,
      `nothing was signed: the aggregator has no route into USDC for ${symbols.join(', ')}, so the plan's value cannot be checked`,
      { details: { reason: 'unpriced', unpriced: symbols } },
    );
  }
  // each outflow counts at the larger of the aggregator's value and the oracle's
  const values = valued
    .flatMap((v) => (v.ok ? [v.value] : []))
    .map((v) => (oracle === undefined ? v : atLeastOracle(v, oracle)));
  return { cents: values.reduce((sum, v) => sum + v.cents, 0n), outflows: values };
}
