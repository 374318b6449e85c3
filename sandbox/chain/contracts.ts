/**
 * The contracts of the sandbox chain: the registry's ERC-20 tokens (mainnet addresses), ArgentX
 * accounts, the paymaster's forwarder, and whatever else the launcher plugs in (the router).
 *
 * Tokens emit `Transfer` in the keyed OpenZeppelin layout for USDC and USDT and in the legacy
 * StarkGate layout for the others, so a client meets both layouts (shared/erc20.ts).
 *
 * An account's `__execute__` (caller: the protocol, address 0) takes `Array<Call>` in the
 * multicall layout `[n, to, selector, len, calldata…]` and returns `Array<Span<felt252>>`;
 * `execute_from_outside_v2` (caller: the forwarder) takes ArgentX's `OutsideExecution` struct
 * `[caller, nonce, execute_after, execute_before, calls…]` then the signature `[len, felts…]`. The
 * outside execution's checks beyond its caller (time bounds, nonce, signature) are made by the
 * paymaster emulator before it relays, as the contract would make them.
 *
 * The forwarder is what the paymaster's relayer calls (the relayer alone may): `deploy_account`
 * deploys an ArgentX account, `execute` calls the account's `execute_from_outside_v2` and then
 * refunds the part of the signed fee above what is due.
 *
 * Each class's ABI is in classes.ts; storage (starknet_getStorageAt) follows storage.ts.
 */
import { shortString } from 'starknet';
import {
  APPROVAL_EVENT_KEY,
  selectorOf,
  SELECTOR,
  TRANSFER_EVENT_KEY,
} from '../../shared/erc20.js';
import {
  ARGENT_X_V050_CLASS_HASH,
  argentAccountAddressInMemory,
  deployedAddress as contractAddress,
  joinSignature,
  verifyStarkSignature,
} from '../../shared/starknet.js';
import { listTokens, type Token } from '../../shared/tokens.js';
import {
  type CallContext,
  type Contract,
  type ContractResolver,
  EntryPointNotFound,
  expectArgs,
  hex,
  Revert,
  u256At,
} from './executor.js';
import type { Pool } from '../aggregator/pools.js';
import type { Ledger, StateView } from './ledger.js';
import { balanceSlot, ERC20_STORAGE } from './storage.js';

const U128 = 1n << 128n;
const U256_MAX = U128 * U128 - 1n;

/** A felt spelling a label: recognisable in traces, never a real mainnet address. */
const label = (text: string): bigint => BigInt(shortString.encodeShortString(text));

/** The paymaster's forwarder: `Caller` of every outside execution, and where gas-token fees go. */
export const FORWARDER_ADDRESS = label('SANDBOX_PAYMASTER_FORWARDER');
/** The paymaster's relayer account: sends the transactions and pays their network fee in STRK. */
export const RELAYER_ADDRESS = label('SANDBOX_PAYMASTER_RELAYER');
/** Receives network fees (the sequencer's fee address). */
export const SEQUENCER_ADDRESS = label('SANDBOX_SEQUENCER');

/** Class hashes: labels of the emulator's classes (not hashes of a Sierra program), except ArgentX's, which is real so account addresses match mainnet's. */
export const CLASS_HASH = {
  /** OpenZeppelin-style ERC-20 emitting the keyed Transfer layout */
  erc20Keyed: selectorOf('sandbox::erc20'),
  /** StarkGate-style ERC-20 emitting the legacy Transfer layout */
  erc20Legacy: selectorOf('sandbox::erc20_legacy_events'),
  forwarder: selectorOf('sandbox::paymaster_forwarder'),
  argent: BigInt(ARGENT_X_V050_CLASS_HASH),
} as const;
const ARGENT_CLASS_HASH = CLASS_HASH.argent;

