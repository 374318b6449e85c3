/**
 * The sandbox chain's state, in memory: ERC-20 balances and allowances of the registry tokens,
 * deployed accounts with their public keys, account nonces, the pools (the SAME objects the
 * aggregator emulator quotes from), the other contracts' own state (staking, lending: immutable
 * records by key, `stored`/`store`) and the transactions with their receipts.
 *
 * Every change goes through a `StateView`, an overlay over the ledger: a transaction applies its
 * calls to a view and the view is committed only when every call succeeded (all-or-nothing); a
 * simulation applies them to a view that is thrown away. Pools are written back in place at
 * commit, so the aggregator's next quote sees the trade.
 *
 * Blocks: block 0 is the genesis (no transactions); every relayed transaction is sealed at once
 * in a block of its own. The ledger indexes the storage slot of every ERC-20 balance and
 * allowance it holds (storage.ts), so starknet_getStorageAt finds what a slot holds without
 * inverting a hash. A slot costs a Pedersen hash or two, so new entries only queue up as they
 * appear and are hashed when a storage read comes: once each, and never on a transaction's path.
 */
import type { Pool } from '../aggregator/pools.js';
import type { GasPrices } from './gas.js';
import { allowanceSlot, balanceSlot, type SlotEntry } from './storage.js';

interface DeployedAccount {
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
  /** the sender's (the relayer's) nonce of this transaction */
  nonce: bigint;
  /** what the sender's `__execute__` was given: the multicall `[n, to, selector, len, calldata…]` */
  calldata: bigint[];
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

export interface BlockRecord {
  number: number;
  hash: bigint;
  parentHash: bigint;
  /** unix seconds */
  timestamp: number;
  /** gas prices in fri when the block was sealed, and the same in wei at the pools' ETH price */
  gasPrices: GasPrices;
  gasPricesWei: GasPrices;
  transactions: bigint[];
  /** ms epoch before which the node does not show the block (its transaction's confirmation delay) */
  visibleAt: number;
}

const key2 = (a: bigint, b: bigint): string => `${a.toString(16)}:${b.toString(16)}`;
const parts = (key: string): bigint[] => key.split(':').map((part) => BigInt(`0x${part}`));
const key3 = (a: bigint, b: bigint, c: bigint): string =>
  `${a.toString(16)}:${b.toString(16)}:${c.toString(16)}`;

/** Read access shared by the ledger and its views. */
export interface StateReader {
  balanceOf(token: bigint, owner: bigint): bigint;
  allowance(token: bigint, owner: bigint, spender: bigint): bigint;
  totalSupply(token: bigint): bigint;
  account(address: bigint): DeployedAccount | undefined;
  reserves(pool: Pool): { reserveA: bigint; reserveB: bigint };
  readonly pools: readonly Pool[];
  /** a contract's own state beyond ERC-20s (staking, lending): immutable records by key */
  stored<T>(key: string): T | undefined;
}

/** What a view's changes are, and where a view writes them at commit (the ledger or an outer view). */
interface StateChanges {
  balances: Map<string, bigint>;
  allowances: Map<string, bigint>;
  accounts: Map<bigint, DeployedAccount>;
  reserves: Map<Pool, { reserveA: bigint; reserveB: bigint }>;
  records: Map<string, unknown>;
  /** tokens minted or burnt by contracts (rewards, interest): the change of each total supply */
  supply: Map<bigint, bigint>;
}

interface StateBase extends StateReader {
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
  readonly #blocks: BlockRecord[] = [];
  readonly #blockByHash = new Map<bigint, BlockRecord>();
  /** token:slot → what the slot holds (storage.ts) */
  readonly #slots = new Map<string, SlotEntry>();
  /** balance and allowance keys not hashed into #slots yet */
  readonly #unindexed: Array<{ kind: 'balance' | 'allowance'; key: string }> = [];
  readonly #records = new Map<string, unknown>();

  constructor(pools: readonly Pool[]) {
    this.pools = pools;
  }

  stored<T>(key: string): T | undefined {
    return this.#records.get(key) as T | undefined;
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
    this.#setBalance(key2(token, owner), this.balanceOf(token, owner) + amount);
    this.#supply.set(token, this.totalSupply(token) + amount);
  }

