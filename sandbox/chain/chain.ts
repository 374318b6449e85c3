/**
 * The sandbox chain: the ledger, its contracts, the fee model and the test knobs, with the three
 * things the JSON-RPC and paymaster front ends need: a read-only call, a relayed transaction
 * (what the paymaster submits) and a simulation.
 *
 * Decisions (docs/sandbox-chain.md "What the chain does"):
 * - A relayed transaction is the relayer's INVOKE of the forwarder: `deploy_account` (for a
 *   deployment), then `execute` (the account's `execute_from_outside_v2` with what the user
 *   signed, then the refund). It is all-or-nothing: the deployment, the user's calls, the fee
 *   transfer and the forwarder's refund run on one overlay, committed only when every call
 *   succeeded. A revert changes no balance, allowance, pool or deployment — so the user
 *   pays no fee either — and yields a REVERTED receipt with the reason. The network fee is paid
 *   by the paymaster's relayer (the transaction's sender) in both cases, as on Starknet; it is
 *   the receipt's `actual_fee` and its event is the receipt's last.
 * - The account's nonce (starknet_getNonce) advances by one for every relayed transaction of the
 *   account, reverted or not, as a transaction's nonce does on Starknet.
 * - Default fee mode: the forwarder refunds the part of the signed maximum above the fee actually
 *   due, in the same transaction. So what leaves the account is exactly that fee, and two
 *   Transfer events (account → forwarder, forwarder → account) say so. Paying in STRK, the fee
 *   due equals the receipt's actual_fee.
 */
import { hash } from 'starknet';
import { parseAmount } from '../../shared/amount.js';
import { SELECTOR, u256Felts } from '../../shared/erc20.js';
import { ROUTER_ADDRESS } from '../../shared/swap-calldata.js';
import {
  type PriceSource,
  SANDBOX_MARKET_UNIT,
  sandboxPriceRefusal,
} from '../../shared/sandbox.js';
import {
  findToken,
  listTokens,
  type Network,
  resolveToken,
  type Token,
} from '../../shared/tokens.js';
import type { Pool } from '../aggregator/pools.js';
import {
  accountSignatureValid,
  ACCOUNT_SELECTOR,
  ARGENT_CLASS_HASH,
  argentOwner,
  Contracts,
  decodeMulticall,
  deployedAddress,
  encodeMulticall,
  encodeOutsideExecution,
  FORWARDER_ADDRESS,
  FORWARDER_SELECTOR,
  RELAYER_ADDRESS,
  SEQUENCER_ADDRESS,
  TokenContract,
} from './contracts.js';
import {
  type Contract,
  EntryPointNotFound,
  Executor,
  flattenEvents,
  hex,
  type Invocation,
  Revert,
  revertReason,
} from './executor.js';
import {
  DEFAULT_GAS_PRICES,
  feeInFri,
  type GasPrices,
  gasUsage,
  type GasUsage,
  pricesInStrk,
} from './gas.js';
import {
  type BlockRecord,
  Ledger,
  type ReceiptEvent,
  StateView,
  type TransactionRecord,
} from './ledger.js';
import { RouterContract, SWAP_SELECTOR } from './router.js';
import { SANDBOX_REMOVE_STAKER, stakingContracts } from './staking.js';
import { STAKING_CONTRACT } from '../../shared/staking.js';
import { LIQUIDATE_POSITION_SELECTOR, type VesuDeployment, vesuContracts } from './vesu.js';
import { PragmaOracleContract } from './pragma.js';
import { PRAGMA_ORACLE, pragmaPairOf, PRAGMA_USD_DECIMALS } from '../../shared/pragma.js';
import { findBestRoute, spotPrices } from '../aggregator/router.js';
import { toCalldata, toRouteResponse } from '../aggregator/wire.js';

/** What the faucet gives every new sandbox wallet (docs/sandbox-chain.md "Faucet"). */
export const FAUCET: ReadonlyArray<{ symbol: string; amount: string }> = Object.freeze([
  { symbol: 'ETH', amount: '10' },
  { symbol: 'STRK', amount: '20000' },
  { symbol: 'USDC', amount: '10000' },
  { symbol: 'USDT', amount: '10000' },
  { symbol: 'WBTC', amount: '0.5' },
  { symbol: 'DAI', amount: '10000' },
]);

/** The faucet on a chain shaped like `network`: its registry's tokens of FAUCET's symbols. */
const faucetAmounts = (network: Network = 'mainnet'): Array<{ token: string; amount: bigint }> =>
  FAUCET.flatMap(({ symbol, amount }) => {
    const token = findToken(network, symbol);
    return token === undefined
      ? []
      : [{ token: token.address, amount: parseAmount(amount, token.decimals) }];
  });

