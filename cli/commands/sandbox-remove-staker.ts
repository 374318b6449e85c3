/**
 * `finance-tui sandbox remove-staker VALIDATOR [--json]`: removes a validator's staker on the
 * running sandbox, as the staking contract's `unstake_action` does (docs/sandbox-chain.md
 * "Staking"). Sandbox only, and only a running sandbox will do.
 */
import { parseCommandArgs } from '../headless/args.js';
import type { CommandRun } from '../headless/context.js';
import { withEndpoints } from '../headless/with-endpoints.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui sandbox remove-staker VALIDATOR [--json]

Removes VALIDATOR's staker (a sandbox validator's name or a staker address) from the running
sandbox's staking contract, as its unstake_action does: the staking contract forgets the staker,
and its pool learns it (staker_removed): the pool takes no new stake and pays no more rewards;
its members can still exit (withdrawable at once), withdraw and claim their rewards.
`;

export const run: CommandRun = async (ctx) => {
  const { values, positionals } = parseCommandArgs(ctx.argv, {});
  if (values.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length !== 1)
    throw usageError(
      'expected VALIDATOR (e.g. "Sandbox Alpha"); see finance-tui sandbox remove-staker --help',
    );
  const { removeSandboxStaker } = await import('../core/sandbox-control.js');
  const data = await withEndpoints(
    ctx,
    { sandbox: true, runningSandboxOnly: true },
    (endpoints, call) => removeSandboxStaker(endpoints, positionals[0] ?? '', call),
  );
  return {
    data,
    human: () =>
      `${data.validator}'s staker was removed from the sandbox's staking contract${data.pool === null ? '' : `; its pool ${data.pool} takes no new stake`}.\n`,
  };
};
