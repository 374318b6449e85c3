/**
 * What the client expects of a contract's entrypoint: its Cairo argument and return types, spelled
 * as the contract's ABI spells them (`core::integer::u256`,
 * `core::starknet::contract_address::ContractAddress`, a struct's full path). Each entrypoint table
 * (shared/vesu.ts, shared/staking.ts, shared/erc20.ts) has a signature table keyed by the same
 * names, so the conformance suite can hold every call the client makes against the official ABI
 * (docs/contracts.md "Official interfaces").
 */
export interface EntrypointSignature {
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
}

/** One signature per entry of an entrypoint table: a table entry without one fails typecheck. */
export type Signatures<T extends Readonly<Record<string, string>>> = Readonly<
  Record<keyof T, EntrypointSignature>
>;

/**
 * What the client expects of a contract's event: the types of its `#[key]` members (after the
 * selector key) and of its data members, in order, spelled as the ABI spells them.
 */
export interface EventSignature {
  readonly keys: readonly string[];
  readonly data: readonly string[];
}

/** One signature per entry of an event-name table: a missing one fails typecheck. */
export type EventSignatures<T extends Readonly<Record<string, string>>> = Readonly<
  Record<keyof T, EventSignature>
>;

/** Cairo type names used across the signature tables. */
export const CAIRO = Object.freeze({
  felt: 'core::felt252',
  bool: 'core::bool',
  u8: 'core::integer::u8',
  u16: 'core::integer::u16',
  u32: 'core::integer::u32',
  u64: 'core::integer::u64',
  u128: 'core::integer::u128',
  u256: 'core::integer::u256',
  address: 'core::starknet::contract_address::ContractAddress',
  byteArray: 'core::byte_array::ByteArray',
  classHash: 'core::starknet::class_hash::ClassHash',
} as const);

/** `Option<T>` and `Span<T>` as the ABI spells them. */
export const option = (type: string): string => `core::option::Option::<${type}>`;
export const span = (type: string): string => `core::array::Span::<${type}>`;
