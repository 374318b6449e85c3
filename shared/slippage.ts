/**
 * Slippage tolerance in basis points (100 bps = 1 %). Users write percent ("1", "0.5", "0.5%");
 * the accepted range is 0.01 %–50 % → 1..5000 bps, with at most two decimals (a bps is the
 * smallest unit the router's minimum-received math uses).
 */
import { formatAmount, parseAmount } from './amount.js';
import { AppError, ErrorCode } from './errors.js';

export const MIN_SLIPPAGE_BPS = 1;
export const MAX_SLIPPAGE_BPS = 5000;
export const DEFAULT_SLIPPAGE_BPS = 100;
const BPS = 10_000n;

export function parseSlippageBps(text: string): number {
  const percent = text.trim().replace(/%$/, '');
  let bps: bigint;
  try {
    // A percent with two decimals is exactly a count of basis points.
    bps = parseAmount(percent, 2, {
      allowZero: true,
      label: 'slippage',
      code: ErrorCode.INVALID_SLIPPAGE,
    });
  } catch (error) {
    if (error instanceof AppError) {
      throw new AppError(
        ErrorCode.INVALID_SLIPPAGE,
        `${error.message} (slippage is a percent from 0.01 to 50, e.g. 0.5)`,
      );
    }
    throw error;
  }
  if (bps < BigInt(MIN_SLIPPAGE_BPS) || bps > BigInt(MAX_SLIPPAGE_BPS)) {
    throw new AppError(
      ErrorCode.INVALID_SLIPPAGE,
      `slippage must be from 0.01 % to 50 % (got "${text}")`,
    );
  }
  return Number(bps);
}

function assertSlippageBps(bps: number): void {
  if (!Number.isInteger(bps) || bps < MIN_SLIPPAGE_BPS || bps > MAX_SLIPPAGE_BPS) {
    throw new AppError(
      ErrorCode.INVALID_SLIPPAGE,
      `slippage must be 1..5000 basis points (got ${bps})`,
    );
  }
}

/** bps → the percent string the aggregator's `slippage` query takes ("1", "0.5", "0.05"). */
export function slippagePercentString(bps: number): string {
  assertSlippageBps(bps);
  return formatAmount(BigInt(bps), 2);
}

/** floor(expected × (10000 − bps) / 10000): bigint division truncates, and both are ≥ 0. */
export function minimumReceived(expected: bigint, bps: number): bigint {
  assertSlippageBps(bps);
  if (expected < 0n) throw new RangeError('expected output must not be negative');
  return (expected * (BPS - BigInt(bps))) / BPS;
}