const STRK = BigInt(resolveToken('mainnet', 'STRK').address);
const USDC_ADDRESS = resolveToken('mainnet', SANDBOX_MARKET_UNIT).address;
/** A USD price of 18 decimals at Pragma's 8 (rounded down; at least one unit). */
const toPragma = (usd: bigint): bigint => {
  const scaled = usd / 10n ** BigInt(18 - PRAGMA_USD_DECIMALS);
  return scaled > 0n ? scaled : 1n;
};
/** Whoever trades on the pools besides our users (the price-move knob). */
const THIRD_PARTY_ADDRESS = 0x53414e44424f585f4d41524b4554n; // "SANDBOX_MARKET"
/** the sandbox's liquidator (the liquidation knob's sender) */
const LIQUIDATOR_ADDRESS = 0x53414e44424f585f4c495155494441544f52n; // "SANDBOX_LIQUIDATOR"
/** The relayer's float; topped up whenever it runs low (the paymaster's own money, not the user's). */
const RELAYER_FLOAT = 10n ** 27n;

export interface OutsideCall {
  to: bigint;
  selector: bigint;
  calldata: bigint[];
}

interface RelayedTransaction {
  account: bigint;
  /** what the account signed (absent for a deploy-only transaction); `calls` include the fee transfer */
  outside?: {
    nonce: bigint;
    executeAfter: bigint;
    executeBefore: bigint;
    calls: OutsideCall[];
    signature: bigint[];
  };
  /** deploy / deploy_and_invoke: deployed in the same all-or-nothing transaction, before the calls */
  deployment?: { classHash: bigint; publicKey: bigint };
  /** default fee mode: the forwarder sends this back after the calls (max − fee due) */
  refund?: { token: bigint; amount: bigint };
  /** the signed message hash: makes the transaction hash unique to what was signed */
  messageHash: bigint;
  /** the outside execution's nonce: used once the transaction succeeds (is_valid_outside_execution_nonce) */
  outsideNonce?: bigint;
}

export class ContractNotFound extends Error {}

/** The pool refused a liquidation: `reason` is its revert word (not-undercollateralized, …). */
export class LiquidationRefused extends Error {
  readonly reason: string;
  constructor(reason: string, message: string) {
    super(message);
    this.reason = reason;
  }
}

interface ChainOptions {
  pools: readonly Pool[];
  now?: () => number;
  /**
   * the network the chain is shaped like (docs/sandbox-chain.md "Networks"): its token registry,
   * staking contract and Vesu deployment at their addresses; mainnet by default
   */
  network?: Network;
}

export class Chain {
  /** the network this chain is shaped like */
  readonly network: Network;
  readonly ledger: Ledger;
  readonly contracts: Contracts;
  readonly now: () => number;
  gasPrices: GasPrices = { ...DEFAULT_GAS_PRICES };
  /** knob: the next `count` relayed transactions revert with `reason` */
  revertNext: { count: number; reason: string } = { count: 0, reason: '' };
  /** knob: a transaction stays unknown to the node (status error 29) this long after submission */
  confirmDelayMs = 0;
  /** knob: actions run right before the next relayed transaction (a third party's trade) */
  readonly beforeNextExecution: Array<() => void> = [];
  /** how far `sandbox advance` has moved the chain's clock ahead of the wall clock, in ms */
  #clockOffsetMs = 0;
  /** the chain's start (unix seconds): epoch 0 of the staking contract begins here */
  readonly genesisTime: bigint;
  /** the Vesu-like lending pool, its oracle and vTokens (vesu.ts) */
  readonly vesu: VesuDeployment;
  /** the Pragma-like oracle at the network's Pragma address (pragma.ts) */
  readonly pragma: PragmaOracleContract;

