/**
 * The contract classes of the sandbox chain as starknet_getClass / starknet_getClassAt serve them
 * (starknet-specs v0.10.0 CONTRACT_CLASS): a Cairo 1 ABI (the JSON string a declared class
 * carries) and the entry points by type, for the classes the emulator runs:
 *
 * - the registry ERC-20s, in two classes that differ only in their Transfer/Approval layout
 *   (keyed, OpenZeppelin's component; legacy, StarkGate's) — see contracts.ts;
 * - ArgentX v0.5.0 accounts (the entry points the emulator implements, with ArgentX's types);
 * - the aggregator's router (`swap` in the layout of shared/swap-calldata.ts);
 * - the paymaster's forwarder (`execute`, `deploy_account`; the relayer alone may call them);
 * - the pools, which have no entry point (the router moves their reserves);
 * - the staking contract and the delegation pools (staking.ts), with Starkware's types;
 * - the Vesu-like pool, its factory, oracle and vTokens (vesu.ts), with Vesu v2's types.
 *
 * The classes are TypeScript, not Sierra: `sierra_program` is empty and the class hashes are
 * labels (contracts.ts CLASS_HASH), except ArgentX's, which is real so that account addresses are
 * mainnet's. Each ABI lists exactly the entry points the contract answers, with the types of its
 * calldata layout (test/chain-starknetjs.test.ts drives tokens and accounts through starknet.js's
 * Contract with these ABIs, and decodes both Transfer layouts with them).
 */
import { selectorOf } from '../../shared/erc20.js';
import { CLASS_HASH, POOL_CLASS_HASH } from './contracts.js';
import { hex } from './executor.js';
import { PRAGMA_CLASS_HASH } from './pragma.js';
import { ROUTER_CLASS_HASH } from './router.js';
import { DELEGATION_POOL_CLASS_HASH, STAKING_CLASS_HASH } from './staking.js';
import {
  VESU_FACTORY_CLASS_HASH,
  VESU_ORACLE_CLASS_HASH,
  VESU_POOL_CLASS_HASH,
  VTOKEN_CLASS_HASH,
} from './vesu.js';

type AbiEntry = Record<string, unknown>;

const FELT = 'core::felt252';
const ADDRESS = 'core::starknet::contract_address::ContractAddress';
const U256 = 'core::integer::u256';
const BOOL = 'core::bool';
const SPAN_FELT = 'core::array::Span::<core::felt252>';
const ARRAY_FELT = 'core::array::Array::<core::felt252>';

const CORE_TYPES: AbiEntry[] = [
  {
    type: 'struct',
    name: U256,
    members: [
      { name: 'low', type: 'core::integer::u128' },
      { name: 'high', type: 'core::integer::u128' },
    ],
  },
  {
    type: 'enum',
    name: BOOL,
    variants: [
      { name: 'False', type: '()' },
      { name: 'True', type: '()' },
    ],
  },
  { type: 'struct', name: SPAN_FELT, members: [{ name: 'snapshot', type: `@${ARRAY_FELT}` }] },
];

const input = (name: string, type: string) => ({ name, type });
const fn = (
  name: string,
  inputs: Array<{ name: string; type: string }>,
  outputs: string[],
  mutability: 'view' | 'external',
): AbiEntry => ({
  type: 'function',
  name,
  inputs,
  outputs: outputs.map((type) => ({ type })),
  state_mutability: mutability,
});

function erc20Abi(layout: 'keyed' | 'legacy'): AbiEntry[] {
  const party = layout === 'keyed' ? 'key' : 'data';
  const base = layout === 'keyed' ? 'sandbox::erc20' : 'sandbox::erc20_legacy_events';
  const event = (name: string, a: string, b: string): AbiEntry => ({
    type: 'event',
    name: `${base}::${name}`,
    kind: 'struct',
    members: [
      { name: a, type: ADDRESS, kind: party },
      { name: b, type: ADDRESS, kind: party },
      { name: 'value', type: U256, kind: 'data' },
    ],
  });
  return [
    { type: 'impl', name: 'ERC20Impl', interface_name: `${base}::IERC20` },
    ...CORE_TYPES,
    {
      type: 'interface',
      name: `${base}::IERC20`,
      items: [
        fn('name', [], [FELT], 'view'),
        fn('symbol', [], [FELT], 'view'),
        fn('decimals', [], ['core::integer::u8'], 'view'),
        fn('total_supply', [], [U256], 'view'),
        fn('totalSupply', [], [U256], 'view'),
        fn('balance_of', [input('account', ADDRESS)], [U256], 'view'),
        fn('balanceOf', [input('account', ADDRESS)], [U256], 'view'),
        fn('allowance', [input('owner', ADDRESS), input('spender', ADDRESS)], [U256], 'view'),
        fn('transfer', [input('recipient', ADDRESS), input('amount', U256)], [BOOL], 'external'),
        fn(
          'transfer_from',
          [input('sender', ADDRESS), input('recipient', ADDRESS), input('amount', U256)],
          [BOOL],
          'external',
        ),
        fn(
          'transferFrom',
          [input('sender', ADDRESS), input('recipient', ADDRESS), input('amount', U256)],
          [BOOL],
          'external',
        ),
        fn('approve', [input('spender', ADDRESS), input('amount', U256)], [BOOL], 'external'),
        // the router's move of a pool's reserve (the router alone may call it)
        fn(
          'sandbox_pool_transfer',
          [input('sender', ADDRESS), input('recipient', ADDRESS), input('amount', U256)],
          [BOOL],
          'external',
        ),
      ],
    },
    event('Transfer', 'from', 'to'),
    event('Approval', 'owner', 'spender'),
    {
      type: 'event',
      name: `${base}::Event`,
      kind: 'enum',
      variants: [
        { name: 'Transfer', type: `${base}::Transfer`, kind: 'nested' },
        { name: 'Approval', type: `${base}::Approval`, kind: 'nested' },
      ],
    },
  ];
}

