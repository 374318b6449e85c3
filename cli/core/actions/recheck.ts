/**
 * A plan is signed only while it is still true (docs/architecture.md "Still true when signed"):
 * right before signing, what the plan's chain-read legs (staking, lending) depend on — a debt
 * with its interest, unclaimed rewards, an exit, a position — is read again with the same reads
 * as planning, in the round of the execution's own checks before signing (execute.ts), and each
 * leg type says whether it moved (LegType.moved). When it did, the plan is made again from the
 * same request and nothing is signed: PLAN_CHANGED carries the new plan for the face to show and
 * confirm. Plans of swaps and transfers alone read nothing here (a stale quote is re-quoted).
 */
import { AppError, ErrorCode } from '../../../shared/errors.js';
import type { CallOptions } from '../call.js';
import { legsMoved } from './legs/index.js';
import { isReread, readLegs, rereadOracleTokens, rereadSpecs } from './legs/reads.js';
import type { PlannedAction } from './pipeline.js';
import { legsOf } from './resolve.js';
import { readOraclePrices } from '../oracle.js';

/**
 * What moved since `planned` was reviewed, in words (empty: it is still true). The same reads as
 * planning, in parallel: one round, and none for a plan without staking or lending legs.
 */
export async function movedSinceReview(
  planned: PlannedAction,
  call: CallOptions,
): Promise<string[]> {
  const { plan, context: ctx } = planned;
  const legs = legsOf(planned.request, {
    network: plan.network,
    account: plan.account,
    router: plan.router,
  });
  const specs = rereadSpecs(legs.specs);
  if (specs.length === 0) return [];
  // a position's pool prices are held against Pragma's again, read in the same round
  const priced = rereadOracleTokens(specs);
  const oracle =
    priced.length === 0
      ? undefined
      : readOraclePrices(ctx.account, priced, { signal: call.signal, now: ctx.now });
  // awaited by the legs that hold prices against it; never an unhandled rejection
  oracle?.catch(() => undefined);
  const now = await readLegs(specs, {
    ctx,
    call,
    mode: legs.mode,
    slippageBps: planned.slippageBps,
    oracle,
  });
  const reviewed = plan.legs.filter((leg) => isReread(leg.type));
  return legsMoved(reviewed, now, plan);
}

/**
 * PLAN_CHANGED: nothing was signed; `replanned` is the plan made again (a face shows it and asks
 * again; the tool server keeps it under a new id). details: the new plan document and what moved.
 */
export class PlanChangedError extends AppError {
  readonly replanned: PlannedAction;
  readonly changes: readonly string[];

  constructor(replanned: PlannedAction, changes: readonly string[]) {
    super(
      ErrorCode.PLAN_CHANGED,
      `nothing was signed: the plan changed since it was reviewed — ${changes.join('; ')}. Review the new plan: ${replanned.document.headline}`.slice(
        0,
        2_000,
      ),
      { details: { changes: [...changes], plan: replanned.document, remedy: ['confirm'] } },
    );
    this.name = 'PlanChangedError';
    this.replanned = replanned;
    this.changes = changes;
  }
}

export const isPlanChanged = (error: unknown): error is PlanChangedError =>
  error instanceof PlanChangedError;
