/**
 * The pool's rules a lending plan is checked against before anything is signed (docs/checks.md
 * "Lending"): an invalid oracle price, the debt floor, the pair's debt cap, and the utilisation
 * limit of the asset lent or of the collateral released — refused with LENDING_LIMIT and its
 * reason. Pure.
 */
import { formatAmount } from '../../shared/amount.js';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { VESU_SCALE } from '../../shared/vesu.js';
import type { AssetLimits, PairState } from './lending-decode.js';
import { usdValue } from './lending-health.js';

/** Debt in asset units of a nominal debt (the pool's rounding: up), from the asset's accumulator. */
const debtOfNominal = (nominal: bigint, a: AssetLimits): bigint => {
  const n = nominal * a.accumulator * a.scale;
  const d = VESU_SCALE * VESU_SCALE;
  return (n + d - 1n) / d;
};

/**
 * The pool's utilisation rule for an asset `leaving` its reserve while its lent total grows by
 * `lent` (a borrow: both the amount; a collateral withdrawal: leaving only): the reserve must
 * cover it and total debt / (reserve + total debt) stay at or under the asset's limit. Pure.
 */
function utilizationAllows(a: AssetLimits, leaving: bigint, lent: bigint): boolean {
  const totalDebt = debtOfNominal(a.totalNominalDebt, a) + lent;
  const reserve = a.reserve - leaving;
  return reserve >= 0n && totalDebt * VESU_SCALE <= a.maxUtilization * (reserve + totalDebt);
}

/**
 * Collateral leaving the pool (a withdrawal of `out` collateral): refused before signing when the
 * collateral asset's reserve cannot cover it or its utilisation would pass its limit (the pool
 * refuses with utilization-exceeded), LENDING_LIMIT with reason 'utilization', as a borrow. Pure.
 */
export function checkCollateralRelease(pair: PairState, out: bigint): void {
  const a = pair.collateralLimits;
  if (out > 0n && !utilizationAllows(a, out, 0n))
    throw new AppError(
      ErrorCode.LENDING_LIMIT,
      `nothing was signed: the pool has not enough ${pair.collateral.symbol} in reserve to release ${formatAmount(out, pair.collateral.decimals)} ${pair.collateral.symbol} of collateral now: its utilisation would go above ${formatAmount(a.maxUtilization * 100n, 18)} % (it lends out the rest); withdraw less, or later`,
      { details: { reason: 'utilization' } },
    );
}

/**
 * The pool's rules for a borrow of `borrow` more (refused before signing with the reason): an
 * invalid oracle price, a debt left at or under the floor, the pair's cap, the utilisation limit.
 * Pure.
 */
export function checkBorrowLimits(pair: PairState, borrow: bigint, debtAfter: bigint): void {
  const limit = (reason: string, message: string, details: Record<string, unknown> = {}): never => {
    throw new AppError(ErrorCode.LENDING_LIMIT, `nothing was signed: ${message}`, {
      details: { reason, ...details },
    });
  };
  if (!pair.prices.collateral.valid || !pair.prices.debt.valid)
    limit(
      'invalid-price',
      `the pool's oracle has no valid price for ${!pair.prices.collateral.valid ? pair.collateral.symbol : pair.debt.symbol}: the pool refuses to add risk`,
    );
  const debtValue = usdValue(debtAfter, pair.prices.debt.value, pair.debt);
  if (debtValue !== 0n && debtValue <= pair.debtLimits.floor)
    limit(
      'debt-floor',
      `the debt would be worth ${debtValue < 10n ** 16n ? 'less than $0.01' : `$${formatAmount(debtValue, 18, { maxFractionDigits: 2 })}`}, at or under the pool's floor of $${formatAmount(pair.debtLimits.floor, 18)}: borrow more, or repay all`,
      { floorUsd: formatAmount(pair.debtLimits.floor, 18) },
    );
  if (borrow <= 0n) return;
  if (pair.maxLtv === 0n)
    limit(
      'pair-not-lent',
      `the ${pair.pool.name} pool lends no ${pair.debt.symbol} against ${pair.collateral.symbol}: its pair config allows no loan (max LTV 0)`,
    );
  const a = pair.debtLimits;
  // the cap bounds the pair's total debt, every borrower's, as the pool counts it (vesu.md: its
  // total nominal debt in assets, rounded up) — not this account's alone
  const pairDebt = debtOfNominal(pair.pairNominalDebt, a);
  if (pair.debtCap !== 0n && pairDebt + borrow > pair.debtCap) {
    const room = pair.debtCap > pairDebt ? pair.debtCap - pairDebt : 0n;
    const amount = (v: bigint): string =>
      `${formatAmount(v, pair.debt.decimals)} ${pair.debt.symbol}`;
    limit(
      'debt-cap',
      `the pool caps the ${pair.collateral.symbol}/${pair.debt.symbol} pair's total debt (all borrowers') at ${amount(pair.debtCap)}; it is ${amount(pairDebt)} now, so at most ${amount(room)} more can be borrowed against ${pair.collateral.symbol}`,
      { cap: pair.debtCap.toString(), pairDebt: pairDebt.toString(), available: room.toString() },
    );
  }
  if (!utilizationAllows(a, borrow, borrow))
    limit(
      'utilization',
      `the pool has not enough ${pair.debt.symbol} to lend: a borrow of ${formatAmount(borrow, pair.debt.decimals)} ${pair.debt.symbol} would take its utilisation above ${formatAmount(a.maxUtilization * 100n, 18)} %`,
    );
}
