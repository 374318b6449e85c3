/**
 * What the staking leg types share (docs/architecture.md "Adding a leg type"): the validator and
 * pool member as read from the chain before planning (cli/core/staking.ts), the calls' felts
 * (the fact sheet: `Amount` is a u128 in one felt, an address one felt), and the read-back of
 * one pool call. Pure.
 */
import { parseFelt } from '../../../../shared/felt.js';
import { AppError, ErrorCode } from '../../../../shared/errors.js';
import { addressToBigInt, sameAddress, type Token } from '../../../../shared/tokens.js';
import type { ChainCall } from '../../chain/calls.js';
import type { LegValidator } from './types.js';

/** A validator as the plan uses it: read from the staking contract (or a preset, checked there). */
export interface StakingValidator {
  name: string;
  /** 0x + 64 hex */
  staker: string;
  /** its delegation pool for `token` */
  pool: string;
  token: Token;
  commissionBps: number;
  active: boolean;
  /** why it takes no new stake (exit announced, removed) */
  inactiveReason?: string | undefined;
  /**
   * true: the staking contract removed its staker (the pool's `staker_removed`): the pool takes
   * no stake, pays no more rewards; its members can still exit, withdraw and claim
   */
  stakerRemoved?: boolean | undefined;
  /** its stake as the staking contract reads it: its own plus its STRK pool's (base units) */
  stake?: bigint | undefined;
}

/** A validator as the plan document lists it (legs/types.ts LegValidator). */
export const validatorView = (v: StakingValidator): LegValidator => ({
  name: v.name,
  staker: v.staker,
  pool: v.pool,
});

/** The account's membership of a pool (get_pool_member_info_v1), exact. */
export interface PoolMember {
  rewardAddress: string;
  amount: bigint;
  unclaimedRewards: bigint;
  commissionBps: number;
  /** the amount in its exit window (0: none) */
  unpoolAmount: bigint;
  /** epoch seconds from which the exit can be completed; undefined: no exit running */
  unpoolTime: number | undefined;
}

const U128 = 1n << 128n;

export const felt = (value: bigint): string => `0x${value.toString(16)}`;

/** One u128 amount as the pool's calldata carries it; INVALID_AMOUNT when it does not fit. */
export function amountFelt(amount: bigint, token: Token): string {
  if (amount < 0n || amount >= U128)
    throw new AppError(
      ErrorCode.INVALID_AMOUNT,
      `the ${token.symbol} amount does not fit the staking contract's u128`,
    );
  return felt(amount);
}

/**
 * One pool call read back against what it must be: the contract, the entrypoint and every
 * felt (CALLS_MISMATCH naming the field otherwise).
 */
export function checkPoolCall(
  call: ChainCall | undefined,
  expected: { contract: string; entrypoint: string; args: readonly bigint[] },
  what: string,
  at: number,
): void {
  const fail = (field: string, why: string): never => {
    throw new AppError(ErrorCode.CALLS_MISMATCH, `${what}: ${why}; refusing to sign`, {
      details: { field, call: at + 1 },
    });
  };
  if (call === undefined || call.entrypoint !== expected.entrypoint)
    return fail('entrypoint', `call ${at + 1} must be ${expected.entrypoint}`);
  if (!sameAddress(call.contractAddress, expected.contract))
    return fail(
      'contract',
      `the call goes to ${call.contractAddress}, not the pool ${expected.contract}`,
    );
  const args = call.calldata.map(parseFelt);
  if (
    args.length !== expected.args.length ||
    args.some((a, i) => a === undefined || a !== expected.args[i])
  )
    return fail('calldata', `the calldata is not (${expected.args.map(String).join(', ')})`);
}

export const addressValue = (address: string): bigint => addressToBigInt(address) ?? -1n;