const CALL = 'core::starknet::account::Call';
const SPAN_CALL = 'core::array::Span::<core::starknet::account::Call>';
const OUTSIDE_EXECUTION = 'argent::outside_execution::interface::OutsideExecution';
const SIGNER = 'argent::signer::signer_signature::Signer';

const ACCOUNT_ABI: AbiEntry[] = [
  { type: 'impl', name: 'AccountImpl', interface_name: 'argent::account::interface::IAccount' },
  ...CORE_TYPES,
  {
    type: 'struct',
    name: CALL,
    members: [input('to', ADDRESS), input('selector', FELT), input('calldata', SPAN_FELT)],
  },
  {
    type: 'struct',
    name: SPAN_CALL,
    members: [{ name: 'snapshot', type: `@core::array::Array::<${CALL}>` }],
  },
  {
    type: 'interface',
    name: 'argent::account::interface::IAccount',
    items: [
      fn(
        '__execute__',
        [input('calls', `core::array::Array::<${CALL}>`)],
        [`core::array::Array::<${SPAN_FELT}>`],
        'external',
      ),
      fn(
        'is_valid_signature',
        [input('hash', FELT), input('signature', ARRAY_FELT)],
        [FELT],
        'view',
      ),
    ],
  },
  { type: 'impl', name: 'SRC5', interface_name: 'argent::introspection::interface::ISRC5' },
  {
    type: 'interface',
    name: 'argent::introspection::interface::ISRC5',
    items: [fn('supports_interface', [input('interface_id', FELT)], [BOOL], 'view')],
  },
  {
    type: 'impl',
    name: 'ExecuteFromOutsideV2',
    interface_name: 'argent::outside_execution::interface::IOutsideExecution',
  },
  {
    type: 'struct',
    name: OUTSIDE_EXECUTION,
    members: [
      input('caller', ADDRESS),
      input('nonce', FELT),
      input('execute_after', 'core::integer::u64'),
      input('execute_before', 'core::integer::u64'),
      input('calls', SPAN_CALL),
    ],
  },
  {
    type: 'interface',
    name: 'argent::outside_execution::interface::IOutsideExecution',
    items: [
      fn(
        'execute_from_outside_v2',
        [input('outside_execution', OUTSIDE_EXECUTION), input('signature', SPAN_FELT)],
        [`core::array::Array::<${SPAN_FELT}>`],
        'external',
      ),
    ],
  },
  // the sandbox deploys ArgentX accounts with one Starknet owner and no guardian only
  {
    type: 'struct',
    name: 'argent::signer::signer_signature::StarknetSigner',
    members: [input('pubkey', 'core::zeroable::NonZero::<core::felt252>')],
  },
  {
    type: 'enum',
    name: SIGNER,
    variants: [{ name: 'Starknet', type: 'argent::signer::signer_signature::StarknetSigner' }],
  },
  {
    type: 'enum',
    name: `core::option::Option::<${SIGNER}>`,
    variants: [
      { name: 'Some', type: SIGNER },
      { name: 'None', type: '()' },
    ],
  },
  {
    type: 'constructor',
    name: 'constructor',
    inputs: [input('owner', SIGNER), input('guardian', `core::option::Option::<${SIGNER}>`)],
  },
  {
    type: 'event',
    name: 'argent::account::argent_account::ArgentAccount::Event',
    kind: 'enum',
    variants: [],
  },
];

const SWAP = 'sandbox::router::Swap';
const ROUTER_ABI: AbiEntry[] = [
  { type: 'impl', name: 'RouterImpl', interface_name: 'sandbox::router::IRouter' },
  ...CORE_TYPES,
  {
    type: 'struct',
    name: SWAP,
    members: [
      input('token_in', ADDRESS),
      input('token_out', ADDRESS),
      input('rate', 'core::integer::u128'),
      input('protocol', FELT),
      input('pool_address', ADDRESS),
    ],
  },
  {
    type: 'interface',
    name: 'sandbox::router::IRouter',
    items: [
      fn(
        'swap',
        [
          input('swaps', `core::array::Array::<${SWAP}>`),
          input('token_in', ADDRESS),
          input('token_out', ADDRESS),
          input('amount_in', U256),
          input('min_received', U256),
          input('destination', ADDRESS),
        ],
        [U256],
        'external',
      ),
    ],
  },
  { type: 'event', name: 'sandbox::router::Event', kind: 'enum', variants: [] },
];

