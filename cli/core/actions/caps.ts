/**
 * Spending caps (docs/architecture.md "The action pipeline"): limits a face sets once for every
 * plan it executes — the tool server's `--max-usd` and `--allow-token` — checked by the pipeline
 * right before signing, on exactly the plan that would be signed (after any re-quote). A plan
 * whose value cannot be known is refused, never waved through (fail closed).
 *
 * What counts: every `out` effect of the plan's legs (legs/: what leaves the account, whatever
 * the leg — a swap's input, a transfer, a stake), each valued by one function, usdCentsOfOut
 * (the price quoted with the leg, else the token priced on a route into USDC, portfolio.ts
 * usdPriceOf). An outflow that cannot be valued refuses the plan under a cap. Gas is bounded by
 * the plan's maximum fee, not by the cap. Every token the plan's effects name — out, in, or a
 * position — must be allowed.
 */
import { formatAmount } from '../../../shared/amount.js';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { usdCentsAt } from '../../../shared/fees.js';
import { type Network, sameAddress, type Token } from '../../../shared/tokens.js';
import type { AggregatorClient } from '../../clients/aggregator.js';
import type { CallOptions } from '../call.js';
import { usdPriceOf } from '../portfolio.js';
import { effectsOf, type OutEffect } from './legs/index.js';
import type { ActionPlan } from './plan.js';

export interface ActionLimits {
  /** refuse a plan whose outgoing value is above this many US cents */
  maxUsdCents?: bigint | undefined;
  /** only these tokens (registry addresses) may be moved; undefined: any registry token */
  allowTokens?: readonly string[] | undefined;
}

const dollars = (cents: bigint): string => `$${formatAmount(cents, 2)}`;

/** Every token the plan's effects name (out, in, positions), once each. */
function movedTokens(plan: ActionPlan): Token[] {
  const tokens: Token[] = [];
  const add = (t: Token): void => {
    if (!tokens.some((x) => sameAddress(x.address, t.address))) tokens.push(t);
  };
  const effects = effectsOf(plan.legs, plan);
  for (const e of [...effects.out, ...effects.in, ...effects.positions]) add(e.token);
  return tokens;
}

/** Pure: refuses a plan that moves a token outside `allowTokens`. */
export function checkAllowedTokens(
  plan: ActionPlan,
  allowTokens: readonly string[] | undefined,
): void {
  if (allowTokens === undefined) return;
  const refused = movedTokens(plan).filter(
    (t) => !allowTokens.some((a) => sameAddress(a, t.address)),
  );
  if (refused.length === 0) return;
  throw new AppError(
    ErrorCode.TOKEN_NOT_ALLOWED,
    `nothing was signed: this plan moves ${refused.map((t) => t.symbol).join(', ')}, which the server's --allow-token list does not include`,
    { details: { tokens: refused.map((t) => t.symbol) } },
  );
}

/**
 * One outflow in US cents, undefined when it cannot be priced: the price quoted with its leg (a
 * swap's route), else the token's price on a route into USDC. The one place a cap prices a token.
 */
export async function usdCentsOfOut(
  out: OutEffect,
  network: Network,
  aggregator: AggregatorClient,
  call: CallOptions = {},
): Promise<bigint | undefined> {
  const price =
    out.quotedPrice !== undefined
      ? out.quotedPrice
      : await usdPriceOf(aggregator, network, out.token.address, out.amount, call);
  return usdCentsAt(out.amount, out.token.decimals, price);
}

/** The plan's outgoing value in cents (its `out` effects), undefined when an amount cannot be priced. */
export async function outgoingUsdCents(
  plan: ActionPlan,
  aggregator: AggregatorClient,
  call: CallOptions = {},
): Promise<{ cents: bigint | undefined; unpriced: string[] }> {
  const values = await Promise.all(
    effectsOf(plan.legs, plan).out.map(async (out) => ({
      token: out.token,
      cents: await usdCentsOfOut(out, plan.network, aggregator, call),
    })),
  );
  const unpriced = values.filter((v) => v.cents === undefined).map((v) => v.token.symbol);
  return {
    cents: unpriced.length > 0 ? undefined : values.reduce((sum, v) => sum + (v.cents ?? 0n), 0n),
    unpriced,
  };
}

/** Refuses (before signing) a plan over the caps; with no caps set it asks nothing. */
export async function checkLimits(
  plan: ActionPlan,
  limits: ActionLimits | undefined,
  aggregator: AggregatorClient,
  call: CallOptions = {},
): Promise<void> {
  if (limits === undefined) return;
  checkAllowedTokens(plan, limits.allowTokens);
  if (limits.maxUsdCents === undefined) return;
  const { cents, unpriced } = await outgoingUsdCents(plan, aggregator, call);
  if (cents === undefined) {
    throw new AppError(
      ErrorCode.LIMIT_EXCEEDED,
      `nothing was signed: the aggregator has no USD price for ${unpriced.join(', ')}, so the ${dollars(limits.maxUsdCents)} cap cannot be checked`,
      { details: { maxUsd: formatAmount(limits.maxUsdCents, 2), unpriced } },
    );
  }
  if (cents > limits.maxUsdCents) {
    throw new AppError(
      ErrorCode.LIMIT_EXCEEDED,
      `nothing was signed: this plan moves about ${dollars(cents)}, above the server's cap of ${dollars(limits.maxUsdCents)} (--max-usd); plan a smaller amount`,
      {
        details: { valueUsd: formatAmount(cents, 2), maxUsd: formatAmount(limits.maxUsdCents, 2) },
      },
    );
  }
}
