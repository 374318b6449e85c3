/**
 * Native STRK staking on the sandbox chain (docs/sandbox-chain.md "Staking"): the staking contract
 * at the address it has on the network the sandbox is shaped like, and one delegation pool per
 * validator (shared/staking.ts: that network's presets at their addresses — Sepolia has none — and
 * the sandbox-only ones), speaking the entry points, calldata, events and revert reasons of
 * Starkware's contracts, so the client's builders are the real network's.
 *
 * The model, on the sandbox's clock (the chain's block timestamp, which `sandbox advance` moves):
 * - epochs of EPOCH_SECONDS from the chain's start; the exit window is EXIT_WINDOW_SECONDS (7 days,
 *   as on mainnet), read by clients from the staking contract's `contract_parameters_v1`;
 * - rewards accrue per finished epoch to each member's pooled amount at REWARD_APR_BPS a year,
 *   less the validator's commission: for n epochs, gross = amount × APR × n × epoch / (10 000 ×
 *   year), floored, and the member keeps gross − floor(gross × commission / 10 000). An epoch pays
 *   the amount a member holds when it ends (a member's rewards are settled whenever its amount
 *   changes, and when it claims). Rewards are minted to the pool as they are settled, and
 *   `claim_rewards` pays them from the pool to the member's reward address;
 * - the pooled STRK stays with the pool contract (the real pool forwards it to the staking
 *   contract; nothing a client reads depends on where it sits);
 * - a validator that announced its exit (`Sandbox Leaving`) refuses new stakes with
 *   STAKER_INACTIVE; its members can still exit;
 * - a removed staker (`sandbox remove-staker`: what the staking contract's `unstake_action` does,
 *   docs/sandbox-chain.md "Staking"): the staking contract forgets it (its views answer
 *   STAKER_NOT_EXISTS / None, DeleteStaker) and tells its pool (`set_staker_removed`,
 *   StakerRemoved); the pool then refuses enter/add with STAKER_INACTIVE, pays no more rewards,
 *   says commission 0, and an exit intent is withdrawable at once (UNDELEGATE_IN_PROGRESS when
 *   one is already running); exit action and claim_rewards work as before.
 *
 * The state lives in the ledger's records (ledger.ts), so a reverted transaction leaves it as it
 * was, like every balance.
 */
import { shortString } from 'starknet';
import { selectorOf, SELECTOR } from '../../shared/erc20.js';
import {
  POOL_EVENT,
  POOL_SELECTOR,
  STAKING_CONTRACT,
  STAKING_SELECTOR,
  stakingContractFor,
  type Validator,
  validatorsFor,
} from '../../shared/staking.js';
import { type Network, resolveToken } from '../../shared/tokens.js';
import {
  type CallContext,
  type Contract,
  EntryPointNotFound,
  expectArgs,
  Revert,
} from './executor.js';
import type { StateView } from './ledger.js';

export const EPOCH_SECONDS = 3_600n;
export const EXIT_WINDOW_SECONDS = 7n * 24n * 3_600n;
/** 10 % a year, before the validator's commission */
const REWARD_APR_BPS = 1_000n;
const YEAR_SECONDS = 365n * 24n * 3_600n;
const BPS = 10_000n;
const U128 = 1n << 128n;
const MIN_STAKE = 20_000n * 10n ** 18n;

const STRK = BigInt(resolveToken('mainnet', 'STRK').address);
const label = (text: string): bigint => BigInt(shortString.encodeShortString(text));

/** Sandbox-only: the target pool's side of `switch_delegation_pool` (the real one goes through the staking contract). */
const SWITCH_IN_SELECTOR = selectorOf('sandbox_enter_from_switch');

const IS_PAUSED = selectorOf('is_paused');

