/**
 * The send form: token, amount, a checked recipient, review, receipt; failures before and after
 * it left.
 * The TUI over a fake services port (pure UI logic; the real program is driven in tmux by
 * test/tui-terminal.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import type { Balances } from '../services.js';
import { SESSION, SEND_HASH } from '../../../test/helpers/fake-services.js';
import { openFromHome, signedIn } from '../../../test/helpers/screens.js';
import { KEYS, type Rendered, renderWithProviders } from '../../../test/helpers/tui.js';

let ui: Rendered | undefined;
afterEach(() => {
  ui?.unmount();
  ui = undefined;
});

describe('send', () => {
  const OTHER = `0x0${'5'.repeat(63)}`;
  const strk = (amount: bigint): Balances => ({
    available: true,
    asOf: '',
    totalUsdCents: 0n,
    tokens: [{ symbol: 'STRK', decimals: 18, amount, usdCents: undefined }],
  });

  it('token, amount (max), a checked recipient → review (what leaves, to whom, fee) → y → receipt', async () => {
    const services = signedIn({
      features: { send: true, balances: true },
      balances: strk(25n * 10n ** 17n),
      gas: {
        mode: 'default',
        token: { symbol: 'STRK', address: '0x4', decimals: 18 },
        maxFee: { amount: '0.003', baseUnits: (3n * 10n ** 15n).toString(), symbol: 'STRK' },
        estimatedFee: { amount: '0.001', baseUnits: (10n ** 15n).toString(), symbol: 'STRK' },
      },
    });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Send');
    await ui.waitForFrame((f) => f.includes('balance 2.5 STRK'));
    expect(await ui.press(KEYS.ctrlX)).toMatch(/Amount\s+2\.5/);
    for (let i = 0; i < 3; i++) await ui.press(KEYS.backspace);
    await ui.type('1');
    await ui.press(KEYS.tab, { change: false });
    await ui.type('0x');
    await ui.press(KEYS.enter, { change: false });
    expect(services.calls.some((c) => c.startsWith('plan '))).toBe(false); // nothing planned on a bad address
    await ui.press(KEYS.backspace);
    await ui.press(SESSION.walletAddress.slice(1));
    await ui.waitForFrame((f) => f.includes('refusing to send to'));
    await ui.press(KEYS.enter, { change: false });
    expect(services.calls.some((c) => c.startsWith('plan '))).toBe(false);
    for (let i = 0; i < 66; i++) await ui.press(KEYS.backspace, { change: false });
    await ui.press(OTHER);
    await ui.waitForFrame((f) => !f.includes('refusing to send to') && f.includes(OTHER));
    await ui.press(KEYS.enter);
    let frame = await ui.waitForFrame((f) => f.includes('Review the transfer'));
    expect(services.calls).toContain(`plan send ; send 1 STRK>${OTHER}`);
    expect(frame).toContain(`1. send 1 STRK to ${OTHER}`);
    expect(frame).toContain(OTHER);
    expect(frame).toContain('gas: at most 0.003 STRK, about 0.001 STRK');
    expect(frame).toContain('−1 STRK');
    expect(services.calls.some((c) => c.startsWith('execute '))).toBe(false);
    await ui.press('y');
    frame = await ui.waitForFrame((f) => f.includes('Sent 1 STRK'));
    expect(frame).toContain(SEND_HASH);
    expect(services.calls).toContain('execute planned-send-1');
  });

  it('sponsored plans say so; a failed transfer says what happened in plain words', async () => {
    const services = signedIn({
      features: { send: true },
      execute: async () => {
        throw new AppError(ErrorCode.PAYMASTER_ERROR, 'the paymaster refused the transaction');
      },
    });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Send');
    await ui.waitForFrame((f) => f.includes('Token'));
    await ui.type('2');
    await ui.press(KEYS.tab, { change: false }); // focus shows only as the cursor (a colour)
    await ui.press(OTHER);
    await ui.press(KEYS.enter);
    const review = await ui.waitForFrame((f) => f.includes('Review the transfer'));
    expect(review).toContain('sponsored');
    await ui.press('y');
    const frame = await ui.waitForFrame((f) => f.includes('The paymaster failed'));
    expect(frame).toContain('Nothing was sent');
  });
});

describe('send after it left', () => {
  it('a failure once the transaction was sent never says "try again": it names the hash and says not to resend', async () => {
    const services = signedIn({
      features: { send: true },
      execute: async (onStep) => {
        onStep({ kind: 'submitted', hash: SEND_HASH });
        throw new AppError(ErrorCode.NETWORK_ERROR, 'the node stopped answering');
      },
    });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Send');
    await ui.waitForFrame((f) => f.includes('Token'));
    await ui.type('2');
    await ui.press(KEYS.tab, { change: false });
    await ui.press(`0x0${'5'.repeat(63)}`);
    await ui.press(KEYS.enter);
    await ui.waitForFrame((f) => f.includes('Review the transfer'));
    await ui.press('y');
    const frame = await ui.waitForFrame((f) => f.includes(`Sent as ${SEND_HASH}`));
    expect(frame).toContain('Do not send it again');
    expect(frame).not.toContain('Try again');
  });
});
