/**
 * The calldata the client builds for each leg type equals what starknet.js's CallData compiles
 * from the official ABI (shared/abi/, docs/contracts.md "Official interfaces") for the same
 * arguments. The arguments are written here from the leg's meaning (who, how much, which Amount),
 * never from the client's own serde, so a wrong felt order, a missing u256 half or a wrong
 * denomination index fails. One expectation per leg type: a leg type added to LEG_TYPES without
 * one fails typecheck.
 */
import { CairoCustomEnum, CallData, type RawArgs } from 'starknet';
import { describe, expect, it } from 'vitest';
import { ONE_OF_EACH, planOfLeg } from '../../../../test/helpers/leg-fixtures.js';
import { officialAbi, type OfficialContract } from '../../../../test/helpers/official-abi.js';
import { ROUTER_ADDRESS } from '../../../../shared/swap-calldata.js';
import { legCalls, LEG_TYPE_NAMES, type LegTypeName, type PlannedLeg } from './index.js';
import type { PositionLeg } from './position.js';

/** A call as the real contract takes it: which official ABI, which entrypoint, its arguments. */
interface Expected {
  contract: OfficialContract | 'aggregator-router';
  to: string;
  entrypoint: string;
  args: Record<string, unknown>;
}

const approve = (token: string, spender: string, amount: bigint): Expected => ({
  contract: 'erc20',
  to: token,
  entrypoint: 'approve',
  args: { spender, amount },
});

const i257 = (value: bigint) => ({ abs: value < 0n ? -value : value, is_negative: value < 0n });
const amount = (delta: { native: boolean; value: bigint }) => ({
  denomination: new CairoCustomEnum(delta.native ? { Native: {} } : { Assets: {} }),
  value: i257(delta.value),
});

function positionCalls(leg: PositionLeg, account: string): Expected[] {
  return [
    ...(leg.depositApprove > 0n
      ? [approve(leg.collateral.address, leg.pool.address, leg.depositApprove)]
      : []),
    ...(leg.repayApprove > 0n
      ? [approve(leg.debt.address, leg.pool.address, leg.repayApprove)]
      : []),
    {
      contract: 'vesu-pool',
      to: leg.pool.address,
      entrypoint: 'modify_position',
      args: {
        params: {
          collateral_asset: leg.collateral.address,
          debt_asset: leg.debt.address,
          user: account,
          collateral: amount(leg.collateralDelta),
          debt: amount(leg.debtDelta),
        },
      },
    },
    ...(leg.repayAll ? [approve(leg.debt.address, leg.pool.address, 0n)] : []),
  ];
}

type Of<T extends LegTypeName> = Extract<PlannedLeg, { type: T }>;
const EXPECTED: { [T in LegTypeName]: (leg: Of<T>, account: string) => Expected[] } = {
  swap: ({ swap }) => [
    approve(swap.confirmed.from.address, ROUTER_ADDRESS, swap.confirmed.amountIn),
    // the aggregator's calldata, used verbatim (docs/contracts.md B): no official Cairo source
    { contract: 'aggregator-router', to: ROUTER_ADDRESS, entrypoint: 'swap', args: {} },
  ],
  transfer: ({ transfer }) => [
    {
      contract: 'erc20',
      to: transfer.token.address,
      entrypoint: 'transfer',
      args: { recipient: transfer.to, amount: transfer.amount },
    },
  ],
  stake: (leg, account) => [
    approve(leg.validator.token.address, leg.validator.pool, leg.amount),
    leg.enter
      ? {
          contract: 'staking-pool',
          to: leg.validator.pool,
          entrypoint: 'enter_delegation_pool',
          args: { reward_address: account, amount: leg.amount },
        }
      : {
          contract: 'staking-pool',
          to: leg.validator.pool,
          entrypoint: 'add_to_delegation_pool',
          args: { pool_member: account, amount: leg.amount },
        },
  ],
  'unstake-intent': (leg) => [
    {
      contract: 'staking-pool',
      to: leg.validator.pool,
      entrypoint: 'exit_delegation_pool_intent',
      args: { amount: leg.amount },
    },
  ],
  unstake: (leg, account) => [
    {
      contract: 'staking-pool',
      to: leg.validator.pool,
      entrypoint: 'exit_delegation_pool_action',
      args: { pool_member: account },
    },
  ],
  claim: (leg, account) => [
    {
      contract: 'staking-pool',
      to: leg.validator.pool,
      entrypoint: 'claim_rewards',
      args: { pool_member: account },
    },
  ],
  supply: (leg, account) => [
    approve(leg.token.address, leg.vToken, leg.amount),
    {
      contract: 'vesu-v-token',
      to: leg.vToken,
      entrypoint: 'deposit',
      args: { assets: leg.amount, receiver: account },
    },
  ],
  withdraw: (leg, account) => [
    leg.mode === 'assets'
      ? {
          contract: 'vesu-v-token',
          to: leg.vToken,
          entrypoint: 'withdraw',
          args: { assets: leg.amount, receiver: account, owner: account },
        }
      : {
          contract: 'vesu-v-token',
          to: leg.vToken,
          entrypoint: 'redeem',
          args: { shares: leg.shares, receiver: account, owner: account },
        },
  ],
  position: positionCalls,
};

