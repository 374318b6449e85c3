/**
 * A pair's health, exact in bigint (docs/checks.md "Lending"): collateral value × max LTV / debt
 * value, values in USD with 18 decimals at the pool's own oracle prices (the pool's own rule,
 * docs/sandbox-chain.md "Lending"), the liquidation price, and the words a face shows. Pure.
 */
import { formatAmount } from '../../shared/amount.js';
import type { Token } from '../../shared/tokens.js';
import { VESU_SCALE } from '../../shared/vesu.js';
import type { PairState } from './lending-decode.js';

/** USD value (18 decimals) of `amount` base units at `price` (the pool's own rounding: down). */
export const usdValue = (amount: bigint, price: bigint, token: Token): bigint =>
  (amount * price) / 10n ** BigInt(token.decimals);

/**
 * Health factor × 1e18 = collateral value × max LTV / debt value (rounded down); undefined with no
 * debt. Below 1e18 the position can be liquidated.
 */
function healthFactor(
  collateralValue: bigint,
  debtValue: bigint,
  maxLtv: bigint,
): bigint | undefined {
  if (debtValue === 0n) return undefined;
  return (collateralValue * maxLtv) / debtValue;
}

/** The health factor of `collateral`/`debt` amounts of a pair at its prices. */
export function pairHealth(
  pair: Pick<PairState, 'collateral' | 'debt' | 'maxLtv' | 'prices'>,
  collateral: bigint,
  debt: bigint,
): bigint | undefined {
  return healthFactor(
    usdValue(collateral, pair.prices.collateral.value, pair.collateral),
    usdValue(debt, pair.prices.debt.value, pair.debt),
    pair.maxLtv,
  );
}

/**
 * The collateral's price (USD, 18 decimals) at which the position reaches a health factor of 1:
 * debt value × 10^decimals / (collateral × max LTV / 1e18), rounded up; undefined with no debt.
 */
export function liquidationPrice(
  pair: Pick<PairState, 'collateral' | 'debt' | 'maxLtv' | 'prices'>,
  collateral: bigint,
  debt: bigint,
): bigint | undefined {
  if (debt === 0n) return undefined;
  const debtValue = usdValue(debt, pair.prices.debt.value, pair.debt);
  const denominator = collateral * pair.maxLtv;
  if (denominator === 0n) return undefined;
  const numerator = debtValue * VESU_SCALE * 10n ** BigInt(pair.collateral.decimals);
  return (numerator + denominator - 1n) / denominator;
}

/** A health factor (×1e18) as a decimal string, 4 decimals, rounded down; null without debt. */
export function healthWords(hf: bigint | undefined): string | null {
  if (hf === undefined) return null;
  return formatAmount((hf / 10n ** 14n) * 10n ** 14n, 18);
}
