/**
 * The action pipeline (docs/architecture.md "The action pipeline"): every action that moves
 * money — a send, a trade, a multi-swap, a batch — is one typed request that goes through the
 * same stages:
 *
 *   resolve (rules.ts) → quote (the balances and the account's facts read meanwhile) → build
 *   the calls (plan.ts) → check (checks.ts) → paymaster build → simulate → [the face confirms]
 *   → sign → submit → track → record (history.ts)
 *
 * `planAction` runs everything up to the confirmation and returns a PlannedAction whose
 * `document` is what a face shows; `executeAction` signs exactly what was simulated (re-quoting
 * first when a quote went stale, with the confirmed minimums and gas maximum as bounds). A kind
 * is an entry of KINDS: how its request resolves into swaps and transfers. Progress is typed
 * (events.ts). Plain functions over an ActionContext: no endpoints, no session file.
 */
import { createHash } from 'node:crypto';
import { formatAmount } from '../../../shared/amount.js';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { feltHex } from '../../../shared/felt.js';
import { ROUTER_ADDRESS } from '../../../shared/swap-calldata.js';
import { findToken, type Network, sameAddress, type Token } from '../../../shared/tokens.js';
import type { AggregatorClient, Route } from '../../clients/aggregator.js';
import { checkPairCount } from './limits.js';
import { type ActionLimits, checkLimits } from './caps.js';
import type { BudgetReservation } from '../budget.js';
import type { CallOptions } from '../call.js';
import type { ActionEvent } from '../events.js';
import type { ExecutionAccount } from '../chain/account.js';
import type { ExecutionReceipt, PreparedExecution } from '../chain/execute.js';
import { prefetchAccountFacts } from '../chain/facts.js';
import { readBalances, type TokenBalance } from '../chain/reads.js';
import { simulatePrepared } from '../chain/simulate.js';
import { executeTracked, type FeeChoice, prepareWithFee } from '../execution.js';
import {
  entryKey,
  type HistoryAmount,
  type HistoryEntry,
  type HistoryStore,
  trackTransaction,
  UNRESOLVED,
} from '../history.js';
import { askable, entryChain, readerLookup, reconcileHistory } from '../reconcile.js';
import { outsideIdentity } from '../chain/execute.js';
import {
  type Balance,
  checkBalances,
  EXPIRY_MARGIN_S,
  CONFIRM_MARGIN_MS,
  checkPriceImpact,
  checkRequote,
  priceMovedInBatch,
  checkSimulation,
  type GasQuote,
  type SimulationResult,
  QUOTE_MAX_AGE_MS,
  staleSwaps,
  verifyCalls,
} from './checks.js';
import { type PlanDocument, planDocument } from './document.js';
import {
  buildPlan,
  checkPlanShape,
  type PlannedTransfer,
  type PlannedSwap,
  type ActionPlan,
  type SwapQuote,
  toSwapQuote,
  withExecuting,
} from './plan.js';
import { type ResolvedPair, resolvePair, resolveTransfer, swapsAllowed } from './rules.js';
import { type RebalanceRequest, rebalanceView, resolveRebalance } from './rebalance.js';

export interface ActionContext {
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
  /** the chain this runs on: "mainnet", "sepolia" or "sandbox:<id>" (reconcile.ts chainOf) */
  chain?: string | undefined;
}

/** "100 USDC>ETH" as given: decimal amount in token units, symbols or addresses. */
export interface PairSpec {
  amount: string;
  from: string;
  to: string;
}

/** "5 USDC>0x…": a plain transfer. */
export interface TransferSpec {
  amount: string;
  token: string;
  to: string;
}

/** What a face asks the pipeline to do: one typed request per kind. */
export type ActionRequest =
  | { kind: 'send'; transfer: TransferSpec }
  | { kind: 'trade'; swap: PairSpec }
  | { kind: 'multi-swap'; swaps: PairSpec[] }
  | { kind: 'batch'; swaps: PairSpec[]; transfers: TransferSpec[] }
  | RebalanceRequest;

export interface PlanOptions {
  slippageBps?: number | undefined;
  allowHighImpact?: boolean | undefined;
  /** refuse (FEE_ABOVE_MAX) a paymaster build whose maximum fee is above this, in gas-token base units */
  maxFee?: bigint | undefined;
}