/** One leg of each type, and variants that take other branches of the same builders. */
function cases(): [string, PlannedLeg][] {
  const base: [string, PlannedLeg][] = LEG_TYPE_NAMES.map((name) => [name, ONE_OF_EACH[name].leg]);
  const stake = ONE_OF_EACH.stake.leg;
  const withdraw = ONE_OF_EACH.withdraw.leg;
  const transfer = ONE_OF_EACH.transfer.leg;
  const position = ONE_OF_EACH.position.leg;
  return [
    ...base,
    ['stake (add)', { ...stake, enter: false }],
    ['withdraw (assets)', { ...withdraw, mode: 'assets' }],
    [
      'transfer (an amount past 2^128)',
      { ...transfer, transfer: { ...transfer.transfer, amount: (1n << 130n) + 7n } },
    ],
    [
      'position (repay all: Native nominal debt, approve cleared)',
      {
        ...position,
        action: 'repay',
        collateralDelta: { native: false, value: 0n },
        debtDelta: { native: true, value: -123_456n },
        depositApprove: 0n,
        repayApprove: 1_000_000n,
        repayAll: true,
      },
    ],
    [
      'position (withdraw all collateral: Native shares)',
      {
        ...position,
        action: 'withdraw-collateral',
        collateralDelta: { native: true, value: -(10n ** 18n) },
        debtDelta: { native: false, value: 0n },
        depositApprove: 0n,
        repayApprove: 0n,
        repayAll: false,
      },
    ],
  ];
}

describe("each leg type's calldata is what starknet.js compiles from the official ABI", () => {
  it.each(cases())('%s', (_, leg) => {
    const { plan } = planOfLeg(leg.type);
    const built = legCalls([leg], plan);
    const expected = (EXPECTED[leg.type] as (l: PlannedLeg, a: string) => Expected[])(
      leg,
      plan.account,
    );
    expect(built.map((c) => c.entrypoint)).toEqual(expected.map((e) => e.entrypoint));
    built.forEach((call, i) => {
      const want = expected[i] as Expected;
      expect(BigInt(call.contractAddress)).toBe(BigInt(want.to));
      if (want.contract === 'aggregator-router') return;
      const official = officialAbi(want.contract);
      expect(
        official.functions.has(want.entrypoint),
        `${want.entrypoint} in ${want.contract}`,
      ).toBe(true);
      const compiled = new CallData(official.abi).compile(want.entrypoint, want.args as RawArgs);
      expect(
        call.calldata.map((f) => BigInt(f)),
        `${want.entrypoint}'s calldata`,
      ).toEqual(compiled.map((f) => BigInt(f)));
    });
  });
});
