/**
 * Exact decimal amounts. Every amount is a bigint of base units (wei-like) from the moment it
 * is parsed; no float ever touches one.
 *
 * Accepted input (decided for a money tool, where a typo must not become a trade):
 * - plain decimal digits with at most one ".", digits on BOTH sides of it: "1", "0.5", "007.10".
 *   "1." and ".5" are rejected (write "1" / "0.5"): they are more often a typo than intent.
 * - surrounding whitespace is trimmed (shells and the --pairs list leave it); inner whitespace,
 *   signs ("+1", "-1"), exponents ("1e18"), hex ("0x10"), separators ("1,000", "1_000"),
 *   "NaN", "Infinity" and empty/whitespace-only strings are rejected; a decimal comma ("1,5")
 *   is refused with the dotted spelling to write instead ("1.5").
 * - more fractional digits than the token has decimals are rejected, never rounded.
 * - zero is rejected unless `allowZero` (a swap of nothing is a mistake).
 * - the result must fit in a u256 (the router's calldata carries amounts as two u128 halves).
 */
import { AppError, ErrorCode } from './errors.js';

export const U256_MAX = (1n << 256n) - 1n;
const MAX_INPUT_LENGTH = 100;
const DECIMAL = /^([0-9]+)(?:\.([0-9]+))?$/;

interface ParseAmountOptions {
  /** accept "0" (default false: an amount to swap must be positive) */
  allowZero?: boolean;
  /** names the value in error messages, e.g. the token symbol */
  label?: string;
  /** error code to throw (default INVALID_AMOUNT) */
  code?: typeof ErrorCode.INVALID_AMOUNT | typeof ErrorCode.INVALID_SLIPPAGE;
}

function invalid(text: string, why: string, options: ParseAmountOptions): AppError {
  const what = options.label ? `${options.label} amount` : 'amount';
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return new AppError(
    options.code ?? ErrorCode.INVALID_AMOUNT,
    `invalid ${what} "${shown}": ${why}`,
  );
}

/**
 * "1,5" is a decimal comma: say how to write it with a dot. "1,000" may be a thousands
 * separator or a decimal comma: name both readings rather than guess one.
 */
function commaHint(text: string): string {
  const [whole = '', fraction = ''] = text.split(',');
  const dotted = `${whole}.${fraction}`;
  return fraction.length === 3
    ? `no commas: write ${whole}${fraction}, or ${dotted} for a decimal`
    : `use a dot for decimals: write ${dotted}`;
}

/** Decimal string → base units for a token with `decimals` decimals. Throws INVALID_AMOUNT. */
export function parseAmount(
  text: string,
  decimals: number,
  options: ParseAmountOptions = {},
): bigint {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 77)
    throw new RangeError(`bad decimals ${decimals}`);
  if (typeof text !== 'string') throw invalid(String(text), 'not a string', options);
  const trimmed = text.trim();
  if (trimmed === '') throw invalid(text, 'empty', options);
  if (trimmed.length > MAX_INPUT_LENGTH) throw invalid(text, 'too long', options);
  const match = DECIMAL.exec(trimmed);
  if (match === null) {
    let why = 'write a plain decimal number such as 1 or 0.5';
    if (trimmed.startsWith('-')) why = 'must not be negative';
    else if (/^[0-9]+,[0-9]+$/.test(trimmed)) why = commaHint(trimmed);
    else if (/^\.[0-9]/.test(trimmed)) why = `write a leading zero (0${trimmed})`;
    else if (/^[0-9]+\.$/.test(trimmed)) why = `drop the trailing dot (${trimmed.slice(0, -1)})`;
    throw invalid(text, why, options);
  }
  const whole = match[1] ?? '0';
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) {
    throw invalid(
      text,
      decimals === 0 ? 'no decimals allowed' : `at most ${decimals} decimal places`,
      options,
    );
  }
  const value =
    BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
  if (value === 0n && options.allowZero !== true)
    throw invalid(text, 'must be greater than zero', options);
  if (value > U256_MAX) throw invalid(text, 'too large', options);
  return value;
}

/**
 * The one rule for an amount that moves, in base units (what parseAmount guarantees for typed
 * text, for amounts that arrive as bigints: built calls, plan legs): above zero and within a
 * u256. INVALID_AMOUNT naming `symbol` otherwise. Returns the amount.
 */
export function checkBaseUnits(amount: bigint, symbol: string): bigint {
  if (typeof amount !== 'bigint' || amount <= 0n)
    throw new AppError(ErrorCode.INVALID_AMOUNT, `the ${symbol} amount must be greater than zero`);
  if (amount > U256_MAX)
    throw new AppError(ErrorCode.INVALID_AMOUNT, `the ${symbol} amount is too large for a u256`);
  return amount;
}

interface FormatAmountOptions {
  /**
   * cut (never round up) the fraction to this many digits: only for a dollar value or a price
   * shown beside the amounts, never for an amount (docs/decisions.md "Amounts are shown exact,
   * everywhere")
   */
  maxFractionDigits?: number;
}

/**
 * Base units → decimal string, trailing zeros trimmed ("1.5", "0", "1"). Exact unless cut: the one
 * rendering of an amount in every face.
 */
export function formatAmount(
  value: bigint,
  decimals: number,
  options: FormatAmountOptions = {},
): string {
  if (value < 0n) return `-${formatAmount(-value, decimals, options)}`;
  const scale = 10n ** BigInt(decimals);
  const whole = value / scale;
  let fraction = decimals === 0 ? '' : (value % scale).toString().padStart(decimals, '0');
  if (options.maxFractionDigits !== undefined)
    fraction = fraction.slice(0, options.maxFractionDigits);
  fraction = fraction.replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}
