/**
 * Each leg type before its reads, listed once (docs/architecture.md "Adding a leg type"): what a
 * request's legs spend, the tokens they name, their rules before any request and their reads —
 * derived for every leg alike from each leg type's LegSource (legs/types.ts), never by family.
 */
import { AppError, ErrorCode } from '../../../../shared/errors.js';
import type { PlannedLeg, LegTypeName } from './index.js';
import { supplySource, withdrawSource } from './lending-read.js';
import type { SupplySpec, WithdrawSpec } from './lending-read.js';
import { type PositionSpec, positionSource } from './position-read.js';
import {
  claimSource,
  stakeSource,
  type StakingSpec,
  unstakeIntentSource,
  unstakeSource,
} from './staking-read.js';
import { type SwapSpec, swapSource } from './swap-quote.js';
import { type TransferLeg, transferSource } from './transfer.js';
import type { LegReadContext, LegSource, LegWhere } from './types.js';
import type { Token } from '../../../../shared/tokens.js';

/** A leg as a request names it (resolve.ts), before its reads: one member per leg type. */
export type LegSpec =
  | SwapSpec
  | TransferLeg
  | StakingSpec
  | SupplySpec
  | WithdrawSpec
  | PositionSpec;

type Sources = {
  [T in LegTypeName]: LegSource<Extract<LegSpec, { type: T }>, Extract<PlannedLeg, { type: T }>>;
};

/** Every leg type's source: a missing one fails typecheck. */
const LEG_SOURCES: Sources = {
  swap: swapSource,
  transfer: transferSource,
  stake: stakeSource,
  'unstake-intent': unstakeIntentSource,
  unstake: unstakeSource,
  claim: claimSource,
  supply: supplySource,
  withdraw: withdrawSource,
  position: positionSource,
};

const sourceOf = <S extends LegSpec>(spec: S): LegSource<S, PlannedLeg> =>
  LEG_SOURCES[spec.type] as unknown as LegSource<S, PlannedLeg>;

/** The tokens the legs spend from the account, in leg order (their balances are read). */
export const spentTokens = (specs: readonly LegSpec[]): Token[] =>
  specs.flatMap((spec) => sourceOf(spec).spends(spec));

/** Every token the legs name, in leg order (Pragma prices them: ../../oracle.ts). */
export const namedTokens = (specs: readonly LegSpec[]): Token[] =>
  specs.flatMap((spec) => sourceOf(spec).names(spec));

/** Each leg's rules before any request (a transfer's recipient), normalised. */
export const checkLegSpecs = (specs: readonly LegSpec[], where: LegWhere): LegSpec[] =>
  specs.map((spec) => sourceOf(spec).check?.(spec, where) ?? spec);

/** The legs whose terms are read from the chain: read again right before signing (recheck.ts). */
export const rereadSpecs = (specs: readonly LegSpec[]): LegSpec[] =>
  specs.filter((spec) => isReread(spec.type));

/** Whether the legs of this type are read again right before signing (recheck.ts). */
export const isReread = (type: LegTypeName): boolean => LEG_SOURCES[type].reread !== undefined;

/** The tokens whose prices reading `specs` again holds against Pragma's (the oracle is read with them). */
export const rereadOracleTokens = (specs: readonly LegSpec[]): Token[] =>
  specs.flatMap((spec) =>
    sourceOf(spec).reread?.oracle === true ? sourceOf(spec).names(spec) : [],
  );

/**
 * The legs' reads before planning: each leg type reads all its legs at once (a swap's quotes in
 * one batch), every type in parallel; the legs come back in the request's order.
 */
export async function readLegs(
  specs: readonly LegSpec[],
  reads: LegReadContext,
): Promise<PlannedLeg[]> {
  const types = [...new Set(specs.map((s) => s.type))];
  const byType = await Promise.all(
    types.map((type) => {
      const own = specs.filter((s) => s.type === type);
      return sourceOf(own[0] as LegSpec).read(own, reads);
    }),
  );
  const next = new Map(types.map((type, i) => [type, [...(byType[i] ?? [])]]));
  return specs.map((spec) => {
    const leg = next.get(spec.type)?.shift();
    if (leg === undefined)
      throw new AppError(ErrorCode.INTERNAL_ERROR, `the ${spec.type} reads returned too few legs`);
    return leg;
  });
}