const FORWARDER_ABI: AbiEntry[] = [
  {
    type: 'impl',
    name: 'ForwarderImpl',
    interface_name: 'sandbox::paymaster_forwarder::IForwarder',
  },
  ...CORE_TYPES,
  {
    type: 'interface',
    name: 'sandbox::paymaster_forwarder::IForwarder',
    items: [
      fn(
        'execute',
        [
          input('account_address', ADDRESS),
          input('entrypoint', FELT),
          input('calldata', ARRAY_FELT),
          input('refund_token', ADDRESS),
          input('refund_amount', U256),
        ],
        [BOOL],
        'external',
      ),
      fn(
        'deploy_account',
        [
          input('class_hash', 'core::starknet::class_hash::ClassHash'),
          input('salt', FELT),
          input('calldata', ARRAY_FELT),
        ],
        [ADDRESS],
        'external',
      ),
    ],
  },
  { type: 'event', name: 'sandbox::paymaster_forwarder::Event', kind: 'enum', variants: [] },
];

const POOL_ABI: AbiEntry[] = [
  { type: 'event', name: 'sandbox::constant_product_pool::Event', kind: 'enum', variants: [] },
];

const U64 = 'core::integer::u64';
const U128T = 'core::integer::u128';
const U16 = 'core::integer::u16';
const TIMESTAMP = 'starkware_utils::time::time::Timestamp';
const TIME_DELTA = 'starkware_utils::time::time::TimeDelta';
const option = (type: string): AbiEntry => ({
  type: 'enum',
  name: `core::option::Option::<${type}>`,
  variants: [
    { name: 'Some', type },
    { name: 'None', type: '()' },
  ],
});
const struct = (name: string, members: Array<[string, string]>): AbiEntry => ({
  type: 'struct',
  name,
  members: members.map(([member, type]) => input(member, type)),
});
const structEvent = (
  base: string,
  name: string,
  members: Array<[string, string, 'key' | 'data']>,
): AbiEntry => ({
  type: 'event',
  name: `${base}::${name}`,
  kind: 'struct',
  members: members.map(([member, type, kind]) => ({ name: member, type, kind })),
});

const MEMBER_INFO = 'staking::pool::interface::PoolMemberInfoV1';
const POOL_INFO = 'staking::pool::interface::PoolContractInfoV1';
const POOL_EVENTS = 'staking::pool::interface::Events';
const DELEGATION_POOL_ABI: AbiEntry[] = [
  { type: 'impl', name: 'PoolImpl', interface_name: 'staking::pool::interface::IPool' },
  ...CORE_TYPES,
  struct(TIMESTAMP, [['seconds', U64]]),
  option(TIMESTAMP),
  struct(MEMBER_INFO, [
    ['reward_address', ADDRESS],
    ['amount', U128T],
    ['unclaimed_rewards', U128T],
    ['commission', U16],
    ['unpool_amount', U128T],
    ['unpool_time', `core::option::Option::<${TIMESTAMP}>`],
  ]),
  option(MEMBER_INFO),
  struct(POOL_INFO, [
    ['staker_address', ADDRESS],
    ['staker_removed', BOOL],
    ['staking_contract', ADDRESS],
    ['token_address', ADDRESS],
    ['commission', U16],
  ]),
  {
    type: 'interface',
    name: 'staking::pool::interface::IPool',
    items: [
      fn(
        'enter_delegation_pool',
        [input('reward_address', ADDRESS), input('amount', U128T)],
        [],
        'external',
      ),
      fn(
        'add_to_delegation_pool',
        [input('pool_member', ADDRESS), input('amount', U128T)],
        [U128T],
        'external',
      ),
      fn('exit_delegation_pool_intent', [input('amount', U128T)], [], 'external'),
      fn('exit_delegation_pool_action', [input('pool_member', ADDRESS)], [U128T], 'external'),
      fn('claim_rewards', [input('pool_member', ADDRESS)], [U128T], 'external'),
      fn(
        'switch_delegation_pool',
        [input('to_staker', ADDRESS), input('to_pool', ADDRESS), input('amount', U128T)],
        [U128T],
        'external',
      ),
      fn('change_reward_address', [input('reward_address', ADDRESS)], [], 'external'),
      fn(
        'get_pool_member_info_v1',
        [input('pool_member', ADDRESS)],
        [`core::option::Option::<${MEMBER_INFO}>`],
        'view',
      ),
      fn('pool_member_info_v1', [input('pool_member', ADDRESS)], [MEMBER_INFO], 'view'),
      fn('contract_parameters_v1', [], [POOL_INFO], 'view'),
      // the target pool's side of a switch (another pool of the sandbox alone may call it)
      fn(
        'sandbox_enter_from_switch',
        [input('pool_member', ADDRESS), input('reward_address', ADDRESS), input('amount', U128T)],
        [U128T],
        'external',
      ),
    ],
  },
  structEvent(POOL_EVENTS, 'PoolMemberExitIntent', [
    ['pool_member', ADDRESS, 'key'],
    ['exit_timestamp', TIMESTAMP, 'data'],
    ['amount', U128T, 'data'],
  ]),
  structEvent(POOL_EVENTS, 'PoolMemberExitAction', [
    ['pool_member', ADDRESS, 'key'],
    ['unpool_amount', U128T, 'data'],
  ]),
  structEvent(POOL_EVENTS, 'PoolMemberBalanceChanged', [
    ['pool_member', ADDRESS, 'key'],
    ['old_delegated_stake', U128T, 'data'],
    ['new_delegated_stake', U128T, 'data'],
  ]),
  structEvent(POOL_EVENTS, 'PoolMemberRewardClaimed', [
    ['pool_member', ADDRESS, 'key'],
    ['reward_address', ADDRESS, 'key'],
    ['amount', U128T, 'data'],
  ]),
  structEvent(POOL_EVENTS, 'NewPoolMember', [
    ['pool_member', ADDRESS, 'key'],
    ['staker_address', ADDRESS, 'key'],
    ['reward_address', ADDRESS, 'data'],
    ['amount', U128T, 'data'],
  ]),
  structEvent(POOL_EVENTS, 'PoolMemberRewardAddressChanged', [
    ['pool_member', ADDRESS, 'key'],
    ['new_address', ADDRESS, 'data'],
    ['old_address', ADDRESS, 'data'],
  ]),
  {
    type: 'event',
    name: 'staking::pool::pool::Pool::Event',
    kind: 'enum',
    variants: [
      'PoolMemberExitIntent',
      'PoolMemberExitAction',
      'PoolMemberBalanceChanged',
      'PoolMemberRewardClaimed',
      'NewPoolMember',
      'PoolMemberRewardAddressChanged',
    ].map((name) => ({ name, type: `${POOL_EVENTS}::${name}`, kind: 'nested' })),
  },
];

