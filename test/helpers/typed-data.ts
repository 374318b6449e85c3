/**
 * SNIP-12 typed data for tests: legitimate messages of every shape starknet.js hashes (they must
 * keep working), and the fanned-out types that make its encoder exponential.
 */
import { OutsideExecutionTypesV2 } from 'starknet';

export const STARKNET_DOMAIN = [
  { name: 'name', type: 'shortstring' },
  { name: 'version', type: 'shortstring' },
  { name: 'chainId', type: 'shortstring' },
  { name: 'revision', type: 'shortstring' },
];

/** The paymaster's OutsideExecution (SNIP-9 v2) as AVNU builds it: `calls` calls of `calldata` felts each. */
export function outsideExecution(calls = 3, calldata = 12) {
  return {
    // starknet.js's own SNIP-9 v2 types, the ones the paymaster flow checks against
    types: { ...OutsideExecutionTypesV2 },
    primaryType: 'OutsideExecution',
    domain: {
      name: 'Account.execute_from_outside',
      version: '2',
      chainId: 'SN_MAIN',
      revision: '1',
    },
    message: {
      Caller: '0x414e595f43414c4c4552',
      Nonce: '0x5f2c1e8a7b',
      'Execute After': '0x1',
      'Execute Before': '0x6a0f2b3c',
      Calls: Array.from({ length: calls }, (_, i) => ({
        To: `0x${(0x4718f5a0fc34 + i).toString(16).padStart(64, '0')}`,
        Selector: '0x219209e083275171774dab1df80982e9df2096516f06319c5c6d71ae0a8480c',
        Calldata: Array.from(
          { length: calldata },
          (_, j) => `0x${(j * 7919 + i + 1).toString(16)}`,
        ),
      })),
    },
  };
}

/** Revision 1 with every kind of value: presets, enums with tuple variants, a merkletree, long strings, arrays of structs. */
export function everyRevision1Type() {
  return {
    types: {
      StarknetDomain: STARKNET_DOMAIN,
      Example: [
        { name: 'Amount', type: 'TokenAmount' },
        { name: 'Nft', type: 'NftId' },
        { name: 'Big', type: 'u256' },
        { name: 'Choice', type: 'enum', contains: 'Choice' },
        { name: 'Other choice', type: 'enum', contains: 'Choice' },
        { name: 'Root', type: 'merkletree', contains: 'Leaf' },
        { name: 'Text', type: 'string' },
        { name: 'Entry', type: 'selector' },
        { name: 'When', type: 'timestamp' },
        { name: 'Flag', type: 'bool' },
        { name: 'Signed', type: 'i128' },
        { name: 'Leaves', type: 'Leaf*' },
        { name: 'Class', type: 'ClassHash' },
        { name: 'Short', type: 'shortstring' },
        { name: 'Numbers', type: 'felt*' },
      ],
      Choice: [
        { name: 'Nothing', type: '()' },
        { name: 'Pair', type: '(u128,u128*)' },
        { name: 'Leaf', type: '(Leaf)' },
      ],
      Leaf: [
        { name: 'contract_address', type: 'ContractAddress' },
        { name: 'amount', type: 'u128' },
      ],
    },
    primaryType: 'Example',
    domain: { name: 'finance-tui tests', version: '1', chainId: 'SN_MAIN', revision: '1' },
    message: {
      Amount: {
        token_address: '0x49d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7',
        amount: { low: '0x2386f26fc10000', high: '0x0' },
      },
      Nft: { collection_address: '0x1234', token_id: { low: '7', high: '0' } },
      Big: { low: '0xffffffffffffffffffffffffffffffff', high: '0x1' },
      Choice: { Pair: ['0x10', ['0x1', '0x2', '0x3']] },
      'Other choice': { Leaf: [{ contract_address: '0x99', amount: '0x5' }] },
      Root: [
        { contract_address: '0x1', amount: '0x64' },
        { contract_address: '0x2', amount: '0xc8' },
        { contract_address: '0x3', amount: '0x12c' },
      ],
      Text: 'A long string: more than thirty-one bytes, so it is hashed as a ByteArray.',
      Entry: 'transfer',
      When: '1735689600',
      Flag: true,
      Signed: '-42',
      Leaves: [
        { contract_address: '0x4', amount: '0x1' },
        { contract_address: '0x5', amount: '0x2' },
      ],
      Class: '0x36078334509b514626504edc9fb252328d1a240e4e948bef8d0c08dff45927f',
      Short: 'finance-tui',
      Numbers: ['1', '0x2', 3],
    },
  };
}

/** Revision 0 (legacy, Pedersen) types of the classic Mail example. */
export const LEGACY_TYPES = {
  StarkNetDomain: [
    { name: 'name', type: 'felt' },
    { name: 'version', type: 'felt' },
    { name: 'chainId', type: 'felt' },
  ],
  Person: [
    { name: 'name', type: 'felt' },
    { name: 'wallet', type: 'felt' },
  ],
};

