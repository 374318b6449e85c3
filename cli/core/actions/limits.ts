/**
 * The multi-swap pair rule (docs/architecture.md "Client behaviour", ours): 2–3 pairs. Free of
 * heavy imports: `quote` checks its --pairs with it before loading the aggregator client.
 */
import { AppError, ErrorCode, usageError } from '../../../shared/errors.js';

export const MIN_BATCH_PAIRS = 2;
export const MAX_BATCH_PAIRS = 3;

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
