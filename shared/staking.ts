/**
 * Native STRK staking facts both sides need (docs/sandbox-chain.md "Staking"): the staking
 * contract per network, the preset validators, the delegation pool's and the staking contract's
 * entry points and events, and the revert reasons a client explains in words.
 *
 * Validators. The deployed staking contract has no list-all view, so, like peer clients, we ship a
 * preset list per network; any staker address is accepted too. The mainnet presets are the ones
 * whose staker address AND STRK pool address we found in two independent public sources: Voyager's
 * public API documentation (its `staking/validator-pool-info` and `staking/wallet-info` example
 * answers list each staker's pools per token) and a peer dapp's preset pool list; the staker
 * addresses and names also match keep-starknet-strange/starkzap's generated validator presets
 * (docs/decisions.md "Staking validators"). Sepolia has no preset we could verify: the list is
 * empty and a staker address must be given. The sandbox is mainnet-like: it deploys the mainnet
 * staking contract and presets at their mainnet addresses, plus the sandbox-only validators below
 * (labels, never real addresses), one of which is leaving (inactive).
 *
 * Cairo serde of the pool's types (the fact sheet): `Amount` (u128) is one felt, `Timestamp` one
 * felt (seconds), `Commission` a u16 in basis points, `bool` 0/1, and `Option<T>` is the variant
 * index first: `Some` = 0 followed by T, `None` = 1 alone.
 */
import { shortString } from 'starknet';
import { CAIRO, option, span, type EventSignatures, type Signatures } from './entrypoints.js';
import { selectorsOf } from './erc20.js';
import { addressToBigInt, parseAddress, type Network } from './tokens.js';

export interface Validator {
  name: string;
  /** the staker (validator) address: 0x + 64 lowercase hex */
  staker: string;
  /** its delegation pool for `token` */
  pool: string;
  /** the pool's token (STRK) */
  token: string;
}

const STRK = parseAddress('0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d');

function validator(name: string, staker: string, pool: string, token = STRK): Validator {
  return Object.freeze({
    name,
    staker: parseAddress(staker),
    pool: parseAddress(pool),
    token: parseAddress(token),
  });
}

/** The staking contract (the fact sheet; read the exit window and epochs from it, never assume). */
export const STAKING_CONTRACT: Readonly<Record<Network, string>> = Object.freeze({
  mainnet: parseAddress('0x00ca1702e64c81d9a07b86bd2c540188d92a2c73cf5cc0e508d949015e7e84a7'),
  sepolia: parseAddress('0x03745ab04a431fc02871a139be6b93d9260b0ff3e779ad9c8b377183b23109f1'),
});

const PRESETS: Readonly<Record<Network, readonly Validator[]>> = Object.freeze({
  mainnet: Object.freeze([
    validator(
      'Braavos',
      '0x04b00f97e2d2168b91fe64ceeace4a41fc274a85bbdd0adc402c3d0cf9f91bbb',
      '0x01f170bafce432964d6cbaf2cb75355b2043f5640897e0623b7dbb029bf6b3ef',
    ),
    validator(
      'Ready (prev. Argent)',
      '0x00d3b910d8c528bf0216866053c3821ac6c97983dc096bff642e9a3549210ee7',
      '0x02cb02c72e8a0975e69e88298443e984d965a49eab38f5bdde1f5072daa09cfe',
    ),
  ]),
  // no Sepolia preset could be verified in public sources: name a staker address instead
  sepolia: Object.freeze([]),
});

/** A felt spelling a label: recognisable in traces, never a real address. */
const label = (text: string): string =>
  parseAddress(`0x${BigInt(shortString.encodeShortString(text)).toString(16)}`);

/**
 * Sandbox-only validators (the sandbox chain deploys them beside the mainnet presets). "Sandbox
 * Leaving" has announced its exit: its pool refuses new stakes with STAKER_INACTIVE.
 */
export const SANDBOX_VALIDATORS: readonly Validator[] = Object.freeze([
  validator('Sandbox Alpha', label('SANDBOX_STAKER_ALPHA'), label('SANDBOX_POOL_ALPHA')),
  validator('Sandbox Beta', label('SANDBOX_STAKER_BETA'), label('SANDBOX_POOL_BETA')),
  validator('Sandbox Leaving', label('SANDBOX_STAKER_LEAVING'), label('SANDBOX_POOL_LEAVING')),
]);

/** The preset validators of a network; on the sandbox chain also the sandbox-only ones. */
export function validatorsFor(
  network: Network,
  options: { sandbox?: boolean } = {},
): readonly Validator[] {
  return options.sandbox === true ? [...PRESETS[network], ...SANDBOX_VALIDATORS] : PRESETS[network];
}

/** The staking contract of a network (the sandbox deploys the mainnet one at its address). */
export function stakingContractFor(network: Network): string {
  return STAKING_CONTRACT[network];
}

