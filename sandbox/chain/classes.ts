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
 * - the pools, which have no entry point (the router moves their reserves).
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
import { ROUTER_CLASS_HASH } from './router.js';

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
  ]);
  return classes.get(classHash);
}
