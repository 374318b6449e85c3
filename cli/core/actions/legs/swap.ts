/**
 * The `swap` leg type: one aggregator route, signed as `approve(router, exactly amount_in)` on
 * its input token directly followed by the router's `swap` (the aggregator's calldata verbatim).
 * Each approve sits directly before its own swap because ERC-20 `approve` SETS the allowance: two
 * swaps from the same token as approve1, swap1, approve2, swap2 give the router exactly amount1,
 * then exactly amount2, and nothing is left approved afterwards.
 *
 * Its reads before planning are the quotes (legs/swap-quote.ts). Its effects: the input amount
 * leaves exactly; the confirmed minimum arrives at least.
 *
 * The minimum-received rule, precisely. The user confirmed S = the shown minimum
 * (guaranteedMinimum in shared/fees.ts, net of the service fee). The router enforces the
 * calldata's min_received c, and it is not documented whether it checks c before or after it
 * takes its fee. In the worst order (check, then fee) what arrives is at least
 * c − ceil(c × fee / 10000). So a swap call is accepted only when
 *
 *     c − ceil(c × fee / 10000) ≥ S
 *
 * with `fee` the larger of the executing route's fee and the fee the calldata's own swap list
 * implies (15 bps unless every swap goes straight from the input to the output token): under
 * either order, what the router lets through is at least what the user was shown. For honest
 * calldata of the confirmed quote (c = calldataMinimumReceived) this holds by construction.
 */
import { AppError, ErrorCode } from '../../../../shared/errors.js';
import {
  applyServiceFee,
  DIRECT_FEE_BPS,
  formatBpsAsPercent,
  ROUTED_FEE_BPS,
} from '../../../../shared/fees.js';
import { type CalldataTail, decodeSwapCalldata } from '../../../../shared/swap-calldata.js';
import {
  addressToBigInt,
  type Network,
  sameAddress,
  type Token,
} from '../../../../shared/tokens.js';
import type { Route } from '../../../clients/aggregator.js';
import {
  PRICE_IMPACT_VERY_HIGH_BPS,
  priceImpactWarning,
  type QuoteSummary,
  summarizeQuote,
} from '../../quote-summary.js';
import type { Acknowledgment } from '../acknowledgments.js';
import { SLIPPAGE_CONFIRM_BPS, slippageLevel } from '../rules.js';
import { buildApproveCall, type ChainCall } from '../../chain/calls.js';
import { decodeAddressAmount, swapCall } from '../calls.js';
import type { LegPlan, LegType } from './types.js';
import { describeCall, exact, legAmount, said, shortAddress } from './words.js';
import { oracleAcknowledgment } from '../oracle-rules.js';

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

export interface SwapLeg {
  type: 'swap';
  swap: PlannedSwap;
}

export const swapLabel = (i: number, q: SwapQuote): string =>
  `swap ${i + 1} (${exact(q.amountIn, q.from)} → ${q.to.symbol})`;

function refuse(code: ErrorCode, message: string, details: Record<string, unknown>): never {
  throw new AppError(code, message, { details });
}

/** The worst case that arrives when the router enforces `minReceived` and then takes `feeBps`. */
export function worstCaseArrival(minReceived: bigint, feeBps: number): bigint {
  return applyServiceFee(minReceived, feeBps).net;
}

/** The service fee the calldata's swap list implies: direct only when every swap is input → output. */
function calldataFeeBps(
  swaps: ReadonlyArray<{ tokenIn: bigint; tokenOut: bigint }>,
  tail: CalldataTail,
): number {
  const direct = swaps.every((s) => s.tokenIn === tail.tokenIn && s.tokenOut === tail.tokenOut);
  return direct ? DIRECT_FEE_BPS : ROUTED_FEE_BPS;
}