  constructor(options: ChainOptions) {
    this.network = options.network ?? 'mainnet';
    this.ledger = new Ledger(options.pools);
    // the router alone moves tokens in and out of pools
    this.contracts = new Contracts(options.pools, BigInt(ROUTER_ADDRESS));
    this.contracts.add(BigInt(ROUTER_ADDRESS), new RouterContract(options.pools));
    this.now = options.now ?? Date.now;
    this.genesisTime = this.chainTime();
    const clock = { now: () => this.chainTime(), genesis: this.genesisTime };
    for (const { address, contract } of stakingContracts(clock, this.network))
      this.contracts.add(address, contract);
    this.vesu = vesuContracts(() => this.chainTime(), this.network);
    for (const { address, contract } of this.vesu.contracts) this.contracts.add(address, contract);
    this.pragma = new PragmaOracleContract(() => this.chainTime());
    this.contracts.add(BigInt(PRAGMA_ORACLE[this.network]), this.pragma);
    const seed = new StateView(this.ledger);
    // the oracles start at the market's prices (the aggregator quotes the same pools)
    const prices = this.usdPrices();
    this.vesu.seed(seed, prices);
    for (const token of listTokens(this.network)) {
      const usd =
        this.marketTokenOf(token)?.address === USDC_ADDRESS
          ? 10n ** 18n
          : prices.get(token.address);
      const pair = pragmaPairOf(token);
      if (pair !== undefined && usd !== undefined && usd > 0n)
        this.pragma.setPrice(seed, pair, toPragma(usd));
    }
    seed.commit();
    this.ledger.mint(STRK, RELAYER_ADDRESS, RELAYER_FLOAT);
    this.#sealBlock([], 0);
  }

  /**
   * The market token that prices `token` of this chain's network: the sandbox market's pools are
   * over mainnet's registry (sandbox/aggregator/pools.ts), so a token of a Sepolia-shaped chain is
   * priced by the mainnet token of its symbol (docs/decisions.md "Sandbox shaped like Sepolia");
   * on a mainnet-shaped chain, the token itself. Undefined: the market does not trade it.
   */
  marketTokenOf(token: Token): Token | undefined {
    return this.network === 'mainnet' ? token : findToken('mainnet', token.symbol);
  }

