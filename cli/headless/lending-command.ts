/**
 * What the lending commands share (`supply`, `withdraw`, `borrow`, `add-collateral`,
 * `withdraw-collateral`, `repay`, `close-position`; docs/commands.md "Lending"): the signing
 * flags plus `--pool`, `--accept-low-health` (the 'low-health' acknowledgment,
 * cli/core/actions/acknowledgments.ts; only where the kinds table says the plan can ask it), and
 * `--collateral [AMOUNT] TOKEN`. Light at import.
 */
import type { CommandContext, CommandResult, CommandRun } from './context.js';
import type { ActionRequest } from '../core/actions/index.js';
import { parseSigningArgs, runSigning, SIGNING_HELP } from './swap-command.js';
import { usageError } from '../../shared/errors.js';
import { ACTION_KINDS } from '../core/actions/kinds.js';
import type { ArgToken } from './args.js';

type LendingKind =
  | 'supply'
  | 'withdraw'
  | 'borrow'
  | 'repay'
  | 'add-collateral'
  | 'withdraw-collateral'
  | 'close-position';

/** Whether the kind's plan can ask 'low-health' (the kinds table, cli/core/actions/kinds.ts). */
const takesLowHealth = (kind: LendingKind): boolean =>
  ACTION_KINDS[kind].acknowledges?.includes('low-health') === true;

/** The lending flags' help for `kind`: --accept-low-health only where it can mean something. */
export const lendingHelp = (
  kind: LendingKind,
): string => `  --pool NAME|ADDRESS the Vesu pool (default: the network's main pool: Prime on mainnet, WBTC
                      Prime Sepolia on sepolia; a sandbox has its shape's)
${takesLowHealth(kind) ? '  --accept-low-health accept a health factor left below 1.2 (at or below 1 is always refused)\n' : ''}  --accept-unknown-pool use a pool named by address that is not a known one
${SIGNING_HELP}`;

/**
 * Parse a lending command's flags; `extra` adds its own. `--accept-low-health` given to a command
 * whose plan never asks it (supply, repay, …: they add no risk) is a USAGE_ERROR, not silently
 * ignored (docs/decisions.md "An acknowledgment flag only where it can mean something").
 */
export function parseLendingArgs(
  argv: string[],
  kind: LendingKind,
  extra: Record<string, { type: 'string' | 'boolean' }> = {},
) {
  const parsed = parseSigningArgs(
    argv,
    {
      pool: { type: 'string' },
      'accept-low-health': { type: 'boolean' },
      'accept-unknown-pool': { type: 'boolean' },
      ...extra,
    },
    { swaps: false },
  );
  const { options, values } = parsed;
  if (values['accept-low-health'] === true && !takesLowHealth(kind))
    throw usageError(
      `--accept-low-health means nothing to ${kind}: it leaves no health factor lower (only borrow and withdraw-collateral can)`,
    );
  const acknowledged = [
    ...(options.acknowledged ?? []),
    ...(values['accept-low-health'] === true ? (['low-health'] as const) : []),
    ...(values['accept-unknown-pool'] === true ? (['unknown-pool'] as const) : []),
  ];
  return {
    ...parsed,
    options: { ...options, acknowledged },
    pool: values.pool as string | undefined,
  };
}

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

export const runLending = (
  ctx: CommandContext,
  options: Parameters<typeof runSigning>[1],
  request: ActionRequest,
): Promise<CommandResult> => runSigning(ctx, options, request);

/**
 * `add-collateral` and `withdraw-collateral`: `AMOUNT TOKEN --debt TOKEN`, the collateral and the
 * debt naming the position; one command body, each command its words.
 */
export const collateralCommand =
  (kind: 'add-collateral' | 'withdraw-collateral', usage: string, amountWord: string): CommandRun =>
  async (ctx) => {
    const { options, values, positionals, pool } = parseLendingArgs(ctx.argv, kind, {
      debt: { type: 'string' },
    });
    if (options.help) return { data: { usage }, human: () => usage };
    const debt = values.debt as string | undefined;
    if (positionals.length !== 2 || debt === undefined || debt.trim() === '')
      throw usageError(
        `expected ${amountWord} <TOKEN> --debt TOKEN; see finance-tui ${kind} --help`,
      );
    const [amount = '', token = ''] = positionals;
    return runLending(ctx, options, { kind, collateral: { amount, token, debt, pool } });
  };