function checkApprove(
  call: ChainCall | undefined,
  swap: PlannedSwap,
  i: number,
  at: number,
  router: string,
): void {
  const q = swap.confirmed;
  const fail = (field: string, why: string): never =>
    refuse(ErrorCode.APPROVAL_MISMATCH, `${swapLabel(i, q)}: ${why}; refusing to sign`, {
      field,
      swap: i + 1,
      call: at + 1,
    });
  if (call === undefined || call.entrypoint !== 'approve')
    return fail('missing', `call ${at + 1} must be the approve of ${q.from.symbol} for this swap`);
  if (!sameAddress(call.contractAddress, q.from.address))
    return fail('token', `the approve is on ${call.contractAddress}, not on ${q.from.symbol}`);
  const args = decodeAddressAmount(call.calldata);
  if (args === undefined) return fail('calldata', 'the approve is not (spender, u256 amount)');
  if (args.address !== addressToBigInt(router))
    return fail(
      'spender',
      `the approve names spender 0x${args.address.toString(16)}, not the router ${router}`,
    );
  if (args.amount !== q.amountIn) {
    const more = args.amount > q.amountIn;
    return fail(
      'amount',
      `the approve is for ${exact(args.amount, q.from)}, ${more ? 'more' : 'less'} than the ${exact(q.amountIn, q.from)} the swap spends`,
    );
  }
}

function checkSwap(
  call: ChainCall | undefined,
  swap: PlannedSwap,
  i: number,
  at: number,
  plan: LegPlan,
): void {
  const q = swap.confirmed;
  const fail = (field: string, why: string, extra: Record<string, unknown> = {}): never =>
    refuse(ErrorCode.CALLDATA_MISMATCH, `${swapLabel(i, q)}: ${why}; refusing to sign`, {
      field,
      swap: i + 1,
      call: at + 1,
      ...extra,
    });
  if (call === undefined || call.entrypoint !== 'swap')
    return fail('entrypoint', `call ${at + 1} must be the router's swap`);
  if (!sameAddress(call.contractAddress, plan.router))
    return fail('router', `the swap calls ${call.contractAddress}, not the router ${plan.router}`);
  let decoded: ReturnType<typeof decodeSwapCalldata>;
  try {
    decoded = decodeSwapCalldata(call.calldata);
  } catch (error) {
    return fail(
      'layout',
      `the calldata is not in the router layout (${error instanceof Error ? error.message : 'undecodable'})`,
    );
  }
  const { tail, swaps } = decoded;
  if (swaps.length === 0) return fail('layout', 'the calldata holds no swap');
  if (tail.tokenIn !== addressToBigInt(q.from.address))
    return fail(
      'token_in',
      `the calldata swaps 0x${tail.tokenIn.toString(16)}, not ${q.from.symbol}`,
    );
  if (tail.tokenOut !== addressToBigInt(q.to.address))
    return fail(
      'token_out',
      `the calldata swaps to 0x${tail.tokenOut.toString(16)}, not ${q.to.symbol}`,
    );
  if (tail.amountIn !== q.amountIn)
    return fail(
      'amount_in',
      `the calldata spends ${exact(tail.amountIn, q.from)}, not the confirmed ${exact(q.amountIn, q.from)}`,
    );
  if (tail.destination !== addressToBigInt(plan.account)) {
    return fail(
      'destination',
      `the calldata sends the output to 0x${tail.destination.toString(16)}, not to your account ${plan.account}`,
    );
  }
  const feeBps = Math.max(swap.executing.feeBps, calldataFeeBps(swaps, tail));
  const arrives = worstCaseArrival(tail.minReceived, feeBps);
  if (arrives < q.minimumReceived) {
    return fail(
      'min_received',
      `the calldata guarantees ${exact(arrives, q.to)} after a ${formatBpsAsPercent(feeBps)} fee (min_received ${tail.minReceived}), less than the confirmed minimum ${exact(q.minimumReceived, q.to)}`,
      {
        minReceived: tail.minReceived.toString(),
        guaranteed: arrives.toString(),
        confirmedMinimum: q.minimumReceived.toString(),
        feeBps,
      },
    );
  }
}