  /** `prices` (keyed by market token address) re-keyed by this network's registry addresses. */
  #onNetwork(prices: ReadonlyMap<string, bigint>): Map<string, bigint> {
    const out = new Map<string, bigint>();
    for (const token of listTokens(this.network)) {
      const market = this.marketTokenOf(token);
      const price = market === undefined ? undefined : prices.get(market.address);
      if (price !== undefined) out.set(token.address, price);
    }
    return out;
  }

  /** USD prices (18 decimals) of this network's registry tokens, by address, from the market. */
  usdPrices(): Map<string, bigint> {
    return this.#onNetwork(spotPrices(this.ledger.pools, USDC_ADDRESS));
  }

  /** Prices in fri per whole token of this network's registry tokens (gas.ts pricesInStrk), by address. */
  strkPrices(): Map<string, bigint> {
    return this.#onNetwork(pricesInStrk(this.ledger.pools));
  }

  /**
   * The chain's clock in ms: the wall clock plus what `sandbox advance` added. Block timestamps
   * and the contracts' time (epochs, exit windows, interest) follow it; the node's own
   * bookkeeping (confirmation delays) and the paymaster's time bounds stay on the wall clock.
   */
  chainTimeMs(): number {
    return this.now() + this.#clockOffsetMs;
  }

  /** The chain's time in unix seconds (what a contract reads as the block timestamp). */
  chainTime(): bigint {
    return BigInt(Math.floor(this.chainTimeMs() / 1000));
  }

  /**
   * Moves the chain's clock forward by `seconds` and seals an empty block at the new time, so
   * the latest block shows it. Returns the new chain time (unix seconds): the sealed block's own
   * timestamp, not the clock read again (a second may have turned in between).
   */
  advance(seconds: number): bigint {
    if (!Number.isSafeInteger(seconds) || seconds <= 0)
      throw new RangeError('advance by a positive whole number of seconds');
    this.#clockOffsetMs += seconds * 1000;
    return BigInt(this.#sealBlock([], 0).timestamp);
  }

  /**
   * The price knob (`finance-tui sandbox price`): sets `token`'s USD price (18 decimals) for the
   * lending oracle (`valid: false` makes it say the price is not valid), Pragma's oracle (its pair,
   * 8 decimals; `valid: false` leaves the pair without entries) and the market: every pool holding
   * the token has that token's reserve rescaled by old price / new price, so the pools stay
   * mutually consistent and the aggregator quotes the new price. `only` moves one of the three
   * alone, so they disagree (docs/sandbox-chain.md "Prices"). USDC is the market's unit of
   * account (its price is 1 by definition there): moving the market's is refused.
   */
  setPrice(
    token: Token,
    usd: bigint,
    valid = true,
    only?: PriceSource,
  ): { usd: bigint; marketUsd: bigint | undefined } {
    if (usd <= 0n) throw new RangeError('the price must be positive');
    const outOfRange = sandboxPriceRefusal(usd);
    if (outOfRange !== undefined) throw new RangeError(outOfRange);
    const market = this.marketTokenOf(token);
    const marketPrice = (): bigint | undefined =>
      market === undefined
        ? undefined
        : spotPrices(this.ledger.pools, USDC_ADDRESS).get(market.address);
    if (only === undefined || only === 'aggregator') {
      if (market?.address === USDC_ADDRESS)
        throw new RangeError(
          `${SANDBOX_MARKET_UNIT} is the sandbox market's unit of account: its price stays 1`,
        );
      const old = marketPrice();
      if (market === undefined || old === undefined || old === 0n)
        throw new RangeError(`${token.symbol} has no market price in the sandbox`);
      // every reserve checked before any moves: a refused price leaves the market as it was
      const scaled = this.ledger.pools.map((pool) => {
        const scale = (reserve: bigint): bigint => {
          const next = (reserve * old) / usd;
          if (next <= 0n) throw new RangeError('that price leaves a pool without reserves');
          return next;
        };
        return {
          pool,
          a: pool.tokenA.address === market.address ? scale(pool.reserveA) : pool.reserveA,
          b: pool.tokenB.address === market.address ? scale(pool.reserveB) : pool.reserveB,
        };
      });
      for (const { pool, a, b } of scaled) {
        pool.reserveA = a;
        pool.reserveB = b;
      }
    }
    const view = new StateView(this.ledger);
    if (only === undefined || only === 'vesu')
      this.vesu.oracle.setPrice(view, BigInt(token.address), usd, valid);
    const pair = pragmaPairOf(token);
    if (only === 'pragma' && pair === undefined)
      throw new RangeError(`${token.symbol} has no Pragma pair in the sandbox`);
    if ((only === undefined || only === 'pragma') && pair !== undefined)
      this.pragma.setPrice(view, pair, valid ? toPragma(usd) : undefined);
    view.commit();
    return { usd, marketUsd: marketPrice() };
  }

  #sealBlock(transactions: bigint[], visibleAt: number): BlockRecord {
    return this.ledger.sealBlock({
      hashOf: blockHashOf,
      timestamp: Math.floor(this.chainTimeMs() / 1000),
      gasPrices: { ...this.gasPrices },
      gasPricesWei: this.#inWei(this.gasPrices),
      transactions,
      visibleAt,
    });
  }

  /** Fri prices → wei at the pools' ETH price (fri per whole ETH); the fri ones when ETH has no price. */
  #inWei(prices: GasPrices): GasPrices {
    const eth = pricesInStrk(this.ledger.pools).get(resolveToken('mainnet', 'ETH').address);
    if (eth === undefined || eth === 0n) return { ...prices };
    const wei = (fri: bigint): bigint => (fri * 10n ** 18n) / eth;
    return { l1: wei(prices.l1), l1Data: wei(prices.l1Data), l2: wei(prices.l2) };
  }

  /** The newest block the node shows: one whose transaction's confirmation delay has passed. */
  latestBlock(): BlockRecord {
    const now = this.now();
    for (let number = this.ledger.blockNumber; number > 0; number -= 1) {
      const block = this.ledger.block(number) as BlockRecord;
      if (block.visibleAt <= now) return block;
    }
    return this.ledger.block(0) as BlockRecord;
  }

  /** starknet_getStorageAt: ERC-20 storage in OpenZeppelin's layout (storage.ts), 0 elsewhere; ContractNotFound when nothing is there. */
  storageAt(address: bigint, key: bigint): bigint {
    if (this.classHashAt(address) === undefined) throw new ContractNotFound(hex(address));
    const contract = this.contracts.tokens.get(address);
    return contract instanceof TokenContract ? contract.storageAt(this.ledger, key) : 0n;
  }

  /** Plugs a contract in at a fixed address (the router). */
  addContract(address: bigint, contract: Contract): void {
    this.contracts.add(address, contract);
  }

  /** The faucet: credits FAUCET to `address` once per chain; false when it already had it. */
  fund(address: bigint): boolean {
    if (!this.ledger.markFunded(address)) return false;
    for (const { token, amount } of faucetAmounts(this.network))
      this.ledger.mint(BigInt(token), address, amount);
    return true;
  }

  /**
   * A third party's trade through the router on the best route (what moves the price between a
   * quote and its execution). Applied at once; returns the output it got.
   */
  thirdPartySwap(tokenIn: Token, tokenOut: Token, amountIn: bigint): bigint {
    const plan = findBestRoute(this.ledger.pools, tokenIn.address, tokenOut.address, amountIn);
    if (plan === undefined)
      throw new RangeError(`no route for ${tokenIn.symbol} -> ${tokenOut.symbol}`);
    const response = toRouteResponse(
      plan,
      tokenIn,
      tokenOut,
      amountIn,
      spotPrices(this.ledger.pools, resolveToken('mainnet', 'USDC').address),
      process.hrtime.bigint(),
    );
    const calldata = toCalldata(response, 0n, THIRD_PARTY_ADDRESS).map((felt) => BigInt(felt));
    const token = BigInt(tokenIn.address);
    this.ledger.mint(token, THIRD_PARTY_ADDRESS, amountIn);
    const view = new StateView(this.ledger);
    view.setAllowance(token, THIRD_PARTY_ADDRESS, BigInt(ROUTER_ADDRESS), amountIn);
    const result = new Executor(view, this.contracts).invoke(
      THIRD_PARTY_ADDRESS,
      BigInt(ROUTER_ADDRESS),
      SWAP_SELECTOR,
      calldata,
    ).result;
    view.commit();
    return (result[0] ?? 0n) + ((result[1] ?? 0n) << 128n);
  }

  /**
   * The liquidation knob (`finance-tui sandbox liquidate`, docs/sandbox-chain.md "Liquidation"):
   * the sandbox's own liquidator repays `debtToRepay` (default: all) of `user`'s position on the
   * pair through the pool's real `liquidate_position` — in one transaction of its own, in a block,
   * with its events, so a client reads the `LiquidatePosition` event as it would read a peer's.
   * The liquidator is minted the debt asset it may need. The pool's refusal (a collateralised
   * position: `not-undercollateralized`) throws LiquidationRefused and records nothing.
   */
  liquidate(params: {
    collateral: Token;
    debt: Token;
    user: bigint;
    debtToRepay?: bigint | undefined;
    minCollateral?: bigint | undefined;
  }): { record: TransactionRecord; result: bigint[] } {
    const pool = this.vesu.pool;
    const c = pool.assets.get(BigInt(params.collateral.address));
    const d = pool.assets.get(BigInt(params.debt.address));
    if (c === undefined || d === undefined || c === d)
      throw new LiquidationRefused('asset-config-nonexistent', 'two different listed assets');
    const owed = pool.amounts(new StateView(this.ledger), c, d, params.user).debt;
    const repay = params.debtToRepay ?? owed;
    const calls = [
      {
        // the liquidator approves the pool for the debt asset it repays
        to: d.address,
        selector: SELECTOR.approve,
        calldata: [pool.address, ...u256Felts(repay).map(BigInt)],
      },
      {
        to: pool.address,
        selector: LIQUIDATE_POSITION_SELECTOR,
        calldata: [
          c.address,
          d.address,
          params.user,
          ...u256Felts(params.minCollateral ?? 0n).map(BigInt),
          ...u256Felts(repay).map(BigInt),
        ],
      },
    ];
    const view = new StateView(this.ledger);
    view.mint(d.address, LIQUIDATOR_ADDRESS, repay);
    const executor = new Executor(view, this.contracts);
    let roots: Invocation[];
    try {
      roots = calls.map((call) =>
        executor.invoke(LIQUIDATOR_ADDRESS, call.to, call.selector, call.calldata),
      );
    } catch (error) {
      if (!(error instanceof Revert)) throw error;
      throw new LiquidationRefused(error.reason, revertReason(error));
    }
    view.commit();
    const events = roots.flatMap((root) =>
      flattenEvents(root).map(({ from, event }) => receiptEvent(from, event.keys, event.data)),
    );
    const nonce = this.ledger.nonce(LIQUIDATOR_ADDRESS);
    this.ledger.bumpNonce(LIQUIDATOR_ADDRESS);
    const txHash = BigInt(
      hash.computePoseidonHashOnElements([
        0x53414e44424f585f5458n /* "SANDBOX_TX" */,
        BigInt(this.ledger.transactionCount),
        LIQUIDATOR_ADDRESS,
        nonce,
      ]),
    );
    const block = this.#sealBlock([txHash], 0);
    const record: TransactionRecord = {
      hash: txHash,
      sender: LIQUIDATOR_ADDRESS,
      nonce,
      calldata: encodeMulticall(calls),
      status: 'SUCCEEDED',
      revertReason: undefined,
      actualFee: 0n,
      events,
      blockNumber: block.number,
      blockHash: block.hash,
      l2Gas: 0n,
      l1DataGas: 0n,
      visibleAt: 0,
    };
    this.ledger.record(record);
    return { record, result: roots[1]?.result ?? [] };
  }

  /**
   * The remove-staker knob (`finance-tui sandbox remove-staker`, docs/sandbox-chain.md "Staking"):
   * what the staking contract's `unstake_action` does to a staker and its pool, at once. Returns
   * the events it emitted (DeleteStaker, then the pool's StakerRemoved) with their emitters.
   * A Revert (STAKER_NOT_EXISTS: unknown or already removed) leaves the state as it was.
   */
  removeStaker(staker: bigint): Array<{ from: bigint; keys: bigint[]; data: bigint[] }> {
    const view = new StateView(this.ledger);
    const root = new Executor(view, this.contracts).invoke(
      0n,
      BigInt(STAKING_CONTRACT[this.network]),
      SANDBOX_REMOVE_STAKER,
      [staker],
    );
    view.commit();
    this.#sealBlock([], 0);
    return flattenEvents(root).map(({ from, event }) => ({
      from,
      keys: event.keys,
      data: event.data,
    }));
  }

  classHashAt(address: bigint): bigint | undefined {
    return this.contracts.classHashAt(address, new StateView(this.ledger));
  }

  /** starknet_call: runs on a view that is thrown away. Throws ContractNotFound or Revert (EntryPointNotFound for a missing entry point). */
  call(to: bigint, selector: bigint, calldata: readonly bigint[]): bigint[] {
    const view = new StateView(this.ledger);
    if (this.contracts.resolve(to, view) === undefined) {
      if (this.contracts.classHashAt(to, view) === undefined) throw new ContractNotFound(hex(to));
      // a pool: deployed, without entry points (the router moves its reserves)
      const missing = new EntryPointNotFound(selector);
      missing.frames.push({ address: to, selector });
      throw missing;
    }
    return new Executor(view, this.contracts).invoke(0n, to, selector, calldata).result;
  }

  /**
   * What the paymaster's build asks before it answers (paymaster.ts, as AVNU simulates): `calls`
   * run in order as `account` runs them from outside (each with the account as caller) on a view
   * that is thrown away, after deploying the account there when `deployment` is given. Returns the
   * revert reason of the first call that fails, or undefined when they all succeed. Knobs that
   * act at execution (revertNext, beforeNextExecution) are left for the execution.
   */
  outsideRevert(
    account: bigint,
    calls: readonly OutsideCall[],
    deployment?: { classHash: bigint; publicKey: bigint },
  ): string | undefined {
    const view = new StateView(this.ledger);
    if (deployment !== undefined) view.deploy({ address: account, ...deployment });
    const executor = new Executor(view, this.contracts);
    try {
      for (const call of calls) executor.invoke(account, call.to, call.selector, call.calldata);
      return undefined;
    } catch (error) {
      if (!(error instanceof Revert)) throw error;
      return revertReason(error);
    }
  }

  usageOf(calls: readonly OutsideCall[], deploy: boolean): GasUsage {
    return gasUsage(calls, deploy);
  }

  /** Applies a relayed transaction (see the header for what a revert changes) and records it. */
  executeRelayed(tx: RelayedTransaction): TransactionRecord {
    for (const action of this.beforeNextExecution.splice(0)) {
      try {
        action();
      } catch {
        // a third party's trade that fails is its own problem, not this transaction's
      }
    }
    const usage = gasUsage(tx.outside?.calls ?? [], tx.deployment !== undefined);
    const fee = feeInFri(usage, this.gasPrices);
    const relayerCalls = relayerCallsOf(tx);
    const view = new StateView(this.ledger);
    const executor = new Executor(view, this.contracts);
    const roots: Invocation[] = [];
    let status: TransactionRecord['status'] = 'SUCCEEDED';
    let reason: string | undefined;
    try {
      if (this.revertNext.count > 0) {
        this.revertNext.count -= 1;
        const forced = new Revert(this.revertNext.reason);
        forced.frames.push(
          { address: FORWARDER_ADDRESS, selector: FORWARDER_SELECTOR.execute },
          { address: tx.account, selector: ACCOUNT_SELECTOR.executeFromOutsideV2 },
        );
        throw forced;
      }
      for (const call of relayerCalls)
        roots.push(executor.invoke(RELAYER_ADDRESS, call.to, call.selector, call.calldata));
      view.commit();
      if (tx.outsideNonce !== undefined)
        this.contracts.usedOutsideNonces.add(`${tx.account}:${tx.outsideNonce}`);
    } catch (error) {
      if (!(error instanceof Revert)) throw error;
      status = 'REVERTED';
      reason = revertReason(error);
      roots.length = 0;
    }
    const events: ReceiptEvent[] = roots.flatMap((root) =>
      flattenEvents(root).map(({ from, event }) => receiptEvent(from, event.keys, event.data)),
    );
    events.push(...this.#chargeNetworkFee(fee));
    // a deploy-only transaction runs nothing the account signed: its nonce stays
    if (tx.outside !== undefined) this.ledger.bumpNonce(tx.account);
    const nonce = this.ledger.nonce(RELAYER_ADDRESS);
    this.ledger.bumpNonce(RELAYER_ADDRESS);
    const txHash = BigInt(
      hash.computePoseidonHashOnElements([
        0x53414e44424f585f5458n /* "SANDBOX_TX" */,
        BigInt(this.ledger.transactionCount),
        tx.messageHash,
      ]),
    );
    const visibleAt = this.now() + this.confirmDelayMs;
    const block = this.#sealBlock([txHash], visibleAt);
    const record: TransactionRecord = {
      hash: txHash,
      sender: RELAYER_ADDRESS,
      nonce,
      calldata: encodeMulticall(relayerCalls),
      status,
      revertReason: reason,
      actualFee: fee,
      events,
      blockNumber: block.number,
      blockHash: block.hash,
      l2Gas: usage.l2,
      l1DataGas: usage.l1Data,
      visibleAt,
    };
    this.ledger.record(record);
    return record;
  }

  /** The relayer pays the network fee in STRK, whatever happened to the transaction's calls. */
  #chargeNetworkFee(fee: bigint): ReceiptEvent[] {
    if (this.ledger.balanceOf(STRK, RELAYER_ADDRESS) < fee)
      this.ledger.mint(STRK, RELAYER_ADDRESS, RELAYER_FLOAT);
    const view = new StateView(this.ledger);
    const root = new Executor(view, this.contracts).invoke(
      RELAYER_ADDRESS,
      STRK,
      SELECTOR.transfer,
      [SEQUENCER_ADDRESS, ...u256Felts(fee).map(BigInt)],
    );
    view.commit();
    return flattenEvents(root).map(({ from, event }) => receiptEvent(from, event.keys, event.data));
  }

  /**
   * starknet_simulateTransactions: the transactions run in order on one throw-away view, each in
   * its own inner view so a reverted one keeps the others' effects (as a block would). A
   * transaction with `validation` is validated first, as ArgentX's `__validate__` does: its
   * signature must be the owner key's over the transaction hash. Without SKIP_FEE_CHARGE the
   * sender pays the fee in STRK after its calls, reverted or not. Nonces are not checked. Throws
   * SimulationFailure for a transaction that cannot run at all (a failed validation included).
   */
  simulate(
    transactions: readonly SimulatedTransaction[],
    options: { chargeFee: boolean },
  ): SimulationOutcome[] {
    const outer = new StateView(this.ledger);
    return transactions.map((tx, index) => {
      if (tx.type === 'DEPLOY_ACCOUNT') {
        if (tx.classHash !== ARGENT_CLASS_HASH)
          throw new SimulationFailure(
            index,
            `class ${hex(tx.classHash)} is not declared on the sandbox chain (only ArgentX v0.5.0 accounts)`,
          );
        const publicKey = argentOwner(tx.constructorCalldata);
        if (publicKey === undefined)
          throw new SimulationFailure(
            index,
            'constructor calldata must be [0 (Starknet owner), pubkey, 1 (no guardian)]',
          );
        const address = deployedAddress(tx.classHash, tx.salt, tx.constructorCalldata);
        if (this.contracts.classHashAt(address, outer) !== undefined)
          throw new SimulationFailure(index, `${hex(address)} is already deployed`);
        validate(index, tx, address, publicKey);
        outer.deploy({ address, classHash: tx.classHash, publicKey });
        const usage = gasUsage([], true);
        return {
          type: 'DEPLOY_ACCOUNT',
          address,
          invocation: undefined,
          revertReason: undefined,
          usage,
          fee: feeInFri(usage, this.gasPrices),
          feeTransfer: undefined,
        };
      }
      const sender = outer.account(tx.sender);
      if (sender === undefined)
        throw new SimulationFailure(
          index,
          `Requested contract address ${hex(tx.sender)} is not deployed.`,
        );
      validate(index, tx, tx.sender, sender.publicKey);
      let calls: OutsideCall[];
      try {
        calls = decodeMulticall(tx.calldata);
      } catch {
        throw new SimulationFailure(
          index,
          'calldata is not a multicall [n, to, selector, len, calldata…]',
        );
      }
      const usage = gasUsage(calls, false);
      const fee = feeInFri(usage, this.gasPrices);
      const inner = new StateView(outer);
      let invocation: Invocation | undefined;
      let reason: string | undefined;
      const executor = new Executor(inner, this.contracts);
      try {
        invocation = executor.invoke(0n, tx.sender, ACCOUNT_SELECTOR.execute, tx.calldata);
        inner.commit();
      } catch (error) {
        if (!(error instanceof Revert)) throw error;
        reason = revertReason(error);
      }
      let feeTransfer: Invocation | undefined;
      if (options.chargeFee) {
        try {
          const feeView = new StateView(outer);
          feeTransfer = new Executor(feeView, this.contracts).invoke(
            tx.sender,
            STRK,
            SELECTOR.transfer,
            [SEQUENCER_ADDRESS, ...u256Felts(fee).map(BigInt)],
          );
          feeView.commit();
        } catch {
          throw new SimulationFailure(index, 'the sender cannot pay the fee in STRK');
        }
      }
      return {
        type: 'INVOKE',
        address: tx.sender,
        invocation,
        revertReason: reason,
        usage,
        fee,
        feeTransfer,
      };
    });
  }

  readonly accountClassHash = ARGENT_CLASS_HASH;
}

