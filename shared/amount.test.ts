import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatAmount, parseAmount, U256_MAX } from './amount.js';
import { AppError } from './errors.js';
import {
  applyServiceFee,
  formatBpsAsPercent,
  formatRate,
  parsePriceScaled,
  priceImpactBps,
  serviceFeeBps,
} from './fees.js';
import { minimumReceived, parseSlippageBps, slippagePercentString } from './slippage.js';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof AppError ? error.code : `not an AppError: ${String(error)}`;
  }
  return undefined;
}

/** A canonical decimal string with at most `decimals` fractional digits (trailing zeros trimmed). */
const decimalString = (decimals: number) =>
  fc
    .tuple(
      fc.bigInt({ min: 0n, max: 10n ** 30n }),
      fc.bigInt({ min: 0n, max: 10n ** BigInt(decimals) - 1n }),
    )
    .map(([whole, frac]) => {
      const fraction =
        decimals === 0 ? '' : frac.toString().padStart(decimals, '0').replace(/0+$/, '');
      return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
    });

describe('parseAmount / formatAmount', () => {
  it('format(parse(x)) is x for canonical decimal strings', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }).chain((d) => fc.tuple(fc.constant(d), decimalString(d))),
        ([decimals, text]) => {
          expect(formatAmount(parseAmount(text, decimals, { allowZero: true }), decimals)).toBe(
            text,
          );
        },
      ),
    );
  });

  it('parse(format(units)) is units for any base-unit value', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        fc.bigInt({ min: 1n, max: U256_MAX }),
        (decimals, units) => {
          expect(parseAmount(formatAmount(units, decimals), decimals)).toBe(units);
        },
      ),
    );
  });

  it('rejects more fractional digits than the token has', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 18 }),
        fc.integer({ min: 1, max: 5 }),
        (decimals, extra) => {
          const text = `1.${'0'.repeat(decimals)}${'1'.repeat(extra)}`;
          expect(codeOf(() => parseAmount(text, decimals))).toBe('INVALID_AMOUNT');
        },
      ),
    );
  });

  it('parses exactly', () => {
    expect(parseAmount('1', 18)).toBe(10n ** 18n);
    expect(parseAmount('0.000001', 6)).toBe(1n);
    expect(parseAmount('  12.5 ', 6)).toBe(12_500_000n);
    expect(parseAmount('007.10', 2)).toBe(710n);
    expect(parseAmount('0', 6, { allowZero: true })).toBe(0n);
    expect(formatAmount(1_500_000n, 6)).toBe('1.5');
    expect(formatAmount(0n, 18)).toBe('0');
    expect(formatAmount(123n, 0)).toBe('123');
    expect(formatAmount(1_234_567n, 6, { maxFractionDigits: 2 })).toBe('1.23');
    expect(formatAmount(1_999_999_999_999_999_999n, 18)).toBe('1.999999999999999999');
  });

  it.each([
    ['empty', ''],
    ['whitespace only', '   '],
    ['negative', '-1'],
    ['plus sign', '+1'],
    ['zero', '0'],
    ['zero with decimals', '0.000'],
    ['exponent', '1e18'],
    ['capital exponent', '1E3'],
    ['hex', '0x10'],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
    ['trailing dot', '1.'],
    ['leading dot', '.5'],
    ['two dots', '1.2.3'],
    ['comma separator', '1,000'],
    ['underscore separator', '1_000'],
    ['inner space', '1 000'],
    ['letters', 'ten'],
    ['too many decimals', '0.0000001'],
    ['above u256', `${U256_MAX + 1n}`],
    ['absurdly long', '1'.repeat(200)],
  ])('rejects %s (%j) with INVALID_AMOUNT', (_name, text) => {
    expect(codeOf(() => parseAmount(text, 6))).toBe('INVALID_AMOUNT');
  });
});

describe('a decimal comma', () => {
  const messageOf = (text: string): string => {
    try {
      parseAmount(text, 6, { label: 'USDC' });
    } catch (error) {
      return (error as Error).message;
    }
    return 'parsed';
  };
  it('says to write the dotted number, and names both readings of a possible thousands separator', () => {
    expect(messageOf('1,5')).toBe('invalid USDC amount "1,5": use a dot for decimals: write 1.5');
    expect(messageOf('12,25')).toContain('write 12.25');
    expect(messageOf('1,000')).toBe(
      'invalid USDC amount "1,000": no commas: write 1000, or 1.000 for a decimal',
    );
  });
});