/** The pool's `set_staker_removed()` (the staking contract alone calls it, from `unstake_action`). */
const SET_STAKER_REMOVED = selectorOf('set_staker_removed');
/** Sandbox-only: the staking contract's `unstake_action` for a staker, without its intent and window (`sandbox remove-staker`). */
export const SANDBOX_REMOVE_STAKER = selectorOf('sandbox_remove_staker');
/** The staking contract's DeleteStaker {#staker_address, reward_address, operational_address, pool_contracts: Span}. */
const DELETE_STAKER_EVENT = selectorOf('DeleteStaker');
const STAKER_REWARD_ADDRESS = label('SANDBOX_STAKER_REWARDS');
const STAKER_OPERATIONAL_ADDRESS = label('SANDBOX_STAKER_OPERATOR');

export const STAKING_CLASS_HASH = selectorOf('sandbox::staking');
export const DELEGATION_POOL_CLASS_HASH = selectorOf('sandbox::delegation_pool');

/** What the sandbox sets up for each validator (the addresses come from shared/staking.ts). */
interface ValidatorSetup {
  validator: Validator;
  /** basis points of the members' rewards kept by the validator */
  commissionBps: bigint;
  /** false: the staker has announced its exit (unstake_time set) */
  active: boolean;
}

/** The sandbox's commissions are its own (not the mainnet validators' current ones). */
const SETUP: Readonly<Record<string, { commissionBps: bigint; active: boolean }>> = {
  Braavos: { commissionBps: 1_000n, active: true },
  'Ready (prev. Argent)': { commissionBps: 1_500n, active: true },
  'Sandbox Alpha': { commissionBps: 500n, active: true },
  'Sandbox Beta': { commissionBps: 0n, active: true },
  'Sandbox Leaving': { commissionBps: 800n, active: false },
};

/** The validators a sandbox shaped like `network` deploys: that network's presets and the sandbox's own. */
function sandboxValidators(network: Network = 'mainnet'): ValidatorSetup[] {
  return validatorsFor(network, { sandbox: true }).map((validator) => {
    const setup = SETUP[validator.name] ?? { commissionBps: 1_000n, active: true };
    return { validator, ...setup };
  });
}

interface Member {
  rewardAddress: bigint;
  /** pooled: earns rewards */
  amount: bigint;
  unclaimed: bigint;
  /** the epoch up to which (not including) rewards are settled */
  settledEpoch: bigint;
  unpoolAmount: bigint;
  /** seconds; undefined when no exit is running */
  unpoolTime: bigint | undefined;
}

interface PoolTotals {
  /** the members' pooled amounts */
  pooled: bigint;
}

/** A u128 `Amount` argument (one felt). */
function amountArg(calldata: readonly bigint[], index: number): bigint {
  const value = calldata[index];
  if (value === undefined || value >= U128)
    throw new Revert(`Failed to deserialize param #${index + 1}`);
  return value;
}

const some = (value: bigint): bigint[] => [0n, value];
const NONE = [1n];

/** The sandbox clock and the epoch arithmetic shared by the staking contract and its pools. */
interface StakingClock {
  /** the chain's time, unix seconds */
  now(): bigint;
  /** the chain's start, unix seconds: epoch 0 begins there */
  readonly genesis: bigint;
}

const epochAt = (clock: StakingClock): bigint => {
  const elapsed = clock.now() - clock.genesis;
  return elapsed <= 0n ? 0n : elapsed / EPOCH_SECONDS;
};

/** Rewards of `amount` over `epochs` finished epochs, after `commissionBps`. */
export function memberRewards(amount: bigint, epochs: bigint, commissionBps: bigint): bigint {
  if (amount <= 0n || epochs <= 0n) return 0n;
  const gross = (amount * REWARD_APR_BPS * epochs * EPOCH_SECONDS) / (BPS * YEAR_SECONDS);
  return gross - (gross * commissionBps) / BPS;
}

