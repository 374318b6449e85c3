import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveToken, type Token } from '../../shared/tokens.js';
import type { Route } from '../clients/aggregator.js';
import { priceImpactWarning, summarizeQuote } from './quote-summary.js';

const ETH = resolveToken('mainnet', 'ETH');
const USDC = resolveToken('mainnet', 'USDC');

function routeOf(
  from: Token,
  to: Token,
  inputAmount: bigint,
  outputAmount: bigint,
  hops: number,
  prices: [unknown, unknown] = [3000, 1],
): Route {
  const swap = {
    protocol: 1,
    poolName: 'P',
    poolAddress: `0x${'1'.padStart(64, '0')}`,
    fromTokenAddress: from.address,
    toTokenAddress: to.address,
    percent: '100%',
  };
  return {
    inputToken: {
      symbol: from.symbol,
      name: from.name,
      address: from.address,
      decimals: from.decimals,
      price: prices[0] as number | string | undefined,
    },
    outputToken: {
      symbol: to.symbol,
      name: to.name,
      address: to.address,
      decimals: to.decimals,
      price: prices[1] as number | string | undefined,
    },
    inputAmount,
    outputAmount,
    estimatedGasUsed: undefined,
    estimatedGasUsedInUsd: undefined,
    legs: [{ percent: '100%', hops: Array.from({ length: hops }, () => [swap]) }],
  };
}

/** Written out again here so the test does not trust shared/fees.ts or shared/slippage.ts. */
const floorScale = (value: bigint, bps: bigint): bigint => (value * (10_000n - bps)) / 10_000n;
const ceilFee = (value: bigint, bps: bigint): bigint => (value * bps + 9_999n) / 10_000n;

describe('summarizeQuote: minimum received', () => {
  it('is the smaller of floor(net × (1 − s)) and m − fee(m), m = floor(gross × (1 − s)) (10 000 runs)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 40n }),
        fc.integer({ min: 1, max: 5000 }),
        fc.constantFrom(1, 2),
        (gross, slippage, hops) => {
          const feeBps = hops === 1 ? 2n : 15n;
          const q = summarizeQuote(
            routeOf(ETH, USDC, 10n ** 18n, gross, hops),
            ETH,
            USDC,
            slippage,
            'mainnet',
          );
          const shown = BigInt(q.minimumReceived.baseUnits);
          const net = gross - ceilFee(gross, feeBps);
          const fromNet = floorScale(net, BigInt(slippage));
          const m = floorScale(gross, BigInt(slippage));
          const afterFee = m - ceilFee(m, feeBps);
          assert.ok(shown <= fromNet);
          assert.ok(shown <= afterFee);
          assert.equal(shown, fromNet < afterFee ? fromNet : afterFee);
          assert.equal(BigInt(q.calldataMinimumReceived.baseUnits), m);
        },
      ),
      { numRuns: 10_000 },
    );
  });

  it('a case where the net-based figure would promise one unit more than the router guarantees', () => {
    // gross 1 000.000101 USDC, 15 bps, 1 %: net 998.500100 → floor(× 0.99) = 988.515099, but
    // m = 990.000099 and m − ceil(m × 15 bps) = 988.515098.
    const q = summarizeQuote(
      routeOf(ETH, USDC, 10n ** 18n, 1_000_000_101n, 2),
      ETH,
      USDC,
      100,
      'mainnet',
    );
    expect(q.calldataMinimumReceived.baseUnits).toBe('990000099');
    expect(q.minimumReceived.baseUnits).toBe('988515098');
  });
});

describe('summarizeQuote: price impact from junk prices', () => {
  it.each([
    ['"1e999" in', ['1e999', 1]],
    ['"1e999" out', [3000, '1e999']],
    ['1e308 number out', [3000, 1e308]],
    ['a 200-digit price', ['9'.repeat(200), 1]],
    ['a tiny price out (output worth nothing)', [3000, '1e-30']],
  ] as Array<[string, [unknown, unknown]]>)('%s → priceImpact null, no throw', (_name, prices) => {
    const q = summarizeQuote(
      routeOf(ETH, USDC, 10n ** 18n, 2_990_000_000n, 1, prices),
      ETH,
      USDC,
      100,
      'mainnet',
    );
    expect(q.priceImpact).toBeNull();
  });

  it('sane prices still give a figure', () => {
    const q = summarizeQuote(
      routeOf(ETH, USDC, 10n ** 18n, 2_970_000_000n, 1),
      ETH,
      USDC,
      100,
      'mainnet',
    );
    expect(q.priceImpact).toEqual({ bps: 100, percent: '1%' });
  });
});

describe('priceImpactWarning', () => {
  it.each([
    [undefined, null],
    [-20, null],
    [0, null],
    [500, null],
    [501, 'high'],
    [1500, 'high'],
    [1501, 'very-high'],
    [9200, 'very-high'],
  ] as const)('%s bps → %s', (bps, expected) => {
    expect(priceImpactWarning(bps)).toBe(expected);
  });
});