/** How the routes were fetched, which is how a re-quote fetches them again. */
export type QuoteMode = 'single' | 'batch' | 'parallel';

/**
 * One plan's execution, shared by every copy of its PlannedAction: a plan is signed at most
 * once. `ready` until executeAction starts; `submitting` from the moment the signed transaction
 * leaves the client; `submitted` once its hash is known; `done` with a receipt. A failure before
 * anything left the client returns it to `ready`.
 */
export interface ExecutionTicket {
  state: 'ready' | 'executing' | 'submitting' | 'submitted' | 'done';
  hash: string | undefined;
}

/** A checked, simulated plan, ready to sign (executeAction) or to show (document). */
export interface PlannedAction {
  readonly request: ActionRequest;
  plan: ActionPlan;
  document: PlanDocument;
  mode: QuoteMode;
  slippageBps: number;
  allowHighImpact: boolean;
  gas: GasQuote;
  /** the paymaster's build that was simulated: what executeAction signs */
  prepared: PreparedExecution;
  /**
   * epoch ms until which a face may take a confirmation of exactly this build: before the
   * quote's 30 s (less CONFIRM_MARGIN_MS for the key press to reach it) and before the paymaster
   * build's margin. Confirmed later, executeAction re-quotes and rebuilds first.
   */
  confirmBy: number;
  /** where it was planned: executeAction signs with the same account and clients */
  readonly context: ActionContext;
  readonly ticket: ExecutionTicket;
}

export interface ExecutionResult extends PlanDocument {
  transaction: {
    hash: string;
    status: 'SUCCEEDED';
    blockNumber: number | null;
    /** what each output token actually brought, against the confirmed minimum */
    received: Array<{
      symbol: string;
      address: string;
      amount: string;
      baseUnits: string;
      minimum: { amount: string; baseUnits: string };
    }>;
    balanceChanges: Array<{
      symbol: string;
      address: string;
      decimals: number;
      amount: string;
      baseUnits: string;
    }>;
    feePaid: { symbol: string; amount: string; baseUnits: string } | null;
    /** the transaction deployed the account (its first) */
    deployedAccount: boolean;
    /** history could not be written (the transaction is unaffected) */
    historyWarning?: string;
  };
}

const clock = (ctx: ActionContext): number => (ctx.now ?? Date.now)();

/** The swaps and transfers a request moves, every rule applied; `mode` is how its routes are fetched. */
export interface Legs {
  swaps: ResolvedPair[];
  transfers: PlannedTransfer[];
  mode: QuoteMode;
}

/**
 * An action kind: how its request resolves into swaps and transfers (rules.ts applied, before any
 * request). Everything after — quotes, calls, checks, build, simulation, signing, the receipt and
 * the history — is the pipeline's, the same for every kind. See docs/architecture.md "Adding an
 * action kind".
 */
interface ActionKind<R extends ActionRequest> {
  resolve(request: R, where: Where): Legs;
}

type Kinds = { [K in ActionRequest['kind']]: ActionKind<Extract<ActionRequest, { kind: K }>> };

const sameOutput = (swaps: readonly ResolvedPair[]): boolean =>
  swaps.every((s) => sameAddress(s.to.address, swaps[0]?.to.address ?? ''));

