/**
 * Durations as a person types them: a whole number and a unit (`30s`, `90m`, `2h`, `8d`), the one
 * rule behind `sandbox advance` and a grant's expiry (each with its own longest).
 */
import { usageError } from '../../shared/errors.js';

const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3_600, d: 86_400 };

/** The longest a duration may be, and the words that say so when it is longer. */
interface DurationBound {
  seconds: number;
  words: string;
}

/** `text` → seconds; anything else, zero or above `max` is a USAGE_ERROR. */
export function parseDurationWithin(text: string, max: DurationBound): number {
  const match = /^([0-9]{1,9})([smhd])$/.exec(text.trim());
  const unit = match === null ? undefined : UNIT_SECONDS[match[2] as string];
  if (match === null || unit === undefined)
    throw usageError(
      `"${text.slice(0, 40)}" is not a duration: a whole number and a unit, e.g. 30s, 90m, 2h, 8d`,
    );
  const seconds = Number(match[1]) * unit;
  if (seconds <= 0) throw usageError('the duration must be more than 0');
  if (seconds > max.seconds) throw usageError(max.words);
  return seconds;
}