const POOL_INFO_V2 = 'staking::staking::interface::PoolInfo';
const STAKER_POOL_INFO_V2 = 'staking::staking::interface::StakerPoolInfoV2';
const STAKER_POOL_INFO_V1 = 'staking::staking::interface::StakerPoolInfoV1';
const STAKER_INFO_V1 = 'staking::staking::interface::StakerInfoV1';
const STAKING_INFO_V1 = 'staking::staking::interface::StakingContractInfoV1';
const STAKING_ABI: AbiEntry[] = [
  { type: 'impl', name: 'StakingImpl', interface_name: 'staking::staking::interface::IStaking' },
  ...CORE_TYPES,
  struct(TIMESTAMP, [['seconds', U64]]),
  struct(TIME_DELTA, [['seconds', U64]]),
  option(TIMESTAMP),
  option(U16),
  struct(POOL_INFO_V2, [
    ['pool_contract', ADDRESS],
    ['token_address', ADDRESS],
    ['amount', U128T],
  ]),
  {
    type: 'struct',
    name: `core::array::Span::<${POOL_INFO_V2}>`,
    members: [{ name: 'snapshot', type: `@core::array::Array::<${POOL_INFO_V2}>` }],
  },
  struct(STAKER_POOL_INFO_V2, [
    ['commission', `core::option::Option::<${U16}>`],
    ['pools', `core::array::Span::<${POOL_INFO_V2}>`],
  ]),
  struct(STAKER_POOL_INFO_V1, [
    ['pool_contract', ADDRESS],
    ['amount', U128T],
    ['commission', U16],
  ]),
  option(STAKER_POOL_INFO_V1),
  struct(STAKER_INFO_V1, [
    ['reward_address', ADDRESS],
    ['operational_address', ADDRESS],
    ['unstake_time', `core::option::Option::<${TIMESTAMP}>`],
    ['amount_own', U128T],
    ['unclaimed_rewards_own', U128T],
    ['pool_info', `core::option::Option::<${STAKER_POOL_INFO_V1}>`],
  ]),
  option(STAKER_INFO_V1),
  struct(STAKING_INFO_V1, [
    ['min_stake', U128T],
    ['token_address', ADDRESS],
    ['attestation_contract', ADDRESS],
    ['pool_contract_class_hash', 'core::starknet::class_hash::ClassHash'],
    ['reward_supplier', ADDRESS],
    ['exit_wait_window', TIME_DELTA],
  ]),
  {
    type: 'struct',
    name: 'core::array::Span::<core::starknet::contract_address::ContractAddress>',
    members: [{ name: 'snapshot', type: `@core::array::Array::<${ADDRESS}>` }],
  },
  {
    type: 'interface',
    name: 'staking::staking::interface::IStaking',
    items: [
      fn('staker_pool_info', [input('staker_address', ADDRESS)], [STAKER_POOL_INFO_V2], 'view'),
      fn('staker_info_v1', [input('staker_address', ADDRESS)], [STAKER_INFO_V1], 'view'),
      fn(
        'get_staker_info_v1',
        [input('staker_address', ADDRESS)],
        [`core::option::Option::<${STAKER_INFO_V1}>`],
        'view',
      ),
      fn('get_current_epoch', [], [U64], 'view'),
      fn(
        'get_active_tokens',
        [],
        ['core::array::Span::<core::starknet::contract_address::ContractAddress>'],
        'view',
      ),
      fn('contract_parameters_v1', [], [STAKING_INFO_V1], 'view'),
      fn('get_total_stake', [], [U128T], 'view'),
      fn('get_total_stake_for_token', [input('token_address', ADDRESS)], [U128T], 'view'),
      fn('is_paused', [], [BOOL], 'view'),
    ],
  },
  { type: 'event', name: 'staking::staking::staking::Staking::Event', kind: 'enum', variants: [] },
];

