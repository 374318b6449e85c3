import { describe, expect, it } from 'vitest';
import { usdCentsAt } from './fees.js';

describe('usdCentsAt', () => {
  it.each([
    ['whole tokens', 10n * 10n ** 18n, 18, '3000', 3_000_000n],
    ['a price as a number', 1_500_000n, 6, 1.0001, 150n],
    ['rounded down, never up', 1n, 6, '0.999', 0n],
    ['exponent prices', 5n * 10n ** 7n, 8, '9e4', 4_500_000n],
  ])('%s', (_label, amount, decimals, price, cents) => {
    expect(usdCentsAt(amount, decimals, price)).toBe(cents);
  });

  it('no price, a junk one or a negative amount is unknown', () => {
    for (const price of [undefined, null, 'abc', '1e999', -1, 0])
      expect(usdCentsAt(1n, 0, price)).toBeUndefined();
    expect(usdCentsAt(-1n, 0, '1')).toBeUndefined();
  });
});
