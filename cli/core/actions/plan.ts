/**
 * A plan: its legs (legs/: swaps, transfers, staking legs, …) in the order their calls are
 * signed, and the exact calls (one multicall). Pure: no I/O, no clock (quote times are passed in).
 *
 * Each leg type builds its own calls (a swap: `approve(router, exactly amount_in)` directly
 * before its `swap`, so ERC-20's SET-not-add approve never leaves an allowance behind; see
 * legs/swap.ts). Each kind's shape — how many legs of which type it holds — is SHAPES below,
 * checked before any request and again when the plan is built.
 */
import { AppError, ErrorCode, usageError } from '../../../shared/errors.js';
import { type Network, parseAddress } from '../../../shared/tokens.js';
import { checkPairCount, MAX_BATCH_PAIRS, MAX_REBALANCE_LEGS } from './limits.js';
import type { ChainCall } from '../chain/calls.js';
import type { OraclePrices } from '../oracle.js';
import type { ActionKind } from './kinds.js';
import {
  checkLegs,
  LEG_TYPE_NAMES,
  legCalls,
  type LegTypeName,
  type PlannedLeg,
} from './legs/index.js';
import type { PlannedSwap, SwapQuote } from './legs/swap.js';
import type { PlannedTransfer } from './legs/transfer.js';

/** The kinds of action the pipeline plans (kinds.ts, listed once): each composes legs (legs/). */
export type PlanKind = ActionKind;

/** A batch holds at most this many transfers: bounded work and a plan one screen can show. */
export const MAX_BATCH_SENDS = 5;

export type { PlannedSwap, SwapQuote } from './legs/swap.js';
export { toSwapQuote } from './legs/swap.js';
export type { PlannedTransfer } from './legs/transfer.js';
export type { PlannedLeg } from './legs/index.js';

export interface ActionPlan {
  kind: PlanKind;
  network: Network;
  sandbox: boolean;
  /** the user's account: every swap's destination */
  account: string;
  router: string;
  /** every leg, in the order its calls are signed */
  legs: PlannedLeg[];
  /** the swap legs (a view of `legs`, for the swap-only checks: quotes, impact, re-quotes) */
  swaps: PlannedSwap[];
  /** the transfer legs (a view of `legs`) */
  sends: PlannedTransfer[];
  /** exactly what is signed, in order */
  calls: ChainCall[];
  /**
   * Pragma's prices of the plan's tokens, read with its other reads (../oracle.ts): the swaps'
   * minimum is held against them, the caps count them (docs/checks.md "The oracle's price")
   */
  oracle?: OraclePrices | undefined;
}

/** A plan's legs, in the order their calls are signed; the views and the calls are derived. */
type PlanInput = Omit<ActionPlan, 'calls' | 'sends' | 'swaps'>;

/** How many legs of each type a plan holds. */
type LegCounts = Record<LegTypeName, number>;

const others = (n: LegCounts, ...allowed: LegTypeName[]): number =>
  (Object.keys(n) as LegTypeName[])
    .filter((t) => !allowed.includes(t))
    .reduce((sum, t) => sum + n[t], 0);

const exactlyOne = (n: LegCounts, type: LegTypeName, what: string): void => {
  if (n[type] !== 1 || others(n, type) !== 0)
    throw usageError(`${what} is exactly one ${type} leg`);
};

