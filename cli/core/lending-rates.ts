/**
 * What supplying earns and what borrowing costs in a Vesu v2 pool, from the pool's own rate views
 * (docs/contracts.md "Interest rates"): the borrow rate per second is the pool's
 * `interest_rate(asset, utilization, last_updated, last_full_utilization_rate)` at the asset's
 * `utilization(asset)` and its `asset_config(asset)` (accrued to now, so the model's time delta is
 * 0): the rate the pool charges from this block on. Exact bigint math, 1e18 scale:
 *
 * - borrow APR = r × Y, borrow APY = (1 + r)^Y − 1 — compounded per second as the pool's own
 *   `pow_scale` does (each squaring and product rounded down);
 * - supply rate per second s = r × U × (1 − fee_rate): suppliers hold the asset's reserve + debt,
 *   the debt grows at r, and the pool mints fee_rate of that interest to its fee recipient; supply
 *   APR = s × Y, supply APY = (1 + s)^Y − 1;
 *
 * with Y = 365 days of seconds (docs/decisions.md "Lending rates"). A rate is worded as a percent
 * with 2 decimals, rounded down: it describes the pool now, it moves every block, and it is not an
 * amount of money — no amount is ever computed from the words.
 */
import { formatAmount } from '../../shared/amount.js';
import { VESU_SCALE } from '../../shared/vesu.js';

const SCALE = VESU_SCALE;
/** The year the rates are annualised over: 365 days, in seconds. */
export const YEAR_SECONDS = 365n * 86_400n;

/**
 * `x^n` at 1e18 scale as the pool's `pow_scale(x, n, false)` computes it (vesuxyz/vesu-v2
 * src/math.cairo): square-and-multiply, each product rounded down. Pure.
 */
export function powScale(base: bigint, exponent: bigint): bigint {
  if (exponent === 0n) return SCALE;
  let x = base;
  let n = exponent;
  let y = SCALE;
  while (n > 1n) {
    if (n % 2n === 1n) y = (x * y) / SCALE;
    x = (x * x) / SCALE;
    n /= 2n;
  }
  return (x * y) / SCALE;
}

/** An asset's rates, each ×1e18 (0.05e18 = 5 %). */
interface MarketRates {
  borrowPerSecond: bigint;
  supplyPerSecond: bigint;
  borrowApr: bigint;
  borrowApy: bigint;
  supplyApr: bigint;
  supplyApy: bigint;
}

/**
 * The rates of an asset whose borrow rate per second is `borrowPerSecond`, at `utilization` and
 * `feeRate` (all ×1e18, as the pool gives them). Pure.
 */
export function marketRates(
  borrowPerSecond: bigint,
  utilization: bigint,
  feeRate: bigint,
): MarketRates {
  const keep = feeRate >= SCALE ? 0n : SCALE - feeRate;
  const supplyPerSecond = (borrowPerSecond * utilization * keep) / (SCALE * SCALE);
  const apy = (perSecond: bigint): bigint => powScale(SCALE + perSecond, YEAR_SECONDS) - SCALE;
  return {
    borrowPerSecond,
    supplyPerSecond,
    borrowApr: borrowPerSecond * YEAR_SECONDS,
    borrowApy: apy(borrowPerSecond),
    supplyApr: supplyPerSecond * YEAR_SECONDS,
    supplyApy: apy(supplyPerSecond),
  };
}

/** A rate (×1e18) as a percent with exactly 2 decimals, rounded down: "8.32". */
export function percentWords(rate: bigint): string {
  const hundredths = (rate * 10_000n) / SCALE; // percent × 100, rounded down
  const words = formatAmount(hundredths, 2);
  const [whole, fraction = ''] = words.split('.');
  return `${whole}.${fraction.padEnd(2, '0')}`;
}
