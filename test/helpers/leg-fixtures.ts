/**
 * One leg of every leg type (cli/core/actions/legs/index.ts LEG_TYPES), each in the plan of a
 * kind that carries it, for the tests of what the plan document lists (`legs`).
 */
import { lendingPool } from '../../cli/core/lending-pool.js';
import type { LegTypeName, PlannedLeg } from '../../cli/core/actions/legs/index.js';
import { positionLegOf } from '../../cli/core/actions/legs/position-read.js';
import type { StakingValidator } from '../../cli/core/actions/legs/staking-common.js';
import type { PlanKind } from '../../cli/core/actions/plan.js';
import { E18, vesuPair as pair } from './lending-fixtures.js';
import {
  ACCOUNT,
  ETH,
  legPlanOf,
  OTHER,
  planOf,
  plannedSwap,
  POOL,
  quoteOf,
  STRK,
  USDC,
} from './swap-fixtures.js';

export const pool = lendingPool('mainnet');
export const V_TOKEN = `0x${'7e'.padStart(64, '0')}`;
export const validator: StakingValidator = {
  name: 'Alpha',
  staker: `0x${'5a'.padStart(64, '0')}`,
  pool: POOL,
  token: STRK,
  commissionBps: 500,
  active: true,
};
export const HUNDRED = 100n * E18;
export const borrowSpec = {
  type: 'position' as const,
  action: 'borrow' as const,
  pool,
  token: USDC,
  collateral: ETH,
  amount: 1000n * 10n ** 6n,
  collateralAmount: E18,
};

/**
 * One leg of every leg type, with the kind whose plan carries it: a leg type added to LEG_TYPES
 * without a line here fails typecheck, and the test below fails if it does not describe itself.
 */
export const ONE_OF_EACH: {
  [T in LegTypeName]: { kind: PlanKind; leg: Extract<PlannedLeg, { type: T }> };
} = {
  swap: {
    kind: 'trade',
    leg: { type: 'swap', swap: plannedSwap(quoteOf(ETH, USDC, E18, 3000n * 10n ** 6n)) },
  },
  transfer: {
    kind: 'send',
    leg: { type: 'transfer', transfer: { token: STRK, amount: 5n * E18, to: OTHER } },
  },
  stake: { kind: 'stake', leg: { type: 'stake', validator, amount: HUNDRED, enter: true } },
  'unstake-intent': {
    kind: 'unstake',
    leg: {
      type: 'unstake-intent',
      validator,
      amount: 3n * E18,
      member: {
        rewardAddress: ACCOUNT,
        amount: HUNDRED,
        unclaimedRewards: 0n,
        commissionBps: 500,
        unpoolAmount: 0n,
        unpoolTime: undefined,
      },
    },
  },
  unstake: { kind: 'unstake-complete', leg: { type: 'unstake', validator, amount: 3n * E18 } },
  claim: {
    kind: 'claim-rewards',
    leg: { type: 'claim', validator, amount: 7n, rewardAddress: OTHER },
  },
  supply: {
    kind: 'supply',
    leg: { type: 'supply', pool, token: USDC, vToken: V_TOKEN, amount: 250n * 10n ** 6n },
  },
  withdraw: {
    kind: 'withdraw',
    leg: {
      type: 'withdraw',
      pool,
      token: USDC,
      vToken: V_TOKEN,
      mode: 'shares',
      amount: 251n * 10n ** 6n,
      shares: 249n * 10n ** 6n,
    },
  },
  position: {
    kind: 'borrow',
    leg: positionLegOf(
      borrowSpec,
      pair(0n, { collateralAmount: 0n, collateralShares: 0n }),
    ) as Extract<PlannedLeg, { type: 'position' }>,
  },
};

export const planOfLeg = (name: LegTypeName) => {
  const { kind, leg } = ONE_OF_EACH[name] as { kind: PlanKind; leg: PlannedLeg };
  // a plan takes its swaps and transfers apart from its other legs (plan.ts buildPlan)
  const plan =
    leg.type === 'swap'
      ? planOf(kind, [leg.swap])
      : leg.type === 'transfer'
        ? planOf(kind, [], [leg.transfer])
        : legPlanOf(kind, leg);
  return { leg, plan };
};
