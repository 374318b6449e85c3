/**
 * `finance-tui withdraw-collateral AMOUNT|all TOKEN --debt TOKEN [--pool P] [--yes]`: take
 * collateral out of a Vesu position without closing it (the `position` leg type): one
 * modify_position with the collateral −AMOUNT and the debt 0; `all` withdraws every collateral
 * share (Native denomination: no dust). With a debt, the health factor after is held to a
 * borrow's rules before signing.
 */
import type { CommandRun } from '../headless/context.js';
import { LENDING_HELP, parseLendingArgs, runLending } from '../headless/lending-command.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui withdraw-collateral <amount>|all <TOKEN> --debt <TOKEN> [options]

Withdraws <amount> TOKEN of collateral from your (TOKEN, debt) position in a Vesu pool, or all of
it (every collateral share, so no dust is left), in one modify_position; the debt is untouched.
With a debt, before signing: the health factor after (collateral value × max LTV / debt value,
at the pool's own prices) — at or below 1 refused, below 1.2 only with --accept-low-health. More
than the position holds is refused. Signs nothing unless --yes is given.

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
      'expected <amount>|all <TOKEN> --debt TOKEN; see finance-tui withdraw-collateral --help',
    );
  const [amount = '', token = ''] = positionals;
  return runLending(ctx, options, {
    kind: 'withdraw-collateral',
    collateral: { amount, token, debt, pool },
  });
};
