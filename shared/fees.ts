/**
 * The aggregator's service fee and the price impact of a route, in integer math.
 *
 * Service fee (CONTRACTS.md B, rule marked UNSURE there): 2 bps when every split leg is one
 * hop through one pool, 15 bps otherwise. It is taken on-chain and is NOT in `outputAmount`,
 * so quotes are shown net of it. The fee is rounded UP (net rounded down): when the exact
 * on-chain rounding is unknown, the number shown must never promise more than arrives.
 */

export const DIRECT_FEE_BPS = 2;
export const ROUTED_FEE_BPS = 15;
const BPS = 10_000n;

/** The shape the fee rule needs: legs → hops → parallel pool swaps. */
export interface RouteShape {
  legs: ReadonlyArray<{ hops: ReadonlyArray<ReadonlyArray<unknown>> }>;
}

export function serviceFeeBps(route: RouteShape): number {
  const direct = route.legs.length > 0 && route.legs.every((leg) => leg.hops.length === 1 && leg.hops[0]?.length === 1);
  return direct ? DIRECT_FEE_BPS : ROUTED_FEE_BPS;
}

/** ceil(gross × bps / 10000) and what is left for the user. */
export function applyServiceFee(gross: bigint, feeBps: number): { fee: bigint; net: bigint } {
  if (gross < 0n) throw new RangeError('output must not be negative');
  const fee = (gross * BigInt(feeBps) + BPS - 1n) / BPS;
  return { fee, net: gross - fee };
}

/** Fixed-point scale for USD prices parsed from the aggregator's token data. */
const PRICE_DECIMALS = 18;

/**
 * A token price as the aggregator sends it (number or string, maybe "1e-7") → integer with 18
 * decimals; undefined when absent, non-finite, negative or zero. Prices are display data, not
 * amounts: going through the number's shortest decimal spelling is exact enough and no float
 * arithmetic happens.
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
  const match = /^([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]{1,3}))?$/.exec(text);
  if (match === null || (match[1] === '' && (match[2] ?? '') === '')) return undefined;
  const digits = `${match[1] ?? ''}${match[2] ?? ''}`;
  const exponent = Number(match[3] ?? '0') - (match[2] ?? '').length + PRICE_DECIMALS;
  const mantissa = BigInt(digits === '' ? '0' : digits);
  const value = exponent >= 0 ? mantissa * 10n ** BigInt(exponent) : mantissa / 10n ** BigInt(-exponent);
  return value > 0n ? value : undefined;
}

/**
 * Price impact in bps: how much less the output is worth than the input at the route's spot
 * prices, i.e. 1 − (out × priceOut) / (in × priceIn), each amount scaled by its decimals.
 * "Spot" is the aggregator's token prices (the emulator derives them from its pools' reserves,
 * so the figure is pool fees + curve slippage there). The gross output (before our service fee,
 * shown separately) is used. Signed: negative means the output is worth more than the input
 * by those prices. Rounded towards zero. Undefined when a price is missing.
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
  if (pIn === undefined || pOut === undefined || args.amountIn <= 0n) return undefined;
  // Cross-multiplied so both values carry the same scale: 10^(decimalsIn + decimalsOut + 18).
  const valueIn = args.amountIn * pIn * 10n ** BigInt(args.decimalsOut);
  const valueOut = args.amountOut * pOut * 10n ** BigInt(args.decimalsIn);
  return Number(((valueIn - valueOut) * BPS) / valueIn);
}

/** bps → "0.15%" (exact: two decimals are bps). */
export function formatBpsAsPercent(bps: number): string {
  const sign = bps < 0 ? '-' : '';
  const abs = BigInt(Math.abs(bps));
  const fraction = (abs % 100n).toString().padStart(2, '0').replace(/0+$/, '');
  return `${sign}${abs / 100n}${fraction === '' ? '' : `.${fraction}`}%`;
}

/**
 * Rate "1 IN = x OUT" as a decimal string with `digits` decimals, truncated: out/in scaled by
 * the tokens' decimals, in integer math.
 */
export function formatRate(amountIn: bigint, decimalsIn: number, amountOut: bigint, decimalsOut: number, digits = 6): string {
  if (amountIn <= 0n) return '0';
  const scaled = (amountOut * 10n ** BigInt(decimalsIn + digits)) / (amountIn * 10n ** BigInt(decimalsOut));
  if (digits === 0) return scaled.toString();
  const text = scaled.toString().padStart(digits + 1, '0');
  const whole = text.slice(0, -digits);
  const fraction = text.slice(-digits).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}
