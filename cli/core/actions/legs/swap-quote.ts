/**
 * The swap leg's reads before planning: its quotes (docs/architecture.md "The action pipeline").
 * One pair asks for the route it shows and the calldata at once; pairs with one output token ask
 * one route batch and one calldata batch; a re-quote keeps the confirmed quote as what was shown
 * and fetches only the calldata, and must still guarantee the confirmed minimum.
 */
import type { Route } from '../../../clients/aggregator.js';
import type { CallOptions } from '../../call.js';
import type { ActionEvent } from '../../events.js';
import { checkRequote, priceMovedInBatch } from '../checks.js';
import type { ActionContext, PlannedAction, QuoteMode } from '../pipeline.js';
import { type ActionPlan, withExecuting } from '../plan.js';
import type { ResolvedPair } from '../rules.js';
import { type PlannedSwap, type SwapLeg, type SwapQuote, toSwapQuote } from './swap.js';
import type { LegSource } from './types.js';

/** A swap as a request names it: the pair and the exact amount sold; its quote is read next. */
export interface SwapSpec {
  type: 'swap';
  pair: ResolvedPair;
}

const clock = (ctx: ActionContext): number => (ctx.now ?? Date.now)();
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

/** Re-quotes the stale swaps; each must still guarantee its confirmed minimum (else QUOTE_CHANGED). */
export async function requote(
  planned: Pick<PlannedAction, 'plan' | 'mode' | 'slippageBps' | 'context'>,
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

/** A swap spends what it sells; its read is its quote, every swap of the plan at once (`mode`). */
export const swapSource: LegSource<SwapSpec, SwapLeg> = {
  spends: ({ pair }) => [pair.from],
  names: ({ pair }) => [pair.from, pair.to],
  read: async (specs, { mode, slippageBps, ctx, call }) =>
    (
      await quoteSwaps(
        specs.map((s) => s.pair),
        mode,
        slippageBps,
        ctx,
        call,
      )
    ).map((swap) => ({ type: 'swap' as const, swap })),
};