/** Revision 0 (legacy, Pedersen): the classic Mail example. */
export function legacyMail() {
  return {
    types: {
      ...LEGACY_TYPES,
      Mail: [
        { name: 'from', type: 'Person' },
        { name: 'to', type: 'Person' },
        { name: 'contents', type: 'felt' },
      ],
    },
    primaryType: 'Mail',
    domain: { name: 'StarkNet Mail', version: '1', chainId: 1 },
    message: {
      from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
      to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
      contents: 'Hello, Bob!',
    },
  };
}

/**
 * The attack: `width` types per level, each referring to every type of the next level, `depth`
 * levels. starknet.js expands it width^depth times (2 wide, 24 deep: ~3 kB, ~10 s).
 */
export function fannedOutTypes(depth: number, width = 2) {
  const types: Record<string, Array<{ name: string; type: string }>> = {
    StarknetDomain: STARKNET_DOMAIN,
  };
  const name = (level: number, index: number) => `T${level}_${index}`;
  for (let level = 0; level < depth; level++) {
    for (let index = 0; index < width; index++) {
      types[name(level, index)] =
        level + 1 < depth
          ? Array.from({ length: width }, (_, next) => ({
              name: `f${next}`,
              type: name(level + 1, next),
            }))
          : [{ name: 'x', type: 'felt' }];
    }
  }
  return {
    types,
    primaryType: name(0, 0),
    domain: { name: 'x', version: '1', chainId: 'SN_MAIN', revision: '1' },
    message: {},
  };
}

// ---------------------------------------------------------------------------------------------
// Families of shapes, each grown by a size: the heaviest accepted one of each is what issue 27
// measured (server/typed-data-work.test.ts counts its work, bench/typed-data-cost.ts times it).

type Family = [name: string, build: (size: number) => unknown];

const felt = (i: number): string => `0x${(i * 7919 + 1).toString(16)}`;
const domain1 = { name: 'bench', version: '1', chainId: 'SN_MAIN', revision: '1' };
const domain0 = { name: 'bench', version: '1', chainId: 1 };

/** A chain of `depth` struct types, each with `fields` fields of the next (the last holds felts). */
function deepStructs(depth: number, fields: number, revision: '0' | '1') {
  const types: Record<string, Array<{ name: string; type: string }>> = revision === '1'
    ? { StarknetDomain: STARKNET_DOMAIN }
    : { StarkNetDomain: LEGACY_TYPES.StarkNetDomain };
  const name = (level: number) => `Level${level}WithALongishTypeNameToHash`;
  for (let level = 0; level < depth; level++)
    types[name(level)] = Array.from({ length: fields }, (_, i) => ({
      name: `field_number_${i}`,
      type: level + 1 < depth ? name(level + 1) : 'felt',
    }));
  const value = (level: number): unknown =>
    level + 1 < depth
      ? Object.fromEntries(
          Array.from({ length: fields }, (_, i) => [`field_number_${i}`, value(level + 1)]),
        )
      : Object.fromEntries(
          Array.from({ length: fields }, (_, i) => [`field_number_${i}`, felt(i)]),
        );
  return {
    types,
    primaryType: name(0),
    domain: revision === '1' ? domain1 : domain0,
    message: value(0),
  };
}

/** One array of `n` instances of a struct of `fields` felts: a type hash per instance. */
function structArray(n: number, fields: number, revision: '0' | '1', typeName = 'Entry') {
  const types: Record<string, Array<{ name: string; type: string }>> = {
    ...(revision === '1'
      ? { StarknetDomain: STARKNET_DOMAIN }
      : { StarkNetDomain: LEGACY_TYPES.StarkNetDomain }),
    [typeName]: Array.from({ length: fields }, (_, i) => ({ name: `f${i}`, type: 'felt' })),
    Main: [{ name: 'entries', type: `${typeName}*` }],
  };
  const entry = Object.fromEntries(Array.from({ length: fields }, (_, i) => [`f${i}`, felt(i)]));
  return {
    types,
    primaryType: 'Main',
    domain: revision === '1' ? domain1 : domain0,
    message: { entries: Array.from({ length: n }, () => entry) },
  };
}

/** `n` fields of one scalar type in one struct (revision 1). */
function scalars(type: string, value: (i: number) => unknown, revision: '0' | '1' = '1') {
  return (n: number) => ({
    types: {
      ...(revision === '1'
        ? { StarknetDomain: STARKNET_DOMAIN }
        : { StarkNetDomain: LEGACY_TYPES.StarkNetDomain }),
      Main: [{ name: 'values', type: `${type}*` }],
    },
    primaryType: 'Main',
    domain: revision === '1' ? domain1 : domain0,
    message: { values: Array.from({ length: n }, (_, i) => value(i)) },
  });
}

