/**
 * Signing (docs/architecture.md "The action pipeline"): a checked plan signed and sent once —
 * re-quoted and rebuilt first when a quote went stale or the build nears its deadline, never
 * signed when what its terms depend on moved since the review (recheck.ts: PLAN_CHANGED with the
 * plan made again) — under
 * the face's caps and the retry guard, tracked to its receipt and recorded in the history, whose
 * amounts and the received figures come from the legs' effects.
 */
import { formatAmount } from '../../../shared/amount.js';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { findToken, sameAddress, type Token } from '../../../shared/tokens.js';
import type { BudgetReservation } from '../budget.js';
import type { CallOptions } from '../call.js';
import {
  type ExecutionReceipt,
  type ExpectedOutflow,
  outsideIdentity,
  type PreparedExecution,
} from '../chain/execute.js';
import { executeTracked, sponsorshipDeclined } from '../execution.js';
import { type HistoryAmount, trackTransaction } from '../history.js';
import { type AcknowledgmentId, requireAcknowledgments } from './acknowledgments.js';
import { type ActionLimits, checkLimits } from './caps.js';
import { EXPIRY_MARGIN_S, staleSwaps } from './checks.js';
import { planFingerprint, refuseUnsettledRetry } from './fingerprint.js';
import { effectsOf } from './legs/index.js';
import { requote } from './legs/swap-quote.js';
import type { ExecutionResult, ExecutionTicket, PlannedAction } from './pipeline.js';
import { finalize, planPipeline } from './plan-action.js';
import { movedSinceReview, PlanChangedError } from './recheck.js';
import type { ActionPlan } from './plan.js';

const clock = (ctx: PlannedAction['context']): number => (ctx.now ?? Date.now)();

/**
 * What an "all" outflow (repay all, close: the approve is a bound on the debt) took, from the
 * receipt: the account's transfers of that token less the fee paid in it, never above the bound.
 * Undefined when the plan has another outflow of the token (the receipt cannot split them).
 */
function paidOfAll(plan: ActionPlan, token: Token, receipt: ExecutionReceipt): bigint | undefined {
  const outs = effectsOf(plan.legs, plan).out.filter((o) =>
    sameAddress(o.token.address, token.address),
  );
  const only = outs.length === 1 ? outs[0] : undefined;
  if (only?.all !== true) return undefined;
  const sent = receipt.transfers
    .filter((t) => sameAddress(t.token, token.address) && sameAddress(t.from, plan.account))
    .reduce((sum, t) => sum + t.amount, 0n);
  const fee =
    receipt.feePaid !== null && sameAddress(receipt.feePaid.token, token.address)
      ? receipt.feePaid.amount
      : 0n;
  const paid = sent - fee;
  return paid < 0n ? 0n : paid > only.amount ? only.amount : paid;
}

/** Position changes that bring a token back to the account: its balance may rise as well as fall. */
const INFLOW_CHANGES: ReadonlySet<string> = new Set([
  'withdraw',
  'collateral-withdraw',
  'borrow',
  'exit',
  'claim',
]);

/**
 * What the plan's outflows predict for each spent token's balance (chain/outcome.ts): the exact
 * amounts, and the bound of an "all". A token the plan also brings in (a swap's output, a
 * withdrawal, a borrow, a claim) is left out: its balance moves both ways.
 */
function expectedOutflows(plan: ActionPlan): ExpectedOutflow[] {
  const effects = effectsOf(plan.legs, plan);
  const arrives = (token: Token): boolean =>
    effects.in.some((i) => sameAddress(i.token.address, token.address)) ||
    effects.positions.some(
      (p) => INFLOW_CHANGES.has(p.change) && sameAddress(p.token.address, token.address),
    );
  const expected: ExpectedOutflow[] = [];
  for (const o of effects.out) {
    if (arrives(o.token) || (o.to !== undefined && sameAddress(o.to, plan.account))) continue;
    const known = expected.find((e) => sameAddress(e.token.address, o.token.address));
    const exact = o.all === true ? 0n : o.amount;
    if (known === undefined) expected.push({ token: o.token, exact, bound: o.amount });
    else {
      known.exact += exact;
      known.bound += o.amount;
    }
  }
  return expected;
}

/**
 * The history's amounts, from the plan's effects: what leaves (sent), what arrives at least or
 * exactly. With the receipt, an "all" outflow is what it took, not its bound.
 */
function historyAmounts(plan: ActionPlan, receipt?: ExecutionReceipt): HistoryAmount[] {
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
  const effects = effectsOf(plan.legs, plan);
  return [
    ...effects.out.map((o) =>
      money(
        'out',
        o.token,
        (receipt === undefined ? undefined : paidOfAll(plan, o.token, receipt)) ?? o.amount,
        'sent',
        o.to,
      ),
    ),
    ...effects.in.map((i) => money('in', i.token, i.amount, i.basis, i.to)),
  ];
}