const KINDS: Kinds = {
  send: {
    resolve: (request, where) => ({
      swaps: [],
      transfers: [resolveTransfer(request.transfer, where)],
      mode: 'single',
    }),
  },
  trade: {
    resolve: (request, { network }) => {
      swapsAllowed(network);
      return { swaps: [resolvePair(network, request.swap)], transfers: [], mode: 'single' };
    },
  },
  'multi-swap': {
    resolve: (request, { network }) => {
      swapsAllowed(network);
      checkPairCount(request.swaps.length, {
        label: '--pairs',
        hint: 'for one swap use: trade <amount> <from> <to>',
      });
      const swaps = request.swaps.map((p) => resolvePair(network, p));
      // one output token: one route batch and one calldata batch; else one request per pair in parallel
      return { swaps, transfers: [], mode: sameOutput(swaps) ? 'batch' : 'parallel' };
    },
  },
  batch: {
    resolve: (request, where) => {
      if (request.swaps.length > 0) swapsAllowed(where.network);
      const swaps = request.swaps.map((p) => resolvePair(where.network, p));
      const transfers = request.transfers.map((t) => resolveTransfer(t, where));
      return { swaps, transfers, mode: swaps.length === 1 ? 'single' : 'parallel' };
    },
  },
  rebalance: {
    // the targets + the snapshot's balances and prices → swap legs (at most a batch's 3);
    // nothing to do is ALREADY_BALANCED (rebalance.ts)
    resolve: (request, { network }) => {
      swapsAllowed(network);
      const swaps = resolveRebalance(request, network);
      return {
        swaps,
        transfers: [],
        mode: swaps.length <= 1 ? 'single' : sameOutput(swaps) ? 'batch' : 'parallel',
      };
    },
  },
};

/** The kinds the pipeline plans. */
export const ACTION_KINDS = Object.keys(KINDS) as Array<ActionRequest['kind']>;

interface Where {
  network: Network;
  /** the sender; undefined before the session is known (the rules that need it wait) */
  account: string | undefined;
  router: string;
}

function legsOf(request: ActionRequest, where: Where): Legs {
  const kind = KINDS[request.kind] as ActionKind<ActionRequest> | undefined;
  // a guard that cannot classify its input refuses it
  if (kind === undefined)
    throw new AppError(
      ErrorCode.USAGE_ERROR,
      `unknown action kind "${String((request as { kind?: unknown }).kind).slice(0, 40)}"`,
    );
  const legs = kind.resolve(request, where);
  // counts and recipients, before any request
  checkPlanShape({
    kind: request.kind,
    network: where.network,
    router: where.router,
    account: where.account,
    swapCount: legs.swaps.length,
    sends: legs.transfers,
  });
  return legs;
}

/**
 * The rules a request can be held to before anything else (the session included): a request
 * that can never be planned on `network` is refused as such, not as "sign in first".
 */
export function checkActionRequest(request: ActionRequest, network: Network): void {
  legsOf(request, { network, account: undefined, router: ROUTER_ADDRESS });
}

const emit = (call: CallOptions, event: ActionEvent): void => call.onProgress?.(event);

/**
 * One pair: the route the user is shown and the calldata (with the route it came with), asked at
 * once. A re-quote keeps the confirmed quote as what was shown and fetches only the calldata.
 */
async function quoteOne(
  pair: ResolvedPair,
  slippageBps: number,
  ctx: ActionContext,
  call: CallOptions,
  confirmed?: SwapQuote,
): Promise<PlannedSwap> {
  const request = { amount: pair.amount, tokenIn: pair.from.address, tokenOut: pair.to.address };
  const aggregatorCall = { signal: call.signal };
  const [route, { route: executingRoute, calldata }] = await Promise.all([
    confirmed === undefined ? ctx.aggregator.getRoute(request, aggregatorCall) : undefined,
    ctx.aggregator.getCalldata(
      { ...request, slippageBps, destination: ctx.account.address },
      aggregatorCall,
    ),
  ]);
  const quotedAt = clock(ctx);
  const shown =
    confirmed ??
    toSwapQuote(route as Route, pair.from, pair.to, slippageBps, ctx.account.network, quotedAt);
  return {
    confirmed: shown,
    executing: toSwapQuote(
      executingRoute,
      pair.from,
      pair.to,
      slippageBps,
      ctx.account.network,
      quotedAt,
    ),
    calldata,
  };
}

