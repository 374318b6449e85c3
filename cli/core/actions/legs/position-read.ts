/**
 * The `position` leg type's reads before planning and its rules, one piece per action
 * (docs/architecture.md "Adding a leg type"; docs/checks.md "Lending"): the pair's position,
 * prices, max LTV and limits (cli/core/lending.ts readPair), then the action's own rules — the
 * health factor after from the pool's own prices and max LTV (at or below 1 refused:
 * HEALTH_TOO_LOW; below the margin the leg asks 'low-health'), the debt floor, the pair's cap, the
 * utilisation limit (of the debt asset for a borrow, of the collateral asset for collateral
 * withdrawn), an invalid oracle price (LENDING_LIMIT with the reason), nothing to repay, close or
 * withdraw (NO_POSITION), more collateral withdrawn than the position holds (INVALID_AMOUNT).
 */
import { formatAmount } from '../../../../shared/amount.js';
import { AppError, ErrorCode } from '../../../../shared/errors.js';
import { sameAddress, type Token } from '../../../../shared/tokens.js';
import { ltvPercent, type VesuPool } from '../../../../shared/vesu.js';
import { checkBorrowLimits, checkCollateralRelease } from '../../lending-limits.js';
import { healthWords, pairHealth } from '../../lending-health.js';
import type { PairState } from '../../lending-decode.js';
import { readPair } from '../../lending-plan-reads.js';
import { checkPoolPrices } from '../oracle-rules.js';
import { type PositionLeg, REPAY_ALL_MARGIN_DIVISOR } from './position.js';
import type { LegSource, PositionAction } from './types.js';

/** A position leg as a request names it; its reads come next. */
export interface PositionSpec {
  type: 'position';
  action: PositionAction;
  pool: VesuPool;
  /** the debt token */
  token: Token;
  collateral: Token;
  /** the debt borrowed or repaid; undefined: all (repay) */
  amount?: bigint | undefined;
  /** a borrow's collateral deposited with it; the collateral added, or withdrawn (undefined: all) */
  collateralAmount?: bigint | undefined;
}

const show = (amount: bigint, token: Token): string =>
  `${formatAmount(amount, token.decimals)} ${token.symbol}`;

const none = (message: string): AppError => new AppError(ErrorCode.NO_POSITION, message);

/** A borrow's or a withdrawal's health after: refused at or below 1. */
function checkHealth(after: bigint | undefined, pair: PairState): void {
  if (after !== undefined && after <= 10n ** 18n)
    throw new AppError(
      ErrorCode.HEALTH_TOO_LOW,
      `nothing was signed: this would leave the ${pair.collateral.symbol}/${pair.debt.symbol} position with a health factor of ${healthWords(after)} (at or below 1 it can be liquidated; max LTV ${ltvPercent(pair.maxLtv)})`,
      { details: { healthFactor: healthWords(after) } },
    );
}

/** Collateral leaves only at valid prices: the pool refuses to release it otherwise. */
function checkReleasePrices(pair: PairState): void {
  if (!pair.prices.collateral.valid || !pair.prices.debt.valid)
    throw new AppError(
      ErrorCode.LENDING_LIMIT,
      `nothing was signed: the pool's oracle has no valid price for ${pair.prices.collateral.valid ? pair.debt.symbol : pair.collateral.symbol}: the pool refuses to release collateral`,
      { details: { reason: 'invalid-price' } },
    );
}

/** The fields a change leaves at nothing, unless it says otherwise. */
type Change = Omit<
  PositionLeg,
  'type' | 'action' | 'pool' | 'collateral' | 'debt' | 'debtNow' | 'debtAsOf' | 'health'
> & { after: PositionLeg['after']; healthAfter: bigint | undefined };

const NOTHING = {
  collateralDelta: { native: false, value: 0n },
  debtDelta: { native: false, value: 0n },
  depositApprove: 0n,
  repayApprove: 0n,
  repayAll: false,
  borrowed: 0n,
  collateralOut: 0n,
} as const;

function legOf(
  spec: PositionSpec,
  pair: PairState,
  change: Partial<Change> & Pick<Change, 'after' | 'healthAfter'>,
): PositionLeg {
  const { healthAfter, ...fields } = change;
  return {
    type: 'position',
    action: spec.action,
    pool: spec.pool,
    collateral: pair.collateral,
    debt: pair.debt,
    ...NOTHING,
    ...fields,
    debtNow: pair.debtAmount,
    debtAsOf: pair.debtLimits.lastUpdated,
    health: {
      before: pairHealth(pair, pair.collateralAmount, pair.debtAmount),
      after: healthAfter,
    },
  };
}

/**
 * Repay all's approve: the debt read plus a margin for the interest until it runs — capped at
 * what the account holds (`held`) when that covers the debt read, so a wallet holding the debt but
 * not the margin can still repay it all (docs/decisions.md "Repay all with what is held").
 */
