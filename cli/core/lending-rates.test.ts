/**
 * The rates of a Vesu v2 asset (cli/core/lending-rates.ts): APR and APY from the pool's borrow
 * rate per second, the supply side through utilisation and the fee, and their words — checked
 * against values computed independently (floating point, far from the rounding edge).
 */
import { describe, expect, it } from 'vitest';
import { marketRates, percentWords, powScale, YEAR_SECONDS } from './lending-rates.js';

const E18 = 10n ** 18n;

describe('powScale', () => {
  it("is the pool's pow_scale: x^0 = 1, x^1 = x, and square-and-multiply rounded down", () => {
    expect(powScale(3n * E18, 0n)).toBe(E18);
    expect(powScale(3n * E18, 1n)).toBe(3n * E18);
    expect(powScale(2n * E18, 10n)).toBe(1024n * E18);
    expect(powScale(E18 / 2n, 3n)).toBe(E18 / 8n);
    // (1 + 1e-18)^2 at 1e18 scale: the products round down, as the pool's
    expect(powScale(E18 + 1n, 2n)).toBe(E18 + 2n);
  });
});

describe('marketRates', () => {
  const apy = (perSecond: number) => Math.expm1(Number(YEAR_SECONDS) * Math.log1p(perSecond));

  it('borrow: APR = r × a 365-day year, APY = (1 + r)^year − 1', () => {
    const r = 3_170_979_198n; // ~10 % a year
    const rates = marketRates(r, 0n, 0n);
    expect(rates.borrowApr).toBe(r * 31_536_000n);
    expect(Math.abs(Number(rates.borrowApy) / 1e18 - apy(Number(r) / 1e18))).toBeLessThan(1e-9);
    // nobody borrows: suppliers earn nothing
    expect(rates.supplyPerSecond).toBe(0n);
    expect(rates.supplyApy).toBe(0n);
  });

  it('supply: r × utilisation × (1 − fee rate), rounded down', () => {
    const r = 3_170_979_198n;
    const rates = marketRates(r, (E18 * 3n) / 4n, E18 / 5n);
    expect(rates.supplyPerSecond).toBe((r * 3n * 4n) / 20n); // × 0.75 × 0.8 = × 0.6
    expect(rates.supplyApr).toBe(rates.supplyPerSecond * YEAR_SECONDS);
    expect(
      Math.abs(Number(rates.supplyApy) / 1e18 - apy(Number(rates.supplyPerSecond) / 1e18)),
    ).toBeLessThan(1e-9);
    expect(rates.supplyApr).toBeLessThan(rates.borrowApr);
    // a fee of everything leaves suppliers nothing
    expect(marketRates(r, E18, E18).supplyPerSecond).toBe(0n);
  });
});

describe('percentWords', () => {
  it('a percent with exactly 2 decimals, rounded down', () => {
    expect(percentWords(0n)).toBe('0.00');
    expect(percentWords((8n * E18) / 100n)).toBe('8.00');
    expect(percentWords((8n * E18) / 100n - 1n)).toBe('7.99');
    expect(percentWords((123_456n * E18) / 10_000_000n)).toBe('1.23');
    expect(percentWords(E18 / 200n)).toBe('0.50');
    expect(percentWords(12n * E18)).toBe('1200.00');
  });
});
