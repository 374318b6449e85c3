/** The Portfolio and Rebalance screens over a fake of the services port (the real port: test/cli-portfolio.test.ts runs the same core). */
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import type { Portfolio, RebalanceView } from '../services.js';
import { parseTargets } from '../../core/allocation.js';
import { fakeServices, SESSION } from '../../../test/helpers/fake-services.js';
import { openFromHome } from '../../../test/helpers/screens.js';
import { KEYS, type Rendered, renderWithProviders } from '../../../test/helpers/tui.js';

let ui: Rendered | undefined;
afterEach(() => {
  ui?.unmount();
  ui = undefined;
});

const token = (
  symbol: string,
  amount: string,
  share: { percent: string; units: number } | null,
  usd: string | null,
  unpriced: string | null = null,
) => ({
  symbol,
  address: `0x${'1'.repeat(64)}`,
  decimals: 18,
  amount,
  baseUnits: '1',
  price: usd === null ? null : { usd: '1.00', scaled: '1' },
  value: usd === null ? null : { usd, cents: '1' },
  share,
  ifSoldNow: null,
  unpriced,
  cached: false,
});

const PORTFOLIO = (ethPercent: string, units: number): Portfolio => ({
  network: 'sandbox',
  sandbox: true,
  address: SESSION.walletAddress,
  email: SESSION.email,
  tokens: [
    token('ETH', '10', { percent: ethPercent, units }, '30000.00'),
    token('USDC', '10000', { percent: '25.00', units: 10_000 - units }, '10000.00'),
    token('DAI', '5', null, null, 'unpriced: NO_ROUTE_FOUND: no route'),
  ],
  total: { usd: '40000.00', cents: '4000000' },
  unpriced: [{ symbol: 'DAI', reason: 'unpriced: NO_ROUTE_FOUND: no route' }],
  notes: ['DAI has no price and is left out of the total and the shares (not counted as 0)'],
  pricing: { method: 'm', cacheSeconds: 20, pricesAsOf: null, ageSeconds: 3, fromCache: 0 },
  asOf: '2026-11-25T10:00:00.000Z',
});

describe('portfolio screen', () => {
  it('draws the allocation as bars with shares, the total, the unpriced token with its reason; r refreshes past the cache', async () => {
    const services = fakeServices({
      session: SESSION,
      features: { portfolio: true },
      portfolios: [PORTFOLIO('75.00', 7500), PORTFOLIO('70.00', 7000)],
    });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Portfolio');
    const frame = await ui.waitForFrame((f) => f.includes('Total $40000.00'));
    expect(frame).toMatch(/ETH +█{18}·{6} +75\.00 %/);
    expect(frame).toMatch(/USDC +█{6}·{18} +25\.00 %/);
    expect(frame).toMatch(/DAI +unpriced/);
    expect(frame).toContain('DAI: unpriced: NO_ROUTE_FOUND');
    expect(frame).toContain('(priced tokens only)');
    expect(frame).toContain('prices 3 s old');
    await ui.press('r');
    await ui.waitForFrame((f) => f.includes('70.00 %'));
    expect(services.calls.filter((c) => c.startsWith('portfolio'))).toEqual([
      'portfolio',
      'portfolio fresh',
    ]);
  });
});

describe('portfolio positions', () => {
  it('at 80×24: every position line, its health factor, the net and the liquidation warning, nothing cut', async () => {
    const services = fakeServices({
      session: SESSION,
      features: { portfolio: true },
      portfolios: [
        {
          ...PORTFOLIO('75.00', 7500),
          positions: [
            {
              kind: 'staked',
              source: 'Karnot',
              symbol: 'STRK',
              amount: '100.000000000000000001',
              baseUnits: '1',
              value: { usd: '50.00', cents: '5000' },
            },
            {
              kind: 'supplied',
              source: 'Vesu Prime',
              symbol: 'USDC',
              amount: '12.345678',
              baseUnits: '1',
              value: { usd: '12.34', cents: '1234' },
            },
            {
              kind: 'collateral',
              source: 'Vesu Prime',
              symbol: 'ETH',
              amount: '1.999999999999999999',
              baseUnits: '1',
              value: { usd: '5999.99', cents: '599999' },
            },
            {
              kind: 'debt',
              source: 'Vesu Prime (against ETH)',
              symbol: 'USDC',
              amount: '-5000.000001',
              baseUnits: '-1',
              value: { usd: '-5000.00', cents: '-500000' },
              healthFactor: '0.7999',
            },
          ],
          net: { usd: '41062.33', cents: '4106233' },
        },
      ],
    });
    ui = renderWithProviders(services, { columns: 80, rows: 24 });
    await openFromHome(ui, 'Portfolio');
    const frame = await ui.waitForFrame((f) => f.includes('Net $41062.33'));
    expect(frame).toContain('Staked 100.000000000000000001 STRK');
    expect(frame).toContain('Supplied 12.345678 USDC');
    expect(frame).toContain('Collateral 1.999999999999999999 ETH');
    expect(frame).toContain('Debt -5000.000001 USDC');
    expect(frame).toContain('-$5000.00 · Vesu Prime (against ETH)');
    expect(frame).toContain('health factor 0.7999 (at or below 1: can be liquidated now)');
    expect(frame.replace(/\s+/g, ' ')).toContain(
      '✖ The USDC debt in Vesu Prime (against ETH) can be liquidated now: repay or add collateral',
    );
    expect(frame).toContain('Total $40000.00 wallet tokens');
    for (const line of frame.split('\n')) {
      expect(line.length).toBeLessThanOrEqual(80);
      expect(line).not.toMatch(/…$/);
    }
  });
});