/** Pairs with one output token: one route batch and one calldata batch (the calldata is checked against those routes). */
async function quoteBatch(
  pairs: ResolvedPair[],
  slippageBps: number,
  ctx: ActionContext,
  call: CallOptions,
): Promise<Array<{ quote: SwapQuote; calldata: string[] }>> {
  const tokenOut = pairs[0]?.to.address ?? '';
  const batch = {
    amounts: pairs.map((p) => p.amount),
    tokensIn: pairs.map((p) => p.from.address),
    tokenOut,
  };
  const routes: Route[] = await ctx.aggregator.getRouteBatch(batch, { signal: call.signal });
  const quotedAt = clock(ctx);
  const quotes = routes.map((route, i) => {
    const pair = pairs[i] as ResolvedPair;
    return toSwapQuote(route, pair.from, pair.to, slippageBps, ctx.account.network, quotedAt);
  });
  const calldata = await ctx.aggregator
    .getCalldataBatch(
      {
        ...batch,
        slippageBps,
        destination: ctx.account.address,
        quotedOutputs: routes.map((r) => r.outputAmount),
      },
      { signal: call.signal },
    )
    .catch((error: unknown) => {
      throw priceMovedInBatch(error, quotes);
    });
  return quotes.map((quote, i) => ({ quote, calldata: calldata[i] ?? [] }));
}

async function quoteSwaps(
  pairs: ResolvedPair[],
  mode: QuoteMode,
  slippageBps: number,
  ctx: ActionContext,
  call: CallOptions,
): Promise<PlannedSwap[]> {
  if (pairs.length === 0) return [];
  emit(call, { kind: 'quoting', swaps: pairs.length, batch: mode === 'batch' });
  if (mode === 'batch')
    return (await quoteBatch(pairs, slippageBps, ctx, call)).map(({ quote, calldata }) => ({
      confirmed: quote,
      executing: quote,
      calldata,
    }));
  const swaps = await Promise.all(pairs.map((pair) => quoteOne(pair, slippageBps, ctx, call)));
  // the market moved between the route shown and the calldata: the user must see the new figures
  swaps.forEach((s, i) => checkRequote(i, s.confirmed, s.executing));
  return swaps;
}

function gasOf(prepared: PreparedExecution, network: Network): GasQuote {
  if (prepared.fee.mode === 'sponsored') return { mode: 'sponsored' };
  const token = findToken(network, prepared.fee.gasToken);
  if (token === undefined)
    throw new AppError(
      ErrorCode.CONFIG_ERROR,
      `the gas token ${prepared.fee.gasToken} is not a ${network} registry token`,
    );
  return {
    mode: 'default',
    token,
    maxFee: prepared.fee.maxInGasToken,
    estimatedFee: prepared.fee.estimatedInGasToken,
  };
}

/** The tokens whose balances the checks need: what is spent, and the gas token. */
function involvedTokens(
  spent: { swapsFrom: readonly Token[]; sends: readonly PlannedTransfer[] },
  gasToken: Token,
): Token[] {
  const tokens: Token[] = [];
  const add = (t: Token | undefined): void => {
    if (t !== undefined && !tokens.some((x) => sameAddress(x.address, t.address))) tokens.push(t);
  };
  for (const t of spent.swapsFrom) add(t);
  for (const s of spent.sends) add(s.token);
  // read even when gas may be sponsored: the build decides, and a second read would cost a round trip
  add(gasToken);
  return tokens;
}

/** Until when a face may confirm this build (PlannedAction.confirmBy). */
function confirmByOf(plan: ActionPlan, prepared: PreparedExecution): number {
  const oldest = plan.swaps.reduce<number>((t, s) => Math.min(t, s.executing.quotedAt), Infinity);
  const quoteLimit = oldest === Infinity ? Infinity : oldest + QUOTE_MAX_AGE_MS - CONFIRM_MARGIN_MS;
  return Math.min((prepared.expiresAt - EXPIRY_MARGIN_S) * 1000, quoteLimit);
}

interface FinalizeOptions {
  mode: QuoteMode;
  slippageBps: number;
  allowHighImpact: boolean;
  maxFee?: bigint | undefined;
  /** the balances of the plan's tokens, read while it was quoted (planAction); default: read with the build */
  balances?: Promise<TokenBalance[]> | undefined;
}

const balancesOf = (
  ctx: ActionContext,
  call: CallOptions,
  tokens: Token[],
): Promise<TokenBalance[]> =>
  readBalances(ctx.account, { tokens, ...(call.signal ? { signal: call.signal } : {}) });

/**
 * Every check on a built plan, then the paymaster build and the balances (in parallel), the
 * balance check, the simulation of exactly the built transaction and its check. `maxFee`
 * refuses a build whose maximum fee is above it (the user's --max-fee, or on a re-build the fee
 * the user confirmed).
 */