const I257 = 'alexandria_math::i257::i257';
const AMOUNT = 'vesu::data_model::Amount';
const DENOM = 'vesu::data_model::AmountDenomination';
const MODIFY_PARAMS = 'vesu::data_model::ModifyPositionParams';
const UPDATE_RESPONSE = 'vesu::data_model::UpdatePositionResponse';
const LIQUIDATE_PARAMS = 'vesu::data_model::LiquidatePositionParams';
const POSITION = 'vesu::data_model::Position';
const PAIR = 'vesu::data_model::Pair';
const ASSET_CONFIG = 'vesu::data_model::AssetConfig';
const ASSET_PRICE = 'vesu::data_model::AssetPrice';
const PAIR_CONFIG = 'vesu::data_model::PairConfig';
const CONTEXT = 'vesu::data_model::Context';
const RATE_CONFIG = 'vesu::interest_rate_model::InterestRateConfig';
const VESU_TYPES: AbiEntry[] = [
  ...CORE_TYPES,
  struct(I257, [
    ['abs', U256],
    ['is_negative', BOOL],
  ]),
  {
    type: 'enum',
    name: DENOM,
    variants: [
      { name: 'Native', type: '()' },
      { name: 'Assets', type: '()' },
    ],
  },
  struct(AMOUNT, [
    ['denomination', DENOM],
    ['value', I257],
  ]),
  struct(MODIFY_PARAMS, [
    ['collateral_asset', ADDRESS],
    ['debt_asset', ADDRESS],
    ['user', ADDRESS],
    ['collateral', AMOUNT],
    ['debt', AMOUNT],
  ]),
  struct(LIQUIDATE_PARAMS, [
    ['collateral_asset', ADDRESS],
    ['debt_asset', ADDRESS],
    ['user', ADDRESS],
    ['min_collateral_to_receive', U256],
    ['debt_to_repay', U256],
  ]),
  struct(UPDATE_RESPONSE, [
    ['collateral_delta', I257],
    ['collateral_shares_delta', I257],
    ['debt_delta', I257],
    ['nominal_debt_delta', I257],
    ['bad_debt', U256],
  ]),
  struct(POSITION, [
    ['collateral_shares', U256],
    ['nominal_debt', U256],
  ]),
  struct(PAIR, [
    ['total_collateral_shares', U256],
    ['total_nominal_debt', U256],
  ]),
  struct(ASSET_CONFIG, [
    ['total_collateral_shares', U256],
    ['total_nominal_debt', U256],
    ['reserve', U256],
    ['max_utilization', U256],
    ['floor', U256],
    ['scale', U256],
    ['is_legacy', BOOL],
    ['last_updated', U64],
    ['last_rate_accumulator', U256],
    ['last_full_utilization_rate', U256],
    ['fee_rate', U256],
    ['fee_shares', U256],
  ]),
  struct(PAIR_CONFIG, [
    ['max_ltv', U64],
    ['liquidation_factor', U64],
    ['debt_cap', U128T],
  ]),
  struct(ASSET_PRICE, [
    ['value', U256],
    ['is_valid', BOOL],
  ]),
  struct(CONTEXT, [
    ['collateral_asset', ADDRESS],
    ['debt_asset', ADDRESS],
    ['collateral_asset_config', ASSET_CONFIG],
    ['debt_asset_config', ASSET_CONFIG],
    ['collateral_asset_price', ASSET_PRICE],
    ['debt_asset_price', ASSET_PRICE],
    ['max_ltv', U64],
    ['user', ADDRESS],
    ['position', POSITION],
  ]),
  struct(RATE_CONFIG, [
    ['min_target_utilization', U256],
    ['max_target_utilization', U256],
    ['target_utilization', U256],
    ['min_full_utilization_rate', U256],
    ['max_full_utilization_rate', U256],
    ['zero_utilization_rate', U256],
    ['rate_half_life', U256],
    ['target_rate_percent', U256],
  ]),
];
const pairInputs = [input('collateral_asset', ADDRESS), input('debt_asset', ADDRESS)];
const VESU_POOL_ABI: AbiEntry[] = [
  { type: 'impl', name: 'PoolImpl', interface_name: 'vesu::pool::IPool' },
  ...VESU_TYPES,
  {
    type: 'interface',
    name: 'vesu::pool::IPool',
    items: [
      fn('modify_position', [input('params', MODIFY_PARAMS)], [UPDATE_RESPONSE], 'external'),
      fn('liquidate_position', [input('params', LIQUIDATE_PARAMS)], [UPDATE_RESPONSE], 'external'),
      fn(
        'position',
        [...pairInputs, input('user', ADDRESS)],
        [`(${POSITION}, ${U256}, ${U256})`],
        'view',
      ),
      fn(
        'check_collateralization',
        [...pairInputs, input('user', ADDRESS)],
        [`(${BOOL}, ${U256}, ${U256})`],
        'view',
      ),
      fn('context', [...pairInputs, input('user', ADDRESS)], [CONTEXT], 'view'),
      fn('pair_config', pairInputs, [PAIR_CONFIG], 'view'),
      fn('pairs', pairInputs, [PAIR], 'view'),
      fn('asset_config', [input('asset', ADDRESS)], [ASSET_CONFIG], 'view'),
      fn('price', [input('asset', ADDRESS)], [ASSET_PRICE], 'view'),
      fn('rate_accumulator', [input('asset', ADDRESS)], [U256], 'view'),
      fn('utilization', [input('asset', ADDRESS)], [U256], 'view'),
      fn(
        'interest_rate',
        [
          input('asset', ADDRESS),
          input('utilization', U256),
          input('last_updated', U64),
          input('last_full_utilization_rate', U256),
        ],
        [U256],
        'view',
      ),
      fn('interest_rate_config', [input('asset', ADDRESS)], [RATE_CONFIG], 'view'),
      fn(
        'calculate_debt',
        [input('nominal_debt', I257), input('rate_accumulator', U256), input('asset_scale', U256)],
        [U256],
        'view',
      ),
      fn(
        'calculate_collateral',
        [input('asset', ADDRESS), input('collateral_shares', I257)],
        [U256],
        'view',
      ),
      fn('oracle', [], [ADDRESS], 'view'),
      fn('is_paused', [], [BOOL], 'view'),
      fn('pool_name', [], [FELT], 'view'),
      // a vToken's withdrawal, the pool's side (that asset's vToken alone may call it)
      fn(
        'sandbox_v_token_withdraw',
        [
          input('asset', ADDRESS),
          input('receiver', ADDRESS),
          input('assets', U256),
          input('shares', U256),
        ],
        [],
        'external',
      ),
    ],
  },
  structEvent('vesu::pool::Pool', 'ModifyPosition', [
    ['collateral_asset', ADDRESS, 'key'],
    ['debt_asset', ADDRESS, 'key'],
    ['user', ADDRESS, 'key'],
    ['collateral_delta', I257, 'data'],
    ['collateral_shares_delta', I257, 'data'],
    ['debt_delta', I257, 'data'],
    ['nominal_debt_delta', I257, 'data'],
  ]),
  structEvent('vesu::pool::Pool', 'LiquidatePosition', [
    ['collateral_asset', ADDRESS, 'key'],
    ['debt_asset', ADDRESS, 'key'],
    ['user', ADDRESS, 'key'],
    ['liquidator', ADDRESS, 'key'],
    ['collateral_delta', I257, 'data'],
    ['collateral_shares_delta', I257, 'data'],
    ['debt_delta', I257, 'data'],
    ['nominal_debt_delta', I257, 'data'],
    ['bad_debt', U256, 'data'],
  ]),
  {
    type: 'event',
    name: 'vesu::pool::Pool::Event',
    kind: 'enum',
    variants: [
      { name: 'ModifyPosition', type: 'vesu::pool::Pool::ModifyPosition', kind: 'nested' },
      { name: 'LiquidatePosition', type: 'vesu::pool::Pool::LiquidatePosition', kind: 'nested' },
    ],
  },
];

