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
  const asOf = s.expectedAsOf === null ? '' : ` as of ${s.expectedAsOf}`;
  return `at most ${amount.amount} ${amount.symbol}${held} (about ${s.expected.amount} ${s.expected.symbol}${asOf}${gas}: the debt as read before this review, plus the interest until it runs)`;
}
