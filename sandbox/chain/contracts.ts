/**
 * The contracts of the sandbox chain: the registry's ERC-20 tokens (mainnet addresses), ArgentX
 * accounts, the paymaster's forwarder, and whatever else the launcher plugs in (the router).
 *
 * Tokens emit `Transfer` in the keyed OpenZeppelin layout for USDC and USDT and in the legacy
 * StarkGate layout for the others, so a client meets both layouts (shared/erc20.ts).
 *
 * An account's `__execute__` (caller: the protocol, address 0) and `execute_from_outside_v2`
 * (caller: the forwarder) both take the calls in the multicall layout `[n, to, selector, len,
 * calldata…]`; the outside execution's own checks (caller, time bounds, nonce, signature) are made
 * by the paymaster emulator before it calls, as the contract would make them.
 */
import { shortString } from 'starknet';
import { APPROVAL_EVENT_KEY, fromU256, selectorOf, SELECTOR, TRANSFER_EVENT_KEY } from '../../shared/erc20.js';
import { ARGENT_X_V050_CLASS_HASH, joinSignature, verifyStarkSignature } from '../../shared/starknet.js';
import { listTokens, type Token } from '../../shared/tokens.js';
import { type CallContext, type Contract, type ContractResolver, hex, Revert } from './executor.js';
import type { Pool } from '../aggregator/pools.js';
import type { StateView } from './ledger.js';

const U128 = 1n << 128n;
export const U256_MAX = U128 * U128 - 1n;

/** A felt spelling a label: recognisable in traces, never a real mainnet address. */
const label = (text: string): bigint => BigInt(shortString.encodeShortString(text));

/** The paymaster's forwarder: `Caller` of every outside execution, and where gas-token fees go. */
export const FORWARDER_ADDRESS = label('SANDBOX_PAYMASTER_FORWARDER');
/** The paymaster's relayer account: sends the transactions and pays their network fee in STRK. */
export const RELAYER_ADDRESS = label('SANDBOX_PAYMASTER_RELAYER');
/** Receives network fees (the sequencer's fee address). */
export const SEQUENCER_ADDRESS = label('SANDBOX_SEQUENCER');

const ERC20_CLASS_HASH = selectorOf('sandbox::erc20');
const FORWARDER_CLASS_HASH = selectorOf('sandbox::paymaster_forwarder');
const ARGENT_CLASS_HASH = BigInt(ARGENT_X_V050_CLASS_HASH);

export const INTERFACE = {
  SRC5: 0x3f918d17e5ee77373b56385708f855659a07f75997f365cf87748628532a055n,
  SRC6: 0x2ceccef7f994940b3962a6c67e0ba4fcd37df7d131417c604f91e03caecc1cdn,
  SNIP9_V1: 0x68cfd18b92d1907b8ba3cc324900277f5a3622099431ea85dd8089255e4181n,
  SNIP9_V2: 0x1d1144bb2138366ff28d8e9ab57456b1d332ac42196230c3a602003c89872n,
} as const;

export const ACCOUNT_SELECTOR = {
  execute: selectorOf('__execute__'),
  executeFromOutsideV2: selectorOf('execute_from_outside_v2'),
  supportsInterface: selectorOf('supports_interface'),
  isValidSignature: selectorOf('is_valid_signature'),
  isValidOutsideExecutionNonce: selectorOf('is_valid_outside_execution_nonce'),
} as const;

const VALID = label('VALID');

function expectArgs(calldata: readonly bigint[], count: number): void {
  if (calldata.length !== count) throw new Revert(`Failed to deserialize param #${Math.min(calldata.length, count) + 1}`);
}

function u256At(calldata: readonly bigint[], index: number): bigint {
  const value = fromU256(calldata[index] ?? -1n, calldata[index + 1] ?? -1n);
  if (value === undefined) throw new Revert(`Failed to deserialize param #${index + 1}`);
  return value;
}

const u256Out = (value: bigint): bigint[] => [value % U128, value / U128];

export type EventLayout = 'legacy' | 'keyed';

export class TokenContract implements Contract {
  readonly classHash = ERC20_CLASS_HASH;
  readonly token: Token;
  readonly address: bigint;
  readonly layout: EventLayout;
  readonly #pools: ReadonlyMap<bigint, { pool: Pool; side: 'A' | 'B' }>;
  readonly #poolOperator: bigint;

