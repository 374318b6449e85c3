/**
 * Spending caps (docs/architecture.md "The action pipeline"): limits a face sets once for every
 * plan it executes — the tool server's `--max-usd` and `--allow-token` — checked by the pipeline
 * right before signing, on exactly the plan that would be signed (after any re-quote). A plan
 * whose value cannot be known is refused, never waved through (fail closed).
 *
 * What counts: every `out` effect of the plan's legs (legs/: what leaves the account, whatever
 * the leg — a swap's input, a transfer, a stake), valued by value.ts from what a route itself
 * exchanges (a stablecoin at face value; a swap's own route when it goes into a stablecoin; else
 * a route into USDC), the aggregator's USD price field checked against it (docs/checks.md "What
 * the caps trust"). An outflow that cannot be valued refuses the plan under a cap. Gas is bounded
 * by the plan's maximum fee, not by the cap. Every token the plan's effects name — out, in, or a
 * position — must be allowed. Every third party a leg pays must be on the recipient list when one
 * is set (recipients.ts). A rolling budget (../budget.ts) is checked here at the same value, and
 * the pipeline reserves that value right before signing.
 */
import { formatAmount } from '../../../shared/amount.js';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { sameAddress, type Token } from '../../../shared/tokens.js';
import type { AggregatorClient } from '../../clients/aggregator.js';
import type { SpendBudget } from '../budget.js';
import type { CallOptions } from '../call.js';
import type { GasQuote } from './checks.js';
import { effectsOf } from './legs/index.js';
import type { OutEffect } from './legs/types.js';
import type { ActionPlan } from './plan.js';
import { type Outflow, valueOutflows } from './value.js';
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

/** Every token the plan's effects name (out, in, positions), and the token its gas is paid in, once each. */
function movedTokens(plan: ActionPlan, gas: GasQuote | undefined): Token[] {
  const tokens: Token[] = [];
  const add = (t: Token): void => {
    if (!tokens.some((x) => sameAddress(x.address, t.address))) tokens.push(t);
  };
  const effects = effectsOf(plan.legs, plan);
  for (const e of [...effects.out, ...effects.in, ...effects.positions]) add(e.token);
  // the fee leaves the account too
  if (gas?.mode === 'default') add(gas.token);
  return tokens;
}

/** Pure: refuses a plan that moves a token (its gas's included) outside `allowTokens`. */
function checkAllowedTokens(
  plan: ActionPlan,
  allowTokens: readonly string[] | undefined,
  gas: GasQuote | undefined,
): void {
  if (allowTokens === undefined) return;
  const refused = movedTokens(plan, gas).filter(
    (t) => !allowTokens.some((a) => sameAddress(a, t.address)),
  );
  if (refused.length === 0) return;
  throw new AppError(
    ErrorCode.TOKEN_NOT_ALLOWED,
    `nothing was signed: this plan moves ${refused.map((t) => t.symbol).join(', ')}, which the server's list of allowed tokens does not include`,
    { details: { tokens: refused.map((t) => t.symbol) } },
  );
}

/** The legs' `out` effects as the valuation reads them (a swap's own route with it). */
const outflowsOf = (outs: readonly OutEffect[]): Outflow[] =>
  outs.map((out) => ({
    token: out.token,
    amount: out.amount,
    ...(out.route === undefined
      ? {}
      : {
          quote: {
            to: out.route.to,
            grossOutput: out.route.grossOutput,
            inputPrice: out.quotedPrice,
          },
        }),
  }));

/**
 * What the plan takes from the account (its legs' `out` effects) and the debt it takes on (a
 * borrow's amount: nothing leaves, but the account now owes it and its collateral can be
 * liquidated — docs/decisions.md "Caps count a borrow"), as the valuation (value.ts) reads it.
 */
export function planOutflows(plan: ActionPlan): Outflow[] {
  const effects = effectsOf(plan.legs, plan);
  const borrowed = effects.positions
    .filter((p) => p.kind === 'lending' && p.change === 'borrow' && p.amount > 0n)
    .map((p) => ({ token: p.token, amount: p.amount }));
  return [...outflowsOf(effects.out), ...borrowed];
}

/** The plan's outgoing value in cents (value.ts valueOutflows: refuses what it cannot value). */
export async function outgoingUsdCents(
  plan: ActionPlan,
  aggregator: AggregatorClient,
  call: CallOptions = {},
): Promise<bigint> {
  return (await valueOutflows(planOutflows(plan), aggregator, call, plan.oracle ?? [])).cents;
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
  /** how the plan's gas is paid: a fee in a token moves that token */
  gas?: GasQuote,
): Promise<bigint | undefined> {
  if (limits === undefined) return undefined;
  checkAllowedTokens(plan, limits.allowTokens, gas);
  checkRecipients(plan, limits.allowRecipients);
  if (limits.maxUsdCents === undefined && limits.budget === undefined) return undefined;
  const cap =
    limits.maxUsdCents === undefined
      ? `the ${dollars(limits.budget?.limitCents ?? 0n)} budget`
      : `the ${dollars(limits.maxUsdCents)} cap`;
  const maxUsd =
    limits.maxUsdCents === undefined ? {} : { maxUsd: formatAmount(limits.maxUsdCents, 2) };
  const cents = await outgoingUsdCents(plan, aggregator, call).catch((error: unknown) => {
    if (!(error instanceof AppError) || error.code !== ErrorCode.LIMIT_EXCEEDED) throw error;
    throw new AppError(ErrorCode.LIMIT_EXCEEDED, `${error.message}: ${cap} cannot be checked`, {
      details: { ...error.details, ...maxUsd },
    });
  });
  if (limits.maxUsdCents !== undefined && cents > limits.maxUsdCents) {
    throw new AppError(
      ErrorCode.LIMIT_EXCEEDED,
      `nothing was signed: this plan moves about ${dollars(cents)}, above the server's cap of ${dollars(limits.maxUsdCents)}; plan a smaller amount`,
      { details: { valueUsd: formatAmount(cents, 2), ...maxUsd } },
    );
  }
  await limits.budget?.check(cents);
  return cents;
}
