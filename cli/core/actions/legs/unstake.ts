/**
 * The `unstake` leg type (completing an exit): `exit_delegation_pool_action(the account)` on the
 * validator's pool, once the exit window has passed, pays the exiting amount back. Its read
 * before planning is the membership and the chain's time: before the window it is refused with
 * the time left (cli/core/staking.ts), nothing signed. Effects: the exiting amount arrives
 * exactly; the position's exit closes.
 */
import {
  addressValue,
  checkPoolCall,
  type StakingValidator,
  validatorView,
} from './staking-common.js';
import type { LegType } from './types.js';
import { exact, legAmount, shortAddress } from './words.js';

export interface UnstakeLeg {
  type: 'unstake';
  validator: StakingValidator;
  /** the amount in its exit window, read before planning */
  amount: bigint;
}

export const unstakeLegType: LegType<UnstakeLeg> = {
  calls: (leg, plan) => [
    {
      contractAddress: leg.validator.pool,
      entrypoint: 'exit_delegation_pool_action',
      calldata: [plan.account],
    },
  ],
  verify: (leg, calls, at, index, plan) => {
    checkPoolCall(
      calls[at],
      {
        contract: leg.validator.pool,
        entrypoint: 'exit_delegation_pool_action',
        args: [addressValue(plan.account)],
      },
      `withdrawal ${index + 1} (${exact(leg.amount, leg.validator.token)} from ${leg.validator.name})`,
      at,
    );
    return 1;
  },
  effects: (leg) => ({
    out: [],
    in: [{ token: leg.validator.token, amount: leg.amount, basis: 'exact' }],
    positions: [
      {
        kind: 'staking',
        pool: leg.validator.pool,
        token: leg.validator.token,
        change: 'exit',
        amount: leg.amount,
      },
    ],
  }),
  identity: (leg) => [leg.validator.pool],
  describe: (leg) => ({
    type: 'unstake',
    amount: legAmount(leg.amount, leg.validator.token),
    validator: validatorView(leg.validator),
  }),
  headline: (legs) =>
    legs.map(
      (l) =>
        `withdraw ${exact(l.amount, l.validator.token)} from ${l.validator.name} (pool ${shortAddress(l.validator.pool)})`,
    ),
  // what arrives is the exiting amount, exactly as read
  moved: (planned, now) =>
    planned.amount === now.amount
      ? []
      : [
          `the exit from ${now.validator.name} now pays ${exact(now.amount, now.validator.token)}, not ${exact(planned.amount, planned.validator.token)}`,
        ],
  describeCalls: (leg, _calls, plan) => [
    `complete the exit: the ${leg.validator.name} pool pays ${exact(leg.amount, leg.validator.token)} to your account ${shortAddress(plan.account)}`,
  ],
};
