/**
 * The swap flows of the core (docs/architecture.md "Client behaviour" and "Execution"): plain
 * functions taking `{signal, onProgress}` and returning plain data, shared by the headless
 * commands and the TUI.
 *
 * planTrade / planMultiSwap / planBatch: quote (what the user is shown and confirms) → calldata
 * → the plan's calls → every pre-sign check (checks.ts) → paymaster build (nothing signed) and
 * balances, in parallel → simulation of exactly what would be signed → the plan document.
 * executePlan: re-quote anything older than 30 s (and rebuild, holding the confirmed minimums
 * and gas maximum) → sign and send exactly what was simulated → receipt → history.
 */
import { formatAmount, parseAmount } from '../../../shared/amount.js';
import { AppError, ErrorCode, usageError } from '../../../shared/errors.js';
import { ROUTER_ADDRESS } from '../../../shared/swap-calldata.js';
import { findToken, type Network, resolveToken, sameAddress, type Token } from '../../../shared/tokens.js';
import type { AggregatorClient, Route } from '../../clients/aggregator.js';
import { checkPairCount } from './limits.js';
import type { CallOptions } from '../call.js';
import type { ExecutionAccount } from '../chain/account.js';
import type { ExecutionReceipt, PreparedExecution } from '../chain/execute.js';
import { readBalances } from '../chain/reads.js';
import { simulatePrepared } from '../chain/simulate.js';
import { executeTracked, type FeeChoice, prepareWithFee } from '../execution.js';
import { type HistoryAmount, type HistoryStore, trackTransaction } from '../history.js';
import {
  type Balance,
  checkBalances,
  EXPIRY_MARGIN_S,
  checkPriceImpact,
  checkRequote,
  priceMovedInBatch,
  checkSimulation,
  type GasQuote,
  type SimulationResult,
  staleSwaps,
  verifyCalls,
} from './checks.js';
import { type PlanDocument, planDocument } from './document.js';
import { buildPlan, checkPlanShape, type PlanKind, type PlannedSend, type PlannedSwap, type SwapPlan, type SwapQuote, toSwapQuote, withExecuting } from './plan.js';

export interface SwapContext {
  aggregator: AggregatorClient;
  account: ExecutionAccount;
  sandbox: boolean;
  /** sponsored gas when offered, else paid in the gas token */
  fee: FeeChoice;
  /** when the request names none (settings, 1 %) */
  defaultSlippageBps: number;
  router?: string;
  now?: () => number;
  history?: HistoryStore | undefined;
}

/** "100 USDC>ETH" as given: decimal amount in token units, symbols or addresses. */
export interface PairSpec {
  amount: string;
  from: string;
  to: string;
}

/** "5 USDC>0x…": a plain transfer in a batch. */
export interface SendSpec {
  amount: string;
  token: string;
  to: string;
}

export interface PlanOptions {
  slippageBps?: number | undefined;
  allowHighImpact?: boolean | undefined;
}

/** How the routes were fetched, which is how a re-quote fetches them again. */
export type QuoteMode = 'single' | 'batch' | 'parallel';

/** A checked, simulated plan, ready to sign (executePlan) or to show (document). */
export interface PlannedExecution {
  plan: SwapPlan;
  document: PlanDocument;
  mode: QuoteMode;
  slippageBps: number;
  allowHighImpact: boolean;
  gas: GasQuote;
  /** the paymaster's build that was simulated: what executePlan signs */
  prepared: PreparedExecution;
  /** where it was planned: executePlan signs with the same account and clients */
  readonly context: SwapContext;
}

export interface ExecutionResult extends PlanDocument {
  transaction: {
    hash: string;
    status: 'SUCCEEDED';
    blockNumber: number | null;
    /** what each output token actually brought, against the confirmed minimum */
    received: Array<{ symbol: string; address: string; amount: string; baseUnits: string; minimum: { amount: string; baseUnits: string } }>;
    balanceChanges: Array<{ symbol: string; address: string; decimals: number; amount: string; baseUnits: string }>;
    feePaid: { symbol: string; amount: string; baseUnits: string } | null;
    /** history could not be written (the transaction is unaffected) */
    historyWarning?: string;
  };
}