async function finalize(
  request: ActionRequest,
  plan: ActionPlan,
  options: FinalizeOptions,
  ctx: ActionContext,
  call: CallOptions,
  ticket: ExecutionTicket,
): Promise<PlannedAction> {
  verifyCalls(plan);
  const warnings = checkPriceImpact(plan, options.allowHighImpact);
  const [prepared, balances] = await Promise.all([
    prepareWithFee(ctx.account, plan.calls, { ...ctx.fee, maxFee: options.maxFee }, call),
    options.balances ??
      balancesOf(
        ctx,
        call,
        involvedTokens(
          { swapsFrom: plan.swaps.map((s) => s.confirmed.from), sends: plan.sends },
          ctx.fee.gasToken,
        ),
      ),
  ]);
  const gas = gasOf(prepared, ctx.account.network);
  const held: Balance[] = balances.map((b) => ({ token: b.token.address, amount: b.balance }));
  checkBalances(plan, gas, held);
  emit(call, { kind: 'simulating' });
  const simulated = await simulatePrepared(ctx.account, prepared, { signal: call.signal });
  const simulation: SimulationResult =
    simulated.status === 'REVERTED'
      ? { reverted: true, reason: simulated.revertReason ?? 'reverted (no reason given)' }
      : {
          reverted: false,
          transfers: simulated.transfers,
          balanceChanges: simulated.balanceChanges,
        };
  checkSimulation(plan, gas, simulation);
  const confirmBy = confirmByOf(plan, prepared);
  const document = planDocument(plan, {
    gas,
    balances: held,
    simulation,
    warnings,
    quoteMode: options.mode,
    deploysAccount: prepared.kind === 'deploy_and_invoke',
    confirmBy,
    buildExpiresAt: prepared.expiresAt * 1000,
    ...(request.kind === 'rebalance'
      ? { rebalance: rebalanceView(request, ctx.account.network, simulation) }
      : {}),
  });
  return {
    request,
    plan,
    document,
    mode: options.mode,
    slippageBps: options.slippageBps,
    allowHighImpact: options.allowHighImpact,
    gas,
    prepared,
    confirmBy,
    context: ctx,
    ticket,
  };
}

/**
 * Everything up to the confirmation: the request resolved by its kind's rules, quoted, its calls
 * built and checked, the paymaster build and the balances, the simulation of exactly what would
 * be signed. Nothing is signed.
 */
export async function planAction(
  request: ActionRequest,
  options: PlanOptions,
  ctx: ActionContext,
  call: CallOptions = {},
): Promise<PlannedAction> {
  const router = ctx.router ?? ROUTER_ADDRESS;
  const legs = legsOf(request, {
    network: ctx.account.network,
    account: ctx.account.address,
    router,
  });
  const slippageBps = options.slippageBps ?? ctx.defaultSlippageBps;
  // what the checks and the build need that does not depend on the quote is read while it is
  // fetched: the balances of the tokens spent and the account's facts (deployed, nonce, …)
  const balances = balancesOf(
    ctx,
    call,
    involvedTokens(
      { swapsFrom: legs.swaps.map((s) => s.from), sends: legs.transfers },
      ctx.fee.gasToken,
    ),
  );
  // awaited after the build (a quote's failure is the one reported); never an unhandled rejection
  balances.catch(() => undefined);
  prefetchAccountFacts(ctx.account, call.signal);
  const swaps = await quoteSwaps(legs.swaps, legs.mode, slippageBps, ctx, call);
  const plan = buildPlan({
    kind: request.kind,
    network: ctx.account.network,
    sandbox: ctx.sandbox,
    account: ctx.account.address,
    router,
    swaps,
    sends: legs.transfers,
  });
  const ticket: ExecutionTicket = { state: 'ready', hash: undefined };
  return finalize(
    request,
    plan,
    {
      mode: legs.mode,
      slippageBps,
      allowHighImpact: options.allowHighImpact === true,
      maxFee: options.maxFee,
      balances,
    },
    ctx,
    call,
    ticket,
  );
}

