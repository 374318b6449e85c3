/**
 * The review before signing: a stale quote, a lost session, a review taller than the window.
 * The TUI over a fake services port (pure UI logic; the real program is driven in tmux by
 * test/tui-terminal.test.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { SESSION } from '../../../test/helpers/fake-services.js';
import { signedIn } from '../../../test/helpers/screens.js';
import { KEYS, type Rendered, renderWithProviders } from '../../../test/helpers/tui.js';

let ui: Rendered | undefined;
afterEach(() => {
  ui?.unmount();
  ui = undefined;
  vi.useRealTimers();
});

describe('swap review', () => {
  it('a quote older than 30 s cannot be confirmed: r plans the same request again and the new figures are confirmed', async () => {
    // only the screen's tick is faked (useNow's interval): frames are still waited for in real time
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let now = 1_000_000;
    const services = signedIn({ features: { trade: true }, autoQuoteImpactBps: 5, now: () => now });
    ui = renderWithProviders(services, { now: () => now });
    await ui.waitForFrame((f) => f.includes('› Trade'));
    await ui.press(KEYS.enter);
    await ui.type('5');
    await ui.waitForFrame((f) => f.includes('Price impact'));
    await ui.press(KEYS.enter);
    let frame = await ui.waitForFrame((f) => f.includes('Review the swap'));
    expect(frame).toContain('gas: sponsored (you pay no gas)');
    expect(frame).toContain('quote valid for 30 s');
    now += 31_000;
    // the screen reads the clock on its once-a-second tick (useNow): one tick, not a second's wait
    vi.advanceTimersByTime(1000);
    frame = await ui.waitForFrame((f) => f.includes('older than 30 s'));
    expect(frame).toContain('r re-quote');
    expect(frame).not.toContain('y sign and send');
    await ui.press('y', { change: false });
    expect(services.calls.filter((c) => c.startsWith('execute'))).toEqual([]);
    await ui.press('r');
    await ui.waitForFrame((f) => f.includes('quote valid for 30 s'));
    expect(services.calls.filter((c) => c.startsWith('plan '))).toEqual([
      'plan trade 5 USDC>ETH',
      'plan trade 5 USDC>ETH',
    ]);
    await ui.press('y');
    await ui.waitForFrame((f) => f.includes('Swap confirmed'));
    expect(ui.frame()).toContain('received 0.0333 ETH (you confirmed at least 0.0329 ETH)');
    // what was signed is the plan confirmed after r, not the stale one
    expect(services.calls.filter((c) => c.startsWith('execute'))).toEqual([
      'execute planned-swap-2',
    ]);
  });
});

describe('a lost session', () => {
  it('expired or revoked on the server: the screen says so, and Enter leads to signing in again', async () => {
    const services = signedIn({
      features: { balances: true },
      balancesError: new AppError(
        ErrorCode.SESSION_EXPIRED,
        'the server no longer accepts the session of alice@example.com (TOKEN_REVOKED)',
      ),
    });
    ui = renderWithProviders(services);
    let frame = await ui.waitForFrame((f) => f.includes('Your session has expired'));
    expect(frame).toContain('Press Enter to sign in again.');
    expect(frame).toContain('Enter sign in');
    frame = await ui.press(KEYS.enter);
    expect(frame).toContain('Sign in');
    // signed out (the header names no session), the e-mail kept for signing in again
    expect(frame).not.toContain('· alice@example.com');
    expect(frame).toContain('E-mail alice@example.com');
    expect(frame).toContain('Your session ended');
    // and forgotten on this computer: the next start signs in
    expect(services.calls).toContain('logout');
  });
});

describe('a review taller than the window', () => {
  it('scrolls with ↓, and takes no confirmation until its last line has been on screen', async () => {
    const services = signedIn({ features: { batch: true } });
    const request = {
      kind: 'batch' as const,
      slippageBps: 100,
      params: {
        swaps: [{ amount: '1', from: 'USDC', to: 'ETH' }],
        sends: Array.from({ length: 5 }, (_, i) => ({
          amount: `${i + 1}`,
          token: 'STRK',
          to: `0x0${String(i + 1).repeat(63)}`,
        })),
      },
    };
    const plan = await services.plan(request, SESSION, { signal: new AbortController().signal });
    ui = renderWithProviders(services, {
      rows: 24,
      initial: {
        screen: { name: 'review', plan },
        stack: [{ name: 'home' }],
        environment: { sandbox: true, network: 'mainnet', serverUrl: 'http://127.0.0.1:3001' },
        session: SESSION,
        stopping: false,
        fatal: undefined,
      },
    });
    let frame = await ui.waitForFrame((f) => f.includes('taller than the window'));
    expect(frame.split('\n').length).toBeLessThan(24);
    expect(frame).not.toContain('y sign and send');
    expect(frame).toContain('↓ read on');
    await ui.press('y', { change: false });
    expect(services.calls.filter((c) => c.startsWith('execute'))).toEqual([]);
    for (let i = 0; i < 40 && !ui.frame().includes('y sign and send'); i++)
      frame = await ui.press(KEYS.down);
    // the end of the plan is on screen now, and only now can it be signed
    expect(frame).toContain('y sign and send');
    expect(frame).toContain('quote valid for');
    expect(frame).not.toContain('Review the batch');
    await ui.press('y');
    await ui.waitForFrame((f) => f.includes('Swap confirmed'));
    expect(services.calls.filter((c) => c.startsWith('execute'))).toEqual([
      'execute planned-swap-1',
    ]);
  });
});
