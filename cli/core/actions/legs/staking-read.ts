/**
 * The staking leg types' reads before planning (docs/architecture.md "Adding a leg type"): the
 * validator (staking contract), the account's pool membership and, to withdraw, the chain's time —
 * in parallel, and in parallel with the balances and the account's facts. Each rule that needs
 * them is applied here, before anything is built: an inactive validator takes no stake (its
 * reason said), an exit needs a stake, a withdrawal a finished window (the time left said), a
 * claim something to claim.
 */
import { formatAmount } from '../../../../shared/amount.js';
import { AppError, ErrorCode } from '../../../../shared/errors.js';
import { findValidator, validatorsFor } from '../../../../shared/staking.js';
import type { CallOptions } from '../../call.js';
import { readChainTime, readExitWindow, readPoolMember, readValidator } from '../../staking.js';
import type { Token } from '../../../../shared/tokens.js';
import type { ActionContext } from '../pipeline.js';
import type { PlannedLeg } from './index.js';
import type { PoolMember, StakingValidator } from './staking-common.js';
import type { LegSource } from './types.js';

type StakingType = 'stake' | 'unstake-intent' | 'unstake' | 'claim';

/** A staking leg as a request names it; its reads (the validator, the membership) come next. */
export type StakingSpec = {
  [T in StakingType]: {
    type: T;
    /** preset name or staker address */
    validator: string;
    token: Token;
    /** stake and exit intent: the amount (an intent of 0 cancels) */
    amount?: bigint | undefined;
  };
}[StakingType];

const show = (amount: bigint, v: StakingValidator): string =>
  `${formatAmount(amount, v.token.decimals)} ${v.token.symbol}`;

const nothing = (message: string, details: Record<string, unknown> = {}): AppError =>
  new AppError(ErrorCode.NOTHING_STAKED, message, { details });

import { durationWords } from './words.js';

/**
 * One staking leg from its spec and what the chain says. Pure (the reads are passed in); `exit`
 * is the staking contract's exit window and the chain's time, read for an exit intent.
 */
export function stakingLegOf(
  spec: StakingSpec,
  validator: StakingValidator,
  member: PoolMember | undefined,
  now: number | undefined,
  exit?: { windowSeconds: number; now: number },
): PlannedLeg {
  switch (spec.type) {
    case 'stake':
      if (!validator.active)
        throw new AppError(
          ErrorCode.VALIDATOR_INACTIVE,
          `${validator.name} takes no new stake: ${validator.inactiveReason ?? 'it is not active'}`,
          {
            details: {
              validator: validator.name,
              staker: validator.staker,
              stakerRemoved: validator.stakerRemoved === true,
            },
          },
        );
      return { type: 'stake', validator, amount: spec.amount ?? 0n, enter: member === undefined };
    case 'unstake-intent': {
      const amount = spec.amount ?? 0n;
      if (member === undefined)
        throw nothing(`you have no stake with ${validator.name}: nothing to exit`);
      if (amount === 0n && member.unpoolAmount === 0n)
        throw nothing(`no exit from ${validator.name} is running: nothing to cancel`);
      const available = member.amount + member.unpoolAmount;
      // a removed staker's pool refuses to change an exit already running (its
      // undelegate_from_staking_contract_intent: UNDELEGATE_IN_PROGRESS); withdraw it first
      if (validator.stakerRemoved === true && member.unpoolTime !== undefined)
        throw new AppError(
          ErrorCode.EXIT_IN_PROGRESS,
          `${validator.name}'s staker was removed: its pool cannot change the exit already running (${show(member.unpoolAmount, validator)}); withdraw it first, at ${new Date(member.unpoolTime * 1000).toISOString()}`,
          {
            details: {
              withdrawableAt: new Date(member.unpoolTime * 1000).toISOString(),
              exiting: member.unpoolAmount.toString(),
            },
          },
        );
      if (amount > available)
        throw new AppError(
          ErrorCode.INVALID_AMOUNT,
          `you have ${show(available, validator)} with ${validator.name} (staked and exiting); cannot exit ${show(amount, validator)}`,
          { details: { available: available.toString(), amount: amount.toString() } },
        );
      return {
        type: 'unstake-intent',
        validator,
        amount,
        member,
        ...(exit === undefined ? {} : { exit }),
      };
    }
    case 'unstake': {
      if (member === undefined || member.unpoolAmount === 0n || member.unpoolTime === undefined)
        throw nothing(
          `no exit from ${validator.name} is running: start one first, then withdraw once its window has passed`,
        );
      if (now !== undefined && now < member.unpoolTime) {
        const left = member.unpoolTime - now;
        throw new AppError(
          ErrorCode.EXIT_NOT_READY,
          `nothing was signed: the exit of ${show(member.unpoolAmount, validator)} from ${validator.name} can be withdrawn at ${new Date(member.unpoolTime * 1000).toISOString()}, in ${durationWords(left)}`,
          {
            details: {
              withdrawableAt: new Date(member.unpoolTime * 1000).toISOString(),
              secondsLeft: left,
              exiting: member.unpoolAmount.toString(),
            },
          },
        );
      }
      return { type: 'unstake', validator, amount: member.unpoolAmount };
    }
    case 'claim':
      if (member === undefined) throw nothing(`you have no stake with ${validator.name}`);
      if (member.unclaimedRewards === 0n)
        throw nothing(`no rewards from ${validator.name} to claim yet`);
      return {
        type: 'claim',
        validator,
        amount: member.unclaimedRewards,
        rewardAddress: member.rewardAddress,
      };
  }
}

/**
 * The staking legs of a plan, read: for a preset validator the membership is read beside the
 * validator (its pool is known), so a stake's reads are one round of parallel calls.
 */
async function readStakingLegs(
  specs: readonly StakingSpec[],
  ctx: ActionContext,
  call: CallOptions,
): Promise<PlannedLeg[]> {
  const options = { signal: call.signal, sandbox: ctx.sandbox };
  const reader = ctx.account;
  return Promise.all(
    specs.map(async (spec) => {
      const preset = findValidator(
        validatorsFor(reader.network, { sandbox: ctx.sandbox }),
        spec.validator,
      );
      const intent = spec.type === 'unstake-intent';
      const [validator, early, now, windowSeconds] = await Promise.all([
        readValidator(reader, spec.validator, options),
        preset === undefined ? undefined : readPoolMember(reader, preset, options),
        spec.type === 'unstake' || intent ? readChainTime(reader, options) : undefined,
        intent ? readExitWindow(reader, options) : undefined,
      ]);
      const member =
        preset === undefined ? await readPoolMember(reader, validator, options) : early;
      const exit =
        windowSeconds === undefined || now === undefined ? undefined : { windowSeconds, now };
      return stakingLegOf(spec, validator, member, intent ? undefined : now, exit);
    }),
  );
}

/** A staking leg type's source: a stake spends its amount; each reads the validator and the membership. */
const stakingSource = <T extends StakingType>(
  spends: boolean,
): LegSource<Extract<StakingSpec, { type: T }>, Extract<PlannedLeg, { type: T }>> => ({
  spends: (spec) => (spends ? [spec.token] : []),
  names: (spec) => [spec.token],
  reread: { oracle: false },
  read: (specs, { ctx, call }) =>
    readStakingLegs(specs, ctx, call) as Promise<Array<Extract<PlannedLeg, { type: T }>>>,
});

export const stakeSource = stakingSource<'stake'>(true);
export const unstakeIntentSource = stakingSource<'unstake-intent'>(false);
export const unstakeSource = stakingSource<'unstake'>(false);
export const claimSource = stakingSource<'claim'>(false);