export interface ExecuteOptions {
  /**
   * What the face took the person's explicit acknowledgment of for this plan at confirmation
   * (the app's typed word, an elicitation): with what was acknowledged when planning, it must
   * cover every acknowledgment the plan — after any re-quote — needs (acknowledgments.ts).
   */
  acknowledged?: readonly AcknowledgmentId[] | undefined;
  /** the same as acknowledging 'high-impact' */
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

/** What identifies the signed outside execution, for settling it later; none when it cannot be read (it is still sent). */
function outsideOf(prepared: PreparedExecution): { outside?: ReturnType<typeof outsideIdentity> } {
  try {
    return { outside: outsideIdentity(prepared) };
  } catch {
    return {};
  }
}

/**
 * Signs and sends a checked plan, once. A quote older than 30 s is re-fetched first and the
 * whole plan checked, built and simulated again (the confirmed minimums and gas maximum stay
 * the bounds; gas confirmed as sponsored stays sponsored, else PLAN_CHANGED); so is a paymaster
 * build near its deadline. The transaction is recorded in the
 * history when submitted and updated from its receipt.
 */
export async function executePipeline(
  planned: PlannedAction,
  call: CallOptions = {},
  options: ExecuteOptions = {},
): Promise<ExecutionResult> {
  const { ticket } = planned;
  if (ticket.state !== 'ready') throw alreadyExecuted(ticket);
  ticket.state = 'executing';
  const ctx = planned.context;
  const track = ticketTracking(ticket, call);
  // the budget's record of this spend, made right before signing (caps.ts, ../budget.ts)
  let reservation: BudgetReservation | undefined;
  try {
    const acknowledged: AcknowledgmentId[] = [
      ...planned.acknowledged,
      ...(options.acknowledged ?? []),
      ...(options.highImpactConfirmed === true ? (['high-impact'] as const) : []),
    ];
    const current = await freshPlan(planned, acknowledged, track);
    const { plan, document } = current;
    // every acknowledgment this exact plan needs (a re-quote may have added one) was given
    requireAcknowledgments(document.acknowledgments, acknowledged);
    const chain = ctx.chain ?? (ctx.sandbox ? 'sandbox:unknown' : ctx.account.network);
    const fingerprint = planFingerprint(plan, chain);
    const value = await checkBeforeSigning(planned, current, chain, fingerprint, options, track);
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
    const receipt = await executeTracked(
      ctx.account,
      current.prepared,
      tracker,
      track,
      expectedOutflows(plan),
    );
    ticket.state = 'done';
    return await settled(current, receipt, tracker);
  } catch (error) {
    // nothing left the client: the plan may be tried again, and its spend is not counted
    if (ticket.state === 'executing') {
      ticket.state = 'ready';
      await reservation?.release().catch(() => undefined);
    }
    throw error;
  }
}

/** The call's progress, moving the ticket along: submitting, then submitted with its hash. */
function ticketTracking(ticket: ExecutionTicket, call: CallOptions): CallOptions {
  return {
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
}

/**
 * The plan as it will be signed: re-quoted when a quote went stale, and rebuilt (checked and
 * simulated again) when it was or the paymaster's build nears its deadline.
 */
async function freshPlan(
  planned: PlannedAction,
  acknowledged: AcknowledgmentId[],
  track: CallOptions,
): Promise<PlannedAction> {
  const ctx = planned.context;
  const stale = staleSwaps(planned.plan, clock(ctx));
  const expiring = planned.prepared.expiresAt - EXPIRY_MARGIN_S <= Math.floor(clock(ctx) / 1000);
  if (stale.length === 0 && !expiring) return planned;
  const plan = stale.length > 0 ? await requote(planned, stale, track) : planned.plan;
  // the fee terms confirmed stay the bounds: gas confirmed as sponsored is sponsored again or
  // not signed, a maximum stays the most it may be
  const sponsored = planned.gas.mode === 'sponsored';
  try {
    return await finalize(
      planned.request,
      plan,
      {
        mode: planned.mode,
        slippageBps: planned.slippageBps,
        acknowledged,
        askAtConfirmation: true,
        maxFee: feeCapOf(planned),
        sponsoredOnly: sponsored,
        feeCap: planned.feeCap,
      },
      ctx,
      track,
      planned.ticket,
    );
  } catch (error) {
    if (!sponsored || !sponsorshipDeclined(error)) throw error;
    // the person confirmed no fee: a plan that pays one is made again for them to review
    const replanned = await planPipeline(
      planned.request,
      {
        slippageBps: planned.slippageBps,
        acknowledged: planned.acknowledged,
        askAtConfirmation: true,
        maxFee: planned.feeCap,
      },
      ctx,
      track,
    );
    throw new PlanChangedError(replanned, [noLongerSponsored(replanned)]);
  }
}

/** The most a build again of `planned` may ask in fees: its confirmed maximum, within its own cap. */
function feeCapOf(planned: PlannedAction): bigint | undefined {
  const confirmed = planned.gas.mode === 'default' ? planned.gas.maxFee : undefined;
  const cap = planned.feeCap;
  if (confirmed === undefined) return cap;
  return cap === undefined || confirmed < cap ? confirmed : cap;
}

/** PLAN_CHANGED's words when sponsorship was declined at a build again. */
function noLongerSponsored(replanned: PlannedAction): string {
  const gas = replanned.gas;
  return gas.mode === 'default'
    ? `the gas is no longer sponsored: the plan made again pays at most ${formatAmount(gas.maxFee, gas.token.decimals)} ${gas.token.symbol} for it`
    : 'the paymaster declined to sponsor the gas when the plan was built again';
}

/**
 * The checks before signing, in one round: still true? (what the terms depend on, read again:
 * recheck.ts), the caps' valuation, and the retry guard's question to the chain. The retry
 * guard's refusal first (the same plan may have been sent: re-reading what it changed says
 * nothing of that), then the caps', then the re-read's own; where something moved, the plan is
 * made again from the same request for the person to review (PLAN_CHANGED), nothing signed.
 * Returns the caps' value of the plan.
 */
async function checkBeforeSigning(
  planned: PlannedAction,
  current: PlannedAction,
  chain: string,
  fingerprint: string,
  options: ExecuteOptions,
  track: CallOptions,
): Promise<Awaited<ReturnType<typeof checkLimits>>> {
  const ctx = planned.context;
  const [retry, limits, recheck] = await Promise.allSettled([
    refuseUnsettledRetry(ctx, chain, fingerprint, track),
    checkLimits(current.plan, options.limits, ctx.aggregator, track, current.gas),
    movedSinceReview(current, track),
  ]);
  if (retry.status === 'rejected') throw retry.reason;
  if (limits.status === 'rejected') throw limits.reason;
  if (recheck.status === 'rejected') throw recheck.reason;
  const moved = recheck.value;
  if (moved.length > 0) {
    const replanned = await planPipeline(
      planned.request,
      {
        slippageBps: current.slippageBps,
        acknowledged: planned.acknowledged,
        askAtConfirmation: true,
        maxFee: feeCapOf(current),
      },
      ctx,
      track,
    );
    throw new PlanChangedError(replanned, moved);
  }
  return limits.value;
}

/** A fee paid, in its token's words; none when the receipt names no fee or an unknown token. */
function feeWords(
  current: PlannedAction,
  receipt: ExecutionReceipt,
): { symbol: string; amount: string; baseUnits: string } | undefined {
  const fee = receipt.feePaid;
  const feeToken = fee === null ? undefined : findToken(current.context.account.network, fee.token);
  if (fee === null || feeToken === undefined) return undefined;
  return {
    symbol: feeToken.symbol,
    amount: formatAmount(fee.amount, feeToken.decimals),
    baseUnits: fee.amount.toString(),
  };
}

/**
 * The executed plan: its history entry settled from the receipt (what an "all" took, what
 * arrived, the fee) and the result every face shows.
 */
async function settled(
  current: PlannedAction,
  receipt: ExecutionReceipt,
  tracker: ReturnType<typeof trackTransaction>,
): Promise<ExecutionResult> {
  const { plan, document } = current;
  const received = receivedAmounts(plan, receipt);
  const fee = feeWords(current, receipt);
  await tracker.settled(receipt.transactionHash, {
    status: 'succeeded',
    amounts: [
      ...historyAmounts(plan, receipt).filter((a) => a.direction === 'out'),
      ...received.map((r) => ({
        direction: 'in' as const,
        symbol: r.symbol,
        address: r.address,
        amount: r.amount,
        baseUnits: r.baseUnits,
        basis: 'received' as const,
      })),
    ],
    ...(fee === undefined ? {} : { fee }),
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
      feePaid: fee === undefined ? null : { ...fee },
      deployedAccount: receipt.deployed,
      ...(tracker.warnings.length > 0 ? { historyWarning: tracker.warnings.join('; ') } : {}),
    },
  };
}

/** Per token arriving at the account (the plan's `in` effects): what the receipt's transfers brought, against the sum of confirmed minimums. */
function receivedAmounts(
  plan: ActionPlan,
  receipt: ExecutionReceipt,
): ExecutionResult['transaction']['received'] {
  const arriving = effectsOf(plan.legs, plan).in.filter(
    (e) => e.to === undefined || sameAddress(e.to, plan.account),
  );
  const outputs: Token[] = [];
  for (const e of arriving)
    if (!outputs.some((t) => sameAddress(t.address, e.token.address))) outputs.push(e.token);
  return outputs.map((token) => {
    const amount = receipt.transfers
      .filter(
        (t) =>
          sameAddress(t.token, token.address) &&
          sameAddress(t.to, plan.account) &&
          !sameAddress(t.from, plan.account),
      )
      .reduce((sum, t) => sum + t.amount, 0n);
    const minimum = arriving
      .filter((e) => sameAddress(e.token.address, token.address))
      .reduce((sum, e) => sum + e.amount, 0n);
    return {
      symbol: token.symbol,
      address: token.address,
      amount: formatAmount(amount, token.decimals),
      baseUnits: amount.toString(),
      minimum: { amount: formatAmount(minimum, token.decimals), baseUnits: minimum.toString() },
    };
  });
}
