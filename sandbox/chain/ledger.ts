/**
 * The sandbox chain's state, in memory: ERC-20 balances and allowances of the registry tokens,
 * deployed accounts with their public keys, account nonces, the pools (the SAME objects the
 * aggregator emulator quotes from) and the transactions with their receipts.
 *
 * Every change goes through a `StateView`, an overlay over the ledger: a transaction applies its
 * calls to a view and the view is committed only when every call succeeded (all-or-nothing); a
 * simulation applies them to a view that is thrown away. Pools are written back in place at
 * commit, so the aggregator's next quote sees the trade.
 */
import type { Pool } from '../aggregator/pools.js';

export interface DeployedAccount {
  address: bigint;
  classHash: bigint;
  publicKey: bigint;
}

export interface ReceiptEvent {
  from_address: string;
  keys: string[];
  data: string[];
}

export interface TransactionRecord {
  hash: bigint;
  sender: bigint;
  status: 'SUCCEEDED' | 'REVERTED';
  revertReason: string | undefined;
  /** network fee paid by the sender (the paymaster's relayer), in fri */
  actualFee: bigint;
  events: ReceiptEvent[];
  blockNumber: number;
  blockHash: bigint;
  l2Gas: bigint;
  l1DataGas: bigint;
  /** ms epoch before which the node does not know the transaction yet (confirmation delay knob) */
  visibleAt: number;
}

const key2 = (a: bigint, b: bigint): string => `${a.toString(16)}:${b.toString(16)}`;
const key3 = (a: bigint, b: bigint, c: bigint): string => `${a.toString(16)}:${b.toString(16)}:${c.toString(16)}`;

/** Read access shared by the ledger and its views. */
export interface StateReader {
  balanceOf(token: bigint, owner: bigint): bigint;
  allowance(token: bigint, owner: bigint, spender: bigint): bigint;
  totalSupply(token: bigint): bigint;
  account(address: bigint): DeployedAccount | undefined;
  reserves(pool: Pool): { reserveA: bigint; reserveB: bigint };
  readonly pools: readonly Pool[];
}

/** What a view's changes are, and where a view writes them at commit (the ledger or an outer view). */
export interface StateChanges {
  balances: Map<string, bigint>;
  allowances: Map<string, bigint>;
  accounts: Map<bigint, DeployedAccount>;
  reserves: Map<Pool, { reserveA: bigint; reserveB: bigint }>;
}

export interface StateBase extends StateReader {
  write(changes: StateChanges): void;
}

export class Ledger implements StateBase {
  readonly pools: readonly Pool[];
  readonly #balances = new Map<string, bigint>();
  readonly #allowances = new Map<string, bigint>();
  readonly #supply = new Map<bigint, bigint>();
  readonly #accounts = new Map<bigint, DeployedAccount>();
  readonly #nonces = new Map<bigint, bigint>();
  readonly #transactions = new Map<bigint, TransactionRecord>();
  readonly #funded = new Set<bigint>();
  #blockNumber = 0;

  constructor(pools: readonly Pool[]) {
    this.pools = pools;
  }

  balanceOf(token: bigint, owner: bigint): bigint {
    return this.#balances.get(key2(token, owner)) ?? 0n;
  }

  allowance(token: bigint, owner: bigint, spender: bigint): bigint {
    return this.#allowances.get(key3(token, owner, spender)) ?? 0n;
  }

  totalSupply(token: bigint): bigint {
    return this.#supply.get(token) ?? 0n;
  }

  account(address: bigint): DeployedAccount | undefined {
    return this.#accounts.get(address);
  }

  reserves(pool: Pool): { reserveA: bigint; reserveB: bigint } {
    return { reserveA: pool.reserveA, reserveB: pool.reserveB };
  }

  nonce(address: bigint): bigint {
    return this.#nonces.get(address) ?? 0n;
  }

  bumpNonce(address: bigint): void {
    this.#nonces.set(address, this.nonce(address) + 1n);
  }

  /** New tokens out of thin air (faucet, test knobs): raises the supply too. */
  mint(token: bigint, owner: bigint, amount: bigint): void {
    if (amount < 0n) throw new RangeError('mint amount must not be negative');
    this.#balances.set(key2(token, owner), this.balanceOf(token, owner) + amount);
    this.#supply.set(token, this.totalSupply(token) + amount);
  }

