/**
 * The `stake` leg type: STRK into a validator's delegation pool. Its read before planning is the
 * account's pool membership (get_pool_member_info_v1): a first stake is
 * `approve(pool, amount)` + `enter_delegation_pool(reward_address = the account, amount)`, a later
 * one `approve(pool, amount)` + `add_to_delegation_pool(the account, amount)` — chosen from the
 * chain, never guessed. Effects: the amount leaves exactly; the position grows by it.
 */
import { addressToBigInt, sameAddress } from '../../../../shared/tokens.js';
import { buildApproveCall } from '../../chain/calls.js';
import { decodeAddressAmount } from '../calls.js';
import { AppError, ErrorCode } from '../../../../shared/errors.js';
import {
  addressValue,
  amountFelt,
  checkPoolCall,
  type StakingValidator,
  validatorView,
} from './staking-common.js';
import type { LegType } from './types.js';
import { exact, legAmount, shortAddress } from './words.js';

export interface StakeLeg {
  type: 'stake';
  validator: StakingValidator;
  amount: bigint;
  /** the account is not a member of the pool yet: enter (else add) */
  enter: boolean;
}

const poolCall = (leg: StakeLeg, account: string) =>
  leg.enter
    ? {
        contract: leg.validator.pool,
        entrypoint: 'enter_delegation_pool',
        args: [addressValue(account), leg.amount],
      }
    : {
        contract: leg.validator.pool,
        entrypoint: 'add_to_delegation_pool',
        args: [addressValue(account), leg.amount],
      };

export const stakeLegType: LegType<StakeLeg> = {
  calls: (leg, plan) => {
    const c = poolCall(leg, plan.account);
    return [
      buildApproveCall(leg.validator.token, leg.validator.pool, leg.amount),
      {
        contractAddress: c.contract,
        entrypoint: c.entrypoint,
        calldata: [plan.account, amountFelt(leg.amount, leg.validator.token)],
      },
    ];
  },
  verify: (leg, calls, at, index, plan) => {
    const what = `stake ${index + 1} (${exact(leg.amount, leg.validator.token)} with ${leg.validator.name})`;
    const approve = calls[at];
    const args = approve === undefined ? undefined : decodeAddressAmount(approve.calldata);
    if (
      approve === undefined ||
      approve.entrypoint !== 'approve' ||
      !sameAddress(approve.contractAddress, leg.validator.token.address) ||
      args === undefined ||
      args.address !== addressToBigInt(leg.validator.pool) ||
      args.amount !== leg.amount
    )
      throw new AppError(
        ErrorCode.APPROVAL_MISMATCH,
        `${what}: call ${at + 1} must approve exactly ${exact(leg.amount, leg.validator.token)} to the pool ${leg.validator.pool}; refusing to sign`,
        { details: { field: 'approve', call: at + 1 } },
      );
    checkPoolCall(calls[at + 1], poolCall(leg, plan.account), what, at + 1);
    return 2;
  },
  effects: (leg) => ({
    out: [{ token: leg.validator.token, amount: leg.amount }],
    in: [],
    positions: [
      {
        kind: 'staking',
        pool: leg.validator.pool,
        token: leg.validator.token,
        change: 'stake',
        amount: leg.amount,
      },
    ],
  }),
  identity: (leg) => [leg.validator.pool],
  describe: (leg) => ({
    type: 'stake',
    amount: legAmount(leg.amount, leg.validator.token),
    validator: validatorView(leg.validator),
    entry: leg.enter ? 'enter' : 'add',
  }),
  headline: (legs) =>
    legs.map(
      (l) =>
        `stake ${exact(l.amount, l.validator.token)} with ${l.validator.name} (pool ${shortAddress(l.validator.pool)})`,
    ),
  // enter_delegation_pool reverts for a member and add_to_delegation_pool for a non-member
  moved: (planned, now) =>
    planned.enter === now.enter
      ? []
      : [
          now.enter
            ? `you are no longer a member of the ${now.validator.name} pool: the stake now enters it`
            : `you are now a member of the ${now.validator.name} pool: the stake now adds to it`,
        ],
  describeCalls: (leg, calls, plan) => [
    `approve ${exact(leg.amount, leg.validator.token)} to the ${leg.validator.name} pool ${shortAddress(leg.validator.pool)}`,
    calls[1]?.entrypoint === 'enter_delegation_pool'
      ? `enter the ${leg.validator.name} pool with ${exact(leg.amount, leg.validator.token)} (rewards to your account ${shortAddress(plan.account)})`
      : `add ${exact(leg.amount, leg.validator.token)} to your stake in the ${leg.validator.name} pool`,
  ],
};