/**
 * A preset by name (case-insensitive), staker address or pool address; undefined when it is none
 * of them (a bare staker address the caller then resolves through `staker_pool_info`).
 */
export function findValidator(
  validators: readonly Validator[],
  nameOrAddress: string,
): Validator | undefined {
  const key = nameOrAddress.trim();
  if (/^0x/i.test(key)) {
    const value = addressToBigInt(key);
    if (value === undefined) return undefined;
    return validators.find((v) => BigInt(v.staker) === value || BigInt(v.pool) === value);
  }
  const lower = key.toLowerCase();
  return validators.find((v) => v.name.toLowerCase() === lower);
}

/** Delegation pool entry points (one pool per validator and token). */
export const POOL_ENTRYPOINT = Object.freeze({
  enter_delegation_pool: 'enter_delegation_pool',
  add_to_delegation_pool: 'add_to_delegation_pool',
  exit_delegation_pool_intent: 'exit_delegation_pool_intent',
  exit_delegation_pool_action: 'exit_delegation_pool_action',
  claim_rewards: 'claim_rewards',
  switch_delegation_pool: 'switch_delegation_pool',
  change_reward_address: 'change_reward_address',
  get_pool_member_info_v1: 'get_pool_member_info_v1',
  pool_member_info_v1: 'pool_member_info_v1',
  contract_parameters_v1: 'contract_parameters_v1',
} as const);

/** The staking contract's views the client reads. */
export const STAKING_ENTRYPOINT = Object.freeze({
  /** (staker) → StakerPoolInfoV2 { commission: Option<Commission>, pools: Span<{ pool_contract, token_address, amount }> } */
  staker_pool_info: 'staker_pool_info',
  /** (staker) → Option<StakerInfoV1>; its `unstake_time` is Some when the staker is leaving */
  get_staker_info_v1: 'get_staker_info_v1',
  /** (staker) → StakerInfoV1 (fails when there is no such staker) */
  staker_info_v1: 'staker_info_v1',
  /** () → Epoch (u64) */
  get_current_epoch: 'get_current_epoch',
  /** () → Span<ContractAddress> */
  get_active_tokens: 'get_active_tokens',
  /** () → StakingContractInfoV1 { min_stake, token_address, attestation_contract, pool_contract_class_hash, reward_supplier, exit_wait_window (seconds) } */
  contract_parameters_v1: 'contract_parameters_v1',
  /** () → Amount: the last total stake of STRK (the name says no token for backwards compatibility) */
  get_total_stake: 'get_total_stake',
  /** (token_address) → Amount: the total stake of that token, in its own decimals */
  get_total_stake_for_token: 'get_total_stake_for_token',
} as const);

/*
 * The types the client expects of each call (shared/entrypoints.ts), checked against the official
 * ABI (docs/contracts.md "Official interfaces"). Amount is u128, Commission u16, Epoch u64,
 * Timestamp and TimeDelta a struct { seconds: u64 } — one felt each on the wire.
 */
const AMOUNT = CAIRO.u128;
const TIMESTAMP = 'starkware_utils::time::time::Timestamp';
const POOL_TYPE = 'staking::pool::interface';
const STAKING_TYPE = 'staking::staking::interface';

export const POOL_SIGNATURE: Signatures<typeof POOL_ENTRYPOINT> = Object.freeze({
  enter_delegation_pool: { inputs: [CAIRO.address, AMOUNT], outputs: [] },
  add_to_delegation_pool: { inputs: [CAIRO.address, AMOUNT], outputs: [AMOUNT] },
  exit_delegation_pool_intent: { inputs: [AMOUNT], outputs: [] },
  exit_delegation_pool_action: { inputs: [CAIRO.address], outputs: [AMOUNT] },
  claim_rewards: { inputs: [CAIRO.address], outputs: [AMOUNT] },
  switch_delegation_pool: { inputs: [CAIRO.address, CAIRO.address, AMOUNT], outputs: [AMOUNT] },
  change_reward_address: { inputs: [CAIRO.address], outputs: [] },
  get_pool_member_info_v1: {
    inputs: [CAIRO.address],
    outputs: [option(`${POOL_TYPE}::PoolMemberInfoV1`)],
  },
  pool_member_info_v1: { inputs: [CAIRO.address], outputs: [`${POOL_TYPE}::PoolMemberInfoV1`] },
  contract_parameters_v1: { inputs: [], outputs: [`${POOL_TYPE}::PoolContractInfoV1`] },
});

