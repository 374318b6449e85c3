/**
 * The positions documents the screen tests hand the fake services port (pure UI logic): a staking
 * document with one validator and one position, a lending document with one supply and the given
 * borrows. One place for the Staking, Lending and small-terminal screen tests.
 */
import { parseAmount } from '../../shared/amount.js';
import type { LendingDocument } from '../../cli/core/lending.js';
import type { StakingDocument } from '../../cli/core/staking.js';
import { SESSION } from './fake-services.js';

/** Validator Alpha (STRK pool, 5 % commission) and a position of `staked` STRK, `exiting` leaving. */
export const stakingDoc = (
  staked: string,
  exiting = '0',
  withdrawableAt: string | null = null,
): StakingDocument => ({
  network: 'sandbox',
  account: `0x${'a'.repeat(64)}`,
  totalStake: { amount: '10000', baseUnits: '10000000000000000000000' },
  validators: [
    {
      name: 'Alpha',
      staker: '0x1',
      pool: '0x2',
      token: 'STRK',
      commissionBps: 500,
      active: true,
      stakerRemoved: false,
      stake: { amount: '1000', baseUnits: '1000000000000000000000' },
      shareOfTotalStake: '10.00',
    },
  ],
  positions: [
    {
      validator: 'Alpha',
      staker: '0x1',
      pool: '0x2',
      token: 'STRK',
      staked: { amount: staked, baseUnits: '1' },
      unclaimedRewards: { amount: '0', baseUnits: '0' },
      exiting: { amount: exiting, baseUnits: exiting === '0' ? '0' : '1' },
      withdrawableAt,
      rewardAddress: '0x3',
      stakerRemoved: false,
      memberCan: null,
    },
  ],
});

/** A borrow on Prime: `collateral` of `token` (18 decimals) against `debt` USDC, max LTV 0.8. */
export const lendingBorrow = (
  debt: string,
  collateral: string,
  healthFactor: string | null,
  token = 'ETH',
  liquidationPrice = '1750',
) => ({
  pool: 'Prime',
  collateral: { token, amount: collateral, baseUnits: parseAmount(collateral, 18).toString() },
  debt: {
    token: 'USDC',
    amount: debt,
    baseUnits: debt === '0' ? '0' : parseAmount(debt, 6).toString(),
  },
  healthFactor,
  maxLtv: '0.8',
  liquidationPrice,
  limits: { debtFloorUsd: '10', debtCap: null, maxUtilization: '0.9' },
});

/** USDC's market on Prime, as `lending` lists it. */
export const USDC_MARKET = {
  pool: 'Prime',
  token: 'USDC',
  utilization: '40.00',
  supplyApr: '3.20',
  supplyApy: '3.25',
  borrowApr: '8.00',
  borrowApy: '8.32',
};

/** The signed-in wallet's positions on Prime: 100 USDC supplied, `borrows`, and `markets`. */
export const lendingDoc = (
  borrows: LendingDocument['borrows'],
  markets: LendingDocument['markets'] = [USDC_MARKET],
): LendingDocument => ({
  network: 'mainnet',
  account: SESSION.walletAddress,
  pools: [{ name: 'Prime', address: '0x451' }],
  supplied: [
    {
      pool: 'Prime',
      token: 'USDC',
      amount: '100',
      baseUnits: '100000000',
      valueUsd: '100.00',
      vToken: '0x1',
    },
  ],
  markets,
  borrows,
});