const INTERFACE = {
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

const u256Out = (value: bigint): bigint[] => [value % U128, value / U128];

type EventLayout = 'legacy' | 'keyed';

export class TokenContract implements Contract {
  readonly classHash: bigint;
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
    this.classHash = layout === 'keyed' ? CLASS_HASH.erc20Keyed : CLASS_HASH.erc20Legacy;
    this.#poolOperator = poolOperator;
    const held = new Map<bigint, { pool: Pool; side: 'A' | 'B' }>();
    for (const pool of pools) {
      if (pool.tokenA.address === token.address)
        held.set(BigInt(pool.address), { pool, side: 'A' });
      if (pool.tokenB.address === token.address)
        held.set(BigInt(pool.address), { pool, side: 'B' });
    }
    this.#pools = held;
  }

  /** balance slot → pool, hashed at the first storage read (storage.ts) */
  #poolSlots: ReadonlyMap<bigint, bigint> | undefined;

  /** starknet_getStorageAt on the committed state, in the layout of storage.ts. */
  storageAt(ledger: Ledger, key: bigint): bigint {
    const u256Half = (value: bigint, high: boolean): bigint => (high ? value / U128 : value % U128);
    for (const high of [false, true]) {
      const base = high ? key - 1n : key;
      if (base === ERC20_STORAGE.totalSupply)
        return u256Half(ledger.totalSupply(this.address), high);
      this.#poolSlots ??= new Map([...this.#pools.keys()].map((pool) => [balanceSlot(pool), pool]));
      const pool = this.#poolSlots.get(base);
      if (pool !== undefined) return u256Half(this.balanceOf(ledger, pool), high);
      const entry = ledger.slot(this.address, base);
      if (entry?.kind === 'balance')
        return u256Half(ledger.balanceOf(this.address, entry.owner), high);
      if (entry?.kind === 'allowance')
        return u256Half(ledger.allowance(this.address, entry.owner, entry.spender), high);
    }
    return 0n;
  }

  /** A pool's balance of this token is its reserve: the router's transfers to and from pools are reserve changes. */
  balanceOf(state: Pick<StateView, 'reserves' | 'balanceOf'>, owner: bigint): bigint {
    const pool = this.#pools.get(owner);
    if (pool !== undefined) {
      const reserves = state.reserves(pool.pool);
      return pool.side === 'A' ? reserves.reserveA : reserves.reserveB;
    }
    return state.balanceOf(this.address, owner);
  }

  emitTransfer(ctx: CallContext, from: bigint, to: bigint, amount: bigint): void {
    const [low, high] = u256Out(amount);
    if (this.layout === 'keyed')
      ctx.emit([TRANSFER_EVENT_KEY, from, to], [low as bigint, high as bigint]);
    else ctx.emit([TRANSFER_EVENT_KEY], [from, to, low as bigint, high as bigint]);
  }

  #move(ctx: CallContext, from: bigint, to: bigint, amount: bigint): void {
    if (to === 0n) throw new Revert('ERC20: transfer to 0');
    if (from === 0n) throw new Revert('ERC20: transfer from 0');
    if (this.#pools.has(from) || this.#pools.has(to))
      throw new Revert('ERC20: pool reserves move only through the router');
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
        return u256Out(
          ctx.state.allowance(this.address, calldata[0] as bigint, calldata[1] as bigint),
        );
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
        if (allowed !== U256_MAX)
          ctx.state.setAllowance(this.address, sender, ctx.caller, allowed - amount);
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
        if (this.layout === 'keyed')
          ctx.emit([APPROVAL_EVENT_KEY, ctx.caller, spender], [low, high]);
        else ctx.emit([APPROVAL_EVENT_KEY], [ctx.caller, spender, low, high]);
        return [1n];
      }
      case POOL_TRANSFER_SELECTOR: {
        // a move between a pool and its counterparty: the pool's side is its reserve, which the
        // router sets itself; this records the holder's side and emits the Transfer
        if (ctx.caller !== this.#poolOperator)
          throw new Revert('ERC20: caller is not the pool operator');
        expectArgs(calldata, 4);
        const [from, to] = calldata as [bigint, bigint];
        const amount = u256At(calldata, 2);
        if (this.#pools.has(from) === this.#pools.has(to))
          throw new Revert('ERC20: pool_transfer needs exactly one pool');
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
        throw new EntryPointNotFound(selector);
    }
  }
}

/** The sandbox tokens' entry point for pool moves (see TokenContract). */
export const POOL_TRANSFER_SELECTOR = selectorOf('sandbox_pool_transfer');

type CallData = { to: bigint; selector: bigint; calldata: bigint[] };

/** Reads `[n, (to, selector, len, calldata…)×n]` from `start`; Revert naming `param` when it is not that. */
function readCallArray(
  calldata: readonly bigint[],
  start: number,
  param: number,
): { calls: CallData[]; end: number } {
  const calls: CallData[] = [];
  const count = calldata[start];
  if (count === undefined || count > 1_000n)
    throw new Revert(`Failed to deserialize param #${param}`);
  let at = start + 1;
  for (let i = 0n; i < count; i += 1n) {
    const to = calldata[at];
    const selector = calldata[at + 1];
    const length = calldata[at + 2];
    if (
      to === undefined ||
      selector === undefined ||
      length === undefined ||
      BigInt(at + 3) + length > BigInt(calldata.length)
    ) {
      throw new Revert(`Failed to deserialize param #${param}`);
    }
    calls.push({ to, selector, calldata: calldata.slice(at + 3, at + 3 + Number(length)) });
    at += 3 + Number(length);
  }
  return { calls, end: at };
}

/** Decodes `[n, (to, selector, len, calldata…)×n]`; Revert when it is not that. */
export function decodeMulticall(calldata: readonly bigint[]): CallData[] {
  const { calls, end } = readCallArray(calldata, 0, 1);
  if (end !== calldata.length) throw new Revert('Failed to deserialize param #1');
  return calls;
}

/** What the forwarder passes to `execute_from_outside_v2`: ArgentX's OutsideExecution, then the signature. */
interface OutsideExecutionCall {
  caller: bigint;
  nonce: bigint;
  executeAfter: bigint;
  executeBefore: bigint;
  calls: ReadonlyArray<{ to: bigint; selector: bigint; calldata: readonly bigint[] }>;
  signature: readonly bigint[];
}

export function encodeOutsideExecution(outside: OutsideExecutionCall): bigint[] {
  return [
    outside.caller,
    outside.nonce,
    outside.executeAfter,
    outside.executeBefore,
    ...encodeMulticall(outside.calls),
    BigInt(outside.signature.length),
    ...outside.signature,
  ];
}

function decodeOutsideExecution(calldata: readonly bigint[]): OutsideExecutionCall {
  if (calldata.length < 5) throw new Revert('Failed to deserialize param #1');
  const [caller, nonce, executeAfter, executeBefore] = calldata as [bigint, bigint, bigint, bigint];
  const { calls, end } = readCallArray(calldata, 4, 1);
  const length = calldata[end];
  if (length === undefined || BigInt(end + 1) + length !== BigInt(calldata.length))
    throw new Revert('Failed to deserialize param #2');
  return { caller, nonce, executeAfter, executeBefore, calls, signature: calldata.slice(end + 1) };
}

export function encodeMulticall(
  calls: ReadonlyArray<{ to: bigint; selector: bigint; calldata: readonly bigint[] }>,
): bigint[] {
  const out: bigint[] = [BigInt(calls.length)];
  for (const call of calls)
    out.push(call.to, call.selector, BigInt(call.calldata.length), ...call.calldata);
  return out;
}

/**
 * ArgentX v0.5.0 with one Starknet owner and no guardian accepts the concise `[r, s]` and the
 * long form `[1, 0 (Starknet signer), pubkey, r, s]`.
 */
export function accountSignatureValid(
  publicKey: bigint,
  hash: bigint,
  signature: readonly bigint[],
): boolean {
  let r: bigint | undefined;
  let s: bigint | undefined;
  if (signature.length === 2) [r, s] = signature as [bigint, bigint];
  else if (
    signature.length === 5 &&
    signature[0] === 1n &&
    signature[1] === 0n &&
    signature[2] === publicKey
  )
    [, , , r, s] = signature as bigint[];
  if (r === undefined || s === undefined || r >= U128 * U128 || s >= U128 * U128) return false;
  return verifyStarkSignature(hex(hash), joinSignature(r, s), hex(publicKey));
}

class AccountContract implements Contract {
  readonly classHash: bigint;
  readonly publicKey: bigint;
  /** SNIP-9: whether an outside execution with this nonce has been executed by this account */
  readonly #nonceUsed: (nonce: bigint) => boolean;

  constructor(
    classHash: bigint,
    publicKey: bigint,
    nonceUsed: (nonce: bigint) => boolean = () => false,
  ) {
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
        if (calldata.length < 2 || length === undefined || BigInt(calldata.length) !== 2n + length)
          throw new Revert('Failed to deserialize param #2');
        return [
          accountSignatureValid(this.publicKey, calldata[0] as bigint, calldata.slice(2))
            ? VALID
            : 0n,
        ];
      }
      case ACCOUNT_SELECTOR.isValidOutsideExecutionNonce:
        expectArgs(calldata, 1);
        return [this.#nonceUsed(calldata[0] as bigint) ? 0n : 1n];
      case ACCOUNT_SELECTOR.execute: {
        if (ctx.caller !== 0n) throw new Revert('argent/non-null-caller');
        return runCalls(ctx, decodeMulticall(calldata));
      }
      case ACCOUNT_SELECTOR.executeFromOutsideV2: {
        const outside = decodeOutsideExecution(calldata);
        // the forwarder is the only caller this sandbox's paymaster signs for (or ANY_CALLER)
        if (
          ctx.caller !== FORWARDER_ADDRESS ||
          (outside.caller !== ctx.caller && outside.caller !== ANY_CALLER)
        )
          throw new Revert('argent/invalid-caller');
        return runCalls(ctx, outside.calls);
      }
      default:
        throw new EntryPointNotFound(selector);
    }
  }
}

