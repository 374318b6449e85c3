/**
 * `finance-tui withdraw AMOUNT|all TOKEN [--pool P] [--yes]`: a supplied token back from a Vesu
 * pool (the `withdraw` leg type): the vToken's withdraw, or for `all` a redeem of every share.
 */
import type { CommandRun } from '../headless/context.js';
import { lendingHelp, parseLendingArgs, runLending } from '../headless/lending-command.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui withdraw <amount>|all <TOKEN> [options]

Withdraws <amount> of a token you supplied to a Vesu pool (the vToken's withdraw), or all of it
(a redeem of every vToken share you hold: nothing is left behind). A pool that lends out too much
to pay you back now is refused before signing. Signs nothing unless --yes is given.

${lendingHelp('withdraw')}`;

export const run: CommandRun = async (ctx) => {
  const { options, positionals, pool } = parseLendingArgs(ctx.argv, 'withdraw');
  if (options.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length !== 2)
    throw usageError('expected <amount>|all <TOKEN>; see finance-tui withdraw --help');
  const [amount = '', token = ''] = positionals;
  return runLending(ctx, options, { kind: 'withdraw', withdraw: { amount, token, pool } });
};