const VTOKEN_BASE = 'vesu::v_token::VToken';
const BYTE_ARRAY = 'core::byte_array::ByteArray';
const OZ_ERC20 = 'openzeppelin_token::erc20::erc20::ERC20Component';
const transferFromInputs = [
  input('sender', ADDRESS),
  input('recipient', ADDRESS),
  input('amount', U256),
];
/**
 * Vesu v2's VToken (src/v_token.cairo at d4b21c8): OpenZeppelin 2.0.0's ERC20Impl and
 * ERC20MetadataImpl embedded (snake_case only), IVToken and IERC4626, and its events (the ERC-20
 * component's flat, then Deposit and Withdraw).
 */
const VTOKEN_ABI: AbiEntry[] = [
  {
    type: 'impl',
    name: 'ERC20Impl',
    interface_name: 'openzeppelin_token::erc20::interface::IERC20',
  },
  ...CORE_TYPES,
  {
    type: 'struct',
    name: BYTE_ARRAY,
    members: [
      { name: 'data', type: 'core::array::Array::<core::bytes_31::bytes31>' },
      { name: 'pending_word', type: FELT },
      { name: 'pending_word_len', type: 'core::integer::u32' },
    ],
  },
  {
    type: 'interface',
    name: 'openzeppelin_token::erc20::interface::IERC20',
    items: [
      fn('total_supply', [], [U256], 'view'),
      fn('balance_of', [input('account', ADDRESS)], [U256], 'view'),
      fn('allowance', [input('owner', ADDRESS), input('spender', ADDRESS)], [U256], 'view'),
      fn('transfer', [input('recipient', ADDRESS), input('amount', U256)], [BOOL], 'external'),
      fn('transfer_from', transferFromInputs, [BOOL], 'external'),
      fn('approve', [input('spender', ADDRESS), input('amount', U256)], [BOOL], 'external'),
    ],
  },
  {
    type: 'impl',
    name: 'ERC20MetadataImpl',
    interface_name: 'openzeppelin_token::erc20::interface::IERC20Metadata',
  },
  {
    type: 'interface',
    name: 'openzeppelin_token::erc20::interface::IERC20Metadata',
    items: [
      fn('name', [], [BYTE_ARRAY], 'view'),
      fn('symbol', [], [BYTE_ARRAY], 'view'),
      fn('decimals', [], ['core::integer::u8'], 'view'),
    ],
  },
  { type: 'impl', name: 'VTokenImpl', interface_name: 'vesu::v_token::IVToken' },
  {
    type: 'interface',
    name: 'vesu::v_token::IVToken',
    items: [fn('pool_contract', [], [ADDRESS], 'view'), fn('approve_pool', [], [], 'external')],
  },
  { type: 'impl', name: 'ERC4626Impl', interface_name: 'vesu::v_token::IERC4626' },
  {
    type: 'interface',
    name: 'vesu::v_token::IERC4626',
    items: [
      fn('asset', [], [ADDRESS], 'view'),
      fn('total_assets', [], [U256], 'view'),
      fn('convert_to_shares', [input('assets', U256)], [U256], 'view'),
      fn('convert_to_assets', [input('shares', U256)], [U256], 'view'),
      fn('max_deposit', [input('receiver', ADDRESS)], [U256], 'view'),
      fn('preview_deposit', [input('assets', U256)], [U256], 'view'),
      fn('deposit', [input('assets', U256), input('receiver', ADDRESS)], [U256], 'external'),
      fn('max_mint', [input('receiver', ADDRESS)], [U256], 'view'),
      fn('preview_mint', [input('shares', U256)], [U256], 'view'),
      fn('mint', [input('shares', U256), input('receiver', ADDRESS)], [U256], 'external'),
      fn('max_withdraw', [input('owner', ADDRESS)], [U256], 'view'),
      fn('preview_withdraw', [input('assets', U256)], [U256], 'view'),
      fn(
        'withdraw',
        [input('assets', U256), input('receiver', ADDRESS), input('owner', ADDRESS)],
        [U256],
        'external',
      ),
      fn('max_redeem', [input('owner', ADDRESS)], [U256], 'view'),
      fn('preview_redeem', [input('shares', U256)], [U256], 'view'),
      fn(
        'redeem',
        [input('shares', U256), input('receiver', ADDRESS), input('owner', ADDRESS)],
        [U256],
        'external',
      ),
    ],
  },
  structEvent(OZ_ERC20, 'Transfer', [
    ['from', ADDRESS, 'key'],
    ['to', ADDRESS, 'key'],
    ['value', U256, 'data'],
  ]),
  structEvent(OZ_ERC20, 'Approval', [
    ['owner', ADDRESS, 'key'],
    ['spender', ADDRESS, 'key'],
    ['value', U256, 'data'],
  ]),
  {
    type: 'event',
    name: `${OZ_ERC20}::Event`,
    kind: 'enum',
    variants: ['Transfer', 'Approval'].map((name) => ({
      name,
      type: `${OZ_ERC20}::${name}`,
      kind: 'nested',
    })),
  },
  structEvent(VTOKEN_BASE, 'Deposit', [
    ['sender', ADDRESS, 'key'],
    ['owner', ADDRESS, 'key'],
    ['assets', U256, 'data'],
    ['shares', U256, 'data'],
  ]),
  structEvent(VTOKEN_BASE, 'Withdraw', [
    ['sender', ADDRESS, 'key'],
    ['receiver', ADDRESS, 'key'],
    ['owner', ADDRESS, 'key'],
    ['assets', U256, 'data'],
    ['shares', U256, 'data'],
  ]),
  {
    type: 'event',
    name: `${VTOKEN_BASE}::Event`,
    kind: 'enum',
    variants: [
      { name: 'ERC20Event', type: `${OZ_ERC20}::Event`, kind: 'flat' },
      { name: 'Deposit', type: `${VTOKEN_BASE}::Deposit`, kind: 'nested' },
      { name: 'Withdraw', type: `${VTOKEN_BASE}::Withdraw`, kind: 'nested' },
    ],
  },
];

