import { describe, expect, it } from 'vitest';
import type { Portfolio } from '../core/portfolio.js';
import { renderPortfolio } from './portfolio-render.js';

const usd = (value: string) => ({ usd: value, cents: value.replace('.', '') });

const portfolio = (over: Partial<Portfolio> = {}): Portfolio => ({
  network: 'mainnet',
  sandbox: false,
  address: `0x${'a'.repeat(64)}`,
  email: 'me@example.com',
  tokens: [],
  total: usd('0.00'),
  unpriced: [],
  notes: [],
  pricing: {
    method: 'aggregator',
    cacheSeconds: 20,
    pricesAsOf: null,
    ageSeconds: null,
    fromCache: 0,
  },
  asOf: '2026-11-28T00:00:00.000Z',
  ...over,
});

describe('renderPortfolio positions', () => {
  it('one table: values right-aligned, the debt negative with its health factor, the net after', () => {
    const text = renderPortfolio(
      portfolio({
        positions: [
          {
            kind: 'staked',
            source: 'Braavos',
            symbol: 'STRK',
            amount: '100',
            baseUnits: '100000000000000000000',
            value: usd('50.00'),
          },
          {
            kind: 'collateral',
            source: 'Prime',
            symbol: 'ETH',
            amount: '1.3',
            baseUnits: '1300000000000000000',
            value: usd('1820.00'),
          },
          {
            kind: 'debt',
            source: 'Prime (against ETH)',
            symbol: 'USDT',
            amount: '-1000.00049',
            baseUnits: '-1000000490',
            value: { usd: '-1000.00', cents: '-100000' },
            healthFactor: '1.4559',
          },
        ],
        net: usd('870.00'),
      }),
    );
    const lines = text.split('\n');
    const at = lines.indexOf('  Positions:');
    const rows = lines.slice(at + 1, at + 5);
    expect(rows[0]).toMatch(/^ {4}position +amount +value USD +where$/);
    // the value column ends at the same place on every row
    const ends = rows.slice(1).map((r) => r.search(/\d {2}(Braavos|Prime)/));
    expect(rows[1]).toMatch(/^ {4}staked {5,}100 STRK +50\.00 {2}Braavos$/);
    expect(rows[3]).toMatch(/-1000\.00 {2}Prime \(against ETH\) {2}health factor 1\.4559$/);
    expect(new Set(ends).size).toBe(1);
    expect(lines[at + 5]).toBe('  Net: 870.00 USD (wallet + positions, debt subtracted)');
  });
});