  /** Marks `address` funded; false when it already was (the faucet pays each wallet once per chain). */
  markFunded(address: bigint): boolean {
    if (this.#funded.has(address)) return false;
    this.#funded.add(address);
    return true;
  }

  get blockNumber(): number {
    return this.#blockNumber;
  }

  nextBlock(): number {
    this.#blockNumber += 1;
    return this.#blockNumber;
  }

  record(tx: TransactionRecord): void {
    this.#transactions.set(tx.hash, tx);
  }

  transaction(hash: bigint): TransactionRecord | undefined {
    return this.#transactions.get(hash);
  }

  /** Every recorded transaction (the confirm-delay knob's `release`). */
  transactions(): IterableIterator<TransactionRecord> {
    return this.#transactions.values();
  }

  get transactionCount(): number {
    return this.#transactions.size;
  }

  /** Used by StateView.commit only. */
  write(changes: StateChanges): void {
    for (const [k, v] of changes.balances) this.#balances.set(k, v);
    for (const [k, v] of changes.allowances) this.#allowances.set(k, v);
    for (const [k, v] of changes.accounts) this.#accounts.set(k, v);
    for (const [pool, r] of changes.reserves) {
      pool.reserveA = r.reserveA;
      pool.reserveB = r.reserveB;
    }
  }
}

/**
 * A copy-on-write overlay: reads fall through to its base (the ledger, or an outer view), writes
 * stay here until commit. Views nest: a simulation runs each transaction in an inner view so a
 * reverted one leaves the others' changes in place.
 */
export class StateView implements StateBase {
  readonly #base: StateBase;
  readonly #balances = new Map<string, bigint>();
  readonly #allowances = new Map<string, bigint>();
  readonly #accounts = new Map<bigint, DeployedAccount>();
  readonly #reserves = new Map<Pool, { reserveA: bigint; reserveB: bigint }>();

  constructor(base: StateBase) {
    this.#base = base;
  }

  get pools(): readonly Pool[] {
    return this.#base.pools;
  }

  balanceOf(token: bigint, owner: bigint): bigint {
    return this.#balances.get(key2(token, owner)) ?? this.#base.balanceOf(token, owner);
  }

  setBalance(token: bigint, owner: bigint, amount: bigint): void {
    if (amount < 0n) throw new RangeError('negative balance');
    this.#balances.set(key2(token, owner), amount);
  }

  allowance(token: bigint, owner: bigint, spender: bigint): bigint {
    return this.#allowances.get(key3(token, owner, spender)) ?? this.#base.allowance(token, owner, spender);
  }

  setAllowance(token: bigint, owner: bigint, spender: bigint, amount: bigint): void {
    this.#allowances.set(key3(token, owner, spender), amount);
  }

  totalSupply(token: bigint): bigint {
    return this.#base.totalSupply(token);
  }

  account(address: bigint): DeployedAccount | undefined {
    return this.#accounts.get(address) ?? this.#base.account(address);
  }

  deploy(account: DeployedAccount): void {
    this.#accounts.set(account.address, account);
  }

  reserves(pool: Pool): { reserveA: bigint; reserveB: bigint } {
    return this.#reserves.get(pool) ?? this.#base.reserves(pool);
  }

  setReserves(pool: Pool, reserveA: bigint, reserveB: bigint): void {
    if (reserveA <= 0n || reserveB <= 0n) throw new RangeError('a pool reserve must stay positive');
    this.#reserves.set(pool, { reserveA, reserveB });
  }

  write(changes: StateChanges): void {
    for (const [k, v] of changes.balances) this.#balances.set(k, v);
    for (const [k, v] of changes.allowances) this.#allowances.set(k, v);
    for (const [k, v] of changes.accounts) this.#accounts.set(k, v);
    for (const [pool, r] of changes.reserves) this.#reserves.set(pool, r);
  }

  commit(): void {
    this.#base.write({ balances: this.#balances, allowances: this.#allowances, accounts: this.#accounts, reserves: this.#reserves });
  }
}