/** A price impact above 15 % or a slippage above 15 % needs the person's explicit acknowledgment. */
function swapAcknowledgments(swap: PlannedSwap, index: number): Acknowledgment[] {
  const q = swap.executing;
  const acks: Acknowledgment[] = [];
  if (priceImpactWarning(q.priceImpactBps) === 'very-high') {
    const percent = formatBpsAsPercent(q.priceImpactBps as number);
    acks.push({
      id: 'high-impact',
      reason: `${swapLabel(index, q)}: price impact ${percent} is above ${formatBpsAsPercent(PRICE_IMPACT_VERY_HIGH_BPS)}`,
      details: {
        swap: index + 1,
        bps: q.priceImpactBps,
        percent,
        limitBps: PRICE_IMPACT_VERY_HIGH_BPS,
      },
    });
  }
  if (slippageLevel(swap.confirmed.slippageBps) === 'very-high')
    acks.push({
      id: 'high-slippage',
      reason: `slippage ${formatBpsAsPercent(swap.confirmed.slippageBps)} is above ${formatBpsAsPercent(SLIPPAGE_CONFIRM_BPS)}: the swap may return that much less than quoted`,
      details: { bps: swap.confirmed.slippageBps, limitBps: SLIPPAGE_CONFIRM_BPS },
    });
  return acks;
}

export const swapLegType: LegType<SwapLeg> = {
  calls: ({ swap }, plan) => [
    buildApproveCall(swap.confirmed.from, plan.router, swap.confirmed.amountIn),
    swapCall(plan.router, swap.calldata),
  ],
  // an approve of exactly its amount to the router on its input token, directly followed by the
  // router's swap whose calldata tail names the confirmed tokens, amount, the user's own account
  // and an acceptable min_received
  verify: ({ swap }, calls, at, index, plan) => {
    checkApprove(calls[at], swap, index, at, plan.router);
    checkSwap(calls[at + 1], swap, index, at + 1, plan);
    return 2;
  },
  effects: ({ swap }) => ({
    out: [
      {
        token: swap.confirmed.from,
        amount: swap.confirmed.amountIn,
        quotedPrice: swap.executing.inputPrice,
        // what the route itself exchanges: the caps value the outflow by it (value.ts)
        route: { to: swap.executing.to, grossOutput: swap.executing.grossOutput },
      },
    ],
    in: [{ token: swap.confirmed.to, amount: swap.confirmed.minimumReceived, basis: 'minimum' }],
    positions: [],
  }),
  acknowledgments: ({ swap }, plan, index) => {
    const oracle = oracleAcknowledgment(swap.executing, index, plan.oracle);
    return [...swapAcknowledgments(swap, index), ...(oracle === undefined ? [] : [oracle])];
  },
  // the output token: the minimum moves with the quote, the token does not
  identity: ({ swap }) => [swap.confirmed.to.address],
  describe: ({ swap }, plan) => ({
    type: 'swap',
    sell: legAmount(swap.confirmed.amountIn, swap.confirmed.from),
    minimum: legAmount(swap.confirmed.minimumReceived, swap.confirmed.to),
    expected: legAmount(swap.executing.expectedOutput, swap.executing.to),
    slippageBps: swap.confirmed.slippageBps,
    router: plan.router,
  }),
  headline: (legs) => {
    const parts = legs.map(
      ({ swap: s }) =>
        `${said(s.confirmed.amountIn, s.confirmed.from)} → at least ${said(s.confirmed.minimumReceived, s.confirmed.to)}`,
    );
    return parts.length === 0 ? [] : [`swap ${parts.join(', ')}`];
  },
  // a swap's terms are its quote: a stale one is re-quoted and held to the confirmed minimum
  // before signing (execute.ts, checks.ts); nothing the chain holds moves them
  moved: () => [],
  describeCalls: ({ swap }, calls, plan) => {
    const q = swap.executing;
    const [approve, swapped] = calls;
    return [
      approve === undefined ? '' : describeCall(approve, plan),
      swapped !== undefined && swapped.entrypoint === 'swap'
        ? `swap ${said(q.amountIn, q.from)} for at least ${said(swap.confirmed.minimumReceived, q.to)} (expected ${said(q.expectedOutput, q.to)}) to your account, on the router ${shortAddress(plan.router)}`
        : swapped === undefined
          ? ''
          : describeCall(swapped, plan),
    ];
  },
};