describe('rebalance screen', () => {
  it('"already balanced" is said with the table; nothing to review', async () => {
    const view: RebalanceView = {
      base: 'named-tokens',
      baseNote:
        'target shares are of what the named tokens are worth together; DAI kept as they are',
      baseValueUsd: '40000.00',
      band: '2.00',
      minTradeUsd: '1.00',
      rows: [
        { symbol: 'ETH', now: '75.00', target: '75.00', after: '75.00' },
        { symbol: 'USDC', now: '25.00', target: '25.00', after: '25.00' },
      ],
      afterFrom: 'unchanged',
      kept: ['DAI'],
      unpriced: [],
      belowMinimum: [],
      notes: [],
      pricedAt: '2026-11-25T10:00:00.000Z',
    };
    const services = fakeServices({
      session: SESSION,
      features: { portfolio: true },
      portfolios: [PORTFOLIO('75.00', 7500)],
      rebalanceError: new AppError(ErrorCode.ALREADY_BALANCED, 'already balanced', {
        details: { rebalance: view },
      }),
    });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Portfolio');
    await ui.waitForFrame((f) => f.includes('Total $40000.00'));
    await ui.press(KEYS.enter);
    await ui.waitForFrame((f) => f.includes('Target'));
    await ui.press('75 ETH, 25 USDC');
    let frame = await ui.press('\u000f'); // Ctrl+O: sell unlisted
    expect(frame).toContain('[x] sold');
    frame = await ui.press('\u000f');
    expect(frame).toContain('[ ] kept');
    await ui.press(KEYS.enter);
    frame = await ui.waitForFrame((f) => f.includes('Already balanced'));
    expect(frame).toMatch(/ETH +75\.00 +75\.00 +75\.00/);
    expect(frame).toContain('DAI kept');
    expect(services.calls).toContain('plan rebalance 75 ETH, 25 USDC');
    // said for the form it answered: selling unlisted tokens is another question
    expect(await ui.press('\u000f')).not.toContain('Already balanced');
  });

  it('a refusal is said only while the form asks for what was refused', async () => {
    const services = fakeServices({
      session: SESSION,
      features: { portfolio: true },
      portfolios: [PORTFOLIO('75.00', 7500)],
      rebalanceError: new AppError(
        ErrorCode.REBALANCE_OUTSIDE_BAND,
        'the ETH leg is below the minimum trade',
      ),
    });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Portfolio');
    await ui.waitForFrame((f) => f.includes('Total $40000.00'));
    await ui.press(KEYS.enter);
    await ui.waitForFrame((f) => f.includes('Target'));
    await ui.press('75 ETH, 25 USDC');
    await ui.press(KEYS.enter);
    await ui.waitForFrame((f) => f.includes('below the minimum trade'));
    // Ctrl+O sells unlisted tokens: another request, the refusal is not its own
    expect(await ui.press('\u000f')).not.toContain('below the minimum trade');
    expect(await ui.press('\u000f')).toContain('below the minimum trade');
    // another target too
    expect(await ui.type('0')).not.toContain('below the minimum trade');
  });

  it('targets not adding up to 100: the core’s refusal in the app’s words — the field, not a flag; no "try again"', async () => {
    // the core's own refusal, as the planner throws it for this target
    const refusal = (() => {
      try {
        parseTargets('60 ETH, 50 USDC', 'mainnet');
      } catch (error) {
        return error;
      }
      throw new Error('parseTargets took targets adding up to 110');
    })();
    const services = fakeServices({
      session: SESSION,
      features: { portfolio: true },
      portfolios: [PORTFOLIO('75.00', 7500)],
      rebalanceError: refusal as AppError,
    });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Portfolio');
    await ui.waitForFrame((f) => f.includes('Total $40000.00'));
    await ui.press(KEYS.enter);
    await ui.waitForFrame((f) => f.includes('Target'));
    await ui.press('60 ETH, 50 USDC');
    await ui.press(KEYS.enter);
    const frame = (await ui.waitForFrame((f) => f.includes('they add up to 110'))).replace(
      /\s+/g,
      ' ',
    );
    expect(frame).toContain('Target: percentages must add up to 100; they add up to 110');
    expect(frame).toContain('(USAGE_ERROR)');
    expect(frame).toContain('Nothing was signed. Change what is named above.');
    expect(frame).not.toMatch(/--target|Try again|Something went wrong/i);
  });
});
