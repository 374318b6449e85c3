/**
 * `finance-tui close-position --collateral TOKEN --debt TOKEN [--pool P] [--yes]`: repay the whole
 * debt and withdraw all the collateral of a Vesu position in one modify_position (the `position`
 * leg type).
 */
import type { CommandRun } from '../headless/context.js';
import { lendingHelp, parseLendingArgs, runLending } from '../headless/lending-command.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui close-position --collateral <TOKEN> --debt <TOKEN> [options]

Closes a Vesu position in one transaction: repays the whole nominal debt (no dust) and withdraws
every collateral share back to your account. Signs nothing unless --yes is given.

  --collateral TOKEN  the position's collateral asset
  --debt TOKEN        the position's debt asset
${lendingHelp('close-position')}`;

export const run: CommandRun = async (ctx) => {
  const { options, values, positionals, pool } = parseLendingArgs(ctx.argv, 'close-position', {
    collateral: { type: 'string' },
    debt: { type: 'string' },
  });
  if (options.help) return { data: { usage: USAGE }, human: () => USAGE };
  const collateral = values.collateral as string | undefined;
  const debt = values.debt as string | undefined;
  if (positionals.length !== 0 || collateral === undefined || debt === undefined)
    throw usageError(
      'expected --collateral TOKEN --debt TOKEN; see finance-tui close-position --help',
    );
  return runLending(ctx, options, { kind: 'close-position', close: { collateral, debt, pool } });
};
