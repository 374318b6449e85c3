/**
 * Keys that arrive together in one read (a paste, a fast typist, tmux send-keys) do what the same
 * keys typed slowly do: each key of a burst is applied, in order, before the next — a Tab moves
 * the focus before the characters after it, Enter sees what was typed before it, a screen opened
 * mid-burst takes the keys after it. Every burst here is one `stdin.write`.
 * The TUI over a fake services port (the real program: test/tui-terminal.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openFromHome, signedIn } from '../../../test/helpers/screens.js';
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

  it('trade: Tab Tab, "usdt" + Tab, Tab, "25" in one write sets from, moves on and types the amount', async () => {
    const services = signedIn({ features: { trade: true }, autoQuoteImpactBps: 5 });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Trade');
    await ui.press('\t\tusdt\t\t25');
    const frame = await ui.waitForFrame((f) => f.includes('Minimum'));
    expect(frame).toMatch(/From +USDT/);
    expect(frame).toMatch(/› Amount +25/);
    expect(services.calls).toContain('quote 25 USDT>ETH 100');
    // nothing else was ever quoted: no key of the burst went to the wrong field
    expect(services.calls.filter((c) => c.startsWith('quote'))).toEqual(['quote 25 USDT>ETH 100']);
    await ui.press(KEYS.enter);
    await ui.waitForFrame((f) => f.includes('Review the swap'));
    expect(services.calls).toContain('plan trade 25 USDT>ETH');
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
    await ui.press(`${KEYS.down}${KEYS.down}\r7\t`);
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
