/**
 * The pair and leg bounds (docs/architecture.md "Client behaviour"): a multi-swap's 2–3 pairs
 * (the aggregator's batch routing limit) and a rebalance's bound on legs (ours, docs/portfolio.md
 * "Rebalance"). Free of heavy imports: `quote` checks its --pairs with it before loading the
 * aggregator client.
 */
import { AppError, ErrorCode, usageError } from '../../../shared/errors.js';

export const MIN_BATCH_PAIRS = 2;
/** The aggregator's batch routing limit: one route batch prices at most this many pairs. */
export const MAX_BATCH_PAIRS = 3;

/**
 * The swaps of one rebalance transaction. Each leg is priced with its own route request (in
 * parallel), so the aggregator's batch limit does not apply; this bounds the work, the calls
 * (two per leg) and the review. Legs are at most sellers + buyers − 1, so any wallet of the
 * registry's tokens fits.
 */
export const MAX_REBALANCE_LEGS = 8;
/**
 * More than MAX_BATCH_PAIRS is BATCH_LIMIT_EXCEEDED, fewer than MIN_BATCH_PAIRS a usage error.
 * `label` names what was counted ("--pairs" on the command line); `hint` ends the too-few message.
 */
export function checkPairCount(
  count: number,
  options: { label?: string; hint?: string } = {},
): void {
  const label = options.label ?? 'a multi-swap';
  if (count > MAX_BATCH_PAIRS) {
    throw new AppError(
      ErrorCode.BATCH_LIMIT_EXCEEDED,
      `${label}: at most ${MAX_BATCH_PAIRS} pairs (got ${count})`,
    );
  }
  if (count < MIN_BATCH_PAIRS) {
    throw usageError(
      `${label} needs ${MIN_BATCH_PAIRS} to ${MAX_BATCH_PAIRS} pairs (got ${count})${options.hint ? `; ${options.hint}` : ''}`,
    );
  }
}
