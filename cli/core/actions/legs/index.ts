/**
 * The leg types, listed once (docs/architecture.md "Adding a leg type"), and what the pipeline
 * derives from them for every leg alike: the calls, their read-back before signing, the
 * effects summed over a plan, the headline and the calls in words. Pure: no I/O.
 */
import { AppError, ErrorCode } from '../../../../shared/errors.js';
import type { ChainCall } from '../../chain/calls.js';
import { type Acknowledgment, mergeAcknowledgments } from '../acknowledgments.js';
import { type ClaimLeg, claimLegType } from './claim.js';
import { type StakeLeg, stakeLegType } from './stake.js';
import { type SwapLeg, swapLegType } from './swap.js';
import { type UnstakeIntentLeg, unstakeIntentLegType } from './unstake-intent.js';
import { type UnstakeLeg, unstakeLegType } from './unstake.js';
import { type TransferLeg, transferLegType } from './transfer.js';
import { type SupplyLeg, supplyLegType } from './supply.js';
import { type WithdrawLeg, withdrawLegType } from './withdraw.js';
import { type PositionLeg, positionLegType } from './position.js';
import type { Effects, LegPlan, LegType, LegView, LegWhere } from './types.js';
import { describeCall } from './words.js';

export type {
  Effects,
  InEffect,
  LegAmount,
  LegPlan,
  LegView,
  OutEffect,
  PositionEffect,
} from './types.js';

/** One leg of a plan, by its type. */
export type PlannedLeg =
  | SwapLeg
  | TransferLeg
  | StakeLeg
  | UnstakeIntentLeg
  | UnstakeLeg
  | ClaimLeg
  | SupplyLeg
  | WithdrawLeg
  | PositionLeg;
export type LegTypeName = PlannedLeg['type'];

type LegTypes = { [T in LegTypeName]: LegType<Extract<PlannedLeg, { type: T }>> };

/** Every leg type: a missing one fails typecheck. */
export const LEG_TYPES: LegTypes = {
  swap: swapLegType,
  transfer: transferLegType,
  stake: stakeLegType,
  'unstake-intent': unstakeIntentLegType,
  unstake: unstakeLegType,
  claim: claimLegType,
  supply: supplyLegType,
  withdraw: withdrawLegType,
  position: positionLegType,
};

/** The leg types' names, in the table's order. */
export const LEG_TYPE_NAMES = Object.keys(LEG_TYPES) as LegTypeName[];

const typeOf = <L extends PlannedLeg>(leg: L): LegType<L> => {
  const type = LEG_TYPES[leg.type] as LegType<L> | undefined;
  // a guard that cannot classify its input refuses it
  if (type === undefined)
    throw new AppError(
      ErrorCode.USAGE_ERROR,
      `unknown leg type "${String(leg.type).slice(0, 40)}"`,
    );
  return type;
};

/** Each leg's own rules (LegType.check: a transfer's recipient), the legs normalised. */
export function checkLegs(legs: readonly PlannedLeg[], where: LegWhere): PlannedLeg[] {
  return legs.map((leg) => typeOf(leg).check?.(leg, where) ?? leg);
}

/** The exact calls of the legs, in order. */
export function legCalls(legs: readonly PlannedLeg[], plan: LegPlan): ChainCall[] {
  return legs.flatMap((leg) => typeOf(leg).calls(leg, plan));
}

/**
 * The calls about to be signed, read back leg by leg against what the user confirmed; nothing
 * else may be signed (CALLS_MISMATCH on a count that differs).
 */
export function verifyLegCalls(
  legs: readonly PlannedLeg[],
  calls: readonly ChainCall[],
  plan: LegPlan,
): void {
  let at = 0;
  const seen: Partial<Record<LegTypeName, number>> = {};
  for (const leg of legs) {
    const index = seen[leg.type] ?? 0;
    seen[leg.type] = index + 1;
    at += typeOf(leg).verify(leg, calls, at, index, plan);
  }
  if (calls.length !== at) {
    throw new AppError(
      ErrorCode.CALLS_MISMATCH,
      `the plan has ${calls.length} calls where ${at} were confirmed; refusing to sign`,
      { details: { field: 'count', expected: at, actual: calls.length } },
    );
  }
}

/** Each leg's effects, in leg order. */
export function legEffects(legs: readonly PlannedLeg[], plan: LegPlan): Effects[] {
  return legs.map((leg) => typeOf(leg).effects(leg, plan));
}

