/**
 * ERC-20 facts both sides need: entry-point selectors, u256 as two felts, and the `Transfer`
 * event in its two layouts (docs/execution.md "Simulating before confirming"):
 * - legacy (StarkGate): keys `[Transfer]`, data `[from, to, amount.low, amount.high]`;
 * - keyed (OpenZeppelin component): keys `[Transfer, from, to]`, data `[amount.low, amount.high]`.
 * The sandbox chain emits both (per token), and the client parses both by length.
 */
import { hash } from 'starknet';
import { CAIRO, type EventSignatures, type Signatures } from './entrypoints.js';
import { feltHex, parseFelt } from './felt.js';
import { knownSelector } from './selectors.js';

const U128 = 1n << 128n;

const selectors = new Map<string, bigint>();

/**
 * sn_keccak selector of an entry point or event name, as a bigint: a known one from the table
 * (shared/selectors.ts), any other hashed once per process.
 */
export const selectorOf = (name: string): bigint => {
  let selector = selectors.get(name);
  if (selector === undefined) {
    selector = BigInt(knownSelector(name) ?? hash.getSelectorFromName(name));
    selectors.set(name, selector);
  }
  return selector;
};

/**
 * The selectors of a table of entrypoint (or event) names, by the same keys: each hashed when
 * first read, not when the table is made (a command reads a few of the tables' dozens; a keccak
 * each: docs/benchmarks.md "A trade's CPU"). Frozen, enumerable, and equal to the eager table.
 */
type Selectors<T extends Record<string, string>> = { readonly [K in keyof T]: bigint };
export const selectorsOf = <T extends Record<string, string>>(names: T): Selectors<T> => {
  const table = {};
  for (const [key, name] of Object.entries(names))
    Object.defineProperty(table, key, { enumerable: true, get: () => selectorOf(name) });
  return Object.freeze(table) as Selectors<T>;
};

/** The ERC-20 entry points, in both spellings the tokens have (snake_case and camelCase). */
export const ERC20_ENTRYPOINT = Object.freeze({
  transfer: 'transfer',
  transfer_from: 'transfer_from',
  transferFrom: 'transferFrom',
  approve: 'approve',
  balance_of: 'balance_of',
  balanceOf: 'balanceOf',
  allowance: 'allowance',
  decimals: 'decimals',
  symbol: 'symbol',
  name: 'name',
  total_supply: 'total_supply',
  totalSupply: 'totalSupply',
} as const);

export const SELECTOR = selectorsOf(ERC20_ENTRYPOINT);

const ADDRESS_AMOUNT = [CAIRO.address, CAIRO.u256];
const FROM_TO_AMOUNT = [CAIRO.address, CAIRO.address, CAIRO.u256];

/**
 * The types the client expects of each entry point (shared/entrypoints.ts), held against
 * OpenZeppelin's ERC-20 by the conformance suite (docs/contracts.md "Official interfaces").
 * `name` and `symbol` are ByteArray in OpenZeppelin's metadata.
 */
export const ERC20_SIGNATURE: Signatures<typeof ERC20_ENTRYPOINT> = Object.freeze({
  transfer: { inputs: ADDRESS_AMOUNT, outputs: [CAIRO.bool] },
  transfer_from: { inputs: FROM_TO_AMOUNT, outputs: [CAIRO.bool] },
  transferFrom: { inputs: FROM_TO_AMOUNT, outputs: [CAIRO.bool] },
  approve: { inputs: ADDRESS_AMOUNT, outputs: [CAIRO.bool] },
  balance_of: { inputs: [CAIRO.address], outputs: [CAIRO.u256] },
  balanceOf: { inputs: [CAIRO.address], outputs: [CAIRO.u256] },
  allowance: { inputs: [CAIRO.address, CAIRO.address], outputs: [CAIRO.u256] },
  decimals: { inputs: [], outputs: [CAIRO.u8] },
  symbol: { inputs: [], outputs: [CAIRO.byteArray] },
  name: { inputs: [], outputs: [CAIRO.byteArray] },
  total_supply: { inputs: [], outputs: [CAIRO.u256] },
  totalSupply: { inputs: [], outputs: [CAIRO.u256] },
});

export const ERC20_EVENT_NAME = Object.freeze({
  Transfer: 'Transfer',
  Approval: 'Approval',
} as const);

/** The keyed layout (OpenZeppelin's component); the legacy one carries the same types as data. */
export const ERC20_EVENT_SIGNATURE: EventSignatures<typeof ERC20_EVENT_NAME> = Object.freeze({
  Transfer: { keys: [CAIRO.address, CAIRO.address], data: [CAIRO.u256] },
  Approval: { keys: [CAIRO.address, CAIRO.address], data: [CAIRO.u256] },
});

/** `Transfer` event key: 0x99cd8bde557814842a3121e8ddfd433a539b8c9f14bf31ebf108d12e6196e9. */
export const TRANSFER_EVENT_KEY = selectorOf(ERC20_EVENT_NAME.Transfer);
export const APPROVAL_EVENT_KEY = selectorOf(ERC20_EVENT_NAME.Approval);

export const toHexFelt = (value: bigint): string => `0x${value.toString(16)}`;

/** A u256 as [low, high] 0x-hex felts. Throws RangeError outside [0, 2^256). */
export function u256Felts(value: bigint): [low: string, high: string] {
  if (value < 0n || value >= U128 * U128) throw new RangeError('not a u256');
  return [toHexFelt(value % U128), toHexFelt(value / U128)];
}

/** [low, high] → value; undefined when a half is not below 2^128. */
export function fromU256(low: bigint, high: bigint): bigint | undefined {
  if (low < 0n || high < 0n || low >= U128 || high >= U128) return undefined;
  return high * U128 + low;
}

export interface RawEvent {
  from_address?: string;
  keys: readonly string[];
  data: readonly string[];
}

export interface Erc20Transfer {
  /** the emitting contract, 0x + 64 hex */
  token: string;
  from: string;
  to: string;
  amount: bigint;
}

/**
 * A `Transfer` event in either layout → plain data; undefined for any other event, a malformed
 * one, or one without an emitter (`fromAddress` overrides the event's own `from_address`, for
 * trace events that sit on their invocation).
 */
export function parseTransferEvent(
  event: RawEvent,
  fromAddress?: string,
): Erc20Transfer | undefined {
  if (!Array.isArray(event.keys) || !Array.isArray(event.data)) return undefined;
  const emitter = parseFelt(fromAddress ?? event.from_address);
  const keys = event.keys.map(parseFelt);
  const data = event.data.map(parseFelt);
  if (
    emitter === undefined ||
    keys[0] !== TRANSFER_EVENT_KEY ||
    keys.includes(undefined) ||
    data.includes(undefined)
  )
    return undefined;
  let felts: bigint[];
  if (keys.length === 1 && data.length === 4) felts = data as bigint[];
  else if (keys.length === 3 && data.length === 2)
    felts = [...(keys.slice(1) as bigint[]), ...(data as bigint[])];
  else return undefined;
  const [from, to, low, high] = felts as [bigint, bigint, bigint, bigint];
  const amount = fromU256(low, high);
  if (amount === undefined) return undefined;
  return { token: feltHex(emitter), from: feltHex(from), to: feltHex(to), amount };
}