export const STAKING_SIGNATURE: Signatures<typeof STAKING_ENTRYPOINT> = Object.freeze({
  staker_pool_info: { inputs: [CAIRO.address], outputs: [`${STAKING_TYPE}::StakerPoolInfoV2`] },
  get_staker_info_v1: {
    inputs: [CAIRO.address],
    outputs: [option(`${STAKING_TYPE}::StakerInfoV1`)],
  },
  staker_info_v1: { inputs: [CAIRO.address], outputs: [`${STAKING_TYPE}::StakerInfoV1`] },
  get_current_epoch: { inputs: [], outputs: [CAIRO.u64] },
  get_active_tokens: { inputs: [], outputs: [span(CAIRO.address)] },
  contract_parameters_v1: { inputs: [], outputs: [`${STAKING_TYPE}::StakingContractInfoV1`] },
  get_total_stake: { inputs: [], outputs: [AMOUNT] },
  get_total_stake_for_token: { inputs: [CAIRO.address], outputs: [AMOUNT] },
});

const selectors = selectorsOf;

export const POOL_SELECTOR = selectors(POOL_ENTRYPOINT);
export const STAKING_SELECTOR = selectors(STAKING_ENTRYPOINT);

/**
 * The pool's events: keys are `[selector(name), ...#key fields]`, data the other fields in order.
 * - PoolMemberExitIntent {#pool_member, exit_timestamp, amount}
 * - PoolMemberExitAction {#pool_member, unpool_amount}
 * - PoolMemberBalanceChanged {#pool_member, old_delegated_stake, new_delegated_stake}
 * - PoolMemberRewardClaimed {#pool_member, #reward_address, amount}
 * - NewPoolMember {#pool_member, #staker_address, reward_address, amount}
 * - PoolMemberRewardAddressChanged {#pool_member, new_address, old_address}
 * - StakerRemoved {#staker_address}: the staking contract removed the pool's staker; members may
 *   still exit (the intent's window is already over) and claim, never enter or add
 */
export const POOL_EVENT_NAME = Object.freeze({
  PoolMemberExitIntent: 'PoolMemberExitIntent',
  PoolMemberExitAction: 'PoolMemberExitAction',
  PoolMemberBalanceChanged: 'PoolMemberBalanceChanged',
  PoolMemberRewardClaimed: 'PoolMemberRewardClaimed',
  NewPoolMember: 'NewPoolMember',
  PoolMemberRewardAddressChanged: 'PoolMemberRewardAddressChanged',
  StakerRemoved: 'StakerRemoved',
} as const);

export const POOL_EVENT = selectors(POOL_EVENT_NAME);

export const POOL_EVENT_SIGNATURE: EventSignatures<typeof POOL_EVENT_NAME> = Object.freeze({
  PoolMemberExitIntent: { keys: [CAIRO.address], data: [TIMESTAMP, AMOUNT] },
  PoolMemberExitAction: { keys: [CAIRO.address], data: [AMOUNT] },
  PoolMemberBalanceChanged: { keys: [CAIRO.address], data: [AMOUNT, AMOUNT] },
  PoolMemberRewardClaimed: { keys: [CAIRO.address, CAIRO.address], data: [AMOUNT] },
  NewPoolMember: { keys: [CAIRO.address, CAIRO.address], data: [CAIRO.address, AMOUNT] },
  PoolMemberRewardAddressChanged: { keys: [CAIRO.address], data: [CAIRO.address, CAIRO.address] },
  StakerRemoved: { keys: [CAIRO.address], data: [] },
});

/** Revert reasons of the pool and the staking contract that a client explains in words. */
const STAKING_ERROR = Object.freeze({
  STAKER_INACTIVE: 'STAKER_INACTIVE',
  POOL_MEMBER_EXISTS: 'POOL_MEMBER_EXISTS',
  POOL_MEMBER_DOES_NOT_EXIST: 'POOL_MEMBER_DOES_NOT_EXIST',
  AMOUNT_IS_ZERO: 'AMOUNT_IS_ZERO',
  AMOUNT_TOO_HIGH: 'AMOUNT_TOO_HIGH',
  UNDELEGATE_IN_PROGRESS: 'UNDELEGATE_IN_PROGRESS',
  MISSING_UNDELEGATE_INTENT: 'MISSING_UNDELEGATE_INTENT',
  INTENT_WINDOW_NOT_FINISHED: 'INTENT_WINDOW_NOT_FINISHED',
  REWARD_ADDRESS_IS_TOKEN: 'REWARD_ADDRESS_IS_TOKEN',
  POOL_MEMBER_IS_TOKEN: 'POOL_MEMBER_IS_TOKEN',
  CALLER_IS_NOT_POOL_MEMBER: 'CALLER_IS_NOT_POOL_MEMBER',
  STAKER_NOT_EXISTS: 'STAKER_NOT_EXISTS',
} as const);

type StakingError = keyof typeof STAKING_ERROR;

/** The first known staking error named in a revert reason, or undefined. */
export function stakingErrorIn(revertReason: string): StakingError | undefined {
  return (Object.keys(STAKING_ERROR) as StakingError[]).find((code) =>
    new RegExp(`\\b${code}\\b`).test(revertReason),
  );
}
