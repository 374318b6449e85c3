/**
 * Where the sandbox's ERC-20s keep their state, as Cairo storage (starknet_getStorageAt): the
 * OpenZeppelin ERC20 component's layout, so a tool that reads a balance from storage gets the
 * same number as `balance_of`.
 *
 * - `ERC20_total_supply`: one u256 at sn_keccak("ERC20_total_supply");
 * - `ERC20_balances: Map<ContractAddress, u256>`: at pedersen(sn_keccak("ERC20_balances"), owner);
 * - `ERC20_allowances: Map<(owner, spender), u256>`: at
 *   pedersen(pedersen(sn_keccak("ERC20_allowances"), owner), spender);
 * each reduced modulo 2^251 − 256 (Cairo's storage address bound). A u256 takes two slots: low
 * at the address, high at the address + 1. Every other key reads 0x0, as an unwritten slot does.
 */
import { selectorOf } from '../../shared/erc20.js';
import { pedersen } from '../../shared/pedersen.js';

const STORAGE_ADDRESS_BOUND = 2n ** 251n - 256n;

/** Storage address of a Map entry: the keys folded into the variable's base with Pedersen. */
function mapSlot(base: bigint, ...keys: readonly bigint[]): bigint {
  let slot = base;
  for (const key of keys) slot = pedersen(slot, key);
  return slot % STORAGE_ADDRESS_BOUND;
}

export const ERC20_STORAGE = {
  totalSupply: selectorOf('ERC20_total_supply'),
  balances: selectorOf('ERC20_balances'),
  allowances: selectorOf('ERC20_allowances'),
} as const;

export const balanceSlot = (owner: bigint): bigint => mapSlot(ERC20_STORAGE.balances, owner);
export const allowanceSlot = (owner: bigint, spender: bigint): bigint =>
  mapSlot(ERC20_STORAGE.allowances, owner, spender);

/** What an indexed storage slot holds (the low half of a u256; the high half is at slot + 1). */
export type SlotEntry =
  | { kind: 'balance'; owner: bigint }
  | { kind: 'allowance'; owner: bigint; spender: bigint };
