/**
 * `finance-tui repay AMOUNT|all TOKEN --collateral TOKEN [--pool P] [--yes]`: repay a Vesu debt
 * (the `position` leg type). `all` repays the whole nominal debt (Native denomination): no dust.
 */
import type { CommandRun } from '../headless/context.js';
import {
  collateralOf,
  lendingHelp,
  parseLendingArgs,
  runLending,
} from '../headless/lending-command.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui repay <amount>|all <TOKEN> --collateral <TOKEN> [options]

Repays <amount> of your TOKEN debt against the collateral TOKEN in a Vesu pool, or all of it: the
whole nominal debt, so no interest dust is left (the approve then covers the debt read plus
0.1 % for the interest until it runs, or what you hold when that is less but covers the debt,
and is set back to 0 in the same transaction). A partial
repay that would leave a debt at or under the pool's floor is refused. The collateral stays in
the position (close-position takes it back). Signs nothing unless --yes is given.

  --collateral TOKEN  the position's collateral asset
${lendingHelp('repay')}`;

export const run: CommandRun = async (ctx) => {
  const { options, values, positionals, tokens, pool } = parseLendingArgs(ctx.argv, 'repay', {
    collateral: { type: 'string' },
  });
  if (options.help) return { data: { usage: USAGE }, human: () => USAGE };
  // repay's collateral is the position's token alone: say so when it is missing too
  if (typeof values.collateral !== 'string' || values.collateral.trim() === '')
    throw usageError('--collateral TOKEN is required: the collateral of the position to repay');
  const c = collateralOf(values.collateral, positionals, tokens, 2);
  if (c.amount !== undefined) throw usageError('repay takes --collateral TOKEN (no amount)');
  if (c.rest.length !== 2)
    throw usageError(
      'expected <amount>|all <TOKEN> --collateral TOKEN; see finance-tui repay --help',
    );
  const [amount = '', token = ''] = c.rest;
  return runLending(ctx, options, {
    kind: 'repay',
    repay: { amount, token, collateral: c.token, pool },
  });
};