function repayBound(debt: bigint, held: bigint | undefined): bigint {
  const margin = debt + debt / REPAY_ALL_MARGIN_DIVISOR + 1n;
  return held !== undefined && held >= debt && held < margin ? held : margin;
}

/** One action of the position leg: what it spends, what its read needs, its rules and its leg. */
interface ActionRule {
  /** the token of the pair it spends from the account (the balance read before the build) */
  spends: 'collateral' | 'debt' | 'nothing';
  /** it lowers the health factor: the pool's prices it is computed from must agree with Pragma's */
  risks: boolean;
  /** the leg from the spec and the pair as read; `held`: the account's debt token, for a repay */
  leg(spec: PositionSpec, pair: PairState, held: bigint | undefined): PositionLeg;
}

const borrow: ActionRule = {
  spends: 'collateral',
  risks: true,
  leg: (spec, pair) => {
    const deposit = spec.collateralAmount ?? 0n;
    const borrowed = spec.amount ?? 0n;
    const collateralAfter = pair.collateralAmount + deposit;
    const debtAfter = pair.debtAmount + borrowed;
    if (collateralAfter === 0n)
      throw new AppError(
        ErrorCode.HEALTH_TOO_LOW,
        // the core names no face's flag (docs/architecture.md): each face's input says how
        `nothing was signed: the ${pair.collateral.symbol}/${pair.debt.symbol} position holds no ${pair.collateral.symbol} collateral, so any debt would leave a health factor of 0: deposit some with the borrow (give an amount of ${pair.collateral.symbol} as the collateral)`,
        { details: { healthFactor: '0' } },
      );
    checkBorrowLimits(pair, borrowed, debtAfter);
    const after = pairHealth(pair, collateralAfter, debtAfter);
    checkHealth(after, pair);
    return legOf(spec, pair, {
      collateralDelta: { native: false, value: deposit },
      debtDelta: { native: false, value: borrowed },
      depositApprove: deposit,
      borrowed,
      after: { debt: debtAfter, collateral: collateralAfter },
      healthAfter: after,
    });
  },
};

const repay: ActionRule = {
  spends: 'debt',
  risks: false,
  leg: (spec, pair, held) => {
    if (pair.nominalDebt === 0n)
      throw none(
        `you have no ${pair.debt.symbol} debt against ${pair.collateral.symbol} in the ${spec.pool.name} pool`,
      );
    if (spec.amount === undefined || spec.amount >= pair.debtAmount) {
      const bound = repayBound(pair.debtAmount, held);
      if (spec.amount !== undefined && spec.amount > bound)
        throw new AppError(
          ErrorCode.INVALID_AMOUNT,
          `the debt is ${show(pair.debtAmount, pair.debt)}: repay it all with "repay all ${pair.debt.symbol}"`,
        );
      return legOf(spec, pair, {
        debtDelta: { native: true, value: -pair.nominalDebt },
        repayApprove: bound,
        repayAll: true,
        after: { debt: 0n, collateral: pair.collateralAmount },
        healthAfter: undefined,
      });
    }
    const debtAfter = pair.debtAmount - spec.amount;
    checkBorrowLimits(pair, 0n, debtAfter);
    return legOf(spec, pair, {
      debtDelta: { native: false, value: -spec.amount },
      repayApprove: spec.amount,
      after: { debt: debtAfter, collateral: pair.collateralAmount },
      healthAfter: pairHealth(pair, pair.collateralAmount, debtAfter),
    });
  },
};

const close: ActionRule = {
  spends: 'debt',
  risks: false,
  leg: (spec, pair, held) => {
    if (pair.collateralShares === 0n && pair.nominalDebt === 0n)
      throw none(
        `you have no ${pair.collateral.symbol}/${pair.debt.symbol} position in the ${spec.pool.name} pool`,
      );
    if (pair.collateralShares !== 0n) {
      checkReleasePrices(pair);
      checkCollateralRelease(pair, pair.collateralAmount);
    }
    const debt = pair.nominalDebt !== 0n;
    return legOf(spec, pair, {
      collateralDelta: { native: true, value: -pair.collateralShares },
      debtDelta: { native: true, value: -pair.nominalDebt },
      repayApprove: debt ? repayBound(pair.debtAmount, held) : 0n,
      repayAll: debt,
      collateralOut: pair.collateralAmount,
      after: { debt: 0n, collateral: 0n },
      healthAfter: undefined,
    });
  },
};

// no debt needed: a position may hold collateral only (docs/decisions.md); adding adds no risk,
// so the pool asks no valid price of it
const addCollateral: ActionRule = {
  spends: 'collateral',
  risks: false,
  leg: (spec, pair) => {
    const deposit = spec.collateralAmount ?? 0n;
    if (deposit <= 0n)
      throw new AppError(ErrorCode.INVALID_AMOUNT, 'the collateral to add must be positive');
    return legOf(spec, pair, {
      collateralDelta: { native: false, value: deposit },
      depositApprove: deposit,
      after: { debt: pair.debtAmount, collateral: pair.collateralAmount + deposit },
      healthAfter: pairHealth(pair, pair.collateralAmount + deposit, pair.debtAmount),
    });
  },
};

