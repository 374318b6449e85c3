/**
 * The aggregator's service fee and the price impact of a route, in integer math.
 *
 * Service fee (docs/contracts.md B, rule marked UNSURE there): 2 bps when every split leg is one
 * hop through one pool, 15 bps otherwise. It is taken on-chain and is NOT in `outputAmount`,
 * so quotes are shown net of it. The fee is rounded UP (net rounded down): when the exact
 * on-chain rounding is unknown, the number shown must never promise more than arrives.
 */

import { minimumReceived } from './slippage.js';

export const DIRECT_FEE_BPS = 2;
export const ROUTED_FEE_BPS = 15;
const BPS = 10_000n;

/** The shape the fee rule needs: legs → hops → parallel pool swaps. */
interface RouteShape {
  legs: ReadonlyArray<{ hops: ReadonlyArray<ReadonlyArray<unknown>> }>;
}

export function serviceFeeBps(route: RouteShape): number {
  const direct =
    route.legs.length > 0 &&
    route.legs.every((leg) => leg.hops.length === 1 && leg.hops[0]?.length === 1);
  return direct ? DIRECT_FEE_BPS : ROUTED_FEE_BPS;
}

/** ceil(gross × bps / 10000) and what is left for the user. */
export function applyServiceFee(gross: bigint, feeBps: number): { fee: bigint; net: bigint } {
  if (gross < 0n) throw new RangeError('output must not be negative');
  const fee = (gross * BigInt(feeBps) + BPS - 1n) / BPS;
  return { fee, net: gross - fee };
}

/**
 * The minimum the user can count on receiving, net of the service fee, at `slippageBps`.
 *
 * Two bounds, and the smaller is shown (never promise more than the router guarantees):
 * - `fromNet` = floor(net × (10000 − s) / 10000): slippage applied to the quote net of the fee;
 * - `afterFee` = m − fee(m), m = floor(gross × (10000 − s) / 10000) = the calldata's
 *   min_received: the aggregator computes it from its gross outputAmount, and if the router
 *   checks min_received BEFORE taking its fee (the contract does not say), the worst case that
 *   arrives is m less the fee on m.
 * The two differ by rounding only (a unit or two), but "min" is what makes the shown figure a
 * promise under either order of check-then-fee.
 */
export function guaranteedMinimum(
  gross: bigint,
  feeBps: number,
  slippageBps: number,
): { shown: bigint; fromNet: bigint; afterFee: bigint; calldata: bigint } {
  const { net } = applyServiceFee(gross, feeBps);
  const fromNet = minimumReceived(net, slippageBps);
  const calldata = minimumReceived(gross, slippageBps);
  const afterFee = applyServiceFee(calldata, feeBps).net;
  return { shown: fromNet < afterFee ? fromNet : afterFee, fromNet, afterFee, calldata };
}

/** Fixed-point scale for USD prices parsed from the aggregator's token data. */
const PRICE_DECIMALS = 18;
/** Longest price spelling read: far more digits than any real quote carries. */
const MAX_PRICE_TEXT = 64;
/** |exponent| of an "e" spelling: 1e-30 .. 1e30 covers every real token; beyond is junk. */
const MAX_PRICE_EXPONENT = 30;
/** No token costs a quadrillion USD a unit: larger is junk, and would make the math absurd. */
const MAX_PRICE_SCALED = 10n ** 15n * 10n ** BigInt(PRICE_DECIMALS);
/** An impact beyond ±100 % is not a market, it is bad price data: shown as unknown. */
const MAX_IMPACT_BPS = 10_000n;

/**
 * A token price as the aggregator sends it (number or string, maybe "1e-7") → integer with 18
 * decimals; undefined when absent, non-finite, not positive, below 1e-18, above 1e15, with an
 * exponent beyond ±30 or a spelling over 64 characters ("1e999" is junk, not a price). Prices
 * are display data, not amounts: going through the number's shortest decimal spelling is exact
 * enough and no float arithmetic happens.
 */
