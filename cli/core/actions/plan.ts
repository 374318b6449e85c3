/**
 * A swap plan: what the user confirmed, the aggregator calldata that will execute it, and the
 * exact calls to sign (one multicall). Pure: no I/O, no clock (quote times are passed in).
 *
 * Calls, in order: for each swap `approve(router, exactly amount_in)` on its input token then
 * `swap` on the router; then the plain transfers of a batch. Each approve sits directly before
 * its own swap because ERC-20 `approve` SETS the allowance (it does not add to it): two swaps
 * from the same token as approve1, swap1, approve2, swap2 give the router exactly amount1, then
 * exactly amount2, and nothing is left approved afterwards. Approving both first would leave
 * only amount2 approved (approve2 overwrites approve1), so swap1 would spend from swap2's
 * allowance and swap2 would revert, or the sum would have to be approved at once, which is
 * more than any single swap spends. Any allowance the account held before is overwritten too.
 */
import { checkBaseUnits } from '../../../shared/amount.js';
import { AppError, ErrorCode, usageError } from '../../../shared/errors.js';
import { findToken, type Network, parseAddress, type Token } from '../../../shared/tokens.js';
import { checkRecipient } from './rules.js';
import type { Route } from '../../clients/aggregator.js';
import { checkPairCount, MAX_BATCH_PAIRS } from './limits.js';
import { type QuoteSummary, summarizeQuote } from '../quote-summary.js';
import { buildApproveCall, buildTransferCall, type ChainCall } from '../chain/calls.js';
import { swapCall } from './calls.js';

/** The kinds of action the pipeline plans (pipeline.ts KINDS): each compiles to swaps and transfers. */
export type PlanKind = 'send' | 'trade' | 'multi-swap' | 'batch' | 'rebalance';

/** A batch holds at most this many transfers: bounded work and a plan one screen can show. */
export const MAX_BATCH_SENDS = 5;

/** One quote as bigints, with the figures the user is shown (`summary`, as `quote --json` prints). */
export interface SwapQuote {
  from: Token;
  to: Token;
  amountIn: bigint;
  /** the aggregator's outputAmount (before the service fee) */
  grossOutput: bigint;
  /** net of the service fee */
  expectedOutput: bigint;
  /** the guaranteed minimum shown to the user (shared/fees.ts guaranteedMinimum) */
  minimumReceived: bigint;
  /** floor(gross × (10000 − slippage) / 10000): what honest calldata carries as min_received */
  calldataMinimumReceived: bigint;
  feeBps: number;
  slippageBps: number;
  priceImpactBps: number | undefined;
  /** ms since the epoch, when the route was fetched */
  quotedAt: number;
  /** the aggregator's USD price of the input token, as sent (display data: the spending caps value a plan with it) */
  inputPrice: unknown;
  summary: QuoteSummary;
}

export function toSwapQuote(
  route: Route,
  from: Token,
  to: Token,
  slippageBps: number,
  network: Network,
  quotedAt: number,
): SwapQuote {
  const summary = summarizeQuote(route, from, to, slippageBps, network);
  return {
    from,
    to,
    amountIn: route.inputAmount,
    grossOutput: route.outputAmount,
    expectedOutput: BigInt(summary.expectedOutput.baseUnits),
    minimumReceived: BigInt(summary.minimumReceived.baseUnits),
    calldataMinimumReceived: BigInt(summary.calldataMinimumReceived.baseUnits),
    feeBps: summary.fee.bps,
    slippageBps,
    priceImpactBps: summary.priceImpact?.bps,
    quotedAt,
    inputPrice: route.inputToken.price,
    summary,
  };
}

export interface PlannedSwap {
  /** what the user saw and accepted: every check compares against this */
  confirmed: SwapQuote;
  /** the quote the calldata came with (the same as `confirmed`, or a newer re-quote) */
  executing: SwapQuote;
  /** the aggregator's router calldata, verbatim */
  calldata: string[];
}

export interface PlannedTransfer {
  token: Token;
  amount: bigint;
  /** normalised address */
  to: string;
}

export interface ActionPlan {
  kind: PlanKind;
  network: Network;
  sandbox: boolean;
  /** the user's account: every swap's destination */
  account: string;
  router: string;
  swaps: PlannedSwap[];
  sends: PlannedTransfer[];
  /** exactly what is signed, in order */
  calls: ChainCall[];
}

