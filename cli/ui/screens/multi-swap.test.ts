/**
 * The multi-swap form: rows added and removed, exactly the typed pairs planned.
 * The TUI over a fake services port (pure UI logic; the real program is driven in tmux by
 * test/tui-terminal.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import type { Receipt } from '../services.js';
import { openFromHome, signedIn } from '../../../test/helpers/screens.js';
import { SWAP_HASH } from '../../../test/helpers/fake-services.js';
import { KEYS, type Rendered, renderWithProviders } from '../../../test/helpers/tui.js';

let ui: Rendered | undefined;
afterEach(() => {
  ui?.unmount();
  ui = undefined;
});

describe('multi-swap', () => {
  it('two rows typed, a third added and removed; from = to is said and never planned; Enter plans exactly the typed pairs → review → y → executing → receipt', async () => {
    let finish: (receipt: Receipt) => void = () => undefined;
    const services = signedIn({
      features: { multiSwap: true },
      execute: (onStep) => {
        onStep({ kind: 'submitting' });
        return new Promise((resolve) => (finish = resolve));
      },
    });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Multi-swap');
    let frame = await ui.waitForFrame((f) => f.includes('2 to 3 swaps in one transaction'));
    expect(frame).toMatch(
      /› 1\. swap \[amount +\] USDC → ETH\n {2}2\. swap amount USDC → ETH\n {2}Slippage/,
    );
    expect(frame).toContain('Tab next · Enter review · Esc back · Ctrl+N add row · Ctrl+D remove');
    await ui.type('100');
    await ui.press(KEYS.tab); // the picker's hint shows
    await ui.press(KEYS.tab, { change: false });
    await ui.press(KEYS.tab); // row 2's amount: the hint goes
    await ui.type('50');
    await ui.press(KEYS.tab);
    frame = await ui.type('STRK');
    expect(frame).toContain('2. swap 50 [STRK] filter: STRK → ETH');

    frame = await ui.press(KEYS.ctrlN);
    expect(frame).toMatch(/3\. swap \[?amount +\]? ?USDC → ETH/);
    await ui.type('7');
    await ui.press(KEYS.tab);
    frame = await ui.type('ETH');
    expect(frame).toContain('3. swap 7 [ETH] filter: ETH → ETH');
    expect(frame).toContain('✗ 3. cannot swap ETH for itself');
    await ui.press(KEYS.enter, { change: false });
    expect(services.calls.some((c) => c.startsWith('plan'))).toBe(false);
    frame = await ui.press(KEYS.ctrlD);
    expect(frame).not.toContain('3. swap');
    expect(frame).not.toContain('cannot swap');
    frame = await ui.press(KEYS.ctrlD);
    expect(frame).toContain('a multi-swap needs at least 2 swaps');

    await ui.press(KEYS.enter);
    frame = await ui.waitForFrame((f) => f.includes('Review the multi-swap'));
    expect(services.calls).toContain('plan multi-swap 100 USDC>ETH, 50 STRK>ETH');
    expect(frame).toContain('1. swap 100 USDC → at least 0.0329 ETH');
    expect(frame).toContain('2. swap 50 STRK → at least 0.0329 ETH');
    expect(frame).toContain('slippage 1% on every swap');
    await ui.press('y');
    await ui.waitForFrame((f) => f.includes('sending the transaction…'));
    expect(services.calls).toContain('execute planned-swap-1');
    finish({
      headline: 'Swap confirmed',
      transactionHash: SWAP_HASH,
      status: 'succeeded',
      lines: [],
    });
    frame = await ui.waitForFrame((f) => f.includes('Swap confirmed'));
    expect(frame).toContain(SWAP_HASH);
  });

  it('a failed plan is said in plain words; the form stays as typed', async () => {
    const services = signedIn({
      features: { multiSwap: true },
      plan: async () => {
        throw new AppError(ErrorCode.NO_ROUTE_FOUND, 'no route for 1 STRK to ETH');
      },
    });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Multi-swap');
    await ui.waitForFrame((f) => f.includes('Multi-swap'));
    await ui.type('1');
    await ui.press(KEYS.enter); // the next empty field: row 2's amount
    await ui.type('2');
    await ui.press(KEYS.enter);
    const frame = await ui.waitForFrame((f) => f.includes('No route for this swap'));
    expect(frame).toContain('Try a smaller amount or another pair.');
    expect(frame).toContain('1. swap 1 USDC → ETH');
    expect(services.calls).toContain('plan multi-swap 1 USDC>ETH, 2 USDC>ETH');
  });
});
