/**
 * The lending leg types' reads before planning (docs/architecture.md "Adding a leg type";
 * cli/core/lending-plan-reads.ts, lending-limits.ts): a supply's vToken, a withdrawal's shares, a position's state, prices, max
 * LTV and limits — in parallel with each other and with the balances and the account's facts.
 * Every pre-sign rule of lending is applied here, before anything is built (docs/checks.md
 * "Lending"): the health factor after the action from the pool's own prices and max LTV (at or
 * below 1 refused: HEALTH_TOO_LOW; below the margin the leg asks 'low-health'), the debt floor,
 * the pair's cap, the utilisation limit (of the debt asset for a borrow, of the collateral asset
 * for collateral withdrawn) and an invalid oracle price (LENDING_LIMIT with the reason), nothing to withdraw, repay or close (NO_POSITION), more collateral withdrawn than the
 * position holds (INVALID_AMOUNT).
 */
import { formatAmount } from '../../../../shared/amount.js';
import { AppError, ErrorCode } from '../../../../shared/errors.js';
import { sameAddress, type Token } from '../../../../shared/tokens.js';
import { ltvPercent, type VesuPool } from '../../../../shared/vesu.js';
import type { CallOptions } from '../../call.js';
import type { TokenBalance } from '../../chain/reads.js';
import { checkBorrowLimits, checkCollateralRelease } from '../../lending-limits.js';
import { healthWords, pairHealth } from '../../lending-health.js';
import type { PairState } from '../../lending-decode.js';
import { readPair, readSupply, readVToken } from '../../lending-plan-reads.js';
import type { ActionContext } from '../pipeline.js';
import type { PlannedLeg } from './index.js';
import { REPAY_ALL_MARGIN_DIVISOR } from './position.js';
import type { OraclePrices } from '../../oracle.js';
import { checkPoolPrices } from '../oracle-rules.js';

