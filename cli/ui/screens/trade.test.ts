/**
 * Balances on home and the trade form: live quotes, high price impact, a failed execution.
 * The TUI over a fake services port (pure UI logic; the real program is driven in tmux by
 * test/tui-terminal.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { signedIn } from '../../../test/helpers/screens.js';
import { SWAP_HASH } from '../../../test/helpers/fake-services.js';
import { KEYS, type Rendered, renderWithProviders } from '../../../test/helpers/tui.js';

let ui: Rendered | undefined;
afterEach(() => {
  ui?.unmount();
  ui = undefined;
});

describe('balances', () => {
  it('home lists balances with a USD total; trade offers the balance as "max"', async () => {
    const services = signedIn({
      features: { balances: true },
      balances: {
        available: true,
        asOf: '',
        totalUsdCents: 123456n,
        tokens: [
          { symbol: 'USDC', decimals: 6, amount: 1_000_500_000n, usdCents: 100050n },
          { symbol: 'ETH', decimals: 18, amount: 10n ** 16n, usdCents: undefined },
        ],
      },
    });
    ui = renderWithProviders(services);
    const frame = await ui.waitForFrame((f) => f.includes('Total $1,234.56'));
    expect(frame).toMatch(/1000\.5 USDC\s+\$1,000\.50/);
    expect(frame).toMatch(/0\.01 ETH\s+no price/);
    await ui.press(KEYS.enter);
    await ui.waitForFrame((f) => f.includes('balance 1000.5 USDC'));
    expect(await ui.press(KEYS.ctrlX)).toMatch(/Amount\s+1000\.5 /);
  });
});

describe('trade', () => {
  it('a stale quote is aborted and never shown; the fresh one is', async () => {
    const services = signedIn();
    ui = renderWithProviders(services);
    await ui.waitForFrame((f) => f.includes('› Trade'));
    await ui.press(KEYS.enter);
    await ui.type('1');
    await ui.waitForFrame(() => services.quotes.length === 1);
    const stale = services.quotes[0]!;
    await ui.type('0');
    await ui.waitForFrame(() => services.quotes.length === 2);
    expect(stale.signal.aborted).toBe(true);
    stale.resolve({
      ...(await import('../../../test/helpers/fake-services.js')).quoteFixture(stale.request),
      expectedOutput: { amount: '7.77', baseUnits: '7770000000000000000', symbol: 'ETH' },
    });
    const fresh = services.quotes[1]!;
    expect(fresh.request.amount).toBe('10');
    fresh.resolve(
      (await import('../../../test/helpers/fake-services.js')).quoteFixture(fresh.request),
    );
    const frame = await ui.waitForFrame((f) => f.includes('You receive'));
    expect(frame).toContain('0.0333 ETH');
    expect(frame).not.toContain('7.77');
    expect(frame).toMatch(/quote refreshes in 1[45] s/);
  });

  it('very high price impact needs the typed word; then executing → receipt', async () => {
    const services = signedIn({ features: { trade: true }, autoQuoteImpactBps: 2000 });
    ui = renderWithProviders(services);
    await ui.waitForFrame((f) => f.includes('› Trade'));
    await ui.press(KEYS.enter);
    await ui.type('5');
    let frame = await ui.waitForFrame((f) => f.includes('Price impact'));
    expect(frame).toContain('very high');
    await ui.press(KEYS.enter);
    frame = await ui.waitForFrame((f) => f.includes('Review the swap'));
    expect(frame).toContain('approve the router to take exactly 5 USDC');
    expect(frame).toContain('−5 USDC');
    expect(frame).toContain('Type SWAP');
    await ui.press('y'); // goes into the field: y is not a confirmation here
    await ui.press(KEYS.enter, { change: false });
    expect(services.calls.filter((c) => c.startsWith('execute'))).toEqual([]);
    await ui.press(KEYS.backspace);
    await ui.type('SWAP');
    await ui.press(KEYS.enter);
    frame = await ui.waitForFrame((f) => f.includes('Swap confirmed'));
    expect(frame).toContain(SWAP_HASH);
    expect(services.calls).toContain('execute planned-swap-1');
  });

  it('a failed execution says what happened and what to do next', async () => {
    const services = signedIn({
      features: { trade: true },
      autoQuoteImpactBps: 5,
      execute: async () => {
        throw new AppError(ErrorCode.PAYMASTER_ERROR, 'the paymaster refused the transaction');
      },
    });
    ui = renderWithProviders(services);
    await ui.waitForFrame((f) => f.includes('› Trade'));
    await ui.press(KEYS.enter);
    await ui.type('5');
    await ui.waitForFrame((f) => f.includes('Price impact'));
    await ui.press(KEYS.enter);
    await ui.waitForFrame((f) => f.includes('Review the swap'));
    await ui.press('y');
    const frame = await ui.waitForFrame((f) => f.includes('The paymaster failed'));
    expect(frame).toContain('Nothing was sent');
  });
});