/** Runs `calls` from the account; returns their results as `Array<Span<felt252>>`. */
function runCalls(
  ctx: CallContext,
  calls: ReadonlyArray<{ to: bigint; selector: bigint; calldata: readonly bigint[] }>,
): bigint[] {
  const results: bigint[] = [BigInt(calls.length)];
  for (const call of calls) {
    const result = ctx.call(call.to, call.selector, [...call.calldata]);
    results.push(BigInt(result.length), ...result);
  }
  return results;
}

const ANY_CALLER = label('ANY_CALLER');

export const FORWARDER_SELECTOR = {
  execute: selectorOf('execute'),
  deployAccount: selectorOf('deploy_account'),
} as const;

/** The ArgentX v0.5.0 constructor calldata `[0 (Starknet owner), pubkey, 1 (no guardian)]` → the owner key, or undefined. */
export function argentOwner(constructorCalldata: readonly bigint[]): bigint | undefined {
  const [variant, publicKey, guardian] = constructorCalldata;
  return constructorCalldata.length === 3 &&
    variant === 0n &&
    guardian === 1n &&
    publicKey !== undefined &&
    publicKey !== 0n
    ? publicKey
    : undefined;
}

/**
 * The address of a contract deployed from address 0 (as a DEPLOY_ACCOUNT or the forwarder
 * deploys): the client's formula (shared/starknet.ts, held equal to starknet.js's
 * calculateContractAddressFromHash by its tests), on its faster Pedersen. An ArgentX account
 * salted with its owner's key (every account a client deploys) is the key's account address,
 * which the wallet, the identity emulator and the build of the same deployment asked for
 * already: remembered per key, not hashed again (docs/decisions.md "One Pedersen, on fixed-base
 * tables").
 */
