/**
 * What the swap and send forms share, pure: the tokens a new form starts on, and the checks of
 * what is typed. An empty field is not a problem to show yet; anything else is said as the
 * core would say it (the amount read by the core's own rule, parsePositiveAmount, so the app and
 * the headless commands refuse the same text with the same words; the recipient read by the
 * core's own address parsing). The fields never filter keystrokes: what was typed is shown.
 */
import { pairProblem as corePairProblem, parsePositiveAmount } from '../../core/actions/rules.js';
import { isAppError } from '../../../shared/errors.js';

/**
 * How much a field takes: more than the core reads (it refuses a longer amount as too long, an
 * address longer than 66 characters as malformed), so a cut never turns a paste into another
 * valid value.
 */
export const AMOUNT_FIELD_LENGTH = 120;
export const ADDRESS_FIELD_LENGTH = 100;

/** A new swap (trade, multi-swap or batch row) starts as USDC → ETH. */
export const DEFAULT_PAIR = { from: 'USDC', to: 'ETH' } as const;

/** A new transfer starts in STRK. */
export const DEFAULT_SEND_TOKEN = 'STRK';

/** Why the typed amount is not exactly an amount of `symbol` (undefined: it is, or it is still empty). */
export function amountProblem(
  text: string,
  symbol: string,
  decimals: number | undefined,
): string | undefined {
  if (text.trim() === '') return undefined;
  if (decimals === undefined) return `unknown token ${symbol}`;
  try {
    parsePositiveAmount(text, { symbol, decimals });
    return undefined;
  } catch (error) {
    return isAppError(error) ? error.message : 'invalid amount';
  }
}

/** Why `from` cannot be swapped for `to` (symbols of the picker): the core's rule. */
export function pairProblem(from: string, to: string): string | undefined {
  return corePairProblem({ symbol: from }, { symbol: to });
}

/** The core's reading of a recipient: the address normalised, or why it is not one. */
export type RecipientCheck = (text: string) => { address: string } | { problem: string };

/** Why the typed recipient cannot receive (undefined: it can, or it is still empty). */
export function recipientProblem(text: string, check: RecipientCheck): string | undefined {
  if (text.trim() === '') return undefined;
  const recipient = check(text);
  return 'problem' in recipient ? recipient.problem : undefined;
}

/** The send form as typed (restored when Esc or `n` comes back from the review). */
export interface SendForm {
  token: string;
  amount: string;
  to: string;
  focus: 'token' | 'amount' | 'to';
}
