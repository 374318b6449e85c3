/**
 * The `unstake-intent` leg type: `exit_delegation_pool_intent(amount)` on the validator's pool
 * starts the exit window for `amount` (the unpooled part earns nothing); `0` cancels a running
 * exit. A new intent REPLACES a running one and RESTARTS its timer: the plan then needs the
 * 'exit-restart' acknowledgment. Its read before planning is the pool membership. Effects:
 * nothing leaves or arrives; the position's exiting amount changes.
 */
import { formatAmount } from '../../../../shared/amount.js';
import type { Acknowledgment } from '../acknowledgments.js';
import {
  amountFelt,
  checkPoolCall,
  type PoolMember,
  type StakingValidator,
  validatorView,
} from './staking-common.js';
import type { LegType } from './types.js';
import { durationWords, exact, legAmount, shortAddress } from './words.js';

export interface UnstakeIntentLeg {
  type: 'unstake-intent';
  validator: StakingValidator;
  /** 0 cancels the running exit */
  amount: bigint;
  /** the membership read before planning (its running exit, if any) */
  member: PoolMember;
  /** the staking contract's exit window and the chain's time when planned (seconds) */
  exit?: { windowSeconds: number; now: number } | undefined;
}

const iso = (seconds: number): string => new Date(seconds * 1000).toISOString();

export const unstakeIntentLegType: LegType<UnstakeIntentLeg> = {
  calls: (leg) => [
    {
      contractAddress: leg.validator.pool,
      entrypoint: 'exit_delegation_pool_intent',
      calldata: [amountFelt(leg.amount, leg.validator.token)],
    },
  ],
  verify: (leg, calls, at, index) => {
    checkPoolCall(
      calls[at],
      {
        contract: leg.validator.pool,
        entrypoint: 'exit_delegation_pool_intent',
        args: [leg.amount],
      },
      `exit intent ${index + 1} (${exact(leg.amount, leg.validator.token)} from ${leg.validator.name})`,
      at,
    );
    return 1;
  },
  effects: (leg) => ({
    out: [],
    in: [],
    positions: [
      {
        kind: 'staking',
        pool: leg.validator.pool,
        token: leg.validator.token,
        change: 'exit-intent',
        amount: leg.amount,
      },
    ],
  }),
  acknowledgments: (leg): Acknowledgment[] => {
    const { member } = leg;
    if (member.unpoolAmount === 0n || member.unpoolTime === undefined) return [];
    const running = `${formatAmount(member.unpoolAmount, leg.validator.token.decimals)} ${leg.validator.token.symbol}`;
    return [
      {
        id: 'exit-restart',
        reason:
          leg.amount === 0n
            ? `an exit of ${running} from ${leg.validator.name} is running (withdrawable at ${iso(member.unpoolTime)}); 0 cancels it and the amount is staked again`
            : `an exit of ${running} from ${leg.validator.name} is running (withdrawable at ${iso(member.unpoolTime)}); a new intent replaces it and restarts the exit timer from now`,
        details: {
          exiting: member.unpoolAmount.toString(),
          withdrawableAt: iso(member.unpoolTime),
        },
      },
    ];
  },
  // what the exit leaves behind it, and when it can be withdrawn (the pool's exit window from the
  // chain's time now): said before signing and in the receipt
  terms: (leg) => {
    const { member, validator } = leg;
    const token = validator.token;
    const running = member.unpoolAmount === 0n ? undefined : exact(member.unpoolAmount, token);
    if (leg.amount === 0n)
      return [
        `after it nothing is exiting from ${validator.name}: ${running ?? 'the exit'} is staked again`,
      ];
    const after = `after it ${exact(leg.amount, token)} is exiting from ${validator.name}${running === undefined ? '' : ` (replacing the running exit of ${running}, whose timer restarts)`}`;
    if (leg.exit === undefined) return [after];
    const at = iso(leg.exit.now + leg.exit.windowSeconds);
    return [
      after,
      `it can be withdrawn once the pool's exit window of ${durationWords(leg.exit.windowSeconds)} has passed from when this lands: about ${at}`,
    ];
  },
  identity: (leg) => [leg.validator.pool],
  describe: (leg) => ({
    type: 'unstake-intent',
    amount: legAmount(leg.amount, leg.validator.token),
    cancel: leg.amount === 0n,
    validator: validatorView(leg.validator),
  }),
  headline: (legs) =>
    legs.map((l) =>
      l.amount === 0n
        ? `cancel the exit from ${l.validator.name} (pool ${shortAddress(l.validator.pool)})`
        : `start the exit of ${exact(l.amount, l.validator.token)} from ${l.validator.name} (pool ${shortAddress(l.validator.pool)})`,
    ),
  // the running exit it replaces (or cancels) is what the review named and acknowledged
  moved: (planned, now) =>
    planned.member.unpoolAmount === now.member.unpoolAmount &&
    planned.member.unpoolTime === now.member.unpoolTime
      ? []
      : [
          now.member.unpoolAmount === 0n
            ? `no exit from ${now.validator.name} is running any more (it was ${exact(planned.member.unpoolAmount, planned.validator.token)})`
            : `the exit from ${now.validator.name} running now is ${exact(now.member.unpoolAmount, now.validator.token)}, withdrawable at ${iso(now.member.unpoolTime ?? 0)}${planned.member.unpoolAmount === 0n ? ' (none was running)' : ''}`,
        ],
  describeCalls: (leg) => [
    leg.amount === 0n
      ? `cancel the running exit from the ${leg.validator.name} pool`
      : `start the exit window for ${exact(leg.amount, leg.validator.token)} in the ${leg.validator.name} pool`,
  ],
};
