/**
 * What leaves of one token, in the words every face shows the person asked to consent (the tool
 * server's question, the headless review, the app's review): kept apart from document.ts so a
 * face can word it without loading the legs. Pure, no runtime import.
 */
import type { SpendView } from './document.js';

/**
 * The amount (with the max gas when `withGas`; `held` said right after it: " of 10 ETH"), exact
 * — or, when part of it is a bound (repay all, close: the debt plus a margin for the interest),
 * "at most" it with what is expected to leave (docs/commands.md "Review before signing").
 */
export function spendWords(s: SpendView, withGas: boolean, held = ''): string {
  const amount = withGas ? s.total : s.amount;
  if (s.expected === null) return `${amount.amount} ${amount.symbol}${held}`;
  const gas = withGas && s.gas.baseUnits !== '0' ? ', the gas apart' : '';
  // the chain decides what it takes when it runs: never said as an exact figure
  const read =
    s.expectedAsOf === null
      ? 'the debt as read before this review'
      : `the debt as of ${timeWords(s.expectedAsOf)}`;
  return `at most ${amount.amount} ${amount.symbol}${held} (about ${s.expected.amount} ${s.expected.symbol}${gas}: ${read}, plus the interest until it runs)`;
}

/**
 * A time a figure is as of, as every face says it: "2026-11-29 08:44:28 UTC" (from ISO 8601; the
 * chain's clock has whole seconds).
 */
export function timeWords(iso: string): string {
  return `${iso.slice(0, 19).replace('T', ' ')} UTC`;
}