const clock = (ctx: SwapContext): number => (ctx.now ?? Date.now)();

function swapsAllowed(network: Network): void {
  if (network !== 'mainnet') {
    throw new AppError(ErrorCode.NETWORK_UNSUPPORTED, `swaps are available on mainnet only (current network: ${network})`, { status: 400 });
  }
}

interface ResolvedPair {
  from: Token;
  to: Token;
  amount: bigint;
}

function resolvePair(network: Network, spec: PairSpec): ResolvedPair {
  const from = resolveToken(network, spec.from);
  const to = resolveToken(network, spec.to);
  if (from.address === to.address) throw usageError(`cannot swap ${from.symbol} for itself`);
  return { from, to, amount: parseAmount(spec.amount, from.decimals, { label: from.symbol }) };
}

function resolveSend(network: Network, spec: SendSpec): PlannedSend {
  const token = resolveToken(network, spec.token);
  return { token, amount: parseAmount(spec.amount, token.decimals, { label: token.symbol }), to: spec.to };
}

const emit = (call: CallOptions, step: string, message: string): void => call.onProgress?.({ step: `swap-${step}`, message });

/** One pair: the route the user is shown, then the calldata with the route it came with. */
async function quoteOne(pair: ResolvedPair, slippageBps: number, ctx: SwapContext, call: CallOptions, confirmed?: SwapQuote): Promise<PlannedSwap> {
  const request = { amount: pair.amount, tokenIn: pair.from.address, tokenOut: pair.to.address };
  const aggregatorCall = { signal: call.signal };
  const shown = confirmed ?? toSwapQuote(await ctx.aggregator.getRoute(request, aggregatorCall), pair.from, pair.to, slippageBps, ctx.account.network, clock(ctx));
  const { route, calldata } = await ctx.aggregator.getCalldata({ ...request, slippageBps, destination: ctx.account.address }, aggregatorCall);
  return { confirmed: shown, executing: toSwapQuote(route, pair.from, pair.to, slippageBps, ctx.account.network, clock(ctx)), calldata };
}

/** Pairs with one output token: one route batch and one calldata batch (the calldata is checked against those routes). */
async function quoteBatch(pairs: ResolvedPair[], slippageBps: number, ctx: SwapContext, call: CallOptions): Promise<Array<{ quote: SwapQuote; calldata: string[] }>> {
  const tokenOut = pairs[0]?.to.address ?? '';
  const batch = { amounts: pairs.map((p) => p.amount), tokensIn: pairs.map((p) => p.from.address), tokenOut };
  const routes: Route[] = await ctx.aggregator.getRouteBatch(batch, { signal: call.signal });
  const quotedAt = clock(ctx);
  const quotes = routes.map((route, i) => {
    const pair = pairs[i] as ResolvedPair;
    return toSwapQuote(route, pair.from, pair.to, slippageBps, ctx.account.network, quotedAt);
  });
  const calldata = await ctx.aggregator
    .getCalldataBatch({ ...batch, slippageBps, destination: ctx.account.address, quotedOutputs: routes.map((r) => r.outputAmount) }, { signal: call.signal })
    .catch((error: unknown) => {
      throw priceMovedInBatch(error, quotes);
    });
  return quotes.map((quote, i) => ({ quote, calldata: calldata[i] ?? [] }));
}

async function quoteSwaps(pairs: ResolvedPair[], mode: QuoteMode, slippageBps: number, ctx: SwapContext, call: CallOptions): Promise<PlannedSwap[]> {
  emit(call, 'quote', `quoting ${pairs.length} swap${pairs.length === 1 ? '' : 's'}${mode === 'batch' ? ' (one batch request)' : ''}`);
  if (mode === 'batch') return (await quoteBatch(pairs, slippageBps, ctx, call)).map(({ quote, calldata }) => ({ confirmed: quote, executing: quote, calldata }));
  const swaps = await Promise.all(pairs.map((pair) => quoteOne(pair, slippageBps, ctx, call)));
  // the market moved between the route shown and the calldata: the user must see the new figures
  swaps.forEach((s, i) => checkRequote(i, s.confirmed, s.executing));
  return swaps;
}

