/**
 * What the lending commands share (`supply`, `withdraw`, `borrow`, `add-collateral`,
 * `withdraw-collateral`, `repay`, `close-position`; docs/commands.md "Lending"): the signing
 * flags plus `--pool` and `--accept-low-health` (the 'low-health' acknowledgment,
 * cli/core/actions/acknowledgments.ts), and `--collateral [AMOUNT] TOKEN`. Light at import.
 */
import type { CommandContext, CommandResult, CommandRun } from './context.js';
import type { ActionRequest } from '../core/actions/index.js';
import { parseSigningArgs, runSigning, SIGNING_HELP } from './swap-command.js';
import { usageError } from '../../shared/errors.js';

export const LENDING_HELP = `  --pool NAME|ADDRESS the Vesu pool (default: the network's main pool, Prime on mainnet); lending
                      runs where a pool is known: mainnet (and the mainnet-like sandbox), not
                      sepolia
  --accept-low-health accept a health factor left below 1.2 (at or below 1 is always refused)
${SIGNING_HELP}`;

/** Parse a lending command's flags; `extra` adds its own. */
export function parseLendingArgs(
  argv: string[],
  extra: Record<string, { type: 'string' | 'boolean' }> = {},
) {
  const parsed = parseSigningArgs(
    argv,
    { pool: { type: 'string' }, 'accept-low-health': { type: 'boolean' }, ...extra },
    { swaps: false },
  );
  const { options, values } = parsed;
  const acknowledged = [
    ...(options.acknowledged ?? []),
    ...(values['accept-low-health'] === true ? (['low-health'] as const) : []),
  ];
  return {
    ...parsed,
    options: { ...options, acknowledged },
    pool: values.pool as string | undefined,
  };
}

/**
 * `--collateral [AMOUNT] TOKEN`: "--collateral ETH", "--collateral '1 ETH'" or
 * "--collateral 1 ETH" (the token then follows as an argument). Returns the rest of the
 * positionals.
 */
export function collateralOf(
  value: unknown,
  positionals: string[],
  expected: number,
): { amount: string | undefined; token: string; rest: string[] } {
  if (typeof value !== 'string' || value.trim() === '')
    throw usageError('--collateral TOKEN (or --collateral AMOUNT TOKEN) is required');
  const parts = value.trim().split(/\s+/);
  if (parts.length === 2) return { amount: parts[0], token: parts[1] as string, rest: positionals };
  if (parts.length === 1 && /^[0-9.]+$/.test(parts[0] as string)) {
    if (positionals.length < expected + 1)
      throw usageError('--collateral AMOUNT needs its token: --collateral 1 ETH');
    if (positionals.length > expected + 1)
      throw usageError(
        `too many arguments: ${positionals.map((p) => `"${p.slice(0, 40)}"`).join(' ')} (expected <amount> <TOKEN> and the collateral's token)`,
      );
    return {
      amount: parts[0],
      token: positionals[expected] as string,
      rest: positionals.slice(0, expected),
    };
  }
  if (parts.length === 1)
    return { amount: undefined, token: parts[0] as string, rest: positionals };
  throw usageError('--collateral takes TOKEN or AMOUNT TOKEN');
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
    const { options, values, positionals, pool } = parseLendingArgs(ctx.argv, {
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
