import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listTokens, resolveToken } from '../../shared/tokens.js';
import {
  computeRebalance,
  formatShare,
  type HoldingInput,
  MAX_REBALANCE_LEGS,
  parseTargets,
  PRICE_SCALE,
  SHARE_SCALE,
  shares,
} from './allocation.js';

const tokens = listTokens('mainnet');
const T = (s: string) => resolveToken('mainnet', s);
const usd = (n: bigint) => n * PRICE_SCALE;

describe('shares: largest remainder, exactly 100.00 %', () => {
  it('three equal values: 33.34 + 33.33 + 33.33', () => {
    expect(shares([1n, 1n, 1n]).map(formatShare)).toEqual(['33.34', '33.33', '33.33']);
    expect(shares([0n, 0n])).toEqual([0n, 0n]);
  });

  it('property: shares of any non-zero values add up to exactly 10000 (100.00 %), each within 0.01 of its exact share', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 40n }), { minLength: 1, maxLength: 12 }),
        (values) => {
          const total = values.reduce((s, v) => s + v, 0n);
          const got = shares(values);
          if (total === 0n) return got.every((g) => g === 0n);
          expect(got.reduce((s, v) => s + v, 0n)).toBe(SHARE_SCALE);
          values.forEach((v, i) => {
            const exactTimesTotal = v * SHARE_SCALE;
            const shown = (got[i] as bigint) * total;
            // floor(exact) ≤ shown ≤ floor(exact) + 1
            expect(shown <= exactTimesTotal + total).toBe(true);
            expect(shown + total > exactTimesTotal).toBe(true);
          });
          return true;
        },
      ),
    );
  });
});

describe('targets', () => {
  it('parses "50 ETH, 30 USDC, 20 STRK" and "33.33% ETH, 33.33 USDC, 33.34 STRK"', () => {
    expect(
      parseTargets('50 ETH, 30 USDC, 20 STRK', 'mainnet').map((t) => [t.token.symbol, t.share]),
    ).toEqual([
      ['ETH', 5000n],
      ['USDC', 3000n],
      ['STRK', 2000n],
    ]);
    expect(parseTargets('33.33% ETH, 33.33 USDC, 33.34 STRK', 'mainnet')).toHaveLength(3);
  });

  it.each([
    ['50 ETH, 30 USDC', /add up to 100; they add up to 80/],
    ['50 ETH, 30 USDC, 30 STRK', /they add up to 110/],
    ['50 ETH, 50 eth', /names ETH twice/],
    ['50 ETH, 50 NOPE', /unknown token "NOPE"/],
    ['ETH 50, USDC 50', /is not "PERCENT TOKEN"/],
    ['50.123 ETH, 49.877 USDC', /at most two decimals/],
    ['', /^required, e\.g\./],
  ])('refuses %j', (text, message) => {
    expect(() => parseTargets(text, 'mainnet')).toThrow(message);
  });

  it('a refusal says it is about the target as data, naming no flag (each face names the field)', () => {
    try {
      parseTargets('60 ETH, 60 USDC', 'mainnet');
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({
        code: 'USAGE_ERROR',
        message: 'percentages must add up to 100; they add up to 120',
        details: { field: 'target', sum: '120.00' },
      });
    }
  });
});

