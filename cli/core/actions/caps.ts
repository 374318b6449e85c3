/**
 * Spending caps (docs/architecture.md "The action pipeline"): limits a face sets once for every
 * plan it executes — the tool server's `--max-usd` and `--allow-token` — checked by the pipeline
 * right before signing, on exactly the plan that would be signed (after any re-quote). A plan
 * whose value cannot be known is refused, never waved through (fail closed).
 *
 * What counts: every amount the plan's swaps and transfers take from the account, valued at the
 * aggregator's USD price (a swap's own quote; a transfer's token priced on a route into USDC,
 * portfolio.ts usdPriceOf). Gas is bounded by the plan's maximum fee, not by the cap. Every token
 * a swap or a transfer moves, in or out, must be allowed. Every third party a leg pays must be on
 * the recipient list when one is set (recipients.ts). A rolling budget (../budget.ts) is checked
 * here at the same value, and the pipeline reserves that value right before signing.
 */
import { formatAmount } from '../../../shared/amount.js';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { usdCentsAt } from '../../../shared/fees.js';
import { sameAddress, type Token } from '../../../shared/tokens.js';
import type { AggregatorClient } from '../../clients/aggregator.js';
import type { SpendBudget } from '../budget.js';
import type { CallOptions } from '../call.js';
import { usdPriceOf } from '../portfolio.js';
import type { ActionPlan } from './plan.js';
import { checkRecipients } from './recipients.js';

export interface ActionLimits {
  /** refuse a plan whose outgoing value is above this many US cents */
  maxUsdCents?: bigint | undefined;
  /** only these tokens (registry addresses) may be moved; undefined: any registry token */
  allowTokens?: readonly string[] | undefined;
  /** only these third parties may be paid; undefined: any recipient the rules allow */
  allowRecipients?: readonly string[] | undefined;
  /** the rolling budget the plan's value is counted against (reserved before signing) */
  budget?: SpendBudget | undefined;
}

const dollars = (cents: bigint): string => `$${formatAmount(cents, 2)}`;

/** Every token the plan moves (swap inputs and outputs, transfers), once each. */
function movedTokens(plan: ActionPlan): Token[] {
  const tokens: Token[] = [];
  const add = (t: Token): void => {
    if (!tokens.some((x) => sameAddress(x.address, t.address))) tokens.push(t);
  };
  for (const s of plan.swaps) {
    add(s.confirmed.from);
    add(s.confirmed.to);
  }
  for (const s of plan.sends) add(s.token);
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

/** The plan's outgoing value in cents, undefined when an amount cannot be priced. */
export async function outgoingUsdCents(
  plan: ActionPlan,
  aggregator: AggregatorClient,
  call: CallOptions = {},
): Promise<{ cents: bigint | undefined; unpriced: string[] }> {
  const values = await Promise.all([
    ...plan.swaps.map(async (s) => ({
      token: s.executing.from,
      cents: usdCentsAt(s.executing.amountIn, s.executing.from.decimals, s.executing.inputPrice),
    })),
    ...plan.sends.map(async (s) => ({
      token: s.token,
      cents: usdCentsAt(
        s.amount,
        s.token.decimals,
        await usdPriceOf(aggregator, plan.network, s.token.address, s.amount, call),
      ),
    })),
  ]);
  const unpriced = values.filter((v) => v.cents === undefined).map((v) => v.token.symbol);
  return {
    cents: unpriced.length > 0 ? undefined : values.reduce((sum, v) => sum + (v.cents ?? 0n), 0n),
    unpriced,
  };
}

/**
 * Refuses (before signing) a plan over the caps; with no caps set it asks nothing. Returns the
 * plan's value in US cents when a cap needed it (the value a budget counts), else undefined.
 */
export async function checkLimits(
  plan: ActionPlan,
  limits: ActionLimits | undefined,
  aggregator: AggregatorClient,
  call: CallOptions = {},
): Promise<bigint | undefined> {
  if (limits === undefined) return undefined;
  checkAllowedTokens(plan, limits.allowTokens);
  checkRecipients(plan, limits.allowRecipients);
  if (limits.maxUsdCents === undefined && limits.budget === undefined) return undefined;
  const { cents, unpriced } = await outgoingUsdCents(plan, aggregator, call);
  const cap =
    limits.maxUsdCents === undefined
      ? `the ${dollars(limits.budget?.limitCents ?? 0n)} budget`
      : `the ${dollars(limits.maxUsdCents)} cap`;
  if (cents === undefined) {
    throw new AppError(
      ErrorCode.LIMIT_EXCEEDED,
      `nothing was signed: the aggregator has no USD price for ${unpriced.join(', ')}, so ${cap} cannot be checked`,
      {
        details: {
          ...(limits.maxUsdCents === undefined
            ? {}
            : { maxUsd: formatAmount(limits.maxUsdCents, 2) }),
          unpriced,
        },
      },
    );
  }
  if (limits.maxUsdCents !== undefined && cents > limits.maxUsdCents) {
    throw new AppError(
      ErrorCode.LIMIT_EXCEEDED,
      `nothing was signed: this plan moves about ${dollars(cents)}, above the server's cap of ${dollars(limits.maxUsdCents)} (--max-usd); plan a smaller amount`,
      {
        details: { valueUsd: formatAmount(cents, 2), maxUsd: formatAmount(limits.maxUsdCents, 2) },
      },
    );
  }
  await limits.budget?.check(cents);
  return cents;
}
