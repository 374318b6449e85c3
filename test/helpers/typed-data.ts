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