/** Each kind's legs, counted (kinds.ts lists the kinds; a kind without its shape fails typecheck). */
const SHAPES: Record<ActionKind, (n: LegCounts) => void> = {
  send: (n) => {
    if (n.transfer !== 1 || others(n, 'transfer') !== 0)
      throw usageError('a send is exactly one transfer');
  },
  trade: (n) => {
    if (n.swap !== 1 || others(n, 'swap') !== 0) throw usageError('a trade is exactly one swap');
  },
  'multi-swap': (n) => {
    if (others(n, 'swap') !== 0)
      throw usageError('a multi-swap holds swaps only (use batch to add transfers)');
    checkPairCount(n.swap);
  },
  rebalance: (n) => {
    if (others(n, 'swap') !== 0) throw usageError('a rebalance holds swaps only');
    if (n.swap > MAX_REBALANCE_LEGS)
      throw new AppError(
        ErrorCode.BATCH_LIMIT_EXCEEDED,
        `a rebalance holds at most ${MAX_REBALANCE_LEGS} swaps per transaction (got ${n.swap})`,
      );
  },
  stake: (n) => exactlyOne(n, 'stake', 'a stake'),
  unstake: (n) => exactlyOne(n, 'unstake-intent', 'an exit intent'),
  'unstake-complete': (n) => exactlyOne(n, 'unstake', 'a withdrawal'),
  'claim-rewards': (n) => exactlyOne(n, 'claim', 'a claim'),
  supply: (n) => exactlyOne(n, 'supply', 'a supply'),
  withdraw: (n) => exactlyOne(n, 'withdraw', 'a withdrawal'),
  borrow: (n) => exactlyOne(n, 'position', 'a borrow'),
  repay: (n) => exactlyOne(n, 'position', 'a repayment'),
  'close-position': (n) => exactlyOne(n, 'position', 'a close'),
  'add-collateral': (n) => exactlyOne(n, 'position', 'an addition of collateral'),
  'withdraw-collateral': (n) => exactlyOne(n, 'position', 'a withdrawal of collateral'),
  batch: (n) => {
    if (others(n, 'swap', 'transfer', 'supply', 'stake') !== 0)
      throw usageError('a batch holds swaps, transfers, supplies and stakes only');
    if (n.swap + n.transfer + n.supply + n.stake === 0)
      // the core names no face's flag (docs/architecture.md): the words fit every face's input
      throw usageError('a batch needs at least one swap, transfer, supply or stake');
    for (const [count, what] of [
      [n.supply, 'supplies'],
      [n.stake, 'stakes'],
    ] as const)
      if (count > MAX_BATCH_SENDS)
        throw new AppError(
          ErrorCode.BATCH_LIMIT_EXCEEDED,
          `a batch holds at most ${MAX_BATCH_SENDS} ${what} (got ${count})`,
        );
    if (n.swap > MAX_BATCH_PAIRS) {
      throw new AppError(
        ErrorCode.BATCH_LIMIT_EXCEEDED,
        `a batch holds at most ${MAX_BATCH_PAIRS} swaps (got ${n.swap})`,
      );
    }
    if (n.transfer > MAX_BATCH_SENDS) {
      throw new AppError(
        ErrorCode.BATCH_LIMIT_EXCEEDED,
        `a batch holds at most ${MAX_BATCH_SENDS} transfers (got ${n.transfer})`,
      );
    }
  },
};

/**
 * A kind's shape, checked before any request and again when the plan is built (SHAPES: a send is
 * exactly one transfer; a trade one swap; a multi-swap 2–3 swaps and no transfer; a batch at
 * least one item, at most 3 swaps and MAX_BATCH_SENDS transfers; a rebalance swaps only, at most
 * MAX_REBALANCE_LEGS; …), from the legs' types alone.
 */
export function checkLegCounts(kind: PlanKind, legs: ReadonlyArray<{ type: LegTypeName }>): void {
  const counts = Object.fromEntries(
    LEG_TYPE_NAMES.map((t) => [t, legs.filter((l) => l.type === t).length]),
  ) as LegCounts;
  const shape = SHAPES[kind] as ((n: LegCounts) => void) | undefined;
  // a guard that cannot classify its input refuses it
  if (shape === undefined) throw usageError(`unknown action kind "${String(kind).slice(0, 40)}"`);
  shape(counts);
}

/**
 * The plan and its calls. Checks its shape (checkLegCounts) and each leg's own rules (a
 * transfer's recipient: legs/transfer.ts); the calls are verified separately (checks.ts).
 */
export function buildPlan(input: PlanInput): ActionPlan {
  const account = parseAddress(input.account, 'account');
  const router = parseAddress(input.router, 'router');
  checkLegCounts(input.kind, input.legs);
  const legs = checkLegs(input.legs, { network: input.network, account, router });
  return {
    kind: input.kind,
    network: input.network,
    sandbox: input.sandbox,
    account,
    router,
    legs,
    swaps: legs.flatMap((l) => (l.type === 'swap' ? [l.swap] : [])),
    sends: legs.flatMap((l) => (l.type === 'transfer' ? [l.transfer] : [])),
    calls: legCalls(legs, { network: input.network, account, router }),
    ...(input.oracle === undefined ? {} : { oracle: input.oracle }),
  };
}

/** The plan with one swap's calldata replaced by a re-quote's (after checks.ts checkRequote accepted it). */
export function withExecuting(
  plan: ActionPlan,
  index: number,
  executing: SwapQuote,
  calldata: string[],
): ActionPlan {
  let at = -1;
  const legs = plan.legs.map((leg): PlannedLeg => {
    if (leg.type !== 'swap' || ++at !== index) return leg;
    return { type: 'swap', swap: { ...leg.swap, executing, calldata } };
  });
  return buildPlan({ ...plan, legs });
}