/** Re-quotes the stale swaps; each must still guarantee its confirmed minimum (else QUOTE_CHANGED). */
async function requote(
  planned: PlannedAction,
  stale: number[],
  call: CallOptions,
): Promise<ActionPlan> {
  const ctx = planned.context;
  emit(call, { kind: 'requoting', swaps: stale.length });
  let plan = planned.plan;
  const pairs = plan.swaps.map((s) => ({
    from: s.confirmed.from,
    to: s.confirmed.to,
    amount: s.confirmed.amountIn,
  }));
  if (planned.mode === 'batch') {
    const fresh = await quoteBatch(pairs, planned.slippageBps, ctx, call);
    fresh.forEach(({ quote, calldata }, i) => {
      checkRequote(i, plan.swaps[i]?.confirmed as SwapQuote, quote);
      plan = withExecuting(plan, i, quote, calldata);
    });
    return plan;
  }
  const fresh = await Promise.all(
    stale.map((i) =>
      quoteOne(pairs[i] as ResolvedPair, planned.slippageBps, ctx, call, plan.swaps[i]?.confirmed),
    ),
  );
  fresh.forEach((swap, n) => {
    const i = stale[n] as number;
    checkRequote(i, swap.confirmed, swap.executing);
    plan = withExecuting(plan, i, swap.executing, swap.calldata);
  });
  return plan;
}

