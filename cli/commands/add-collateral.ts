/**
 * `finance-tui add-collateral AMOUNT TOKEN --debt TOKEN [--pool P] [--yes]`: add collateral to a
 * Vesu position without borrowing (the `position` leg type): approve the pool for exactly the
 * amount, then one modify_position with the collateral +AMOUNT and the debt 0. A position may hold
 * collateral only: no debt is needed (docs/decisions.md).
 */
import type { CommandRun } from '../headless/context.js';
import { LENDING_HELP, parseLendingArgs, runLending } from '../headless/lending-command.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui add-collateral <amount> <TOKEN> --debt <TOKEN> [options]

Adds <amount> TOKEN as collateral to your (TOKEN, debt) position in a Vesu pool, borrowing
nothing: approves the pool for exactly the amount, then one modify_position. The plan shows the
health factor before → after (it rises). The position needs no debt yet: collateral may be added
first and borrowed against later (borrow … --collateral TOKEN). Signs nothing unless --yes is
given.

  --debt TOKEN        the position's debt asset (with the collateral, it names the position)
${LENDING_HELP}`;

export const run: CommandRun = async (ctx) => {
  const { options, values, positionals, pool } = parseLendingArgs(ctx.argv, {
    debt: { type: 'string' },
  });
  if (options.help) return { data: { usage: USAGE }, human: () => USAGE };
  const debt = values.debt as string | undefined;
  if (positionals.length !== 2 || debt === undefined || debt.trim() === '')
    throw usageError(
      'expected <amount> <TOKEN> --debt TOKEN; see finance-tui add-collateral --help',
    );
  const [amount = '', token = ''] = positionals;
  return runLending(ctx, options, {
    kind: 'add-collateral',
    collateral: { amount, token, debt, pool },
  });
};
