/**
 * `finance-tui supply AMOUNT TOKEN [--pool P] [--yes]`: a token into a Vesu pool to earn — an
 * action of the one pipeline (the `supply` leg type): approve the pool's vToken for exactly the
 * amount, then deposit.
 */
import type { CommandRun } from '../headless/context.js';
import { lendingHelp, parseLendingArgs, runLending } from '../headless/lending-command.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui supply <amount> <TOKEN> [options]

Supplies <amount> TOKEN to a Vesu pool to earn interest, through the pool's vToken (ERC-4626):
approve the vToken for exactly the amount, then deposit; the shares come to your account and grow
in value as borrowers pay interest. See \`finance-tui lending\`; \`withdraw\` takes it back.
Signs nothing unless --yes is given.

${lendingHelp('supply')}`;

export const run: CommandRun = async (ctx) => {
  const { options, positionals, pool } = parseLendingArgs(ctx.argv, 'supply');
  if (options.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length !== 2)
    throw usageError('expected <amount> <TOKEN>; see finance-tui supply --help');
  const [amount = '', token = ''] = positionals;
  return runLending(ctx, options, { kind: 'supply', supply: { amount, token, pool } });
};