export const deployedAddress = (
  classHash: bigint,
  salt: bigint,
  constructorCalldata: readonly bigint[],
): bigint => {
  const owner = argentOwner(constructorCalldata);
  if (classHash === ARGENT_CLASS_HASH && owner !== undefined && salt === owner)
    return BigInt(argentAccountAddressInMemory(hex(owner)));
  return BigInt(contractAddress(0n, salt, classHash, constructorCalldata));
};

class ForwarderContract implements Contract {
  readonly classHash = CLASS_HASH.forwarder;

  invoke(ctx: CallContext, selector: bigint, calldata: readonly bigint[]): bigint[] {
    if (selector !== FORWARDER_SELECTOR.execute && selector !== FORWARDER_SELECTOR.deployAccount)
      throw new EntryPointNotFound(selector);
    if (ctx.caller !== RELAYER_ADDRESS) throw new Revert('forwarder: caller is not the relayer');
    if (selector === FORWARDER_SELECTOR.deployAccount) {
      // deploy_account(class_hash, salt, calldata: Array<felt252>) -> ContractAddress
      const [classHash, salt, length] = calldata;
      if (
        classHash === undefined ||
        salt === undefined ||
        length === undefined ||
        BigInt(calldata.length) !== 3n + length
      )
        throw new Revert('Failed to deserialize param #3');
      const constructorCalldata = calldata.slice(3);
      const owner = argentOwner(constructorCalldata);
      if (classHash !== ARGENT_CLASS_HASH || owner === undefined)
        throw new Revert(
          'forwarder: only ArgentX v0.5.0 accounts with a Starknet owner and no guardian',
        );
      const address = deployedAddress(classHash, salt, constructorCalldata);
      if (ctx.state.account(address) !== undefined) throw new Revert('account already deployed');
      ctx.state.deploy({ address, classHash, publicKey: owner });
      return [address];
    }
    // execute(account, entrypoint, calldata: Array<felt252>, refund_token, refund_amount: u256) -> bool
    const [account, entrypoint, length] = calldata;
    if (
      account === undefined ||
      entrypoint === undefined ||
      length === undefined ||
      BigInt(calldata.length) !== 3n + length + 3n
    )
      throw new Revert('Failed to deserialize param #3');
    const end = 3 + Number(length);
    ctx.call(account, entrypoint, calldata.slice(3, end));
    const refundToken = calldata[end] as bigint;
    const refund = u256At(calldata, end + 1);
    if (refund > 0n) ctx.call(refundToken, SELECTOR.transfer, [account, ...u256Out(refund)]);
    return [1n];
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
    // the sepolia registry's own tokens too (balance 0): a client pointed at this chain with
    // --network sepolia (the test network's tests) reads every registry balance
    const sepoliaOnly = listTokens('sepolia').filter(
      (t) => !listTokens('mainnet').some((m) => m.address === t.address),
    );
    for (const token of [...listTokens('mainnet'), ...sepoliaOnly]) {
      const contract = new TokenContract(
        token,
        KEYED_LAYOUT.has(token.symbol) ? 'keyed' : 'legacy',
        pools,
        poolOperator,
      );
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
    return account === undefined
      ? undefined
      : new AccountContract(account.classHash, account.publicKey, (nonce) =>
          this.usedOutsideNonces.has(`${address}:${nonce}`),
        );
  }

  /** Class hash of what is deployed at `address`, or undefined (pools count as deployed contracts). */
  classHashAt(address: bigint, state: StateView): bigint | undefined {
    const contract = this.resolve(address, state);
    if (contract !== undefined) return contract.classHash;
    return state.pools.some((pool) => BigInt(pool.address) === address)
      ? POOL_CLASS_HASH
      : undefined;
  }
}

export const POOL_CLASS_HASH = selectorOf('sandbox::constant_product_pool');
export { ARGENT_CLASS_HASH };