/** The plan's effects, summed in leg order (not merged: each keeps its own recipient). */
export function effectsOf(legs: readonly PlannedLeg[], plan: LegPlan): Effects {
  const all = legEffects(legs, plan);
  return {
    out: all.flatMap((e) => e.out),
    in: all.flatMap((e) => e.in),
    positions: all.flatMap((e) => e.positions),
  };
}

/**
 * What moved, for each leg as reviewed against the same leg read again right before signing
 * (`now`, in the same order): each leg type's own rule (LegType.moved). A leg read as another
 * type is a change in itself.
 */
export function legsMoved(
  reviewed: readonly PlannedLeg[],
  now: readonly PlannedLeg[],
  plan: LegPlan,
): string[] {
  if (reviewed.length !== now.length || reviewed.some((leg, i) => leg.type !== now[i]?.type))
    return ['what the chain holds no longer makes the same steps as the plan reviewed'];
  const moved = reviewed.flatMap((leg, i) => typeOf(leg).moved(leg, now[i] as typeof leg, plan));
  // what the legs would ask the person now and the reviewed plan did not (a health factor that
  // fell below the margin while prices moved): the person has not accepted it
  const asked = new Set(legAcknowledgments(reviewed, plan).map((a) => a.id));
  const added = legAcknowledgments(now, plan).filter((a) => !asked.has(a.id));
  return [...moved, ...added.map((a) => `it now needs your acknowledgment: ${a.reason}`)];
}

/** The acknowledgments the legs need, one per id (acknowledgments.ts). */
export function legAcknowledgments(legs: readonly PlannedLeg[], plan: LegPlan): Acknowledgment[] {
  const seen: Partial<Record<LegTypeName, number>> = {};
  return mergeAcknowledgments(
    legs.flatMap((leg) => {
      const index = seen[leg.type] ?? 0;
      seen[leg.type] = index + 1;
      return [...(typeOf(leg).acknowledgments?.(leg, plan, index) ?? []), ...unknownPool(leg)];
    }),
  );
}

/** A lending leg on a pool that is not a known one (cli/core/lending-pool.ts lendingPool): the person must know. */
function unknownPool(leg: PlannedLeg): Acknowledgment[] {
  const pool = 'pool' in leg ? (leg.pool as { address?: unknown; unknown?: unknown }) : undefined;
  if (pool?.unknown !== true || typeof pool.address !== 'string') return [];
  return [
    {
      id: 'unknown-pool',
      reason: `the pool ${pool.address} is not one of the known Vesu pools: its assets, prices and vTokens are only what the node says`,
      details: { pool: pool.address },
    },
  ];
}

/** The legs as the plan document lists them: each leg type describes its own, in call order. */
export function legViews(legs: readonly PlannedLeg[], plan: LegPlan): LegView[] {
  return legs.map((leg) => typeOf(leg).describe(leg, plan));
}

/** What identifies each leg beyond its effects, with its type (fingerprint.ts). */
export function legIdentities(legs: readonly PlannedLeg[]): string[][] {
  return legs.map((leg) => [leg.type, ...typeOf(leg).identity(leg)]);
}

/** The headline's parts: each leg type's words for its legs, in order of first appearance. */
export function legHeadline(legs: readonly PlannedLeg[], plan: LegPlan): string[] {
  const order: LegTypeName[] = [];
  for (const leg of legs) if (!order.includes(leg.type)) order.push(leg.type);
  return order.flatMap((type) => {
    const ofType = legs.filter((l) => l.type === type);
    return (LEG_TYPES[type] as LegType<PlannedLeg>).headline(ofType, plan);
  });
}

/** What the person consents to beyond what leaves, each leg's lines in leg order (document.ts `terms`). */
export function legTerms(legs: readonly PlannedLeg[], plan: LegPlan): string[] {
  return legs.flatMap((leg) => typeOf(leg).terms?.(leg, plan) ?? []);
}

/**
 * The plan's calls in words: each leg says its own calls (as many as it builds); calls beyond
 * the legs' (a tampered plan) are said from their felts alone.
 */
export function describeLegCalls(
  legs: readonly PlannedLeg[],
  calls: readonly ChainCall[],
  plan: LegPlan,
): string[] {
  const words: string[] = [];
  let at = 0;
  for (const leg of legs) {
    const type = typeOf(leg);
    const count = type.calls(leg, plan).length;
    const own = calls.slice(at, at + count);
    const said = type.describeCalls(leg, own, plan);
    own.forEach((call, i) => words.push(said[i] || describeCall(call, plan)));
    at += count;
  }
  for (const call of calls.slice(at)) words.push(describeCall(call, plan));
  return words;
}
