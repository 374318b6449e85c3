/**
 * Signing in: e-mail, code, a paste, the rate limit's countdown.
 * The TUI over a fake services port (pure UI logic; the real program is driven in tmux by
 * test/tui-terminal.test.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { fakeServices, SESSION } from '../../../test/helpers/fake-services.js';
import { KEYS, type Rendered, renderWithProviders } from '../../../test/helpers/tui.js';

let ui: Rendered | undefined;
afterEach(() => {
  ui?.unmount();
  ui = undefined;
  vi.useRealTimers();
});

describe('sign-in', () => {
  it('e-mail → code → home; a wrong code is cleared and explained; Ctrl+F fills the code from the sandbox outbox', async () => {
    const services = fakeServices();
    ui = renderWithProviders(services);
    await ui.waitForFrame((f) => f.includes('Sign in'));
    await ui.type('not-an-email');
    expect(ui.frame()).toContain('is not an e-mail address');
    await ui.press(KEYS.enter, { change: false });
    expect(services.calls).not.toContain('requestCode not-an-email');
    for (let i = 0; i < 'not-an-email'.length; i++) await ui.press(KEYS.backspace);
    await ui.type('alice@example.com');
    await ui.press(KEYS.enter);
    let frame = await ui.waitForFrame((f) => f.includes('code sent to alice@example.com'));
    expect(frame).toMatch(/resend available in (30|29) s/);
    expect(frame).toContain('Ctrl+F fills it');

    await ui.type('654321');
    expect(ui.frame()).toContain('••••••');
    expect(ui.frame()).not.toContain('654321');
    await ui.press(KEYS.enter);
    frame = await ui.waitForFrame((f) => f.includes('Wrong or expired code'));
    expect(frame).toContain('Ctrl+R for a new one');

    await ui.press(KEYS.ctrlF);
    await ui.waitForFrame((f) => f.includes('code filled from the sandbox outbox'));
    await ui.press(KEYS.enter);
    frame = await ui.waitForFrame((f) => f.includes('Wallet'));
    expect(frame).toContain('0x0123…cdef');
    expect(frame).toContain('SANDBOX');
    frame = await ui.press('a');
    expect(frame).toContain(SESSION.walletAddress);
  });

  it('text and Enter in one chunk (a paste, a fast typist): the text lands, then Enter submits it', async () => {
    const services = fakeServices();
    ui = renderWithProviders(services);
    await ui.waitForFrame((f) => f.includes('Sign in'));
    await ui.press('carol@example.com\r');
    await ui.waitForFrame((f) => f.includes('code sent to carol@example.com'));
    expect(services.calls).toContain('requestCode carol@example.com');
    await ui.press('123456\r');
    await ui.waitForFrame((f) => f.includes('Wallet'));
  });

  it('rate limited: the Retry-After countdown blocks sending until it runs out', async () => {
    // only the screen's tick is faked (useNow's interval): frames are still waited for in real time
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let now = 1_000_000;
    const services = fakeServices({
      requestCode: async () => {
        throw new AppError(ErrorCode.RATE_LIMITED, 'too many requests', {
          details: { retryAfterSeconds: 42 },
        });
      },
    });
    ui = renderWithProviders(services, { now: () => now });
    await ui.waitForFrame((f) => f.includes('Sign in'));
    await ui.type('bob@example.com');
    await ui.press(KEYS.enter);
    const frame = await ui.waitForFrame((f) => f.includes('rate limited'));
    expect(frame).toContain('try again in 42 s');
    expect(frame).toContain('Too many attempts');
    await ui.press(KEYS.enter, { change: false });
    expect(services.calls.filter((c) => c.startsWith('requestCode'))).toHaveLength(1);
    now += 43_000;
    // the screen reads the clock on its once-a-second tick (useNow): one tick, not a second's wait
    vi.advanceTimersByTime(1000);
    await ui.waitForFrame((f) => !f.includes('rate limited'), 3000);
    await ui.press(KEYS.enter);
    expect(services.calls.filter((c) => c.startsWith('requestCode'))).toHaveLength(2);
  });
});
