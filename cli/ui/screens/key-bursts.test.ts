/**
 * Keys that arrive together in one read (a paste, a fast typist, tmux send-keys) do what the same
 * keys typed slowly do: each key of a burst is applied, in order, before the next — a Tab moves
 * the focus before the characters after it, Enter sees what was typed before it, a screen opened
 * mid-burst takes the keys after it. Every burst here is one `stdin.write`.
 * The TUI over a fake services port (the real program: test/tui-terminal.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openFromHome, signedIn } from '../../../test/helpers/screens.js';
import { DEBOUNCE_MS } from '../hooks/live-quote-state.js';
import { MENU } from './home.js';
import { KEYS, type Rendered, renderWithProviders } from '../../../test/helpers/tui.js';

let ui: Rendered | undefined;
afterEach(() => {
  ui?.unmount();
  ui = undefined;
});

const OTHER = `0x0${'5'.repeat(63)}`;

describe('key bursts', () => {
  it('multi-swap: "100", Tab ×3, "50" fills two rows (not 10050); the whole form and Enter in one write plans exactly it', async () => {
    const services = signedIn({ features: { multiSwap: true } });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Multi-swap');
    await ui.waitForFrame((f) => f.includes('2 to 3 swaps in one transaction'));
    let frame = await ui.press('100\t\t\t50');
    expect(frame).toMatch(/ {2}1\. swap 100 USDC → ETH/);
    expect(frame).toMatch(/› 2\. swap \[50 +\] USDC → ETH/);
    expect(frame).not.toContain('10050');

    // row 2's from filtered to STRK, then Enter on the finished form: one write
    await ui.press('\tstrk\r');
    frame = await ui.waitForFrame((f) => f.includes('Review the multi-swap'));
    expect(services.calls).toContain('plan multi-swap 100 USDC>ETH, 50 STRK>ETH');
    expect(frame).toContain('2. swap 50 STRK → at least');
  });

  it('trade: Tab Tab, "usdt" + Tab, Tab, "25" and Enter in one write: from set, amount typed, reviewed once the quote is in', async () => {
    const services = signedIn({ features: { trade: true } });
    // the live quote's real pause: the burst's "25" is one quote, not "2" and then "25"
    ui = renderWithProviders(services, { quoteDebounceMs: DEBOUNCE_MS });
    await openFromHome(ui, 'Trade');
    let frame = await ui.press('\t\tusdt\t\t25\r');
    expect(frame).toMatch(/From +USDT/);
    expect(frame).toMatch(/› Amount +25/);
    // Enter came before the quote: remembered for this form, not lost
    frame = await ui.waitForFrame(() => services.quotes.length === 1);
    expect(frame).toContain('the review opens once the quote is in');
    const asked = services.quotes[0]!;
    expect(asked.request).toMatchObject({ amount: '25', from: 'USDT', to: 'ETH' });
    const { quoteFixture } = await import('../../../test/helpers/fake-services.js');
    asked.resolve(quoteFixture(asked.request));
    await ui.waitForFrame((f) => f.includes('Review the swap'));
    // nothing else was ever quoted or planned: no key of the burst went to the wrong field
    expect(services.calls.filter((c) => /^(quote|plan) /.test(c))).toEqual([
      'quote 25 USDT>ETH 100',
      'plan trade 25 USDT>ETH',
    ]);
  });

  it('trade: an Enter waiting for the quote is forgotten when the form changes', async () => {
    const services = signedIn({ features: { trade: true } });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Trade');
    await ui.press('25\r');
    await ui.waitForFrame((f) => f.includes('the review opens once the quote is in'));
    const frame = await ui.press('0');
    expect(frame).not.toContain('the review opens once the quote is in');
    await ui.waitForFrame(() => services.quotes.some((q) => q.request.amount === '250'));
    const { quoteFixture } = await import('../../../test/helpers/fake-services.js');
    const fresh = services.quotes.find((q) => q.request.amount === '250')!;
    fresh.resolve(quoteFixture(fresh.request));
    await ui.waitForFrame((f) => f.includes('Minimum'));
    expect(services.calls.some((c) => c.startsWith('plan '))).toBe(false);
  });

  it('review: the typed word and Enter in one write confirm a very high impact swap', async () => {
    const services = signedIn({ features: { trade: true }, autoQuoteImpactBps: 2000 });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Trade');
    await ui.press('5');
    await ui.waitForFrame((f) => f.includes('Price impact'));
    await ui.press(KEYS.enter);
    await ui.waitForFrame((f) => f.includes('Type SWAP'));
    await ui.press('SWAP\r');
    await ui.waitForFrame((f) => f.includes('Swap confirmed'));
    expect(services.calls).toContain('execute planned-swap-1');
  });

  it('send: amount, Tab, a pasted recipient and Enter in one write plan exactly that transfer', async () => {
    const services = signedIn({ features: { send: true } });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Send');
    await ui.press(`1.25\t${OTHER}\r`);
    const frame = await ui.waitForFrame((f) => f.includes('Review the transfer'));
    expect(services.calls).toContain(`plan send ; send 1.25 STRK>${OTHER}`);
    expect(frame).toContain(`1. send 1.25 STRK to ${OTHER}`);
  });

  it('home: ↓ ↓ Enter and the first keys of the next screen in one write: the screen opened mid-burst takes them', async () => {
    const services = signedIn({ features: { multiSwap: true, batch: true, trade: true } });
    ui = renderWithProviders(services);
    await ui.waitForFrame((f) => f.includes('› Trade'));
    // as many ↓ as the menu puts between Trade and Batch (by their labels, not a count)
    const at = (label: string): number => MENU.findIndex((m) => m.label === label);
    await ui.press(`${KEYS.down.repeat(at('Batch') - at('Trade'))}\r7\t`);
    const frame = await ui.waitForFrame((f) => f.includes('Batch'));
    expect(frame).toMatch(/1\. swap 7 \[USDC\] → ETH/);
  });

  it('Backspaces, arrows and text in one write edit as typed: "12" ⌫ "3" ← ⌫ leaves 3', async () => {
    const services = signedIn({ features: { trade: true } });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Trade');
    const frame = await ui.press(`12${KEYS.backspace}3${KEYS.left}${KEYS.backspace}`);
    expect(frame).toMatch(/› Amount +3/);
  });
});
