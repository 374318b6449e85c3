/**
 * `finance-tui unstake AMOUNT --validator V [--restart-exit] [--yes]` starts the exit of AMOUNT
 * (0 cancels a running one); `finance-tui unstake --complete --validator V [--yes]` withdraws it
 * once its window has passed. Actions of the one pipeline (the `unstake-intent` and `unstake`
 * leg types).
 */
import type { CommandRun } from '../headless/context.js';
import { parseStakingArgs } from '../headless/staking-command.js';
import { runSigning, SIGNING_HELP } from '../headless/swap-command.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui unstake <amount> --validator NAME|ADDRESS [options]
       finance-tui unstake --complete --validator NAME|ADDRESS [options]

unstake <amount> starts the exit of <amount> STRK from the validator's pool: it stops earning and
can be withdrawn once the exit window has passed (7 days on mainnet, 5 minutes on sepolia; read
from the contract). 0 cancels a running exit. A new exit REPLACES a running one and RESTARTS its
timer: that needs --restart-exit. unstake --complete withdraws the exited amount once the window
has passed (before: refused with the time left, nothing signed).

  --validator V       the validator: a preset name or a staker address (required)
  --complete          withdraw the exited amount (after the window)
  --restart-exit      accept that a new exit restarts the running exit's timer
${SIGNING_HELP}`;

export const run: CommandRun = async (ctx) => {
  const { options, values, positionals, validator } = parseStakingArgs(ctx.argv, {
    complete: { type: 'boolean' },
    'restart-exit': { type: 'boolean' },
  });
  if (options.help) return { data: { usage: USAGE }, human: () => USAGE };
  const acknowledged = [
    ...(options.acknowledged ?? []),
    ...(values['restart-exit'] === true ? (['exit-restart'] as const) : []),
  ];
  if (values.complete === true) {
    if (positionals.length > 0)
      throw usageError('unstake --complete takes no amount: it withdraws the whole exited amount');
    // the kinds table: unstake-complete asks no acknowledgment (docs/decisions.md)
    if (values['restart-exit'] === true)
      throw usageError(
        '--restart-exit means nothing to unstake --complete: it starts no exit (only unstake AMOUNT can restart one)',
      );
    return runSigning(ctx, { ...options, acknowledged }, { kind: 'unstake-complete', validator });
  }
  if (positionals.length !== 1)
    throw usageError('expected <amount> (or --complete); see finance-tui unstake --help');
  const [amount = ''] = positionals;
  return runSigning(
    ctx,
    { ...options, acknowledged },
    { kind: 'unstake', unstake: { amount, validator } },
  );
};