const withdrawCollateral: ActionRule = {
  spends: 'nothing',
  risks: true,
  leg: (spec, pair) => {
    if (pair.collateralShares === 0n)
      throw none(
        `you have no ${pair.collateral.symbol} collateral against ${pair.debt.symbol} in the ${spec.pool.name} pool`,
      );
    const amount = spec.collateralAmount;
    if (amount !== undefined && amount > pair.collateralAmount)
      throw new AppError(
        ErrorCode.INVALID_AMOUNT,
        `nothing was signed: the position holds ${show(pair.collateralAmount, pair.collateral)} of collateral; cannot withdraw ${show(amount, pair.collateral)} (withdrawing all takes every share)`,
        { details: { collateral: pair.collateralAmount.toString() } },
      );
    checkReleasePrices(pair);
    // the whole collateral (asked as all, or as exactly what it holds): every share, Native, so
    // no dust share is left behind
    const all = amount === undefined || amount === pair.collateralAmount;
    const out = all ? pair.collateralAmount : amount;
    const after = pairHealth(pair, pair.collateralAmount - out, pair.debtAmount);
    // all of it under a debt: its own words, with the way out docs/commands.md gives
    if (all && pair.debtAmount > 0n)
      throw new AppError(
        ErrorCode.HEALTH_TOO_LOW,
        `nothing was signed: the ${pair.collateral.symbol}/${pair.debt.symbol} position still owes ${show(pair.debtAmount, pair.debt)}: taking all its collateral would leave a health factor of 0; repay the debt first, or close the position (repays it and takes the collateral back in one transaction)`,
        { details: { healthFactor: '0' } },
      );
    // the same rules as a borrow's: at or below 1 refused, the debt floor; and what leaves must
    // be in the collateral asset's reserve, under its utilisation limit
    checkHealth(after, pair);
    checkBorrowLimits(pair, 0n, pair.debtAmount);
    checkCollateralRelease(pair, out);
    return legOf(spec, pair, {
      collateralDelta: all
        ? { native: true, value: -pair.collateralShares }
        : { native: false, value: -out },
      collateralOut: out,
      after: { debt: pair.debtAmount, collateral: pair.collateralAmount - out },
      healthAfter: after,
    });
  },
};

/** Each action's piece: a missing one fails typecheck. */
const ACTIONS: Record<PositionAction, ActionRule> = {
  borrow,
  repay,
  close,
  'add-collateral': addCollateral,
  'withdraw-collateral': withdrawCollateral,
};

const ruleOf = (spec: PositionSpec): ActionRule => {
  const rule = ACTIONS[spec.action] as ActionRule | undefined;
  // a guard that cannot classify its input refuses it
  if (rule === undefined) throw new AppError(ErrorCode.USAGE_ERROR, 'unknown position change');
  return rule;
};

/**
 * A position leg from its spec and the pair as read, and — for a repay or a close — how much of
 * the debt token the account holds (`held`). Pure.
 */
export function positionLegOf(spec: PositionSpec, pair: PairState, held?: bigint): PositionLeg {
  return ruleOf(spec).leg(spec, pair, held);
}

export const positionSource: LegSource<PositionSpec, PositionLeg> = {
  spends: (spec) => {
    const spends = ruleOf(spec).spends;
    return spends === 'collateral' ? [spec.collateral] : spends === 'debt' ? [spec.token] : [];
  },
  names: (spec) => [spec.token, spec.collateral],
  reread: { oracle: true },
  read: (specs, { ctx, call, balances, oracle }) => {
    const options = { signal: call.signal, vTokens: ctx.vTokens, sandbox: ctx.sandbox };
    return Promise.all(
      specs.map(async (spec) => {
        const rule = ruleOf(spec);
        const [pair, held, prices] = await Promise.all([
          readPair(ctx.account, spec.pool, spec.collateral, spec.token, options),
          rule.spends === 'debt' && balances !== undefined
            ? balances.then(
                (all) => all.find((b) => sameAddress(b.token.address, spec.token.address))?.balance,
              )
            : undefined,
          rule.risks ? oracle : undefined,
        ]);
        // a borrow or a withdrawal of collateral lowers the health factor: the pool's prices it
        // is computed from must agree with Pragma's (oracle-rules.ts checkPoolPrices)
        if (rule.risks)
          checkPoolPrices(
            [
              {
                token: pair.collateral,
                poolUsd: pair.prices.collateral.value,
                valid: pair.prices.collateral.valid,
              },
              { token: pair.debt, poolUsd: pair.prices.debt.value, valid: pair.prices.debt.valid },
            ],
            prices ?? [],
          );
        return positionLegOf(spec, pair, held);
      }),
    );
  },
};
