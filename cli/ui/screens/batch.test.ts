/**
 * The batch form: swap and send rows, the footer's wrapping, the core's limits.
 * The TUI over a fake services port (pure UI logic; the real program is driven in tmux by
 * test/tui-terminal.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Balances } from '../services.js';
import { openFromHome, signedIn } from '../../../test/helpers/screens.js';
import { KEYS, type Rendered, renderWithProviders } from '../../../test/helpers/tui.js';

let ui: Rendered | undefined;
afterEach(() => {
  ui?.unmount();
  ui = undefined;
});

describe('batch', () => {
  const OTHER = `0x0${'5'.repeat(63)}`;

  it('supply and stake rows (Ctrl+U, Ctrl+K) beside a swap: Enter plans them as one batch', async () => {
    const services = signedIn({ features: { batch: true } });
    ui = renderWithProviders(services, { columns: 80, rows: 24 });
    await openFromHome(ui, 'Batch');
    await ui.waitForFrame((f) => f.includes('1. swap'));
    let frame = await ui.press('\u0015'); // Ctrl+U
    expect(frame).toMatch(/2\. supply \[?amount +\]? ?USDC to the main Vesu pool/);
    await ui.type('100.000001');
    frame = await ui.press('\u000b'); // Ctrl+K
    expect(frame).toMatch(/3\. stake \[?amount +\]? ?STRK → validator name or staker 0x…/);
    await ui.type('1.999999999999999999');
    await ui.press(KEYS.tab);
    await ui.press(KEYS.tab);
    await ui.type('Sandbox Alpha');
    await ui.press(KEYS.tab); // the slippage
    await ui.press(KEYS.tab); // the swap's amount
    frame = await ui.type('100');
    expect(frame.replace(/\s+/g, ' ')).toContain('Ctrl+U add supply · Ctrl+K add stake');
    for (const line of frame.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    await ui.press(KEYS.enter);
    await ui.waitForFrame((f) => f.includes('Review'));
    expect(services.calls.filter((c) => c.startsWith('plan'))).toEqual([
      'plan batch 100 USDC>ETH; stake 1.999999999999999999 STRK>Sandbox Alpha; supply 100.000001 USDC',
    ]);
  });

  it('a swap row and a send row with a bad then a good address; Enter plans the batch; the review shows the send', async () => {
    const services = signedIn({
      features: { batch: true, balances: true },
      balances: {
        available: true,
        asOf: '',
        totalUsdCents: 0n,
        tokens: [{ symbol: 'STRK', decimals: 18, amount: 25n * 10n ** 17n, usdCents: undefined }],
      },
    });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Batch');
    let frame = await ui.waitForFrame((f) =>
      f.includes('up to 3 swaps, 5 sends, 5 supplies and 5 stakes in one transaction'),
    );
    expect(frame).toMatch(/1\. swap \[?amount +\]? ?USDC → ETH/);
    await ui.type('100');
    frame = await ui.press(KEYS.ctrlT);
    expect(frame).toMatch(
      /2\. send \[?amount +\]? ?STRK → 0x… recipient address {3}balance 2\.5 STRK/,
    );
    await ui.type('5');
    await ui.press(KEYS.tab);
    await ui.press(KEYS.tab);
    frame = await ui.type('0x');
    expect(frame).toMatch(/✗ 2\. .*address/);
    await ui.press(KEYS.enter, { change: false });
    expect(services.calls.some((c) => c.startsWith('plan'))).toBe(false);
    await ui.press(KEYS.backspace);
    await ui.press(KEYS.backspace);
    frame = await ui.press(OTHER);
    expect(frame).not.toContain('✗');
    await ui.press(KEYS.enter);
    frame = await ui.waitForFrame((f) => f.includes('Review the batch'));
    expect(services.calls).toContain(`plan batch 100 USDC>ETH; send 5 STRK>${OTHER}`);
    expect(frame).toContain('1. swap 100 USDC → at least 0.0329 ETH');
    expect(frame).toContain(`2. send 5 STRK to ${OTHER}`);
    // Esc comes back to the rows as typed; the recipient shortens once the focus leaves it
    frame = await ui.press(KEYS.escape);
    expect(frame).toContain(`2. send 5 STRK → [${OTHER}`);
    frame = await ui.press(KEYS.tab);
    expect(frame).toContain('2. send 5 STRK → 0x0555…5555');
    frame = await ui.press(KEYS.escape);
    expect(frame).toContain('› Batch');
  });

  it('a footer longer than the terminal is wide wraps, keeping every key (and Ctrl+C) on screen', async () => {
    const usdc: Balances = {
      available: true,
      asOf: '',
      totalUsdCents: 0n,
      tokens: [{ symbol: 'USDC', decimals: 6, amount: 10n ** 9n, usdCents: undefined }],
    };
    const services = signedIn({ features: { batch: true, balances: true }, balances: usdc });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Batch');
    const frame = await ui.waitForFrame((f) => f.includes('balance 1000 USDC'));
    // the batch's keys with "max" are longer than the test terminal's 100 columns
    const footer = frame.slice(frame.indexOf('Tab next')).replace(/\s+/g, ' ');
    expect(footer).toContain('Ctrl+X max · Ctrl+C quit');
    // on a short terminal too: the frame makes room for both footer lines and stays shorter than it
    const short = await ui.resize(10);
    expect(short.split('\n').length).toBeLessThan(10);
    expect(short.slice(short.indexOf('Tab next')).replace(/\s+/g, ' ')).toContain(
      'Ctrl+X max · Ctrl+C quit',
    );
  });

  it('the core’s limits are refused with a message; without swaps the slippage goes; the last row stays', async () => {
    const services = signedIn({ features: { batch: true } });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Batch');
    let frame = await ui.waitForFrame((f) => f.includes('Ctrl+T add send'));
    expect(frame.replace(/\s+/g, ' ')).toContain(
      'Tab next · Enter review · Esc back · Ctrl+N add swap · Ctrl+T add send · Ctrl+U add supply · Ctrl+K add stake · Ctrl+D remove · Ctrl+C quit',
    );
    for (let i = 0; i < 5; i++) await ui.press(KEYS.ctrlT);
    frame = await ui.press(KEYS.ctrlT);
    expect(frame).toContain('a batch holds at most 5 transfers');
    await ui.press(KEYS.ctrlN);
    await ui.press(KEYS.ctrlN);
    frame = await ui.press(KEYS.ctrlN);
    expect(frame).toContain('a batch holds at most 3 swaps');
    expect(frame).toMatch(/3\. swap \[?amount +\]? ?USDC → ETH\n {2}4\. send amount STRK/);
    expect(frame).toContain('8. send amount STRK');
    expect(frame).not.toContain('9.');
    await ui.press(KEYS.enter); // the first empty field: row 1
    for (let i = 0; i < 3; i++) frame = await ui.press(KEYS.ctrlD);
    expect(frame).not.toMatch(/\d\. swap/);
    expect(frame).not.toContain('Slippage');
    expect(frame).toContain('5. send amount STRK');
    for (let i = 0; i < 4; i++) frame = await ui.press(KEYS.ctrlD);
    expect(frame).not.toContain('2. send');
    frame = await ui.press(KEYS.ctrlD);
    expect(frame).toContain('a batch needs at least one row');
    expect(frame).toMatch(/1\. send \[?amount +\]? ?STRK/);
    expect(services.calls.some((c) => c.startsWith('plan'))).toBe(false);
  });
});
