/**
 * A Vesu pair as the lending reads return it (cli/core/lending-decode.ts `PairState`), for unit tests:
 * 1 ETH of collateral at $3000 against `debt` USDC, max LTV 0.8, the Prime pool's limits.
 */
import type { PairState } from '../../cli/core/lending-decode.js';
import { lendingPool } from '../../cli/core/lending-pool.js';
import { ETH, USDC } from './swap-fixtures.js';

export const E18 = 10n ** 18n;
const pool = lendingPool('mainnet');

/** 1 ETH collateral at $3000 against `debt` USDC (base units), max LTV 0.8. */
export const vesuPair = (debt: bigint, over: Partial<PairState> = {}): PairState => ({
  pool,
  collateral: ETH,
  debt: USDC,
  collateralShares: E18,
  nominalDebt: debt * 10n ** 12n,
  collateralAmount: E18,
  debtAmount: debt,
  maxLtv: (8n * E18) / 10n,
  prices: { collateral: { value: 3000n * E18, valid: true }, debt: { value: E18, valid: true } },
  debtLimits: {
    reserve: 500_000n * 10n ** 6n,
    totalNominalDebt: 0n,
    maxUtilization: (95n * E18) / 100n,
    floor: 10n * E18,
    scale: 10n ** 6n,
    accumulator: E18,
    lastUpdated: 1_764_000_000,
  },
  collateralLimits: {
    reserve: 1_000n * E18,
    totalNominalDebt: 0n,
    maxUtilization: (95n * E18) / 100n,
    floor: 10n * E18,
    scale: E18,
    accumulator: E18,
    lastUpdated: 1_764_000_000,
  },
  debtCap: 0n,
  pairNominalDebt: 0n,
  ...over,
});