const VESU_ORACLE_ABI: AbiEntry[] = [
  { type: 'impl', name: 'OracleImpl', interface_name: 'vesu::oracle::IOracle' },
  ...VESU_TYPES,
  {
    type: 'interface',
    name: 'vesu::oracle::IOracle',
    items: [fn('price', [input('asset', ADDRESS)], [ASSET_PRICE], 'view')],
  },
  { type: 'event', name: 'vesu::oracle::Oracle::Event', kind: 'enum', variants: [] },
];

const VESU_FACTORY_ABI: AbiEntry[] = [
  { type: 'impl', name: 'PoolFactoryImpl', interface_name: 'vesu::pool_factory::IPoolFactory' },
  ...CORE_TYPES,
  {
    type: 'interface',
    name: 'vesu::pool_factory::IPoolFactory',
    items: [
      fn('v_token_for_asset', [input('pool', ADDRESS), input('asset', ADDRESS)], [ADDRESS], 'view'),
      fn(
        'asset_for_v_token',
        [input('pool', ADDRESS), input('v_token', ADDRESS)],
        [ADDRESS],
        'view',
      ),
    ],
  },
  { type: 'event', name: 'vesu::pool_factory::PoolFactory::Event', kind: 'enum', variants: [] },
];

const PRAGMA_DATA_TYPE = 'pragma::entry::structs::DataType';
const PRAGMA_RESPONSE = 'pragma::entry::structs::PragmaPricesResponse';
const PRAGMA_MODE = 'pragma::entry::structs::AggregationMode';
const OPTION_U64 = 'core::option::Option::<core::integer::u64>';

