/**
 * `finance-tui withdraw-collateral AMOUNT|all TOKEN --debt TOKEN [--pool P] [--yes]`: take
 * collateral out of a Vesu position without closing it (the `position` leg type): one
 * modify_position with the collateral −AMOUNT and the debt 0; `all` withdraws every collateral
 * share (Native denomination: no dust). With a debt, the health factor after is held to a
 * borrow's rules before signing.
 */
import type { CommandRun } from '../headless/context.js';
import { collateralCommand, lendingHelp } from '../headless/lending-command.js';

export const USAGE = `Usage: finance-tui withdraw-collateral <amount>|all <TOKEN> --debt <TOKEN> [options]

Withdraws <amount> TOKEN of collateral from your (TOKEN, debt) position in a Vesu pool, or all of
it (every collateral share, so no dust is left), in one modify_position; the debt is untouched.
With a debt, before signing: the health factor after (collateral value × max LTV / debt value,
at the pool's own prices) — at or below 1 refused, below 1.2 only with --accept-low-health. More
than the position holds is refused. Signs nothing unless --yes is given.

  --debt TOKEN        the position's debt asset (with the collateral, it names the position)
${lendingHelp('withdraw-collateral')}`;

export const run: CommandRun = collateralCommand('withdraw-collateral', USAGE, '<amount>|all');