export type PlanInput = Omit<ActionPlan, 'calls' | 'sends'> & { sends?: PlannedTransfer[] };

/**
 * The counts and transfers of a plan, checked before any request: a send is exactly one
 * transfer; a trade is one swap; a multi-swap 2–3 swaps and no transfer; a batch at least one
 * item, at most 3 swaps and MAX_BATCH_SENDS transfers. Each transfer is positive, of a registry
 * token, to a recipient that keeps the funds (rules.ts checkRecipient). Returns the transfers
 * with normalised recipients.
 */
export function checkPlanShape(input: {
  kind: PlanKind;
  network: Network;
  router: string;
  account: string | undefined;
  swapCount: number;
  sends: readonly PlannedTransfer[];
}): PlannedTransfer[] {
  const { kind, swapCount: swaps, sends } = input;
  if (kind === 'send' && (swaps !== 0 || sends.length !== 1))
    throw usageError('a send is exactly one transfer');
  if (kind === 'trade' && (swaps !== 1 || sends.length > 0))
    throw usageError('a trade is exactly one swap');
  if (kind === 'multi-swap') {
    if (sends.length > 0)
      throw usageError('a multi-swap holds swaps only (use batch to add transfers)');
    checkPairCount(swaps);
  }
  if (kind === 'rebalance') {
    if (sends.length > 0) throw usageError('a rebalance holds swaps only');
    if (swaps > MAX_BATCH_PAIRS)
      throw new AppError(
        ErrorCode.BATCH_LIMIT_EXCEEDED,
        `a rebalance holds at most ${MAX_BATCH_PAIRS} swaps per transaction (got ${swaps})`,
      );
  }
  if (kind === 'batch') {
    if (swaps + sends.length === 0) throw usageError('a batch needs at least one --swap or --send');
    if (swaps > MAX_BATCH_PAIRS) {
      throw new AppError(
        ErrorCode.BATCH_LIMIT_EXCEEDED,
        `a batch holds at most ${MAX_BATCH_PAIRS} swaps (got ${swaps})`,
      );
    }
    if (sends.length > MAX_BATCH_SENDS) {
      throw new AppError(
        ErrorCode.BATCH_LIMIT_EXCEEDED,
        `a batch holds at most ${MAX_BATCH_SENDS} transfers (got ${sends.length})`,
      );
    }
  }
  return sends.map((send) => {
    checkBaseUnits(send.amount, send.token.symbol);
    if (findToken(input.network, send.token.address) === undefined)
      throw usageError(`${send.token.symbol} is not a ${input.network} registry token`);
    return {
      ...send,
      to: checkRecipient(send.to, {
        network: input.network,
        router: input.router,
        account: input.account,
      }),
    };
  });
}

/** The plan and its calls. Checks its shape (counts, recipients); the calls are verified separately (checks.ts). */
export function buildPlan(input: PlanInput): ActionPlan {
  const account = parseAddress(input.account, 'account');
  const router = parseAddress(input.router, 'router');
  const checkedSends = checkPlanShape({
    kind: input.kind,
    network: input.network,
    router,
    account,
    swapCount: input.swaps.length,
    sends: input.sends ?? [],
  });
  const calls: ChainCall[] = [];
  for (const swap of input.swaps) {
    calls.push(
      buildApproveCall(swap.confirmed.from, router, swap.confirmed.amountIn),
      swapCall(router, swap.calldata),
    );
  }
  for (const send of checkedSends) calls.push(buildTransferCall(send.token, send.to, send.amount));
  return {
    kind: input.kind,
    network: input.network,
    sandbox: input.sandbox,
    account,
    router,
    swaps: input.swaps,
    sends: checkedSends,
    calls,
  };
}

/** The plan with one swap's calldata replaced by a re-quote's (after checks.ts checkRequote accepted it). */
export function withExecuting(
  plan: ActionPlan,
  index: number,
  executing: SwapQuote,
  calldata: string[],
): ActionPlan {
  const swaps = plan.swaps.map((s, i) => (i === index ? { ...s, executing, calldata } : s));
  return buildPlan({ ...plan, swaps });
}