describe('computeRebalance', () => {
  const wallet: HoldingInput[] = [
    { token: T('ETH'), balance: 10n * 10n ** 18n, price: usd(3000n) },
    { token: T('USDC'), balance: 10_000n * 10n ** 6n, price: usd(1n) },
    { token: T('STRK'), balance: 20_000n * 10n ** 18n, price: PRICE_SCALE / 2n },
    { token: T('WBTC'), balance: 5n * 10n ** 7n, price: usd(90_000n) },
  ];

  it('named tokens only: WBTC is kept, the shares are of ETH + USDC + STRK; ETH sells into USDC', () => {
    const r = computeRebalance({
      holdings: wallet,
      targets: parseTargets('50 ETH, 30 USDC, 20 STRK', 'mainnet'),
      sellUnlisted: false,
      band: 200n,
      minTrade: PRICE_SCALE,
    });
    expect(r.base).toBe('named-tokens');
    expect(r.kept.map((t) => t.symbol)).toEqual(['WBTC']);
    expect(r.rows.map((x) => formatShare(x.now))).toEqual(['60.00', '20.00', '20.00']);
    expect(r.legs).toEqual([
      { from: T('ETH'), to: T('USDC'), amount: (10n * 10n ** 18n) / 6n, value: usd(5000n) },
    ]);
  });

  it('within the band: balanced, no leg; a leg below the minimum trade is not made', () => {
    const r = computeRebalance({
      holdings: wallet,
      targets: parseTargets('59 ETH, 21 USDC, 20 STRK', 'mainnet'),
      sellUnlisted: false,
      band: 200n,
      minTrade: PRICE_SCALE,
    });
    expect(r.balanced).toBe(true);
    expect(r.legs).toEqual([]);
    const tiny = computeRebalance({
      holdings: wallet,
      targets: parseTargets('57 ETH, 23 USDC, 20 STRK', 'mainnet'),
      sellUnlisted: false,
      band: 200n,
      minTrade: usd(10_000n),
    });
    // out of the band, and the one leg that would bring it back is below the minimum: this run
    // could not reach the band (the kind refuses it, rebalance.ts)
    expect(tiny.legs).toEqual([]);
    expect(tiny.belowMinimum).toHaveLength(1);
    expect(tiny.balanced).toBe(false);
    expect(tiny.expectedWithinBand).toBe(false);
    expect(tiny.expected).toEqual(tiny.rows.map((x) => x.now));
  });

  it('--sell-unlisted: the whole wallet is the base, WBTC (target 0) is sold to the last unit', () => {
    const r = computeRebalance({
      holdings: wallet,
      targets: parseTargets('40 ETH, 40 USDC, 20 STRK', 'mainnet'),
      sellUnlisted: true,
      band: 200n,
      minTrade: PRICE_SCALE,
    });
    expect(r.base).toBe('whole-wallet');
    const wbtcSold = r.legs
      .filter((l) => l.from.symbol === 'WBTC')
      .reduce((s, l) => s + l.amount, 0n);
    expect(wbtcSold).toBe(5n * 10n ** 7n);
  });

  it('issue 25: ETH, STRK, USDC, USDT, DAI, WBTC to 50 ETH, 30 USDC, 20 STRK --sell-unlisted: all 5 legs in one transaction, ending exactly at the targets', () => {
    const faucet: HoldingInput[] = [
      ...wallet,
      { token: T('USDT'), balance: 10_000n * 10n ** 6n, price: usd(1n) },
      { token: T('DAI'), balance: 10_000n * 10n ** 18n, price: usd(1n) },
    ];
    const r = computeRebalance({
      holdings: faucet,
      targets: parseTargets('50 ETH, 30 USDC, 20 STRK', 'mainnet'),
      sellUnlisted: true,
      band: 200n,
      minTrade: PRICE_SCALE,
    });
    // 115 000 USD: ETH +27 500, USDC +24 500, STRK +13 000 from WBTC 45 000, USDT and DAI 10 000
    expect(r.legs.map((l) => [l.from.symbol, l.to.symbol, l.value / PRICE_SCALE])).toEqual([
      ['WBTC', 'ETH', 27_500n],
      ['WBTC', 'USDC', 17_500n],
      ['DAI', 'STRK', 10_000n],
      ['USDT', 'USDC', 7_000n],
      ['USDT', 'STRK', 3_000n],
    ]);
    expect(r.legs.length).toBeLessThanOrEqual(MAX_REBALANCE_LEGS);
    expect(r.belowMinimum).toEqual([]);
    expect(r.expectedWithinBand).toBe(true);
    expect(r.expected.map(formatShare)).toEqual([
      '50.00',
      '30.00',
      '20.00',
      '0.00',
      '0.00',
      '0.00',
    ]);
    for (const s of ['WBTC', 'USDT', 'DAI'])
      expect(r.legs.filter((l) => l.from.symbol === s).reduce((sum, l) => sum + l.amount, 0n)).toBe(
        faucet.find((h) => h.token.symbol === s)?.balance,
      );
  });

  it('a target token not held at all is bought; a target without a price is refused', () => {
    const r = computeRebalance({
      holdings: [...wallet, { token: T('DAI'), balance: 0n, price: usd(1n) }],
      targets: parseTargets('50 ETH, 50 DAI', 'mainnet'),
      sellUnlisted: false,
      band: 200n,
      minTrade: PRICE_SCALE,
    });
    expect(r.legs).toMatchObject([
      { from: { symbol: 'ETH' }, to: { symbol: 'DAI' }, value: usd(15_000n) },
    ]);
    expect(() =>
      computeRebalance({
        holdings: [{ token: T('ETH'), balance: 1n, price: undefined }],
        targets: parseTargets('100 ETH', 'mainnet'),
        sellUnlisted: false,
        band: 200n,
        minTrade: 0n,
      }),
    ).toThrow(/no price for ETH/);
  });

  it('property: legs never sell more than held (per token, summed), every leg is positive, within the bound; the value moves, none is made', () => {
    const holding = fc.record({
      index: fc.integer({ min: 0, max: tokens.length - 1 }),
      balance: fc.bigInt({ min: 0n, max: 10n ** 30n }),
      price: fc.bigInt({ min: 1n, max: 10n ** 24n }),
    });
    const targetsArb = fc
      .uniqueArray(fc.integer({ min: 0, max: tokens.length - 1 }), {
        minLength: 1,
        maxLength: tokens.length,
      })
      .chain((idx) =>
        fc
          .array(fc.integer({ min: 0, max: 100 }), { minLength: idx.length, maxLength: idx.length })
          .map((weights) => {
            const sum = weights.reduce((s, w) => s + w, 0) || 1;
            const raw = weights.map((w) => BigInt(Math.floor((w * 10_000) / sum)));
            raw[0] = (raw[0] as bigint) + (SHARE_SCALE - raw.reduce((s, v) => s + v, 0n));
            return idx.map((i, k) => ({
              token: tokens[i] as (typeof tokens)[number],
              share: raw[k] as bigint,
            }));
          }),
      );
    fc.assert(
      fc.property(
        fc.uniqueArray(holding, { selector: (h) => h.index, maxLength: tokens.length }),
        targetsArb,
        fc.boolean(),
        (hs, targets, sellUnlisted) => {
          const holdings = tokens.map((token, i) => {
            const h = hs.find((x) => x.index === i);
            return { token, balance: h?.balance ?? 0n, price: h?.price ?? 10n ** 18n };
          });
          let r;
          try {
            r = computeRebalance({ holdings, targets, sellUnlisted, band: 200n, minTrade: 0n });
          } catch {
            return true; // nothing worth anything: refused, never a leg
          }
          // sellers + buyers − 1 of the registry's tokens: within the bound of one transaction
          expect(r.legs.length).toBeLessThanOrEqual(
            Math.min(MAX_REBALANCE_LEGS, tokens.length - 1),
          );
          expect(r.expectedValues.reduce((s, v) => s + v, 0n)).toBe(r.baseValue);
          for (const token of tokens) {
            const sold = [...r.legs, ...r.belowMinimum]
              .filter((l) => l.from.address === token.address)
              .reduce((s, l) => s + l.amount, 0n);
            const held = holdings.find((h) => h.token.address === token.address)?.balance ?? 0n;
            expect(sold <= held).toBe(true);
          }
          expect(r.legs.every((l) => l.amount > 0n && l.from.address !== l.to.address)).toBe(true);
          expect(r.rows.reduce((s, x) => s + x.now, 0n)).toBe(SHARE_SCALE);
          return true;
        },
      ),
    );
  });
});