  /** `poolOperator` (the router) alone may move tokens in and out of pools, as part of a swap. */
  constructor(token: Token, layout: EventLayout, pools: readonly Pool[], poolOperator: bigint) {
    this.token = token;
    this.address = BigInt(token.address);
    this.layout = layout;
    this.#poolOperator = poolOperator;
    const held = new Map<bigint, { pool: Pool; side: 'A' | 'B' }>();
    for (const pool of pools) {
      if (pool.tokenA.address === token.address) held.set(BigInt(pool.address), { pool, side: 'A' });
      if (pool.tokenB.address === token.address) held.set(BigInt(pool.address), { pool, side: 'B' });
    }
    this.#pools = held;
  }

  /** A pool's balance of this token is its reserve: the router's transfers to and from pools are reserve changes. */
  balanceOf(state: StateView, owner: bigint): bigint {
    const pool = this.#pools.get(owner);
    if (pool !== undefined) {
      const reserves = state.reserves(pool.pool);
      return pool.side === 'A' ? reserves.reserveA : reserves.reserveB;
    }
    return state.balanceOf(this.address, owner);
  }

  emitTransfer(ctx: CallContext, from: bigint, to: bigint, amount: bigint): void {
    const [low, high] = u256Out(amount);
    if (this.layout === 'keyed') ctx.emit([TRANSFER_EVENT_KEY, from, to], [low as bigint, high as bigint]);
    else ctx.emit([TRANSFER_EVENT_KEY], [from, to, low as bigint, high as bigint]);
  }

  #move(ctx: CallContext, from: bigint, to: bigint, amount: bigint): void {
    if (to === 0n) throw new Revert('ERC20: transfer to 0');
    if (from === 0n) throw new Revert('ERC20: transfer from 0');
    if (this.#pools.has(from) || this.#pools.has(to)) throw new Revert('ERC20: pool reserves move only through the router');
    const balance = ctx.state.balanceOf(this.address, from);
    if (balance < amount) throw new Revert('ERC20: insufficient balance');
    ctx.state.setBalance(this.address, from, balance - amount);
    ctx.state.setBalance(this.address, to, ctx.state.balanceOf(this.address, to) + amount);
    this.emitTransfer(ctx, from, to, amount);
  }

