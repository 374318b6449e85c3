import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import { resolveToken } from '../../../shared/tokens.js';
import { PRICE_SCALE } from '../allocation.js';
import type { SimulationResult } from './checks.js';
import { checkActionRequest, legsOf } from './resolve.js';
import { checkRebalanceAfter, type RebalanceRequest, resolveRebalance } from './rebalance.js';

const T = (s: string) => resolveToken('mainnet', s);
const usd = (n: bigint) => n * PRICE_SCALE;
const ROUTER = `0x${'4'.repeat(64)}`;

/** The faucet wallet: ETH 10, STRK 20 000, USDC/USDT/DAI 10 000, WBTC 0.5 (115 000 USD). */
const faucet = [
  { token: T('ETH'), balance: 10n * 10n ** 18n, price: usd(3000n) },
  { token: T('STRK'), balance: 20_000n * 10n ** 18n, price: PRICE_SCALE / 2n },
  { token: T('USDC'), balance: 10_000n * 10n ** 6n, price: usd(1n) },
  { token: T('USDT'), balance: 10_000n * 10n ** 6n, price: usd(1n) },
  { token: T('DAI'), balance: 10_000n * 10n ** 18n, price: usd(1n) },
  { token: T('WBTC'), balance: 5n * 10n ** 7n, price: usd(90_000n) },
];

const request = (extra: Partial<RebalanceRequest['rebalance']> = {}): RebalanceRequest => ({
  kind: 'rebalance',
  rebalance: { target: '50 ETH, 30 USDC, 20 STRK', sellUnlisted: true, ...extra },
  snapshot: { holdings: faucet, pricedAt: 0 },
});

function failure(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

/** A simulation in which each named token's balance changes by the given whole-token amounts. */
function simulated(changes: Record<string, bigint>): SimulationResult {
  return {
    reverted: false,
    transfers: [],
    balanceChanges: Object.entries(changes).map(([symbol, amount]) => ({
      token: T(symbol).address,
      symbol,
      decimals: T(symbol).decimals,
      amount,
    })),
  };
}

describe('rebalance: one run reaches the band, or is refused before signing', () => {
  it('the issue 25 wallet: all 5 legs, each priced with its own route request in parallel (no batch route)', () => {
    const legs = legsOf(request(), { network: 'mainnet', account: undefined, router: ROUTER });
    expect(
      legs.specs.map((s) =>
        s.type === 'swap' ? `${s.pair.from.symbol}>${s.pair.to.symbol}` : s.type,
      ),
    ).toEqual(['WBTC>ETH', 'WBTC>USDC', 'DAI>STRK', 'USDT>USDC', 'USDT>STRK']);
    expect(legs.mode).toBe('parallel');
    // one leg: one route request
    const one = legsOf(
      { ...request({ target: '50 ETH, 50 USDC', sellUnlisted: false }) },
      { network: 'mainnet', account: undefined, router: ROUTER },
    );
    expect(one.specs.map((s) => s.type)).toEqual(['swap']);
    expect(one.mode).toBe('single');
    // without a snapshot only the request's own rules are checked
    expect(() =>
      checkActionRequest({ kind: 'rebalance', rebalance: request().rebalance }, 'mainnet'),
    ).not.toThrow();
  });

  it('legs below the minimum trade that would leave a token outside the band: REBALANCE_OUTSIDE_BAND, reason minimum-trade, the table in details', () => {
    const error = failure(() => resolveRebalance(request({ minTrade: '10000' }), 'mainnet'));
    expect(error.code).toBe('REBALANCE_OUTSIDE_BAND');
    expect(error.details).toMatchObject({ reason: 'minimum-trade', remedy: ['min-trade'] });
    expect(error.message).toMatch(
      /minimum trade of 10000\.00 USD.*STRK 17\.39 % \(target 20\.00 %\)/,
    );
    expect(error.message).toMatch(/nothing is signed$/);
    expect((error.details!.rebalance as { rows: unknown[] }).rows).toHaveLength(6);
  });

  it('the simulated allocation after: within the band passes; outside it is refused with the tokens that miss it', () => {
    // exactly the legs at the plan's prices (the fees and impact aside): 50 / 30 / 20
    const exact = simulated({
      WBTC: -(5n * 10n ** 7n),
      USDT: -(10_000n * 10n ** 6n),
      DAI: -(10_000n * 10n ** 18n),
      ETH: (27_500n * 10n ** 18n) / 3000n,
      USDC: 24_500n * 10n ** 6n,
      STRK: 26_000n * 10n ** 18n,
    });
    expect(() => checkRebalanceAfter(request(), 'mainnet', exact)).not.toThrow();
    // STRK arrives 23 % short (a thin market): 17.86 % of what is left, outside 2 points
    const short = simulated({
      WBTC: -(5n * 10n ** 7n),
      USDT: -(10_000n * 10n ** 6n),
      DAI: -(10_000n * 10n ** 18n),
      ETH: (27_500n * 10n ** 18n) / 3000n,
      USDC: 24_500n * 10n ** 6n,
      STRK: 20_000n * 10n ** 18n,
    });
    const error = failure(() => checkRebalanceAfter(request(), 'mainnet', short));
    expect(error.code).toBe('REBALANCE_OUTSIDE_BAND');
    expect(error.details).toMatchObject({
      reason: 'simulation',
      remedy: ['band'],
      rebalance: { afterFrom: 'simulation' },
    });
    expect(error.message).toMatch(/STRK 17\.86 % \(target 20\.00 %\)/);
    expect(error.message).not.toMatch(/ETH /);
    // a wider band takes it
    expect(() => checkRebalanceAfter(request({ band: '5' }), 'mainnet', short)).not.toThrow();
  });
});