export type SimulatedTransaction = (
  | { type: 'INVOKE'; sender: bigint; calldata: bigint[] }
  | { type: 'DEPLOY_ACCOUNT'; classHash: bigint; salt: bigint; constructorCalldata: bigint[] }
) & {
  /** when set, the account validates: `signature` must be its owner's over `hash` (the transaction hash) */
  validation?: { hash: (address: bigint) => bigint; signature: bigint[] };
};

export interface SimulationOutcome {
  type: 'INVOKE' | 'DEPLOY_ACCOUNT';
  address: bigint;
  /** the account's __execute__ invocation; undefined when it reverted (or for a deployment) */
  invocation: Invocation | undefined;
  revertReason: string | undefined;
  usage: GasUsage;
  fee: bigint;
  feeTransfer: Invocation | undefined;
}

function validate(
  index: number,
  tx: SimulatedTransaction,
  address: bigint,
  publicKey: bigint,
): void {
  if (tx.validation === undefined) return;
  if (!accountSignatureValid(publicKey, tx.validation.hash(address), tx.validation.signature)) {
    throw new SimulationFailure(
      index,
      `Account validation failed: the signature is not the owner's over the transaction hash (contract address: ${hex(address)}): 'argent/invalid-owner-sig'.`,
    );
  }
}