function gasOf(prepared: PreparedExecution, network: Network): GasQuote {
  if (prepared.fee.mode === 'sponsored') return { mode: 'sponsored' };
  const token = findToken(network, prepared.fee.gasToken);
  if (token === undefined) throw new AppError(ErrorCode.CONFIG_ERROR, `the gas token ${prepared.fee.gasToken} is not a ${network} registry token`, { status: 400 });
  return { mode: 'default', token, maxFee: prepared.fee.maxInGasToken, estimatedFee: prepared.fee.estimatedInGasToken };
}

function involvedTokens(plan: SwapPlan, gasToken: Token): Token[] {
  const tokens: Token[] = [];
  const add = (t: Token | undefined): void => {
    if (t !== undefined && !tokens.some((x) => sameAddress(x.address, t.address))) tokens.push(t);
  };
  for (const s of plan.swaps) add(s.confirmed.from);
  for (const s of plan.sends) add(s.token);
  // read even when gas may be sponsored: the build decides, and a second read would cost a round trip
  add(gasToken);
  return tokens;
}

/**
 * Every check on a built plan, then the paymaster build and the balances (in parallel), the
 * balance check, the simulation of exactly the built transaction and its check. `maxFee`
 * (a re-build after a re-quote) refuses a fee above the one the user confirmed.
 */
async function finalize(
  plan: SwapPlan,
  options: { mode: QuoteMode; slippageBps: number; allowHighImpact: boolean; maxFee?: bigint },
  ctx: SwapContext,
  call: CallOptions,
): Promise<PlannedExecution> {
  verifyCalls(plan);
  const warnings = checkPriceImpact(plan, options.allowHighImpact);
  const [prepared, balances] = await Promise.all([
    prepareWithFee(ctx.account, plan.calls, { ...ctx.fee, maxFee: options.maxFee }, call, 'swap'),
    readBalances(ctx.account, { tokens: involvedTokens(plan, ctx.fee.gasToken), ...(call.signal ? { signal: call.signal } : {}) }),
  ]);
  const gas = gasOf(prepared, ctx.account.network);
  const held: Balance[] = balances.map((b) => ({ token: b.token.address, amount: b.balance }));
  checkBalances(plan, gas, held);
  emit(call, 'simulate', 'simulating the transaction');
  const simulated = await simulatePrepared(ctx.account, prepared, { signal: call.signal });
  const simulation: SimulationResult =
    simulated.status === 'REVERTED'
      ? { reverted: true, reason: simulated.revertReason ?? 'reverted (no reason given)' }
      : { reverted: false, transfers: simulated.transfers, balanceChanges: simulated.balanceChanges };
  checkSimulation(plan, gas, simulation);
  const document = planDocument(plan, { gas, balances: held, simulation, warnings, quoteMode: options.mode });
  return { plan, document, mode: options.mode, slippageBps: options.slippageBps, allowHighImpact: options.allowHighImpact, gas, prepared, context: ctx };
}

function planInput(kind: PlanKind, ctx: SwapContext, swaps: PlannedSwap[], sends: PlannedSend[] = []) {
  return { kind, network: ctx.account.network, sandbox: ctx.sandbox, account: ctx.account.address, router: ctx.router ?? ROUTER_ADDRESS, swaps, sends };
}

/** `trade <amount> <from> <to>`: approve + swap, checked and simulated; nothing is signed. */
export async function planTrade(pair: PairSpec, options: PlanOptions, ctx: SwapContext, call: CallOptions = {}): Promise<PlannedExecution> {
  swapsAllowed(ctx.account.network);
  const resolved = resolvePair(ctx.account.network, pair);
  const slippageBps = options.slippageBps ?? ctx.defaultSlippageBps;
  const swaps = await quoteSwaps([resolved], 'single', slippageBps, ctx, call);
  const plan = buildPlan(planInput('trade', ctx, swaps));
  return finalize(plan, { mode: 'single', slippageBps, allowHighImpact: options.allowHighImpact === true }, ctx, call);
}