/** A lending leg as a request names it; its reads come next. */
export interface LendingSpec {
  type: 'supply' | 'withdraw' | 'position';
  /** a position's change */
  action?: 'borrow' | 'repay' | 'close' | 'add-collateral' | 'withdraw-collateral' | undefined;
  pool: VesuPool;
  /** the token supplied or withdrawn, or the debt token */
  token: Token;
  /** a position's collateral */
  collateral?: Token | undefined;
  /** undefined: all (withdraw, repay) */
  amount?: bigint | undefined;
  /**
   * a borrow's collateral deposited with it; the collateral added, or withdrawn (undefined: all)
   */
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

/**
 * A position leg from its spec and the pair as read, and — for a repay or a close — how much of
 * the debt token the account holds (`held`). Pure.
 */
export function positionLegOf(spec: LendingSpec, pair: PairState, held?: bigint): PlannedLeg {
  const base = {
    type: 'position' as const,
    pool: spec.pool,
    collateral: pair.collateral,
    debt: pair.debt,
  };
  const before = pairHealth(pair, pair.collateralAmount, pair.debtAmount);
  // repay all's approve: the debt read plus a margin for the interest until it runs — capped at
  // what the account holds when that covers the debt read, so a wallet holding the debt but not
  // the margin can still repay it all (docs/decisions.md "Repay all with what is held")
  const bound = (debt: bigint): bigint => {
    const margin = debt + debt / REPAY_ALL_MARGIN_DIVISOR + 1n;
    return held !== undefined && held >= debt && held < margin ? held : margin;
  };
  switch (spec.action) {
    case 'borrow': {
      const deposit = spec.collateralAmount ?? 0n;
      const borrow = spec.amount ?? 0n;
      const collateralAfter = pair.collateralAmount + deposit;
      const debtAfter = pair.debtAmount + borrow;
      if (collateralAfter === 0n)
        throw new AppError(
          ErrorCode.HEALTH_TOO_LOW,
          // the core names no face's flag (docs/architecture.md): each face's input says how
          `nothing was signed: the ${pair.collateral.symbol}/${pair.debt.symbol} position holds no ${pair.collateral.symbol} collateral, so any debt would leave a health factor of 0: deposit some with the borrow (give an amount of ${pair.collateral.symbol} as the collateral)`,
          { details: { healthFactor: '0' } },
        );
      checkBorrowLimits(pair, borrow, debtAfter);
      const after = pairHealth(pair, collateralAfter, debtAfter);
      checkHealth(after, pair);
      return {
        ...base,
        action: 'borrow',
        collateralDelta: { native: false, value: deposit },
        debtDelta: { native: false, value: borrow },
        depositApprove: deposit,
        repayApprove: 0n,
        repayAll: false,
        borrowed: borrow,
        collateralOut: 0n,
        debtNow: pair.debtAmount,
        debtAsOf: pair.debtLimits.lastUpdated,
        after: { debt: debtAfter, collateral: collateralAfter },
        health: { before, after },
      };
    }
    case 'repay': {
      if (pair.nominalDebt === 0n)
        throw none(
          `you have no ${pair.debt.symbol} debt against ${pair.collateral.symbol} in the ${spec.pool.name} pool`,
        );
      if (spec.amount === undefined || spec.amount >= pair.debtAmount) {
        if (spec.amount !== undefined && spec.amount > bound(pair.debtAmount))
          throw new AppError(
            ErrorCode.INVALID_AMOUNT,
            `the debt is ${show(pair.debtAmount, pair.debt)}: repay it all with "repay all ${pair.debt.symbol}"`,
          );
        return {
          ...base,
          action: 'repay',
          collateralDelta: { native: false, value: 0n },
          debtDelta: { native: true, value: -pair.nominalDebt },
          depositApprove: 0n,
          repayApprove: bound(pair.debtAmount),
          repayAll: true,
          borrowed: 0n,
          collateralOut: 0n,
          debtNow: pair.debtAmount,
          debtAsOf: pair.debtLimits.lastUpdated,
          after: { debt: 0n, collateral: pair.collateralAmount },
          health: { before, after: undefined },
        };
      }
      const debtAfter = pair.debtAmount - spec.amount;
      checkBorrowLimits(pair, 0n, debtAfter);
      return {
        ...base,
        action: 'repay',
        collateralDelta: { native: false, value: 0n },
        debtDelta: { native: false, value: -spec.amount },
        depositApprove: 0n,
        repayApprove: spec.amount,
        repayAll: false,
        borrowed: 0n,
        collateralOut: 0n,
        debtNow: pair.debtAmount,
        debtAsOf: pair.debtLimits.lastUpdated,
        after: { debt: debtAfter, collateral: pair.collateralAmount },
        health: { before, after: pairHealth(pair, pair.collateralAmount, debtAfter) },
      };
    }
    case 'close': {
      if (pair.collateralShares === 0n && pair.nominalDebt === 0n)
        throw none(
          `you have no ${pair.collateral.symbol}/${pair.debt.symbol} position in the ${spec.pool.name} pool`,
        );
      if (pair.collateralShares !== 0n) {
        checkReleasePrices(pair);
        checkCollateralRelease(pair, pair.collateralAmount);
      }
      const debt = pair.nominalDebt !== 0n;
      return {
        ...base,
        action: 'close',
        collateralDelta: { native: true, value: -pair.collateralShares },
        debtDelta: { native: true, value: -pair.nominalDebt },
        depositApprove: 0n,
        repayApprove: debt ? bound(pair.debtAmount) : 0n,
        repayAll: debt,
        borrowed: 0n,
        collateralOut: pair.collateralAmount,
        debtNow: pair.debtAmount,
        debtAsOf: pair.debtLimits.lastUpdated,
        after: { debt: 0n, collateral: 0n },
        health: { before, after: undefined },
      };
    }
    case 'add-collateral': {
      // no debt needed: a position may hold collateral only (docs/decisions.md); adding adds no
      // risk, so the pool asks no valid price of it
      const deposit = spec.collateralAmount ?? 0n;
      if (deposit <= 0n)
        throw new AppError(ErrorCode.INVALID_AMOUNT, 'the collateral to add must be positive');
      return {
        ...base,
        action: 'add-collateral',
        collateralDelta: { native: false, value: deposit },
        debtDelta: { native: false, value: 0n },
        depositApprove: deposit,
        repayApprove: 0n,
        repayAll: false,
        borrowed: 0n,
        collateralOut: 0n,
        debtNow: pair.debtAmount,
        debtAsOf: pair.debtLimits.lastUpdated,
        after: { debt: pair.debtAmount, collateral: pair.collateralAmount + deposit },
        health: {
          before,
          after: pairHealth(pair, pair.collateralAmount + deposit, pair.debtAmount),
        },
      };
    }
    case 'withdraw-collateral': {
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
      return {
        ...base,
        action: 'withdraw-collateral',
        collateralDelta: all
          ? { native: true, value: -pair.collateralShares }
          : { native: false, value: -out },
        debtDelta: { native: false, value: 0n },
        depositApprove: 0n,
        repayApprove: 0n,
        repayAll: false,
        borrowed: 0n,
        collateralOut: out,
        debtNow: pair.debtAmount,
        debtAsOf: pair.debtLimits.lastUpdated,
        after: { debt: pair.debtAmount, collateral: pair.collateralAmount - out },
        health: { before, after },
      };
    }
    default:
      throw new AppError(ErrorCode.USAGE_ERROR, 'unknown position change');
  }
}

/**
 * The lending legs of a plan, read (each spec's reads in parallel with the others); `balances`,
 * the account's balances being read beside them, caps a repay-all's approve (positionLegOf).
 */
export async function readLendingLegs(
  specs: readonly LendingSpec[],
  ctx: ActionContext,
  call: CallOptions,
  balances?: Promise<readonly TokenBalance[]>,
  oracle?: Promise<OraclePrices>,
): Promise<PlannedLeg[]> {
  const options = { signal: call.signal, vTokens: ctx.vTokens, sandbox: ctx.sandbox };
  const reader = ctx.account;
  return Promise.all(
    specs.map(async (spec): Promise<PlannedLeg> => {
      switch (spec.type) {
        case 'supply':
          return {
            type: 'supply',
            pool: spec.pool,
            token: spec.token,
            vToken: await readVToken(reader, spec.pool, spec.token, options),
            amount: spec.amount ?? 0n,
          };
        case 'withdraw': {
          const s = await readSupply(reader, spec.pool, spec.token, options);
          if (s.shares === 0n)
            throw none(`you have no ${spec.token.symbol} supplied to the ${spec.pool.name} pool`);
          if (spec.amount !== undefined) {
            if (spec.amount > s.assets)
              throw new AppError(
                ErrorCode.INVALID_AMOUNT,
                `you have ${show(s.assets, s.token)} supplied to the ${spec.pool.name} pool; cannot withdraw ${show(spec.amount, s.token)} (withdraw all takes everything)`,
                { details: { supplied: s.assets.toString() } },
              );
            return {
              type: 'withdraw',
              pool: spec.pool,
              token: spec.token,
              vToken: s.vToken,
              mode: 'assets',
              amount: spec.amount,
              shares: 0n,
            };
          }
          if (s.maxRedeem < s.shares)
            throw new AppError(
              ErrorCode.LENDING_LIMIT,
              `nothing was signed: the ${spec.pool.name} pool lends out too much ${spec.token.symbol} to pay back all of your supply now (its utilisation limit); withdraw a smaller amount`,
              { details: { reason: 'utilization' } },
            );
          return {
            type: 'withdraw',
            pool: spec.pool,
            token: spec.token,
            vToken: s.vToken,
            mode: 'shares',
            amount: s.assets,
            shares: s.shares,
          };
        }
        case 'position': {
          if (spec.collateral === undefined)
            throw new AppError(ErrorCode.USAGE_ERROR, 'a position needs its collateral token');
          const repays = spec.action === 'repay' || spec.action === 'close';
          // a borrow or a withdrawal of collateral lowers the health factor: the pool's prices
          // it is computed from must agree with Pragma's (oracle-rules.ts checkPoolPrices)
          const risks = spec.action === 'borrow' || spec.action === 'withdraw-collateral';
          const [pair, held, prices] = await Promise.all([
            readPair(reader, spec.pool, spec.collateral, spec.token, options),
            repays && balances !== undefined
              ? balances.then(
                  (all) =>
                    all.find((b) => sameAddress(b.token.address, spec.token.address))?.balance,
                )
              : undefined,
            risks ? oracle : undefined,
          ]);
          if (risks)
            checkPoolPrices(
              [
                {
                  token: pair.collateral,
                  poolUsd: pair.prices.collateral.value,
                  valid: pair.prices.collateral.valid,
                },
                {
                  token: pair.debt,
                  poolUsd: pair.prices.debt.value,
                  valid: pair.prices.debt.valid,
                },
              ],
              prices ?? [],
            );
          return positionLegOf(spec, pair, held);
        }
      }
    }),
  );
}