describe('slippage', () => {
  it('parses percent into basis points within 0.01 %–50 %', () => {
    expect(parseSlippageBps('1')).toBe(100);
    expect(parseSlippageBps('0.5')).toBe(50);
    expect(parseSlippageBps('0.01')).toBe(1);
    expect(parseSlippageBps('50')).toBe(5000);
    expect(parseSlippageBps('2.5%')).toBe(250);
    expect(slippagePercentString(50)).toBe('0.5');
    expect(slippagePercentString(100)).toBe('1');
  });

  it.each(['0', '0.001', '50.01', '51', '-1', 'abc', '', '1e1', 'NaN'])(
    'rejects %j with INVALID_SLIPPAGE',
    (text) => {
      expect(codeOf(() => parseSlippageBps(text))).toBe('INVALID_SLIPPAGE');
    },
  );

  it('minimum received never exceeds expected and equals floor(out × (10000 − bps) / 10000)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: U256_MAX }),
        fc.integer({ min: 1, max: 5000 }),
        (out, bps) => {
          const min = minimumReceived(out, bps);
          assert.ok(min <= out);
          // Independent computation: subtract the ceiling of the slippage share instead of scaling down.
          const product = out * BigInt(bps);
          const ceilShare = product / 10000n + (product % 10000n === 0n ? 0n : 1n);
          assert.equal(min, out - ceilShare);
        },
      ),
      { numRuns: 10_000 },
    );
  });
});

describe('fees and price impact', () => {
  const hop = [{}];
  it('2 bps when every leg is one direct pool swap, 15 bps otherwise', () => {
    expect(serviceFeeBps({ legs: [{ hops: [hop] }] })).toBe(2);
    expect(serviceFeeBps({ legs: [{ hops: [hop] }, { hops: [hop] }] })).toBe(2);
    expect(serviceFeeBps({ legs: [{ hops: [hop, hop] }] })).toBe(15);
    expect(serviceFeeBps({ legs: [{ hops: [[{}, {}]] }] })).toBe(15);
    expect(serviceFeeBps({ legs: [{ hops: [hop] }, { hops: [hop, hop] }] })).toBe(15);
  });

  it('rounds the fee up so the net is never overstated', () => {
    expect(applyServiceFee(10_000n, 2)).toEqual({ fee: 2n, net: 9_998n });
    expect(applyServiceFee(10_001n, 2)).toEqual({ fee: 3n, net: 9_998n });
    expect(applyServiceFee(0n, 15)).toEqual({ fee: 0n, net: 0n });
  });

  it('computes price impact in integer math from token prices', () => {
    // 1 ETH at 3000 → 2970 USDC at 1: 1 % impact.
    expect(
      priceImpactBps({
        amountIn: 10n ** 18n,
        decimalsIn: 18,
        priceIn: 3000,
        amountOut: 2_970_000_000n,
        decimalsOut: 6,
        priceOut: '1',
      }),
    ).toBe(100);
    expect(
      priceImpactBps({
        amountIn: 10n ** 18n,
        decimalsIn: 18,
        priceIn: undefined,
        amountOut: 1n,
        decimalsOut: 6,
        priceOut: 1,
      }),
    ).toBeUndefined();
    expect(parsePriceScaled('1e-7')).toBe(10n ** 11n);
    expect(parsePriceScaled(0.5)).toBe(5n * 10n ** 17n);
    expect(parsePriceScaled('abc')).toBeUndefined();
    expect(formatBpsAsPercent(15)).toBe('0.15%');
    expect(formatBpsAsPercent(-250)).toBe('-2.5%');
    expect(formatRate(10n ** 18n, 18, 3_000_123_456n, 6)).toBe('3000.123456');
  });

  it('junk prices are not prices: undefined instead of -Infinity or a throw', () => {
    const base = {
      amountIn: 10n ** 18n,
      decimalsIn: 18,
      amountOut: 2_970_000_000n,
      decimalsOut: 6,
    };
    for (const junk of ['1e999', '1e31', '1e-31', 1e308, `${'9'.repeat(70)}`, '2e15']) {
      expect(parsePriceScaled(junk)).toBeUndefined();
      expect(priceImpactBps({ ...base, priceIn: 3000, priceOut: junk })).toBeUndefined();
      expect(priceImpactBps({ ...base, priceIn: junk, priceOut: 1 })).toBeUndefined();
    }
    expect(parsePriceScaled('1e15')).toBe(10n ** 33n);
    expect(parsePriceScaled('1e-18')).toBe(1n);
    // An "impact" beyond ±100 % is bad price data, never a market: unknown.
    expect(priceImpactBps({ ...base, priceIn: 3000, priceOut: 1000 })).toBeUndefined();
    expect(priceImpactBps({ ...base, priceIn: 3000, priceOut: 2.02 })).toBe(-9_998);
    expect(priceImpactBps({ ...base, priceIn: 3000, priceOut: 2.03 })).toBeUndefined();
    expect(priceImpactBps({ ...base, amountOut: 0n, priceIn: 3000, priceOut: 1 })).toBe(10_000);
    expect(() => formatBpsAsPercent(Number.NEGATIVE_INFINITY)).toThrow(RangeError);
  });
});