export function parsePriceScaled(price: unknown): bigint | undefined {
  let text: string;
  if (typeof price === 'number') {
    if (!Number.isFinite(price) || price <= 0) return undefined;
    text = String(price);
  } else if (typeof price === 'string') {
    text = price.trim();
  } else {
    return undefined;
  }
  if (text.length > MAX_PRICE_TEXT) return undefined;
  const match = /^([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]{1,3}))?$/.exec(text);
  if (match === null || (match[1] === '' && (match[2] ?? '') === '')) return undefined;
  const written = Number(match[3] ?? '0');
  if (Math.abs(written) > MAX_PRICE_EXPONENT) return undefined;
  const digits = `${match[1] ?? ''}${match[2] ?? ''}`;
  const exponent = written - (match[2] ?? '').length + PRICE_DECIMALS;
  const mantissa = BigInt(digits === '' ? '0' : digits);
  const value =
    exponent >= 0 ? mantissa * 10n ** BigInt(exponent) : mantissa / 10n ** BigInt(-exponent);
  return value > 0n && value <= MAX_PRICE_SCALED ? value : undefined;
}

/**
 * The value of `amount` base units at a quoted USD price, in whole cents, rounded down (a
 * balance is never shown as worth more than it is); undefined when the price is missing or junk.
 */
export function usdCentsAt(amount: bigint, decimals: number, price: unknown): bigint | undefined {
  const scaled = parsePriceScaled(price);
  if (scaled === undefined || amount < 0n) return undefined;
  return (amount * scaled * 100n) / 10n ** BigInt(decimals + PRICE_DECIMALS);
}

/**
 * Price impact in bps, defined as: the shortfall of the route's GROSS output (before our
 * service fee, which is shown separately) versus the value of the input, both valued at the
 * aggregator's quoted USD token prices:
 *
 *   impact = 1 − (out × priceOut) / (in × priceIn), each amount scaled by its decimals.
 *
 * So it includes the pools' own fees and the curve slippage of the trade size. It is only as
 * good as the quoted prices: the real API returns per-token USD prices and no pool reserves,
 * so a route's own spot price cannot be computed client-side; when those prices and the
 * route's pools disagree the figure is off by that disagreement. (The emulator quotes prices
 * consistent with every pool, as an arbitraged market does, so there a small trade shows
 * about the pool fee and never less than zero.)
 *
 * Signed: negative means the output is worth more than the input at those prices. Rounded
 * towards zero. Undefined when a price is missing or junk, or when |impact| > 100 % (junk
 * prices, never a real market), so callers can show "unknown" instead of a wild number.
 */
export function priceImpactBps(args: {
  amountIn: bigint;
  decimalsIn: number;
  priceIn: unknown;
  amountOut: bigint;
  decimalsOut: number;
  priceOut: unknown;
}): number | undefined {
  const pIn = parsePriceScaled(args.priceIn);
  const pOut = parsePriceScaled(args.priceOut);
  if (pIn === undefined || pOut === undefined || args.amountIn <= 0n || args.amountOut < 0n)
    return undefined;
  // Cross-multiplied so both values carry the same scale: 10^(decimalsIn + decimalsOut + 18).
  const valueIn = args.amountIn * pIn * 10n ** BigInt(args.decimalsOut);
  const valueOut = args.amountOut * pOut * 10n ** BigInt(args.decimalsIn);
  const impact = ((valueIn - valueOut) * BPS) / valueIn;
  if (impact > MAX_IMPACT_BPS || impact < -MAX_IMPACT_BPS) return undefined;
  return Number(impact);
}

/** bps → "0.15%" (exact: two decimals are bps). Integers only: a bps figure is one. */
export function formatBpsAsPercent(bps: number): string {
  if (!Number.isSafeInteger(bps)) throw new RangeError(`not a whole number of bps: ${bps}`);
  const sign = bps < 0 ? '-' : '';
  const abs = BigInt(Math.abs(bps));
  const fraction = (abs % 100n).toString().padStart(2, '0').replace(/0+$/, '');
  return `${sign}${abs / 100n}${fraction === '' ? '' : `.${fraction}`}%`;
}

/**
 * Rate "1 IN = x OUT" as a decimal string with `digits` decimals, truncated: out/in scaled by
 * the tokens' decimals, in integer math.
 */
export function formatRate(
  amountIn: bigint,
  decimalsIn: number,
  amountOut: bigint,
  decimalsOut: number,
  digits = 6,
): string {
  if (amountIn <= 0n) return '0';
  const scaled =
    (amountOut * 10n ** BigInt(decimalsIn + digits)) / (amountIn * 10n ** BigInt(decimalsOut));
  if (digits === 0) return scaled.toString();
  const text = scaled.toString().padStart(digits + 1, '0');
  const whole = text.slice(0, -digits);
  const fraction = text.slice(-digits).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}