  /** Marks `address` funded; false when it already was (the faucet pays each wallet once per chain). */
  markFunded(address: bigint): boolean {
    if (this.#funded.has(address)) return false;
    this.#funded.add(address);
    return true;
  }

  /** What storage slot `slot` of `token` holds, when it is a balance's or an allowance's low half. */
  slot(token: bigint, slot: bigint): SlotEntry | undefined {
    for (const { kind, key } of this.#unindexed.splice(0)) {
      if (kind === 'balance') {
        const [tokenOf, owner] = parts(key) as [bigint, bigint];
        this.#slots.set(key2(tokenOf, balanceSlot(owner)), { kind, owner });
      } else {
        const [tokenOf, owner, spender] = parts(key) as [bigint, bigint, bigint];
        this.#slots.set(key2(tokenOf, allowanceSlot(owner, spender)), { kind, owner, spender });
      }
    }
    return this.#slots.get(key2(token, slot));
  }

  #setBalance(key: string, value: bigint): void {
    if (!this.#balances.has(key)) this.#unindexed.push({ kind: 'balance', key });
    this.#balances.set(key, value);
  }

  #setAllowance(key: string, value: bigint): void {
    if (!this.#allowances.has(key)) this.#unindexed.push({ kind: 'allowance', key });
    this.#allowances.set(key, value);
  }

  /** The number of the newest block (sealed, whether shown yet or not). */
  get blockNumber(): number {
    return this.#blocks.length - 1;
  }

  block(number: number): BlockRecord | undefined {
    return this.#blocks[number];
  }

  blockByHash(hash: bigint): BlockRecord | undefined {
    return this.#blockByHash.get(hash);
  }

  /** Seals the next block (the genesis first) and returns it. */
  sealBlock(
    block: Omit<BlockRecord, 'number' | 'parentHash' | 'hash'> & {
      hashOf: (number: number) => bigint;
    },
  ): BlockRecord {
    const number = this.#blocks.length;
    const { hashOf, ...rest } = block;
    const sealed: BlockRecord = {
      ...rest,
      number,
      hash: hashOf(number),
      parentHash: this.#blocks.at(-1)?.hash ?? 0n,
    };
    this.#blocks.push(sealed);
    this.#blockByHash.set(sealed.hash, sealed);
    return sealed;
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
    for (const [k, v] of changes.balances) this.#setBalance(k, v);
    for (const [k, v] of changes.allowances) this.#setAllowance(k, v);
    for (const [k, v] of changes.accounts) this.#accounts.set(k, v);
    for (const [pool, r] of changes.reserves) {
      pool.reserveA = r.reserveA;
      pool.reserveB = r.reserveB;
    }
    for (const [k, v] of changes.records) this.#records.set(k, v);
    for (const [token, delta] of changes.supply)
      this.#supply.set(token, this.totalSupply(token) + delta);
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
  readonly #records = new Map<string, unknown>();
  readonly #supply = new Map<bigint, bigint>();

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
    return (
      this.#allowances.get(key3(token, owner, spender)) ??
      this.#base.allowance(token, owner, spender)
    );
  }

  setAllowance(token: bigint, owner: bigint, spender: bigint, amount: bigint): void {
    this.#allowances.set(key3(token, owner, spender), amount);
  }

  totalSupply(token: bigint): bigint {
    return this.#base.totalSupply(token) + (this.#supply.get(token) ?? 0n);
  }

  /** New tokens for `owner` (a contract's rewards or interest): raises the supply too. */
  mint(token: bigint, owner: bigint, amount: bigint): void {
    if (amount < 0n) throw new RangeError('mint amount must not be negative');
    this.setBalance(token, owner, this.balanceOf(token, owner) + amount);
    this.#supply.set(token, (this.#supply.get(token) ?? 0n) + amount);
  }

  stored<T>(key: string): T | undefined {
    return (this.#records.has(key) ? this.#records.get(key) : this.#base.stored(key)) as
      | T
      | undefined;
  }

  /** Records are replaced whole, never changed in place: a view's base must not see them. */
  store(key: string, value: unknown): void {
    this.#records.set(key, Object.freeze(value));
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
    for (const [k, v] of changes.records) this.#records.set(k, v);
    for (const [token, delta] of changes.supply)
      this.#supply.set(token, (this.#supply.get(token) ?? 0n) + delta);
  }

  commit(): void {
    this.#base.write({
      balances: this.#balances,
      allowances: this.#allowances,
      accounts: this.#accounts,
      reserves: this.#reserves,
      records: this.#records,
      supply: this.#supply,
    });
  }
}
