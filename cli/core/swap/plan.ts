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
import { AppError, ErrorCode, usageError } from '../../../shared/errors.js';
import { findToken, listTokens, type Network, normalizeAddress, sameAddress, type Token } from '../../../shared/tokens.js';
import type { Route } from '../../clients/aggregator.js';
import { checkPairCount, MAX_BATCH_PAIRS } from './limits.js';
import { type QuoteSummary, summarizeQuote } from '../quote-summary.js';
import { buildApproveCall, buildTransferCall, type ChainCall, parseAddress } from '../chain/calls.js';
import { swapCall } from './calls.js';

export type PlanKind = 'trade' | 'multi-swap' | 'batch';

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
  summary: QuoteSummary;
}

export function toSwapQuote(route: Route, from: Token, to: Token, slippageBps: number, network: Network, quotedAt: number): SwapQuote {
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

export interface PlannedSend {
  token: Token;
  amount: bigint;
  /** normalised address */
  to: string;
}

export interface SwapPlan {
  kind: PlanKind;
  network: Network;
  sandbox: boolean;
  /** the user's account: every swap's destination */
  account: string;
  router: string;
  swaps: PlannedSwap[];
  sends: PlannedSend[];
  /** exactly what is signed, in order */
  calls: ChainCall[];
}

export type PlanInput = Omit<SwapPlan, 'calls' | 'sends'> & { sends?: PlannedSend[] };

/**
 * A transfer recipient: not an address (or zero) is INVALID_ADDRESS; one that would lose the
 * funds is INVALID_RECIPIENT: a registry token contract or the router (neither hands tokens back).
 */
export function checkRecipient(network: Network, recipient: string, router: string): string {
  const to = parseAddress(recipient, 'recipient');
  const refuse = (why: string): never => {
    throw new AppError(ErrorCode.INVALID_RECIPIENT, `refusing to send to ${to}: ${why}`, { status: 400, details: { recipient: to } });
  };
  const token = listTokens(network).find((t) => sameAddress(t.address, to));
  if (token !== undefined) refuse(`it is the ${token.symbol} token contract, which cannot give the funds back`);
  if (sameAddress(to, router)) refuse('it is the swap router');
  return to;
}

/**
 * The counts and transfers of a plan, checked before any request: a trade is one swap; a
 * multi-swap 2–3 swaps and no transfer; a batch at least one item, at most 3 swaps and
 * MAX_BATCH_SENDS transfers, each positive, of a registry token, to a recipient that keeps the
 * funds (checkRecipient). Returns the transfers with normalised recipients.
 */
export function checkPlanShape(input: { kind: PlanKind; network: Network; router: string; swapCount: number; sends: readonly PlannedSend[] }): PlannedSend[] {
  const { kind, swapCount: swaps, sends } = input;
  if (kind === 'trade' && (swaps !== 1 || sends.length > 0)) throw usageError('a trade is exactly one swap');
  if (kind === 'multi-swap') {
    if (sends.length > 0) throw usageError('a multi-swap holds swaps only (use batch to add transfers)');
    checkPairCount(swaps);
  }
  if (kind === 'batch') {
    if (swaps + sends.length === 0) throw usageError('a batch needs at least one --swap or --send');
    if (swaps > MAX_BATCH_PAIRS) {
      throw new AppError(ErrorCode.BATCH_LIMIT_EXCEEDED, `a batch holds at most ${MAX_BATCH_PAIRS} swaps (got ${swaps})`, { status: 400 });
    }
    if (sends.length > MAX_BATCH_SENDS) {
      throw new AppError(ErrorCode.BATCH_LIMIT_EXCEEDED, `a batch holds at most ${MAX_BATCH_SENDS} transfers (got ${sends.length})`, { status: 400 });
    }
  }
  return sends.map((send) => {
    if (send.amount <= 0n) throw new AppError(ErrorCode.INVALID_AMOUNT, 'the amount to send must be greater than zero', { status: 400 });
    if (findToken(input.network, send.token.address) === undefined) throw usageError(`${send.token.symbol} is not a ${input.network} registry token`);
    return { ...send, to: checkRecipient(input.network, send.to, input.router) };
  });
}

/** The plan and its calls. Checks its shape (counts, recipients); the calls are verified separately (checks.ts). */
export function buildPlan(input: PlanInput): SwapPlan {
  const account = normalizeAddress(input.account);
  const router = normalizeAddress(input.router);
  const checkedSends = checkPlanShape({ kind: input.kind, network: input.network, router, swapCount: input.swaps.length, sends: input.sends ?? [] });
  const calls: ChainCall[] = [];
  for (const swap of input.swaps) {
    calls.push(buildApproveCall(swap.confirmed.from, router, swap.confirmed.amountIn), swapCall(router, swap.calldata));
  }
  for (const send of checkedSends) calls.push(buildTransferCall(send.token, send.to, send.amount));
  return { kind: input.kind, network: input.network, sandbox: input.sandbox, account, router, swaps: input.swaps, sends: checkedSends, calls };
}

/** The plan with one swap's calldata replaced by a re-quote's (after checks.ts checkRequote accepted it). */
export function withExecuting(plan: SwapPlan, index: number, executing: SwapQuote, calldata: string[]): SwapPlan {
  const swaps = plan.swaps.map((s, i) => (i === index ? { ...s, executing, calldata } : s));
  return buildPlan({ ...plan, swaps });
}
