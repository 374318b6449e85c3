/**
 * The `claim` leg type: `claim_rewards(the account)` on the validator's pool pays the unclaimed
 * rewards (up to the current epoch) to the member's reward address — which may not be the wallet:
 * the plan says so. Its read before planning is the membership. Effects: at least the unclaimed
 * rewards as read arrive, at the reward address — the chain decides the amount when it runs
 * (rewards only grow), so no face states it exactly.
 */
import { sameAddress } from '../../../../shared/tokens.js';
import {
  addressValue,
  checkPoolCall,
  type StakingValidator,
  validatorView,
} from './staking-common.js';
import type { LegType } from './types.js';
import { exact, legAmount, shortAddress } from './words.js';

export interface ClaimLeg {
  type: 'claim';
  validator: StakingValidator;
  /** the unclaimed rewards read before planning */
  amount: bigint;
  /** where the pool pays them */
  rewardAddress: string;
}

const whereTo = (leg: ClaimLeg, account: string): string =>
  sameAddress(leg.rewardAddress, account)
    ? `your account ${shortAddress(account)}`
    : `the reward address ${leg.rewardAddress} (not this wallet)`;

export const claimLegType: LegType<ClaimLeg> = {
  calls: (leg, plan) => [
    { contractAddress: leg.validator.pool, entrypoint: 'claim_rewards', calldata: [plan.account] },
  ],
  verify: (leg, calls, at, index, plan) => {
    checkPoolCall(
      calls[at],
      {
        contract: leg.validator.pool,
        entrypoint: 'claim_rewards',
        args: [addressValue(plan.account)],
      },
      `claim ${index + 1} (${leg.validator.name})`,
      at,
    );
    return 1;
  },
  effects: (leg, plan) => ({
    out: [],
    in: [
      {
        token: leg.validator.token,
        amount: leg.amount,
        // the pool pays what is unclaimed when it runs: at least what was read (rewards only grow)
        basis: 'minimum',
        ...(sameAddress(leg.rewardAddress, plan.account) ? {} : { to: leg.rewardAddress }),
      },
    ],
    positions: [
      {
        kind: 'staking',
        pool: leg.validator.pool,
        token: leg.validator.token,
        change: 'claim',
        amount: leg.amount,
      },
    ],
  }),
  identity: (leg) => [leg.validator.pool],
  describe: (leg) => ({
    type: 'claim',
    amount: legAmount(leg.amount, leg.validator.token),
    validator: validatorView(leg.validator),
    rewardAddress: leg.rewardAddress,
  }),
  headline: (legs, plan) =>
    legs.map(
      (l) =>
        `claim at least ${exact(l.amount, l.validator.token)} of rewards from ${l.validator.name} (the unclaimed rewards as read; the pool pays what is unclaimed when it runs), paid to ${whereTo(l, plan.account)}`,
    ),
  // the review says "at least" the rewards as read: they only grow until a claim pays them; less
  // (claimed meanwhile) or another reward address is not what was shown
  moved: (planned, now) => [
    ...(now.amount < planned.amount
      ? [
          `the unclaimed rewards from ${now.validator.name} are now ${exact(now.amount, now.validator.token)}, less than the ${exact(planned.amount, planned.validator.token)} reviewed`,
        ]
      : []),
    ...(sameAddress(now.rewardAddress, planned.rewardAddress)
      ? []
      : [`the pool now pays the rewards to ${now.rewardAddress}, not ${planned.rewardAddress}`]),
  ],
  describeCalls: (leg, _calls, plan) => [
    `claim the rewards of the ${leg.validator.name} pool (at least ${exact(leg.amount, leg.validator.token)}), paid to ${whereTo(leg, plan.account)}`,
  ],
};