/** A transaction of a simulation that cannot run at all (JSON-RPC error 41). */
export class SimulationFailure extends Error {
  readonly index: number;
  constructor(index: number, message: string) {
    super(message);
    this.index = index;
  }
}

/** The relayer's calls to the forwarder for `tx` (what its INVOKE carries). */
function relayerCallsOf(tx: RelayedTransaction): OutsideCall[] {
  const calls: OutsideCall[] = [];
  if (tx.deployment !== undefined) {
    const constructorCalldata = [0n, tx.deployment.publicKey, 1n];
    calls.push({
      to: FORWARDER_ADDRESS,
      selector: FORWARDER_SELECTOR.deployAccount,
      calldata: [
        tx.deployment.classHash,
        tx.deployment.publicKey,
        BigInt(constructorCalldata.length),
        ...constructorCalldata,
      ],
    });
  }
  if (tx.outside !== undefined) {
    const outside = encodeOutsideExecution({ caller: FORWARDER_ADDRESS, ...tx.outside });
    const refund = tx.refund ?? { token: 0n, amount: 0n };
    calls.push({
      to: FORWARDER_ADDRESS,
      selector: FORWARDER_SELECTOR.execute,
      calldata: [
        tx.account,
        ACCOUNT_SELECTOR.executeFromOutsideV2,
        BigInt(outside.length),
        ...outside,
        refund.token,
        ...u256Felts(refund.amount).map(BigInt),
      ],
    });
  }
  return calls;
}

const blockHashOf = (blockNumber: number): bigint =>
  BigInt(hash.computePoseidonHashOnElements([0x424c4f434bn /* "BLOCK" */, BigInt(blockNumber)]));

const receiptEvent = (
  from: bigint,
  keys: readonly bigint[],
  data: readonly bigint[],
): ReceiptEvent => ({
  from_address: hex(from),
  keys: keys.map(hex),
  data: data.map(hex),
});