/** Pragma's oracle, the views the sandbox serves (astraly-labs/pragma-oracle b02ad9e4, `IPragmaABI`). */
const PRAGMA_ABI: AbiEntry[] = [
  { type: 'impl', name: 'IPragmaABIImpl', interface_name: 'pragma::oracle::oracle::IPragmaABI' },
  ...CORE_TYPES,
  {
    type: 'enum',
    name: OPTION_U64,
    variants: [
      { name: 'Some', type: 'core::integer::u64' },
      { name: 'None', type: '()' },
    ],
  },
  {
    type: 'enum',
    name: PRAGMA_DATA_TYPE,
    variants: [
      { name: 'SpotEntry', type: 'core::felt252' },
      { name: 'FutureEntry', type: '(core::felt252, core::integer::u64)' },
      { name: 'GenericEntry', type: 'core::felt252' },
    ],
  },
  {
    type: 'struct',
    name: PRAGMA_RESPONSE,
    members: [
      { name: 'price', type: 'core::integer::u128' },
      { name: 'decimals', type: 'core::integer::u32' },
      { name: 'last_updated_timestamp', type: 'core::integer::u64' },
      { name: 'num_sources_aggregated', type: 'core::integer::u32' },
      { name: 'expiration_timestamp', type: OPTION_U64 },
    ],
  },
  {
    type: 'enum',
    name: PRAGMA_MODE,
    variants: [
      { name: 'Median', type: '()' },
      { name: 'Mean', type: '()' },
      { name: 'ConversionRate', type: '()' },
      { name: 'Error', type: '()' },
    ],
  },
  {
    type: 'interface',
    name: 'pragma::oracle::oracle::IPragmaABI',
    items: [
      fn('get_decimals', [input('data_type', PRAGMA_DATA_TYPE)], ['core::integer::u32'], 'view'),
      fn('get_data_median', [input('data_type', PRAGMA_DATA_TYPE)], [PRAGMA_RESPONSE], 'view'),
      fn(
        'get_data',
        [input('data_type', PRAGMA_DATA_TYPE), input('aggregation_mode', PRAGMA_MODE)],
        [PRAGMA_RESPONSE],
        'view',
      ),
    ],
  },
  { type: 'event', name: 'pragma::oracle::oracle::Oracle::Event', kind: 'enum', variants: [] },
];

/** The entry points of an ABI, as Sierra lists them: sorted by selector, function_idx in ABI order. */
function entryPoints(abi: readonly AbiEntry[]): Record<string, unknown> {
  const names: string[] = [];
  for (const entry of abi) {
    if (entry.type === 'interface')
      for (const item of entry.items as AbiEntry[]) names.push(item.name as string);
    if (entry.type === 'function') names.push(entry.name as string);
  }
  const external = names
    .map((name, index) => ({ selector: selectorOf(name), function_idx: index }))
    .sort((a, b) => (a.selector < b.selector ? -1 : a.selector > b.selector ? 1 : 0))
    .map(({ selector, function_idx }) => ({ selector: hex(selector), function_idx }));
  const constructor = abi.some((entry) => entry.type === 'constructor')
    ? [{ selector: hex(selectorOf('constructor')), function_idx: names.length }]
    : [];
  return { CONSTRUCTOR: constructor, EXTERNAL: external, L1_HANDLER: [] };
}

function contractClass(abi: readonly AbiEntry[]): Record<string, unknown> {
  return {
    sierra_program: [],
    contract_class_version: '0.1.0',
    entry_points_by_type: entryPoints(abi),
    abi: JSON.stringify(abi),
  };
}

/** Built at the first class read (the selectors cost a keccak each, which a sandbox start need not pay). */
let classes: ReadonlyMap<bigint, Record<string, unknown>> | undefined;

/** CONTRACT_CLASS of `classHash`, or undefined when no such class is declared. */
export function contractClassOf(classHash: bigint): Record<string, unknown> | undefined {
  classes ??= new Map([
    [CLASS_HASH.erc20Keyed, contractClass(erc20Abi('keyed'))],
    [CLASS_HASH.erc20Legacy, contractClass(erc20Abi('legacy'))],
    [CLASS_HASH.argent, contractClass(ACCOUNT_ABI)],
    [CLASS_HASH.forwarder, contractClass(FORWARDER_ABI)],
    [ROUTER_CLASS_HASH, contractClass(ROUTER_ABI)],
    [POOL_CLASS_HASH, contractClass(POOL_ABI)],
    [STAKING_CLASS_HASH, contractClass(STAKING_ABI)],
    [DELEGATION_POOL_CLASS_HASH, contractClass(DELEGATION_POOL_ABI)],
    [VESU_POOL_CLASS_HASH, contractClass(VESU_POOL_ABI)],
    [VTOKEN_CLASS_HASH, contractClass(VTOKEN_ABI)],
    [VESU_ORACLE_CLASS_HASH, contractClass(VESU_ORACLE_ABI)],
    [VESU_FACTORY_CLASS_HASH, contractClass(VESU_FACTORY_ABI)],
    [PRAGMA_CLASS_HASH, contractClass(PRAGMA_ABI)],
  ]);
  return classes.get(classHash);
}