function merkle(n: number, revision: '0' | '1') {
  return {
    types: {
      ...(revision === '1'
        ? { StarknetDomain: STARKNET_DOMAIN }
        : { StarkNetDomain: LEGACY_TYPES.StarkNetDomain }),
      Leaf: [{ name: 'a', type: 'felt' }],
      Main: [{ name: 'root', type: 'merkletree', contains: 'Leaf' }],
    },
    primaryType: 'Main',
    domain: revision === '1' ? domain1 : domain0,
    message: { root: Array.from({ length: n }, (_, i) => ({ a: felt(i) })) },
  };
}

/** Many preset instances (u256 inside TokenAmount): two type hashes per element. */
const tokenAmounts = (n: number) => ({
  types: { StarknetDomain: STARKNET_DOMAIN, Main: [{ name: 'amounts', type: 'TokenAmount*' }] },
  primaryType: 'Main',
  domain: domain1,
  message: {
    amounts: Array.from({ length: n }, (_, i) => ({
      token_address: felt(i),
      amount: { low: felt(i), high: '0x0' },
    })),
  },
});

/** Many enum values of a type with `variants` tuple variants. */
const enums = (n: number) => ({
  types: {
    StarknetDomain: STARKNET_DOMAIN,
    Choice: Array.from({ length: 32 }, (_, i) => ({ name: `Variant${i}`, type: '(felt,felt)' })),
    Main: [{ name: 'choices', type: 'enum*', contains: 'Choice' }],
  },
  primaryType: 'Main',
  domain: domain1,
  message: {
    choices: Array.from({ length: n }, (_, i) => ({
      [`Variant${i % 32}`]: [felt(i), felt(i + 1)],
    })),
  },
});

/** Many structs with 64 fields of types named at length (type strings through keccak). */
function wideTypes(n: number) {
  const longName = (i: number) => `AStructTypeWithAVeryLongNameSoThatItsTypeStringIsLong${i}`;
  const types: Record<string, Array<{ name: string; type: string }>> = {
    StarknetDomain: STARKNET_DOMAIN,
  };
  const count = 8;
  for (let t = 0; t < count; t++)
    types[longName(t)] = Array.from({ length: 64 }, (_, i) => ({
      name: `a_field_with_a_long_name_number_${i}`,
      type: t + 1 < count && i === 0 ? longName(t + 1) : 'felt',
    }));
  types.Main = [{ name: 'items', type: `${longName(0)}*` }];
  const value = (t: number): unknown =>
    Object.fromEntries(
      Array.from({ length: 64 }, (_, i) => [
        `a_field_with_a_long_name_number_${i}`,
        t + 1 < count && i === 0 ? value(t + 1) : felt(i),
      ]),
    );
  return {
    types,
    primaryType: 'Main',
    domain: domain1,
    message: { items: Array.from({ length: n }, () => value(0)) },
  };
}

export const SHAPE_FAMILIES: Family[] = [
  ['OutsideExecution, calls × 80 felts', (n) => outsideExecution(n, 80)],
  ['OutsideExecution, 1 call × felts', (n) => outsideExecution(1, n)],
  ['felt* (revision 1)', scalars('felt', felt)],
  ['felt* (revision 0, Pedersen)', scalars('felt', felt, '0')],
  ['shortstring*', scalars('shortstring', (i) => `short string ${i}`)],
  ['selector*', scalars('selector', (i) => `a_long_entry_point_name_to_hash_${i}`)],
  ['string* of 200 characters', scalars('string', (i) => `${'x'.repeat(190)}${i}`.slice(0, 200))],
  ['u256*', scalars('u256', (i) => ({ low: felt(i), high: '0x1' }))],
  ['bool*', scalars('bool', (i) => i % 2 === 0)],
  ['TokenAmount* (presets)', tokenAmounts],
  ['enum* of 32 variants', enums],
  ['struct of 1 felt * (revision 1)', (n) => structArray(n, 1, '1')],
  ['struct of 1 felt * (revision 0)', (n) => structArray(n, 1, '0')],
  ['struct of 8 felts * (revision 1)', (n) => structArray(n, 8, '1')],
  ['merkletree (revision 1)', (n) => merkle(n, '1')],
  ['merkletree (revision 0)', (n) => merkle(n, '0')],
  ['structs 8 deep × fields (revision 1)', (n) => deepStructs(8, n, '1')],
  ['structs 8 deep × fields (revision 0)', (n) => deepStructs(8, n, '0')],
  ['structs n deep × 2 fields', (n) => deepStructs(n, 2, '1')],
  ['fanned-out types, 8 deep × width', (n) => ({ ...fannedOutTypes(8, n), message: {} })],
  ['8 long types × 64 fields, items', wideTypes],
];