/** `multi-swap`: 2–3 pairs; one output token → batch requests, else one request per pair in parallel. */
export async function planMultiSwap(pairs: PairSpec[], options: PlanOptions, ctx: SwapContext, call: CallOptions = {}): Promise<PlannedExecution> {
  swapsAllowed(ctx.account.network);
  checkPairCount(pairs.length, { label: '--pairs', hint: 'for one swap use: trade <amount> <from> <to>' });
  const resolved = pairs.map((p) => resolvePair(ctx.account.network, p));
  const slippageBps = options.slippageBps ?? ctx.defaultSlippageBps;
  const mode: QuoteMode = resolved.every((r) => r.to.address === resolved[0]?.to.address) ? 'batch' : 'parallel';
  const swaps = await quoteSwaps(resolved, mode, slippageBps, ctx, call);
  const plan = buildPlan(planInput('multi-swap', ctx, swaps));
  return finalize(plan, { mode, slippageBps, allowHighImpact: options.allowHighImpact === true }, ctx, call);
}

/** `batch`: swaps (one route per pair, in parallel) and plain transfers in one multicall. A batch of transfers only works on any network. */
export async function planBatch(swapSpecs: PairSpec[], sendSpecs: SendSpec[], options: PlanOptions, ctx: SwapContext, call: CallOptions = {}): Promise<PlannedExecution> {
  if (swapSpecs.length > 0) swapsAllowed(ctx.account.network);
  const resolved = swapSpecs.map((p) => resolvePair(ctx.account.network, p));
  const sends = sendSpecs.map((s) => resolveSend(ctx.account.network, s));
  const slippageBps = options.slippageBps ?? ctx.defaultSlippageBps;
  // counts and recipients are refused before any request
  checkPlanShape({ kind: 'batch', network: ctx.account.network, router: ctx.router ?? ROUTER_ADDRESS, swapCount: resolved.length, sends });
  const swaps = resolved.length === 0 ? [] : await quoteSwaps(resolved, 'parallel', slippageBps, ctx, call);
  const plan = buildPlan(planInput('batch', ctx, swaps, sends));
  return finalize(plan, { mode: swaps.length === 1 ? 'single' : 'parallel', slippageBps, allowHighImpact: options.allowHighImpact === true }, ctx, call);
}

/** Re-quotes the stale swaps; each must still guarantee its confirmed minimum (else QUOTE_CHANGED). */
async function requote(planned: PlannedExecution, stale: number[], call: CallOptions): Promise<SwapPlan> {
  const ctx = planned.context;
  emit(call, 'requote', `the quote is older than 30 s: re-quoting ${stale.length} swap${stale.length === 1 ? '' : 's'}`);
  let plan = planned.plan;
  const pairs = plan.swaps.map((s) => ({ from: s.confirmed.from, to: s.confirmed.to, amount: s.confirmed.amountIn }));
  if (planned.mode === 'batch') {
    const fresh = await quoteBatch(pairs, planned.slippageBps, ctx, call);
    fresh.forEach(({ quote, calldata }, i) => {
      checkRequote(i, plan.swaps[i]?.confirmed as SwapQuote, quote);
      plan = withExecuting(plan, i, quote, calldata);
    });
    return plan;
  }
  const fresh = await Promise.all(stale.map((i) => quoteOne(pairs[i] as ResolvedPair, planned.slippageBps, ctx, call, plan.swaps[i]?.confirmed)));
  fresh.forEach((swap, n) => {
    const i = stale[n] as number;
    checkRequote(i, swap.confirmed, swap.executing);
    plan = withExecuting(plan, i, swap.executing, swap.calldata);
  });
  return plan;
}

/** A paymaster build this close to its deadline is built again rather than signed. */

function historyAmounts(plan: SwapPlan): HistoryAmount[] {
  const money = (direction: 'out' | 'in', token: Token, value: bigint, basis: HistoryAmount['basis'], to?: string): HistoryAmount => ({
    direction,
    symbol: token.symbol,
    address: token.address,
    amount: formatAmount(value, token.decimals),
    baseUnits: value.toString(),
    basis,
    ...(to === undefined ? {} : { to }),
  });
  return [
    ...plan.swaps.map((s) => money('out', s.confirmed.from, s.confirmed.amountIn, 'sent')),
    ...plan.sends.map((s) => money('out', s.token, s.amount, 'sent', s.to)),
    ...plan.swaps.map((s) => money('in', s.confirmed.to, s.confirmed.minimumReceived, 'minimum')),
  ];
}

