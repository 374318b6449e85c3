/**
 * How execute compares the typed data it is given with the copy its build stored, before anything
 * is hashed (docs/execution.md "SNIP-12 hashing cost"): equal as JSON, felts as numbers.
 */
import { FELT_TEXT } from '../../../shared/felt.js';

/** Equal as JSON, with felts compared as numbers; bounded by the stored (trusted) side's shape. */
export function sameTypedValue(given: unknown, stored: unknown, depth = 0): boolean {
  if (depth > 16) return false;
  if (typeof stored === 'string' || typeof stored === 'number') {
    if (given === stored) return true;
    const a =
      typeof given === 'number'
        ? Number.isSafeInteger(given)
          ? BigInt(given)
          : undefined
        : typeof given === 'string'
          ? parseFeltLoose(given)
          : undefined;
    const b = typeof stored === 'number' ? BigInt(stored) : parseFeltLoose(stored);
    return a !== undefined && b !== undefined && a === b;
  }
  if (Array.isArray(stored)) {
    return (
      Array.isArray(given) &&
      given.length === stored.length &&
      stored.every((item, i) => sameTypedValue(given[i], item, depth + 1))
    );
  }
  if (typeof stored === 'object' && stored !== null) {
    if (typeof given !== 'object' || given === null || Array.isArray(given)) return false;
    const keys = Object.keys(stored);
    if (Object.keys(given).length !== keys.length) return false;
    return keys.every(
      (key) =>
        Object.hasOwn(given, key) &&
        sameTypedValue(
          (given as Record<string, unknown>)[key],
          (stored as Record<string, unknown>)[key],
          depth + 1,
        ),
    );
  }
  return given === stored;
}

function parseFeltLoose(text: string): bigint | undefined {
  return FELT_TEXT.test(text) ? BigInt(text) : undefined;
}
