/**
 * `finance-tui borrow AMOUNT TOKEN --collateral [AMOUNT] TOKEN [--pool P] [--yes]`: borrow against
 * collateral in a Vesu pool (the `position` leg type): approve the pool for the collateral
 * deposited (when an amount is given), then one modify_position. The health factor after it is
 * checked before signing.
 */
import type { CommandRun } from '../headless/context.js';
import {
  collateralOf,
  lendingHelp,
  parseLendingArgs,
  runLending,
} from '../headless/lending-command.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui borrow <amount> <TOKEN> --collateral [AMOUNT] <TOKEN> [options]

Borrows <amount> TOKEN from a Vesu pool against collateral: --collateral "1 ETH" deposits 1 ETH
with the borrow (approving the pool for exactly that), --collateral ETH borrows against what the
position holds already — one modify_position. Before signing: the health factor after the borrow
(collateral value × max LTV / debt value, at the pool's own prices) — at or below 1 refused, below
1.2 only with --accept-low-health — and the pool's debt floor, cap, utilisation limit and oracle.
Signs nothing unless --yes is given.

  --collateral [AMOUNT] TOKEN
                      the collateral asset, and how much of it to deposit with the borrow
${lendingHelp('borrow')}`;

export const run: CommandRun = async (ctx) => {
  const { options, values, positionals, tokens, pool } = parseLendingArgs(ctx.argv, 'borrow', {
    collateral: { type: 'string' },
  });
  if (options.help) return { data: { usage: USAGE }, human: () => USAGE };
  const c = collateralOf(values.collateral, positionals, tokens, 2);
  if (c.rest.length !== 2)
    throw usageError(
      'expected <amount> <TOKEN> --collateral [AMOUNT] TOKEN; see finance-tui borrow --help',
    );
  const [amount = '', token = ''] = c.rest;
  return runLending(ctx, options, {
    kind: 'borrow',
    borrow: { amount, token, collateral: c.token, collateralAmount: c.amount, pool },
  });
};
