/**
 * What the swap and send forms share, pure: the tokens a new form starts on, and the checks of
 * what is typed. An empty field is not a problem to show yet; anything else is said as the
 * core would say it (the amount parsed exactly in the token's decimals, the recipient read by
 * the core's own address parsing).
 */
import { parseAmount } from '../../../shared/amount.js';
import { isAppError } from '../../../shared/errors.js';

/** A new swap (trade, multi-swap or batch row) starts as USDC → ETH. */
export const DEFAULT_PAIR = { from: 'USDC', to: 'ETH' } as const;

/** A new transfer starts in STRK. */
export const DEFAULT_SEND_TOKEN = 'STRK';

/** Why the typed amount is not exactly an amount of `symbol` (undefined: it is, or it is still empty). */
export function amountProblem(text: string, symbol: string, decimals: number | undefined): string | undefined {
  if (text.trim() === '') return undefined;
  if (decimals === undefined) return `unknown token ${symbol}`;
  try {
    parseAmount(text, decimals, { label: symbol });
    return undefined;
  } catch (error) {
    return isAppError(error) ? error.message : 'invalid amount';
  }
}

/** Why `from` cannot be swapped for `to`. */
export function pairProblem(from: string, to: string): string | undefined {
  return from === to ? `cannot swap ${from} for itself` : undefined;
}

/** The core's reading of a recipient: the address normalised, or why it is not one. */
export type RecipientCheck = (text: string) => { address: string } | { problem: string };

/** Why the typed recipient cannot receive (undefined: it can, or it is still empty). */
export function recipientProblem(text: string, check: RecipientCheck): string | undefined {
  if (text.trim() === '') return undefined;
  const recipient = check(text);
  return 'problem' in recipient ? recipient.problem : undefined;
}
