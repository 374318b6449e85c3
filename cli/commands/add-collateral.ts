/**
 * `finance-tui add-collateral AMOUNT TOKEN --debt TOKEN [--pool P] [--yes]`: add collateral to a
 * Vesu position without borrowing (the `position` leg type): approve the pool for exactly the
 * amount, then one modify_position with the collateral +AMOUNT and the debt 0. A position may hold
 * collateral only: no debt is needed (docs/decisions.md).
 */
import type { CommandRun } from '../headless/context.js';
import { collateralCommand, lendingHelp } from '../headless/lending-command.js';

export const USAGE = `Usage: finance-tui add-collateral <amount> <TOKEN> --debt <TOKEN> [options]

Adds <amount> TOKEN as collateral to your (TOKEN, debt) position in a Vesu pool, borrowing
nothing: approves the pool for exactly the amount, then one modify_position. The plan shows the
health factor before → after (it rises). The position needs no debt yet: collateral may be added
first and borrowed against later (borrow … --collateral TOKEN). Signs nothing unless --yes is
given.

  --debt TOKEN        the position's debt asset (with the collateral, it names the position)
${lendingHelp('add-collateral')}`;

export const run: CommandRun = collateralCommand('add-collateral', USAGE, '<amount>');
