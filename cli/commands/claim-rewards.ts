/**
 * `finance-tui claim-rewards --validator V [--yes]`: the pool pays your unclaimed staking rewards
 * to your reward address (said when it is not this wallet). The `claim` leg type.
 */
import type { CommandRun } from '../headless/context.js';
import { parseStakingArgs } from '../headless/staking-command.js';
import { runSigning, SIGNING_HELP } from '../headless/swap-command.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui claim-rewards --validator NAME|ADDRESS [options]

Claims the unclaimed rewards of your stake with a validator: the pool pays exactly that amount of
STRK to your reward address (your account, unless it was changed: the plan says so).

  --validator V       the validator: a preset name or a staker address (required)
${SIGNING_HELP}`;

export const run: CommandRun = async (ctx) => {
  const { options, positionals, validator } = parseStakingArgs(ctx.argv);
  if (options.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length > 0) throw usageError('claim-rewards takes no argument but --validator');
  return runSigning(ctx, options, {
    kind: 'claim-rewards',
    validator,
  });
};
