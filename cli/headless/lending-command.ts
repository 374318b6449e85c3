/**
 * `--collateral [AMOUNT] TOKEN`, as the lending commands take it (docs/commands.md "Lending"):
 * the one spelling where a flag's value may lead with an amount (the kinds table's `amountInto`,
 * read by kind-command.ts). Light at import.
 */
import { usageError } from '../../shared/errors.js';
import type { ArgToken } from './args.js';

/**
 * `--collateral`'s first word is an amount when it is a plain number, signed or not ("1", ".5",
 * "-1"); a token address ("0x04…") is a token.
 */
const AMOUNT_WORD = /^[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/;

/**
 * `--collateral [AMOUNT] TOKEN`: "--collateral ETH", "--collateral '1 ETH'" or
 * "--collateral 1 ETH" — the token then is the argument right after the amount, wherever the
 * flag stands (`borrow --collateral 1 ETH 100 USDC` as `borrow 100 USDC --collateral 1 ETH`).
 * An amount not followed at once by its token is refused, never paired with another argument.
 * Returns the rest of the positionals. A negative amount passes through, for the core's amount
 * check to refuse (INVALID_AMOUNT).
 */
export function collateralOf(
  value: unknown,
  positionals: string[],
  tokens: readonly ArgToken[],
  expected: number,
): { amount: string | undefined; token: string; rest: string[] } {
  if (typeof value !== 'string' || value.trim() === '')
    throw usageError('--collateral TOKEN (or --collateral AMOUNT TOKEN) is required');
  const parts = value.trim().split(/\s+/);
  const [first = '', second] = parts;
  if (parts.length === 2 && second !== undefined)
    return { amount: first, token: second, rest: positionals };
  if (parts.length > 2) throw usageError('--collateral takes TOKEN or AMOUNT TOKEN');
  if (!AMOUNT_WORD.test(first)) return { amount: undefined, token: first, rest: positionals };
  const flag = tokens.find((t) => t.kind === 'option' && t.name === 'collateral');
  const at = flag === undefined ? -1 : flag.index + (flag.inlineValue === true ? 1 : 2);
  const next = tokens.findIndex((t) => t.kind === 'positional' && t.index === at);
  const positional = tokens.filter((t) => t.kind === 'positional');
  const word = next === -1 ? undefined : tokens[next]?.value;
  if (word === undefined || AMOUNT_WORD.test(word)) {
    throw usageError(
      `--collateral ${first.slice(0, 40)} needs its token right after it: --collateral ${first.slice(0, 40)} ETH` +
        (word === undefined ? '' : ` (got "${word.slice(0, 40)}", a number)`),
    );
  }
  const rest = positional.filter((t) => t.index !== at).map((t) => t.value ?? '');
  if (rest.length > expected)
    throw usageError(
      `too many arguments: ${positionals.map((p) => `"${p.slice(0, 40)}"`).join(' ')} (expected <amount> <TOKEN> and the collateral's token)`,
    );
  return { amount: first, token: word, rest };
}