class DelegationPoolContract implements Contract {
  readonly classHash = DELEGATION_POOL_CLASS_HASH;
  readonly address: bigint;
  readonly setup: ValidatorSetup;
  readonly staker: bigint;
  readonly token: bigint;
  readonly #clock: StakingClock;
  readonly #registry: StakingRegistry;

  constructor(setup: ValidatorSetup, clock: StakingClock, registry: StakingRegistry) {
    this.setup = setup;
    this.address = BigInt(setup.validator.pool);
    this.staker = BigInt(setup.validator.staker);
    this.token = BigInt(setup.validator.token);
    this.#clock = clock;
    this.#registry = registry;
  }

  #memberKey(member: bigint): string {
    return `staking:pool:${this.address.toString(16)}:member:${member.toString(16)}`;
  }

  #totalsKey(): string {
    return `staking:pool:${this.address.toString(16)}:totals`;
  }

  #removedKey(): string {
    return `staking:pool:${this.address.toString(16)}:staker-removed`;
  }

  /** The epoch the staker was removed in (no reward after it); undefined while it is not. */
  removedAt(state: Pick<StateView, 'stored'>): bigint | undefined {
    return state.stored<{ epoch: bigint }>(this.#removedKey())?.epoch;
  }

  /** The commission the pool says: 0 once its staker was removed (the pool's get_commission_from_staking_contract). */
  #commission(state: Pick<StateView, 'stored'>): bigint {
    return this.removedAt(state) === undefined ? this.setup.commissionBps : 0n;
  }

  member(state: Pick<StateView, 'stored'>, address: bigint): Member | undefined {
    return state.stored<Member>(this.#memberKey(address));
  }

  totals(state: Pick<StateView, 'stored'>): PoolTotals {
    return state.stored<PoolTotals>(this.#totalsKey()) ?? { pooled: 0n };
  }

  /** The member with its rewards settled up to the current epoch (not written); none accrue after a removal. */
  #settled(state: Pick<StateView, 'stored'>, member: Member): Member {
    const now = epochAt(this.#clock);
    const removed = this.removedAt(state);
    const epoch = removed !== undefined && removed < now ? removed : now;
    if (epoch <= member.settledEpoch) return member;
    const earned = memberRewards(
      member.amount,
      epoch - member.settledEpoch,
      this.setup.commissionBps,
    );
    return { ...member, unclaimed: member.unclaimed + earned, settledEpoch: epoch };
  }

  /** Settles and writes: the rewards settled now are minted to the pool. */
  #settle(ctx: CallContext, address: bigint): Member {
    const member = this.member(ctx.state, address);
    if (member === undefined) throw new Revert('POOL_MEMBER_DOES_NOT_EXIST');
    const settled = this.#settled(ctx.state, member);
    const minted = settled.unclaimed - member.unclaimed;
    if (minted > 0n) ctx.state.mint(STRK, this.address, minted);
    this.#write(ctx, address, settled);
    return settled;
  }

  #write(ctx: CallContext, address: bigint, member: Member): void {
    ctx.state.store(this.#memberKey(address), member);
  }

  #addPooled(ctx: CallContext, delta: bigint): void {
    const totals = this.totals(ctx.state);
    ctx.state.store(this.#totalsKey(), { pooled: totals.pooled + delta });
  }

  #assertActive(state: Pick<StateView, 'stored'>): void {
    if (!this.setup.active || this.removedAt(state) !== undefined)
      throw new Revert('STAKER_INACTIVE');
  }

  #pull(ctx: CallContext, from: bigint, amount: bigint): void {
    ctx.call(this.token, SELECTOR.transfer_from, [
      from,
      this.address,
      amount % U128,
      amount / U128,
    ]);
  }

  #pay(ctx: CallContext, to: bigint, amount: bigint): void {
    if (amount > 0n) ctx.call(this.token, SELECTOR.transfer, [to, amount % U128, amount / U128]);
  }

  #balanceChanged(ctx: CallContext, member: bigint, before: bigint, after: bigint): void {
    ctx.emit([POOL_EVENT.PoolMemberBalanceChanged, member], [before, after]);
  }

  /** Enters `member` (or adds to it): what `switch_delegation_pool` lands on in the target pool. */
  #receiveSwitched(
    ctx: CallContext,
    member: bigint,
    rewardAddress: bigint,
    amount: bigint,
  ): bigint {
    this.#assertActive(ctx.state);
    if (this.member(ctx.state, member) !== undefined) return this.#add(ctx, member, amount);
    this.#enter(ctx, member, rewardAddress, amount);
    return amount;
  }

  /** A new member with `amount` (already in the pool's hands): its record, the total, the events. */
  #enter(ctx: CallContext, member: bigint, rewardAddress: bigint, amount: bigint): void {
    this.#write(ctx, member, {
      rewardAddress,
      amount,
      unclaimed: 0n,
      settledEpoch: epochAt(this.#clock),
      unpoolAmount: 0n,
      unpoolTime: undefined,
    });
    this.#addPooled(ctx, amount);
    ctx.emit([POOL_EVENT.NewPoolMember, member, this.staker], [rewardAddress, amount]);
    this.#balanceChanged(ctx, member, 0n, amount);
  }

  /** `amount` more (already in the pool's hands) for a member, its rewards settled first: the new amount. */
  #add(ctx: CallContext, member: bigint, amount: bigint): bigint {
    const settled = this.#settle(ctx, member);
    const next = settled.amount + amount;
    this.#write(ctx, member, { ...settled, amount: next });
    this.#addPooled(ctx, amount);
    this.#balanceChanged(ctx, member, settled.amount, next);
    return next;
  }

  /** PoolMemberInfoV1: reward_address, amount, unclaimed_rewards, commission, unpool_amount, unpool_time: Option<Timestamp>. */
  #memberInfo(state: Pick<StateView, 'stored'>, member: Member): bigint[] {
    const settled = this.#settled(state, member);
    return [
      settled.rewardAddress,
      settled.amount,
      settled.unclaimed,
      this.#commission(state),
      settled.unpoolAmount,
      ...(settled.unpoolTime === undefined ? NONE : some(settled.unpoolTime)),
    ];
  }

  /** A member's exiting stake moved to another pool of the same chain (its SWITCH_IN end receives it). */
  #switchOut(ctx: CallContext, calldata: readonly bigint[]): bigint[] {
    // switch_delegation_pool(to_staker, to_pool, amount) -> Amount (what is left in the exit window)
    expectArgs(calldata, 3);
    const [toStaker, toPool] = calldata as [bigint, bigint];
    const amount = amountArg(calldata, 2);
    if (amount === 0n) throw new Revert('AMOUNT_IS_ZERO');
    if (this.member(ctx.state, ctx.caller) === undefined)
      throw new Revert('POOL_MEMBER_DOES_NOT_EXIST');
    const settled = this.#settle(ctx, ctx.caller);
    if (settled.unpoolTime === undefined) throw new Revert('MISSING_UNDELEGATE_INTENT');
    if (amount > settled.unpoolAmount) throw new Revert('AMOUNT_TOO_HIGH');
    const target = this.#registry.pool(toPool);
    if (target === undefined || target.staker !== toStaker || target === this)
      throw new Revert('INVALID_POOL_CONTRACT');
    const left = settled.unpoolAmount - amount;
    this.#write(ctx, ctx.caller, {
      ...settled,
      unpoolAmount: left,
      unpoolTime: left === 0n ? undefined : settled.unpoolTime,
    });
    this.#pay(ctx, target.address, amount);
    ctx.call(target.address, SWITCH_IN_SELECTOR, [ctx.caller, settled.rewardAddress, amount]);
    return [left];
  }

  invoke(ctx: CallContext, selector: bigint, calldata: readonly bigint[]): bigint[] {
    switch (selector) {
      case POOL_SELECTOR.enter_delegation_pool: {
        // enter_delegation_pool(reward_address, amount)
        expectArgs(calldata, 2);
        const rewardAddress = calldata[0] as bigint;
        const amount = amountArg(calldata, 1);
        this.#assertActive(ctx.state);
        if (this.member(ctx.state, ctx.caller) !== undefined)
          throw new Revert('POOL_MEMBER_EXISTS');
        if (amount === 0n) throw new Revert('AMOUNT_IS_ZERO');
        if (ctx.caller === this.token) throw new Revert('POOL_MEMBER_IS_TOKEN');
        if (rewardAddress === this.token) throw new Revert('REWARD_ADDRESS_IS_TOKEN');
        this.#pull(ctx, ctx.caller, amount);
        this.#enter(ctx, ctx.caller, rewardAddress, amount);
        return [];
      }
      case POOL_SELECTOR.add_to_delegation_pool: {
        // add_to_delegation_pool(pool_member, amount) -> Amount
        expectArgs(calldata, 2);
        const address = calldata[0] as bigint;
        const amount = amountArg(calldata, 1);
        this.#assertActive(ctx.state);
        const member = this.member(ctx.state, address);
        if (member === undefined) throw new Revert('POOL_MEMBER_DOES_NOT_EXIST');
        if (ctx.caller !== address && ctx.caller !== member.rewardAddress)
          throw new Revert('CALLER_CANNOT_ADD_TO_POOL');
        if (amount === 0n) throw new Revert('AMOUNT_IS_ZERO');
        this.#pull(ctx, ctx.caller, amount);
        return [this.#add(ctx, address, amount)];
      }
      case POOL_SELECTOR.exit_delegation_pool_intent: {
        // exit_delegation_pool_intent(amount): replaces an earlier intent and restarts its timer; 0 cancels
        expectArgs(calldata, 1);
        const amount = amountArg(calldata, 0);
        if (this.member(ctx.state, ctx.caller) === undefined)
          throw new Revert('POOL_MEMBER_DOES_NOT_EXIST');
        const settled = this.#settle(ctx, ctx.caller);
        const total = settled.amount + settled.unpoolAmount;
        if (amount > total) throw new Revert('AMOUNT_TOO_HIGH');
        const pooled = total - amount;
        // once the staker is removed the STRK is already back in the pool: the intent is
        // withdrawable at once, and one already running cannot be changed (the pool's
        // undelegate_from_staking_contract_intent)
        const removed = this.removedAt(ctx.state) !== undefined;
        if (removed && settled.unpoolTime !== undefined) throw new Revert('UNDELEGATE_IN_PROGRESS');
        const unpoolTime =
          amount === 0n ? undefined : this.#clock.now() + (removed ? 0n : EXIT_WINDOW_SECONDS);
        this.#write(ctx, ctx.caller, {
          ...settled,
          amount: pooled,
          unpoolAmount: amount,
          unpoolTime,
        });
        this.#addPooled(ctx, pooled - settled.amount);
        ctx.emit([POOL_EVENT.PoolMemberExitIntent, ctx.caller], [unpoolTime ?? 0n, amount]);
        this.#balanceChanged(ctx, ctx.caller, settled.amount, pooled);
        return [];
      }
      case POOL_SELECTOR.exit_delegation_pool_action: {
        // exit_delegation_pool_action(pool_member) -> Amount (anyone may call; pays the member)
        expectArgs(calldata, 1);
        const address = calldata[0] as bigint;
        const member = this.member(ctx.state, address);
        if (member === undefined) throw new Revert('POOL_MEMBER_DOES_NOT_EXIST');
        if (member.unpoolTime === undefined) throw new Revert('MISSING_UNDELEGATE_INTENT');
        if (this.#clock.now() < member.unpoolTime) throw new Revert('INTENT_WINDOW_NOT_FINISHED');
        const amount = member.unpoolAmount;
        const settled = this.#settle(ctx, address);
        this.#write(ctx, address, { ...settled, unpoolAmount: 0n, unpoolTime: undefined });
        this.#pay(ctx, address, amount);
        ctx.emit([POOL_EVENT.PoolMemberExitAction, address], [amount]);
        return [amount];
      }
      case POOL_SELECTOR.claim_rewards: {
        // claim_rewards(pool_member) -> Amount: pays the reward address
        expectArgs(calldata, 1);
        const address = calldata[0] as bigint;
        const member = this.member(ctx.state, address);
        if (member === undefined) throw new Revert('POOL_MEMBER_DOES_NOT_EXIST');
        if (ctx.caller !== address && ctx.caller !== member.rewardAddress)
          throw new Revert('POOL_CLAIM_REWARDS_FROM_UNAUTHORIZED_ADDRESS');
        const settled = this.#settle(ctx, address);
        const amount = settled.unclaimed;
        this.#write(ctx, address, { ...settled, unclaimed: 0n });
        this.#pay(ctx, settled.rewardAddress, amount);
        ctx.emit([POOL_EVENT.PoolMemberRewardClaimed, address, settled.rewardAddress], [amount]);
        return [amount];
      }
      case POOL_SELECTOR.switch_delegation_pool:
        return this.#switchOut(ctx, calldata);
      case SWITCH_IN_SELECTOR: {
        // the other end of a switch: another pool of this chain alone may call it (its STRK came first)
        if (this.#registry.pool(ctx.caller) === undefined) throw new Revert('CALLER_IS_NOT_A_POOL');
        expectArgs(calldata, 3);
        const [member, rewardAddress] = calldata as [bigint, bigint];
        return [this.#receiveSwitched(ctx, member, rewardAddress, amountArg(calldata, 2))];
      }
      case POOL_SELECTOR.change_reward_address: {
        expectArgs(calldata, 1);
        const rewardAddress = calldata[0] as bigint;
        const member = this.member(ctx.state, ctx.caller);
        if (member === undefined) throw new Revert('POOL_MEMBER_DOES_NOT_EXIST');
        if (rewardAddress === this.token) throw new Revert('REWARD_ADDRESS_IS_TOKEN');
        this.#write(ctx, ctx.caller, { ...member, rewardAddress });
        ctx.emit(
          [POOL_EVENT.PoolMemberRewardAddressChanged, ctx.caller],
          [rewardAddress, member.rewardAddress],
        );
        return [];
      }
      case POOL_SELECTOR.get_pool_member_info_v1: {
        expectArgs(calldata, 1);
        const member = this.member(ctx.state, calldata[0] as bigint);
        return member === undefined ? NONE : [0n, ...this.#memberInfo(ctx.state, member)];
      }
      case POOL_SELECTOR.pool_member_info_v1: {
        expectArgs(calldata, 1);
        const member = this.member(ctx.state, calldata[0] as bigint);
        if (member === undefined) throw new Revert('POOL_MEMBER_DOES_NOT_EXIST');
        return this.#memberInfo(ctx.state, member);
      }
      case POOL_SELECTOR.contract_parameters_v1:
        // PoolContractInfoV1: staker_address, staker_removed, staking_contract, token_address, commission
        expectArgs(calldata, 0);
        return [
          this.staker,
          this.removedAt(ctx.state) === undefined ? 0n : 1n,
          this.#registry.stakingContract,
          this.token,
          this.#commission(ctx.state),
        ];
      case SET_STAKER_REMOVED: {
        // set_staker_removed(): the staking contract alone, once
        expectArgs(calldata, 0);
        if (ctx.caller !== this.#registry.stakingContract)
          throw new Revert('CALLER_IS_NOT_STAKING_CONTRACT');
        if (this.removedAt(ctx.state) !== undefined) throw new Revert('STAKER_ALREADY_REMOVED');
        // rewards up to the current epoch stay the members' (settled lazily, per member)
        ctx.state.store(this.#removedKey(), { epoch: epochAt(this.#clock) });
        ctx.emit([POOL_EVENT.StakerRemoved, this.staker], []);
        return [];
      }
      default:
        throw new EntryPointNotFound(selector);
    }
  }
}

/** The pools by address, for the staking contract and for switches between pools. */
class StakingRegistry {
  /** the staking contract's address (the pools name it in contract_parameters_v1) */
  readonly stakingContract: bigint;
  readonly #pools = new Map<bigint, DelegationPoolContract>();

  constructor(stakingContract: bigint = BigInt(STAKING_CONTRACT.mainnet)) {
    this.stakingContract = stakingContract;
  }

  readonly #byStaker = new Map<bigint, DelegationPoolContract>();

  add(pool: DelegationPoolContract): void {
    this.#pools.set(pool.address, pool);
    this.#byStaker.set(pool.staker, pool);
  }

  pool(address: bigint): DelegationPoolContract | undefined {
    return this.#pools.get(address);
  }

  /** The pool of a staker, removed or not (the staking contract checks `removedAt` itself). */
  byStaker(staker: bigint): DelegationPoolContract | undefined {
    return this.#byStaker.get(staker);
  }

  pools(): IterableIterator<DelegationPoolContract> {
    return this.#pools.values();
  }
}

/** The staking contract's views (the client reads validators, epochs and the exit window here). */
class StakingContract implements Contract {
  readonly classHash = STAKING_CLASS_HASH;
  readonly #clock: StakingClock;
  readonly #registry: StakingRegistry;

  constructor(clock: StakingClock, registry: StakingRegistry) {
    this.#clock = clock;
    this.#registry = registry;
  }

  /** A staker the contract knows: a removed one is forgotten (its staker_info is None). */
  #known(state: Pick<StateView, 'stored'>, staker: bigint): DelegationPoolContract | undefined {
    const pool = this.#registry.byStaker(staker);
    return pool === undefined || pool.removedAt(state) !== undefined ? undefined : pool;
  }

  #pool(state: Pick<StateView, 'stored'>, staker: bigint): DelegationPoolContract {
    const pool = this.#known(state, staker);
    if (pool === undefined) throw new Revert('STAKER_NOT_EXISTS');
    return pool;
  }

  /** StakerInfoV1: reward_address, operational_address, unstake_time: Option<Timestamp>, amount_own, unclaimed_rewards_own, pool_info: Option<StakerPoolInfoV1 { pool_contract, amount, commission }>. */
  #stakerInfo(ctx: CallContext, pool: DelegationPoolContract): bigint[] {
    const unstakeTime = pool.setup.active ? undefined : this.#clock.genesis + EXIT_WINDOW_SECONDS;
    return [
      STAKER_REWARD_ADDRESS,
      STAKER_OPERATIONAL_ADDRESS,
      ...(unstakeTime === undefined ? NONE : some(unstakeTime)),
      MIN_STAKE,
      0n,
      ...some(pool.address),
      pool.totals(ctx.state).pooled,
      pool.setup.commissionBps,
    ];
  }

  /** Every staker's own stake (MIN_STAKE each) plus what its pool holds. */
  #totalStake(ctx: CallContext): bigint {
    let total = 0n;
    for (const pool of this.#registry.pools())
      if (pool.removedAt(ctx.state) === undefined)
        total += MIN_STAKE + pool.totals(ctx.state).pooled;
    return total;
  }

  invoke(ctx: CallContext, selector: bigint, calldata: readonly bigint[]): bigint[] {
    switch (selector) {
      case STAKING_SELECTOR.staker_pool_info: {
        // StakerPoolInfoV2 { commission: Option<Commission>, pools: Span<PoolInfo { pool_contract, token_address, amount }> }
        expectArgs(calldata, 1);
        const pool = this.#pool(ctx.state, calldata[0] as bigint);
        return [
          ...some(pool.setup.commissionBps),
          1n,
          pool.address,
          pool.token,
          pool.totals(ctx.state).pooled,
        ];
      }
      case STAKING_SELECTOR.staker_info_v1: {
        expectArgs(calldata, 1);
        return this.#stakerInfo(ctx, this.#pool(ctx.state, calldata[0] as bigint));
      }
      case STAKING_SELECTOR.get_staker_info_v1: {
        expectArgs(calldata, 1);
        const pool = this.#known(ctx.state, calldata[0] as bigint);
        return pool === undefined ? NONE : [0n, ...this.#stakerInfo(ctx, pool)];
      }
      case STAKING_SELECTOR.get_current_epoch:
        expectArgs(calldata, 0);
        return [epochAt(this.#clock)];
      case STAKING_SELECTOR.get_active_tokens:
        expectArgs(calldata, 0);
        return [1n, STRK];
      case STAKING_SELECTOR.contract_parameters_v1:
        // StakingContractInfoV1: min_stake, token_address, attestation_contract, pool_contract_class_hash, reward_supplier, exit_wait_window
        expectArgs(calldata, 0);
        return [
          MIN_STAKE,
          STRK,
          label('SANDBOX_ATTESTATION'),
          DELEGATION_POOL_CLASS_HASH,
          label('SANDBOX_REWARD_SUPPLIER'),
          EXIT_WINDOW_SECONDS,
        ];
      case STAKING_SELECTOR.get_total_stake:
        // the STRK total: every staker's own stake and its pool's (docs/sandbox-chain.md "Staking")
        expectArgs(calldata, 0);
        return [this.#totalStake(ctx)];
      case STAKING_SELECTOR.get_total_stake_for_token: {
        // STRK is the only token: any other is not one the contract knows (its INVALID_TOKEN_ADDRESS)
        expectArgs(calldata, 1);
        if (calldata[0] !== STRK) throw new Revert('INVALID_TOKEN_ADDRESS');
        return [this.#totalStake(ctx)];
      }
      case IS_PAUSED:
        expectArgs(calldata, 0);
        return [0n];
      case SANDBOX_REMOVE_STAKER: {
        // sandbox_remove_staker(staker): unstake_action's removal, its intent and window skipped
        // (docs/sandbox-chain.md "Staking"); the chain's knob alone calls it (caller 0)
        expectArgs(calldata, 1);
        if (ctx.caller !== 0n) throw new Revert('ONLY_SANDBOX');
        const staker = calldata[0] as bigint;
        const pool = this.#pool(ctx.state, staker);
        // remove_staker: DeleteStaker {#staker_address, reward_address, operational_address, pool_contracts}
        ctx.emit(
          [DELETE_STAKER_EVENT, staker],
          [STAKER_REWARD_ADDRESS, STAKER_OPERATIONAL_ADDRESS, 1n, pool.address],
        );
        // transfer_to_pools_when_unstake: each pool learns it (the pooled STRK already sits there)
        ctx.call(pool.address, SET_STAKER_REMOVED, []);
        return [];
      }
      default:
        throw new EntryPointNotFound(selector);
    }
  }
}

/** The staking contract and every validator's pool, ready to plug into the chain's contracts. */
export function stakingContracts(
  clock: StakingClock,
  network: Network = 'mainnet',
): { address: bigint; contract: Contract }[] {
  const registry = new StakingRegistry(BigInt(stakingContractFor(network)));
  for (const setup of sandboxValidators(network))
    registry.add(new DelegationPoolContract(setup, clock, registry));
  return [
    { address: registry.stakingContract, contract: new StakingContract(clock, registry) },
    ...[...registry.pools()].map((pool) => ({ address: pool.address, contract: pool })),
  ];
}
