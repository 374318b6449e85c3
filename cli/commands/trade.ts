/** `finance-tui trade <amount> <from> <to> [--yes] …`: one swap, approve + swap in one transaction. */
import type { CommandRun } from '../headless/context.js';
import { parseSigningArgs, runSigning, SIGNING_OPTIONS_HELP } from '../headless/swap-command.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui trade <amount> <from> <to> [options]

Swaps <amount> of <from> for <to> (symbols or addresses; amounts in token units, e.g. 0.5):
quote → calldata → checks → simulation of exactly what would be signed. Without --yes it shows
the plan and signs nothing; with --yes it signs one transaction: approve(router, exactly the
amount) then swap.

${SIGNING_OPTIONS_HELP}`;

export const run: CommandRun = async (ctx) => {
  const { options, positionals } = parseSigningArgs(ctx.argv, {});
  if (options.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length !== 3)
    throw usageError(
      `expected <amount> <from> <to> (got ${positionals.length} argument${positionals.length === 1 ? '' : 's'}); see finance-tui trade --help`,
    );
  const [amount = '', from = '', to = ''] = positionals;
  return runSigning(ctx, options, { kind: 'trade', swap: { amount, from, to } });
};