/**
 * Signs and sends a checked plan. A quote older than 30 s is re-fetched first and the whole
 * plan checked, built and simulated again (the confirmed minimums and gas maximum stay the
 * bounds); so is a paymaster build near its deadline. The transaction is recorded in the
 * history when submitted and updated from its receipt.
 */
export async function executePlan(planned: PlannedExecution, call: CallOptions = {}): Promise<ExecutionResult> {
  const ctx = planned.context;
  let current = planned;
  const stale = staleSwaps(current.plan, clock(ctx));
  const expiring = current.prepared.expiresAt - EXPIRY_MARGIN_S <= Math.floor(clock(ctx) / 1000);
  if (stale.length > 0 || expiring) {
    const plan = stale.length > 0 ? await requote(current, stale, call) : current.plan;
    const maxFee = current.gas.mode === 'default' ? current.gas.maxFee : undefined;
    current = await finalize(plan, { mode: current.mode, slippageBps: current.slippageBps, allowHighImpact: current.allowHighImpact, ...(maxFee === undefined ? {} : { maxFee }) }, ctx, call);
  }
  const { plan, document } = current;
  const tracker = trackTransaction(ctx.history, {
    kind: plan.kind,
    network: ctx.account.network,
    sandbox: ctx.sandbox,
    account: plan.account,
    summary: document.headline.slice(0, 500),
    amounts: historyAmounts(plan),
  });
  const receipt = await executeTracked(ctx.account, current.prepared, tracker, call, 'swap');
  const received = receivedAmounts(plan, receipt);
  await tracker.settled(receipt.transactionHash, {
    status: 'succeeded',
    amounts: [
      ...historyAmounts(plan).filter((a) => a.direction === 'out'),
      ...received.map((r) => ({ direction: 'in' as const, symbol: r.symbol, address: r.address, amount: r.amount, baseUnits: r.baseUnits, basis: 'received' as const })),
    ],
  });
  const fee = receipt.feePaid;
  const feeToken = fee === null ? undefined : findToken(ctx.account.network, fee.token);
  return {
    ...document,
    transaction: {
      hash: receipt.transactionHash,
      status: 'SUCCEEDED',
      blockNumber: receipt.blockNumber,
      received,
      balanceChanges: receipt.balanceChanges.map((c) => ({ symbol: c.symbol, address: c.token, decimals: c.decimals, amount: formatAmount(c.amount, c.decimals), baseUnits: c.amount.toString() })),
      feePaid: fee === null || feeToken === undefined ? null : { symbol: feeToken.symbol, amount: formatAmount(fee.amount, feeToken.decimals), baseUnits: fee.amount.toString() },
      ...(tracker.warnings.length > 0 ? { historyWarning: tracker.warnings.join('; ') } : {}),
    },
  };
}

/** Per output token: what the receipt's transfers brought the account, against the sum of confirmed minimums. */
function receivedAmounts(plan: SwapPlan, receipt: ExecutionReceipt): ExecutionResult['transaction']['received'] {
  const outputs: Token[] = [];
  for (const s of plan.swaps) if (!outputs.some((t) => sameAddress(t.address, s.confirmed.to.address))) outputs.push(s.confirmed.to);
  return outputs.map((token) => {
    const amount = receipt.transfers
      .filter((t) => sameAddress(t.token, token.address) && sameAddress(t.to, plan.account) && !sameAddress(t.from, plan.account))
      .reduce((sum, t) => sum + t.amount, 0n);
    const minimum = plan.swaps.filter((s) => sameAddress(s.confirmed.to.address, token.address)).reduce((sum, s) => sum + s.confirmed.minimumReceived, 0n);
    return { symbol: token.symbol, address: token.address, amount: formatAmount(amount, token.decimals), baseUnits: amount.toString(), minimum: { amount: formatAmount(minimum, token.decimals), baseUnits: minimum.toString() } };
  });
}