function historyAmounts(plan: ActionPlan): HistoryAmount[] {
  const money = (
    direction: 'out' | 'in',
    token: Token,
    value: bigint,
    basis: HistoryAmount['basis'],
    to?: string,
  ): HistoryAmount => ({
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

export interface ExecuteOptions {
  /**
   * The face took the person's explicit confirmation of a price impact above 15 % for this plan
   * (the app's typed word): a re-quote may then stay above 15 %. Without it, execution holds the
   * plan's own allowHighImpact.
   */
  highImpactConfirmed?: boolean;
  /** caps the face set at start (the tool server's --max-usd, --allow-token), checked right before signing */
  limits?: ActionLimits | undefined;
}

function alreadyExecuted(ticket: ExecutionTicket): AppError {
  const hash = ticket.hash;
  const what =
    ticket.state === 'executing'
      ? 'this plan is being executed already'
      : hash !== undefined
        ? `this plan was already submitted as ${hash}`
        : 'this plan was already sent to the network and may have been executed';
  return new AppError(
    ErrorCode.ALREADY_SUBMITTED,
    `${what}; it is never signed twice. Check the history before planning it again`,
    { details: { transactionHash: hash ?? null, state: ticket.state } },
  );
}

/**
 * What a plan moves, as a sha-256 (hex): the account, the chain, each swap's tokens and amount
 * in, each transfer's token, recipient and amount — not the quote or the fee, so a script that
 * runs the same `send` or `trade` again gets the same fingerprint (and `send` and a one-transfer
 * `batch` share theirs).
 */
export function planFingerprint(plan: ActionPlan, chain: string): string {
  const hex = (value: string): string => feltHex(BigInt(value));
  const what = {
    account: hex(plan.account),
    chain,
    swaps: plan.swaps.map((s) => [
      hex(s.confirmed.from.address),
      hex(s.confirmed.to.address),
      s.confirmed.amountIn.toString(),
    ]),
    sends: plan.sends.map((t) => [hex(t.token.address), hex(t.to), t.amount.toString()]),
  };
  return createHash('sha256').update(JSON.stringify(what)).digest('hex');
}

/** What identifies the signed outside execution, for settling it later; none when it cannot be read (it is still sent). */
function outsideOf(prepared: PreparedExecution): { outside?: ReturnType<typeof outsideIdentity> } {
  try {
    return { outside: outsideIdentity(prepared) };
  } catch {
    return {};
  }
}

/**
 * A plan whose transaction may already be on its way is never signed again, across processes
 * too: the account's unresolved entries on this chain are first asked of the chain (bounded);
 * one with the same fingerprint that is still unresolved refuses this run (ALREADY_SUBMITTED).
 */
async function refuseUnsettledRetry(
  ctx: ActionContext,
  chain: string,
  fingerprint: string,
  call: CallOptions,
): Promise<void> {
  if (ctx.history === undefined || !askable(chain)) return;
  const account = BigInt(ctx.account.address);
  const mine = (e: HistoryEntry): boolean =>
    BigInt(e.account) === account && entryChain(e) === chain;
  const { entries } = await ctx.history.list();
  const open = entries.filter((e) => mine(e) && UNRESOLVED.has(e.status));
  if (!open.some((e) => e.fingerprint === fingerprint)) return;
  const lookup = await readerLookup(ctx.account);
  // the same plan first: it decides whether this run may sign
  const ordered = [
    ...open.filter((e) => e.fingerprint === fingerprint),
    ...open.filter((e) => e.fingerprint !== fingerprint),
  ];
  const changed = await reconcileHistory(ctx.history, ordered, {
    lookupFor: () => lookup,
    signal: call.signal,
    now: ctx.now,
  });
  const settled = new Map(changed.map((c) => [entryKey(c), c]));
  const same = ordered
    .filter((e) => e.fingerprint === fingerprint)
    .map((e) => settled.get(entryKey(e)) ?? e);
  // still unresolved: it may yet execute; just found executed: this run is the blind retry of it
  const blocking =
    same.find((e) => UNRESOLVED.has(e.status)) ?? same.find((e) => e.status === 'succeeded');
  if (blocking === undefined) return;
  const deadline =
    blocking.outside === undefined
      ? ''
      : ` (it can execute until ${new Date(blocking.outside.executeBefore * 1000).toISOString()})`;
  const as = blocking.hash === undefined ? '' : ` as ${blocking.hash}`;
  const what =
    blocking.status === 'succeeded'
      ? `the same plan, sent at ${blocking.time}${as}, has been executed (the chain says so now)`
      : `the same plan was sent at ${blocking.time}${as} and how it ended is not known yet${deadline}`;
  throw new AppError(
    ErrorCode.ALREADY_SUBMITTED,
    `${what}: not sending it twice. Check \`finance-tui history\`; run it again only if you mean a second payment`,
    {
      details: {
        transactionHash: blocking.hash ?? null,
        state: blocking.status,
        time: blocking.time,
        ...(blocking.outside === undefined
          ? {}
          : { executeBefore: blocking.outside.executeBefore }),
      },
    },
  );
}

/**
 * Signs and sends a checked plan, once. A quote older than 30 s is re-fetched first and the
 * whole plan checked, built and simulated again (the confirmed minimums and gas maximum stay
 * the bounds); so is a paymaster build near its deadline. The transaction is recorded in the
 * history when submitted and updated from its receipt.
 */
export async function executeAction(
  planned: PlannedAction,
  call: CallOptions = {},
  options: ExecuteOptions = {},
): Promise<ExecutionResult> {
  const { ticket } = planned;
  if (ticket.state !== 'ready') throw alreadyExecuted(ticket);
  ticket.state = 'executing';
  const ctx = planned.context;
  const track: CallOptions = {
    signal: call.signal,
    onProgress: (event) => {
      if (event.kind === 'submitting') ticket.state = 'submitting';
      if (event.kind === 'submitted') {
        ticket.state = 'submitted';
        ticket.hash = event.hash;
      }
      call.onProgress?.(event);
    },
  };
  // the budget's record of this spend, made right before signing (caps.ts, ../budget.ts)
  let reservation: BudgetReservation | undefined;
  try {
    let current = planned;
    const allowHighImpact = options.highImpactConfirmed === true || planned.allowHighImpact;
    const stale = staleSwaps(current.plan, clock(ctx));
    const expiring = current.prepared.expiresAt - EXPIRY_MARGIN_S <= Math.floor(clock(ctx) / 1000);
    if (stale.length > 0 || expiring) {
      const plan = stale.length > 0 ? await requote(current, stale, track) : current.plan;
      const maxFee = current.gas.mode === 'default' ? current.gas.maxFee : undefined;
      current = await finalize(
        planned.request,
        plan,
        { mode: current.mode, slippageBps: current.slippageBps, allowHighImpact, maxFee },
        ctx,
        track,
        ticket,
      );
    }
    const { plan, document } = current;
    const value = await checkLimits(plan, options.limits, ctx.aggregator, track);
    const chain = ctx.chain ?? (ctx.sandbox ? 'sandbox:unknown' : ctx.account.network);
    const fingerprint = planFingerprint(plan, chain);
    await refuseUnsettledRetry(ctx, chain, fingerprint, track);
    if (options.limits?.budget !== undefined) {
      // a budget counts the caps' value; a plan without one is never waved through (fail closed)
      if (value === undefined)
        throw new AppError(
          ErrorCode.LIMIT_EXCEEDED,
          'nothing was signed: the plan could not be valued, so the budget cannot be checked',
        );
      reservation = await options.limits.budget.reserve(value);
    }
    const tracker = trackTransaction(ctx.history, {
      kind: plan.kind,
      network: ctx.account.network,
      sandbox: ctx.sandbox,
      ...(chain === 'sandbox:unknown' ? {} : { chain }),
      account: plan.account,
      summary: document.headline.slice(0, 500),
      amounts: historyAmounts(plan),
      fingerprint,
      ...outsideOf(current.prepared),
    });
    const receipt = await executeTracked(ctx.account, current.prepared, tracker, track);
    ticket.state = 'done';
    const received = receivedAmounts(plan, receipt);
    const fee = receipt.feePaid;
    const feeToken = fee === null ? undefined : findToken(ctx.account.network, fee.token);
    await tracker.settled(receipt.transactionHash, {
      status: 'succeeded',
      amounts: [
        ...historyAmounts(plan).filter((a) => a.direction === 'out'),
        ...received.map((r) => ({
          direction: 'in' as const,
          symbol: r.symbol,
          address: r.address,
          amount: r.amount,
          baseUnits: r.baseUnits,
          basis: 'received' as const,
        })),
      ],
      ...(fee === null || feeToken === undefined
        ? {}
        : {
            fee: {
              symbol: feeToken.symbol,
              amount: formatAmount(fee.amount, feeToken.decimals),
              baseUnits: fee.amount.toString(),
            },
          }),
    });
    return {
      ...document,
      transaction: {
        hash: receipt.transactionHash,
        status: 'SUCCEEDED',
        blockNumber: receipt.blockNumber,
        received,
        balanceChanges: receipt.balanceChanges.map((c) => ({
          symbol: c.symbol,
          address: c.token,
          decimals: c.decimals,
          amount: formatAmount(c.amount, c.decimals),
          baseUnits: c.amount.toString(),
        })),
        feePaid:
          fee === null || feeToken === undefined
            ? null
            : {
                symbol: feeToken.symbol,
                amount: formatAmount(fee.amount, feeToken.decimals),
                baseUnits: fee.amount.toString(),
              },
        deployedAccount: receipt.deployed,
        ...(tracker.warnings.length > 0 ? { historyWarning: tracker.warnings.join('; ') } : {}),
      },
    };
  } catch (error) {
    // nothing left the client: the plan may be tried again, and its spend is not counted
    if (ticket.state === 'executing') {
      ticket.state = 'ready';
      await reservation?.release().catch(() => undefined);
    }
    throw error;
  }
}

/** Per output token: what the receipt's transfers brought the account, against the sum of confirmed minimums. */
function receivedAmounts(
  plan: ActionPlan,
  receipt: ExecutionReceipt,
): ExecutionResult['transaction']['received'] {
  const outputs: Token[] = [];
  for (const s of plan.swaps)
    if (!outputs.some((t) => sameAddress(t.address, s.confirmed.to.address)))
      outputs.push(s.confirmed.to);
  return outputs.map((token) => {
    const amount = receipt.transfers
      .filter(
        (t) =>
          sameAddress(t.token, token.address) &&
          sameAddress(t.to, plan.account) &&
          !sameAddress(t.from, plan.account),
      )
      .reduce((sum, t) => sum + t.amount, 0n);
    const minimum = plan.swaps
      .filter((s) => sameAddress(s.confirmed.to.address, token.address))
      .reduce((sum, s) => sum + s.confirmed.minimumReceived, 0n);
    return {
      symbol: token.symbol,
      address: token.address,
      amount: formatAmount(amount, token.decimals),
      baseUnits: amount.toString(),
      minimum: { amount: formatAmount(minimum, token.decimals), baseUnits: minimum.toString() },
    };
  });
}
