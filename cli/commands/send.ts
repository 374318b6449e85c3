/**
 * `finance-tui send <amount> <token> <to> [--yes] [--gas-token T] [--max-fee AMOUNT]`: a token
 * transfer from the signed-in wallet — an action of the one pipeline (cli/core/actions), the very
 * code a one-transfer `batch --send` runs. Without --yes it shows the plan — checked, built and
 * simulated — signs nothing, and exits 1 with CONFIRMATION_REQUIRED (the plan in the error
 * document under --json). With --yes it signs exactly that plan and sends it.
 */
import type { CommandRun } from '../headless/context.js';
import { parseSigningArgs, runSigning, SIGNING_HELP } from '../headless/swap-command.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui send <amount> <token> <to> [options]

Sends <amount> (token units, e.g. 1.5) of <token> (symbol or address) to the address <to>.
Shows the plan — fee, balance changes from a simulation of exactly what would be signed — and
signs nothing unless --yes is given. The same as \`batch --send "<amount> <token>><to>"\`.

${SIGNING_HELP}`;

export const run: CommandRun = async (ctx) => {
  const { options, positionals } = parseSigningArgs(ctx.argv, {}, { swaps: false });
  if (options.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length !== 3)
    throw usageError(
      `expected <amount> <token> <to> (got ${positionals.length} argument${positionals.length === 1 ? '' : 's'}); see finance-tui send --help`,
    );
  const [amount = '', token = '', to = ''] = positionals;
  return runSigning(ctx, options, { kind: 'send', transfer: { amount, token, to } });
};
