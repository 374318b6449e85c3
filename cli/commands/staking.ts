/** `finance-tui staking [--network N] [--sandbox] [--json]`: the validators known for the network and your positions. */
import { parseCommandArgs, parseNetworkFlag } from '../headless/args.js';
import type { CommandRun } from '../headless/context.js';
import { withEndpoints } from '../headless/with-endpoints.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui staking [--network mainnet|sepolia] [--sandbox] [--json]

The validators known for the network (preset names, staker and pool addresses, commission,
whether each takes new stakes) and your positions with them: staked, unclaimed rewards, the
amount in its exit window and when it can be withdrawn, and where rewards are paid. Exact
amounts; --json gives each as { amount, baseUnits }. A validator whose staker was removed from
staking is read from its pool (stakerRemoved): it takes no stake and pays no more rewards; its
members can still exit (withdrawable at once), withdraw and claim (memberCan).
`;

export const run: CommandRun = async (ctx) => {
  const { values, positionals } = parseCommandArgs(ctx.argv, { network: { type: 'string' } });
  if (values.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length > 0)
    throw usageError(`staking takes no arguments (got "${String(positionals[0]).slice(0, 40)}")`);
  const network = parseNetworkFlag(values.network);
  const [{ stakingPositions }, { ACTION_KINDS }] = await Promise.all([
    import('../core/staking.js'),
    import('../core/actions/kinds.js'),
  ]);
  const data = await withEndpoints(
    ctx,
    { sandbox: values.sandbox === true, ...(network ? { network } : {}) },
    (endpoints, call) => stakingPositions(endpoints, {}, call),
  );
  return {
    data,
    human: () => {
      const lines = [`Validators on ${data.network}:`];
      for (const v of data.validators)
        lines.push(
          `  ${v.name.padEnd(22)} commission ${(v.commissionBps / 100).toFixed(2)} %  ${v.active ? 'active' : `inactive: ${v.inactiveReason ?? ''}`}`,
          `    stake ${v.stake.amount} ${v.token} (${v.shareOfTotalStake === null ? 'no share' : `${v.shareOfTotalStake} %`} of the total stake ${data.totalStake.amount} ${v.token})`,
          `    staker ${v.staker}  pool ${v.pool}`,
        );
      lines.push('', data.positions.length === 0 ? 'No positions.' : 'Your positions:');
      for (const p of data.positions) {
        lines.push(
          `  ${p.validator}: staked ${p.staked.amount} ${p.token}, unclaimed ${p.unclaimedRewards.amount} ${p.token}${p.exiting.baseUnits === '0' ? '' : `, exiting ${p.exiting.amount} ${p.token} (withdrawable at ${p.withdrawableAt ?? '?'})`}${p.rewardAddress === data.account ? '' : `, rewards paid to ${p.rewardAddress}`}`,
        );
        if (p.memberCan !== null)
          lines.push(
            `    its staker was removed: no more rewards, no new stake.${p.memberCan.length === 0 ? '' : ` You can still: ${p.memberCan.map((kind) => `${ACTION_KINDS[kind].command}${kind === 'unstake' ? ' AMOUNT' : ''} --validator "${p.validator}"${kind === 'unstake' ? ' (withdrawable at once)' : ''}`).join('; ')}`}`,
          );
      }
      return `${lines.join('\n')}\n`;
    },
  };
};