  invoke(ctx: CallContext, selector: bigint, calldata: readonly bigint[]): bigint[] {
    switch (selector) {
      case SELECTOR.name:
        expectArgs(calldata, 0);
        return [label(this.token.name.slice(0, 31))];
      case SELECTOR.symbol:
        expectArgs(calldata, 0);
        return [label(this.token.symbol)];
      case SELECTOR.decimals:
        expectArgs(calldata, 0);
        return [BigInt(this.token.decimals)];
      case SELECTOR.total_supply:
      case SELECTOR.totalSupply:
        expectArgs(calldata, 0);
        return u256Out(ctx.state.totalSupply(this.address));
      case SELECTOR.balance_of:
      case SELECTOR.balanceOf:
        expectArgs(calldata, 1);
        return u256Out(this.balanceOf(ctx.state, calldata[0] as bigint));
      case SELECTOR.allowance:
        expectArgs(calldata, 2);
        return u256Out(ctx.state.allowance(this.address, calldata[0] as bigint, calldata[1] as bigint));
      case SELECTOR.transfer: {
        expectArgs(calldata, 3);
        this.#move(ctx, ctx.caller, calldata[0] as bigint, u256At(calldata, 1));
        return [1n];
      }
      case SELECTOR.transfer_from:
      case SELECTOR.transferFrom: {
        expectArgs(calldata, 4);
        const [sender, recipient] = calldata as [bigint, bigint];
        const amount = u256At(calldata, 2);
        const allowed = ctx.state.allowance(this.address, sender, ctx.caller);
        if (allowed < amount) throw new Revert('ERC20: insufficient allowance');
        // an unlimited allowance is not spent down (OpenZeppelin's rule)
        if (allowed !== U256_MAX) ctx.state.setAllowance(this.address, sender, ctx.caller, allowed - amount);
        this.#move(ctx, sender, recipient, amount);
        return [1n];
      }
      case SELECTOR.approve: {
        expectArgs(calldata, 3);
        const spender = calldata[0] as bigint;
        if (spender === 0n) throw new Revert('ERC20: approve to 0');
        const amount = u256At(calldata, 1);
        ctx.state.setAllowance(this.address, ctx.caller, spender, amount);
        const [low, high] = u256Out(amount) as [bigint, bigint];
        if (this.layout === 'keyed') ctx.emit([APPROVAL_EVENT_KEY, ctx.caller, spender], [low, high]);
        else ctx.emit([APPROVAL_EVENT_KEY], [ctx.caller, spender, low, high]);
        return [1n];
      }
      case POOL_TRANSFER_SELECTOR: {
        // a move between a pool and its counterparty: the pool's side is its reserve, which the
        // router sets itself; this records the holder's side and emits the Transfer
        if (ctx.caller !== this.#poolOperator) throw new Revert('ERC20: caller is not the pool operator');
        expectArgs(calldata, 4);
        const [from, to] = calldata as [bigint, bigint];
        const amount = u256At(calldata, 2);
        if (this.#pools.has(from) === this.#pools.has(to)) throw new Revert('ERC20: pool_transfer needs exactly one pool');
        if (!this.#pools.has(from)) {
          const balance = ctx.state.balanceOf(this.address, from);
          if (balance < amount) throw new Revert('ERC20: insufficient balance');
          ctx.state.setBalance(this.address, from, balance - amount);
        } else {
          ctx.state.setBalance(this.address, to, ctx.state.balanceOf(this.address, to) + amount);
        }
        this.emitTransfer(ctx, from, to, amount);
        return [1n];
      }
      default:
        throw new Revert(`Entry point ${hex(selector)} not found in contract.`);
    }
  }
}

/** The sandbox tokens' entry point for pool moves (see TokenContract). */
export const POOL_TRANSFER_SELECTOR = selectorOf('sandbox_pool_transfer');

/** Decodes `[n, (to, selector, len, calldata…)×n]`; Revert when it is not that. */
export function decodeMulticall(calldata: readonly bigint[]): Array<{ to: bigint; selector: bigint; calldata: bigint[] }> {
  const calls: Array<{ to: bigint; selector: bigint; calldata: bigint[] }> = [];
  const count = calldata[0];
  if (count === undefined || count > 1_000n) throw new Revert('Failed to deserialize param #1');
  let at = 1;
  for (let i = 0n; i < count; i += 1n) {
    const to = calldata[at];
    const selector = calldata[at + 1];
    const length = calldata[at + 2];
    if (to === undefined || selector === undefined || length === undefined || BigInt(at + 3) + length > BigInt(calldata.length)) {
      throw new Revert('Failed to deserialize param #1');
    }
    calls.push({ to, selector, calldata: calldata.slice(at + 3, at + 3 + Number(length)) });
    at += 3 + Number(length);
  }
  if (at !== calldata.length) throw new Revert('Failed to deserialize param #1');
  return calls;
}

export function encodeMulticall(calls: ReadonlyArray<{ to: bigint; selector: bigint; calldata: readonly bigint[] }>): bigint[] {
  const out: bigint[] = [BigInt(calls.length)];
  for (const call of calls) out.push(call.to, call.selector, BigInt(call.calldata.length), ...call.calldata);
  return out;
}

/**
 * ArgentX v0.5.0 with one Starknet owner and no guardian accepts the concise `[r, s]` and the
 * long form `[1, 0 (Starknet signer), pubkey, r, s]`.
 */
export function accountSignatureValid(publicKey: bigint, hash: bigint, signature: readonly bigint[]): boolean {
  let r: bigint | undefined;
  let s: bigint | undefined;
  if (signature.length === 2) [r, s] = signature as [bigint, bigint];
  else if (signature.length === 5 && signature[0] === 1n && signature[1] === 0n && signature[2] === publicKey) [, , , r, s] = signature as bigint[];
  if (r === undefined || s === undefined || r >= U128 * U128 || s >= U128 * U128) return false;
  return verifyStarkSignature(hex(hash), joinSignature(r, s), hex(publicKey));
}

export class AccountContract implements Contract {
  readonly classHash: bigint;
  readonly publicKey: bigint;
  /** SNIP-9: whether an outside execution with this nonce has been executed by this account */
  readonly #nonceUsed: (nonce: bigint) => boolean;

  constructor(classHash: bigint, publicKey: bigint, nonceUsed: (nonce: bigint) => boolean = () => false) {
    this.classHash = classHash;
    this.publicKey = publicKey;
    this.#nonceUsed = nonceUsed;
  }

  invoke(ctx: CallContext, selector: bigint, calldata: readonly bigint[]): bigint[] {
    switch (selector) {
      case ACCOUNT_SELECTOR.supportsInterface:
        expectArgs(calldata, 1);
        return [(Object.values(INTERFACE) as bigint[]).includes(calldata[0] as bigint) ? 1n : 0n];
      case ACCOUNT_SELECTOR.isValidSignature: {
        const length = calldata[1];
        if (calldata.length < 2 || length === undefined || BigInt(calldata.length) !== 2n + length) throw new Revert('Failed to deserialize param #2');
        return [accountSignatureValid(this.publicKey, calldata[0] as bigint, calldata.slice(2)) ? VALID : 0n];
      }
      case ACCOUNT_SELECTOR.isValidOutsideExecutionNonce:
        expectArgs(calldata, 1);
        return [this.#nonceUsed(calldata[0] as bigint) ? 0n : 1n];
      case ACCOUNT_SELECTOR.execute:
      case ACCOUNT_SELECTOR.executeFromOutsideV2: {
        const allowed = selector === ACCOUNT_SELECTOR.execute ? 0n : FORWARDER_ADDRESS;
        if (ctx.caller !== allowed) throw new Revert('argent/invalid-caller');
        const results: bigint[] = [];
        for (const call of decodeMulticall(calldata)) results.push(...ctx.call(call.to, call.selector, call.calldata));
        return results;
      }
      default:
        throw new Revert(`Entry point ${hex(selector)} not found in contract.`);
    }
  }
}

class ForwarderContract implements Contract {
  readonly classHash = FORWARDER_CLASS_HASH;
  invoke(_ctx: CallContext, selector: bigint): bigint[] {
    throw new Revert(`Entry point ${hex(selector)} not found in contract.`);
  }
}

/** Which token emits which Transfer layout (see the header). */
const KEYED_LAYOUT = new Set(['USDC', 'USDT']);

export class Contracts implements ContractResolver {
  readonly tokens = new Map<bigint, TokenContract>();
  readonly #fixed = new Map<bigint, Contract>();
  /** `<account>:<nonce>` of every outside execution that was executed (a revert undoes its nonce, as on Starknet) */
  readonly usedOutsideNonces = new Set<string>();

  constructor(pools: readonly Pool[], poolOperator: bigint) {
    for (const token of listTokens('mainnet')) {
      const contract = new TokenContract(token, KEYED_LAYOUT.has(token.symbol) ? 'keyed' : 'legacy', pools, poolOperator);
      this.tokens.set(contract.address, contract);
    }
    this.#fixed.set(FORWARDER_ADDRESS, new ForwarderContract());
  }

  /** Plugs a contract in at a fixed address (the router). */
  add(address: bigint, contract: Contract): void {
    this.#fixed.set(address, contract);
  }

  resolve(address: bigint, state: StateView): Contract | undefined {
    const token = this.tokens.get(address);
    if (token !== undefined) return token;
    const fixed = this.#fixed.get(address);
    if (fixed !== undefined) return fixed;
    const account = state.account(address);
    return account === undefined ? undefined : new AccountContract(account.classHash, account.publicKey, (nonce) => this.usedOutsideNonces.has(`${address}:${nonce}`));
  }

  /** Class hash of what is deployed at `address`, or undefined (pools count as deployed contracts). */
  classHashAt(address: bigint, state: StateView): bigint | undefined {
    const contract = this.resolve(address, state);
    if (contract !== undefined) return contract.classHash;
    return state.pools.some((pool) => BigInt(pool.address) === address) ? POOL_CLASS_HASH : undefined;
  }
}

const POOL_CLASS_HASH = selectorOf('sandbox::constant_product_pool');
export { ARGENT_CLASS_HASH };
