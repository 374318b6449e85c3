/**
 * The TUI's screens over a fake services port (pure UI logic; the real program is driven in
 * tmux by tui-terminal.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../shared/errors.js';
import type { Balances, Receipt } from '../cli/ui/services.js';
import { fakeServices, SESSION } from './helpers/fake-services.js';
import { KEYS, type Rendered, renderWithProviders } from './helpers/tui.js';

let ui: Rendered | undefined;
afterEach(() => {
  ui?.unmount();
  ui = undefined;
});

const signedIn = (options: Parameters<typeof fakeServices>[0] = {}) =>
  fakeServices({ session: SESSION, ...options });

/** Home → the menu item `label` (moving up from Trade, the way a user would) → Enter. */
async function openFromHome(rendered: Rendered, label: string): Promise<string> {
  await rendered.waitForFrame((f) => f.includes('› Trade'));
  for (let i = 0; i < 10 && !rendered.frame().includes(`› ${label}`); i++)
    await rendered.press(KEYS.up);
  return rendered.press(KEYS.enter);
}

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
    await ui.waitForFrame((f) => !f.includes('rate limited'), 3000);
    await ui.press(KEYS.enter);
    expect(services.calls.filter((c) => c.startsWith('requestCode'))).toHaveLength(2);
  });
});

describe('navigation', () => {
  it('Esc goes back along the stack; menu items the core lacks say so', async () => {
    ui = renderWithProviders(signedIn());
    await ui.waitForFrame((f) => f.includes('› Trade'));
    expect(ui.frame()).toContain('Multi-swap (not yet)');
    await ui.press(KEYS.down);
    let frame = await ui.press(KEYS.enter);
    expect(frame).toContain('not in this version');
    frame = await ui.press(KEYS.escape);
    expect(frame).toContain('› Multi-swap');
    for (let i = 0; i < 4; i++) await ui.press(KEYS.down);
    await ui.press(KEYS.enter);
    frame = await ui.waitForFrame((f) => f.includes('Auth server'));
    expect(frame).toContain('DOWN — not reachable (ECONNREFUSED)');
    frame = await ui.press(KEYS.escape);
    expect(frame).toContain('› Status');
  });

  it('the live area stays shorter than the terminal, and follows a resize; the footer always shows', async () => {
    ui = renderWithProviders(signedIn());
    let frame = await ui.waitForFrame((f) => f.includes('› Trade'));
    expect(frame).toContain('Log out');
    frame = await ui.resize(12);
    expect(frame.split('\n').length).toBeLessThan(12);
    expect(frame).not.toContain('Log out');
    expect(frame).toContain('↑ up · ↓ down · Enter open');
    frame = await ui.resize(50);
    expect(frame).toContain('Log out');
  });

  it('logout asks, then returns to sign-in', async () => {
    const services = signedIn();
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Log out');
    await ui.press('y');
    await ui.waitForFrame((f) => f.includes('Sign in'));
    expect(services.calls).toContain('logout');
  });

  it('settings: a preset and another gas token save; a bad server URL is refused with the reason', async () => {
    const services = signedIn();
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Settings');
    await ui.press(KEYS.right);
    expect(ui.frame()).toContain('Default slippage  2%');
    await ui.press(KEYS.enter);
    expect(services.settingsView.slippageBps).toBe(200);
    await ui.press(KEYS.down);
    await ui.press(KEYS.right);
    expect(ui.frame()).toMatch(/› Gas token +(?!STRK)[A-Z]+ \(when gas is not sponsored\)/);
    await ui.press(KEYS.enter);
    expect(services.settingsView.gasToken).not.toBe('STRK');
    await ui.press(KEYS.down);
    await ui.press(KEYS.down);
    await ui.press('\u0015'); // Ctrl+U clears the field
    await ui.type('nope');
    const frame = await ui.press(KEYS.enter);
    expect(frame).toContain('serverUrl must be a URL');
  });
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
      ...(await import('./helpers/fake-services.js')).quoteFixture(stale.request),
      expectedOutput: { amount: '7.77', baseUnits: '7770000000000000000', symbol: 'ETH' },
    });
    const fresh = services.quotes[1]!;
    expect(fresh.request.amount).toBe('10');
    fresh.resolve((await import('./helpers/fake-services.js')).quoteFixture(fresh.request));
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
    expect(frame).toContain('0xabc');
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

describe('swap review', () => {
  it('a quote older than 30 s cannot be confirmed: r plans the same request again and the new figures are confirmed', async () => {
    let now = 1_000_000;
    const services = signedIn({ features: { trade: true }, autoQuoteImpactBps: 5, now: () => now });
    ui = renderWithProviders(services, { now: () => now });
    await ui.waitForFrame((f) => f.includes('› Trade'));
    await ui.press(KEYS.enter);
    await ui.type('5');
    await ui.waitForFrame((f) => f.includes('Price impact'));
    await ui.press(KEYS.enter);
    let frame = await ui.waitForFrame((f) => f.includes('Review the swap'));
    expect(frame).toMatch(/Fee\s+sponsored/);
    expect(frame).toContain('quote valid for 30 s');
    now += 31_000;
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
      swaps: [{ amount: '1', from: 'USDC', to: 'ETH' }],
      sends: Array.from({ length: 5 }, (_, i) => ({
        amount: `${i + 1}`,
        token: 'STRK',
        to: `0x0${String(i + 1).repeat(63)}`,
      })),
      slippageBps: 100,
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

describe('history', () => {
  it("lists the wallet's transactions newest first; ↑/↓ show one whole, a revert with its reason", async () => {
    const services = signedIn({
      features: { history: true },
      history: [
        {
          transactionHash: `0x${'a'.repeat(64)}`,
          at: '2026-11-24T10:05:00.000Z',
          kind: 'send',
          summary: 'send 1 STRK to 0x0555…5555',
          status: 'succeeded',
        },
        {
          transactionHash: `0x${'b'.repeat(64)}`,
          at: '2026-11-24T10:01:00.000Z',
          kind: 'trade',
          summary: 'swap 100 USDC → at least 0.03 ETH',
          status: 'reverted',
          revertReason: 'min_received not met',
        },
      ],
    });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'History');
    let frame = await ui.waitForFrame((f) => f.includes('History (1 of 2'));
    expect(frame).toMatch(/› 2026-11-24 10:05 ✓ send\s+send 1 STRK/);
    expect(frame).toMatch(/2026-11-24 10:01 ✗ trade\s+swap 100 USDC/);
    expect(frame).toContain(`Hash    0x${'a'.repeat(64)}`);
    frame = await ui.press(KEYS.down);
    expect(frame).toContain('History (2 of 2');
    expect(frame).toContain('reverted: nothing moved but the fee');
    expect(frame).toContain('Reason  min_received not met');
    frame = await ui.press(KEYS.escape);
    expect(frame).toContain('› History');
  });

  it('an unreadable history file is said, with where it was moved', async () => {
    ui = renderWithProviders(
      signedIn({ features: { history: true }, historySetAside: '/data/history.json.corrupt-1' }),
    );
    await openFromHome(ui, 'History');
    const frame = await ui.waitForFrame((f) => f.includes('could not be read'));
    expect(frame).toContain('moved to /data/history.json.corrupt-1');
    expect(frame).toContain('no transactions from this wallet yet');
  });
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
      transactionHash: '0xabc',
      status: 'succeeded',
      changes: [],
    });
    frame = await ui.waitForFrame((f) => f.includes('Swap confirmed'));
    expect(frame).toContain('0xabc');
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

describe('batch', () => {
  const OTHER = `0x0${'5'.repeat(63)}`;

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
      f.includes('up to 3 swaps and 5 sends in one transaction'),
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
    expect(frame).toContain(
      'Tab next · Enter review · Esc back · Ctrl+N add swap · Ctrl+T add send · Ctrl+D remove · Ctrl+C quit',
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
    expect(frame).toContain('a batch needs at least one swap or send');
    expect(frame).toMatch(/1\. send \[?amount +\]? ?STRK/);
    expect(services.calls.some((c) => c.startsWith('plan'))).toBe(false);
  });
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
      fee: {
        mode: 'default',
        symbol: 'STRK',
        decimals: 18,
        estimated: 10n ** 15n,
        max: 3n * 10n ** 15n,
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
    await ui.waitForFrame((f) => f.includes('your own wallet'));
    await ui.press(KEYS.enter, { change: false });
    expect(services.calls.some((c) => c.startsWith('plan '))).toBe(false);
    for (let i = 0; i < 66; i++) await ui.press(KEYS.backspace, { change: false });
    await ui.press(OTHER);
    await ui.waitForFrame((f) => !f.includes('your own wallet') && f.includes(OTHER));
    await ui.press(KEYS.enter);
    let frame = await ui.waitForFrame((f) => f.includes('Review the transfer'));
    expect(services.calls).toContain(`plan send ; send 1 STRK>${OTHER}`);
    expect(frame).toContain(`1. send 1 STRK to ${OTHER}`);
    expect(frame).toContain(OTHER);
    expect(frame).toMatch(/Fee\s+about 0\.001 STRK, at most 0\.003 STRK/);
    expect(frame).toContain('−1 STRK');
    expect(services.calls.some((c) => c.startsWith('execute '))).toBe(false);
    await ui.press('y');
    frame = await ui.waitForFrame((f) => f.includes('Sent 1 STRK'));
    expect(frame).toContain('0xfeed');
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
        onStep({ kind: 'submitted', hash: '0xfeed' });
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
    const frame = await ui.waitForFrame((f) => f.includes('Sent as 0xfeed'));
    expect(frame).toContain('Do not send it again');
    expect(frame).not.toContain('Try again');
  });
});

describe('Ctrl+C', () => {
  it('the first stops (aborting work, waiting for the child to stop) and exits 0', async () => {
    const services = signedIn();
    let stopped: () => void = () => undefined;
    services.close = () => new Promise<void>((resolve) => (stopped = resolve)); // the child takes a moment to stop
    ui = renderWithProviders(services);
    await ui.waitForFrame((f) => f.includes('› Trade'));
    await ui.press(KEYS.enter);
    await ui.type('1');
    await ui.waitForFrame(() => services.quotes.length === 1);
    const frame = await ui.press(KEYS.ctrlC);
    expect(frame).toContain('stopping…');
    expect(services.quotes[0]!.signal.aborted).toBe(true);
    expect(ui.exitCode()).toBeUndefined(); // waits for the child
    stopped();
    await ui.waitForFrame(() => ui?.exitCode() === 0);
    expect(ui.forced()).toBe(false);
  });

  it('SIGTERM (a stop request from outside) stops the same way; a second one forces', async () => {
    const services = fakeServices({ session: SESSION });
    services.close = () => new Promise(() => undefined); // a child that will not stop
    ui = renderWithProviders(services);
    await ui.waitForFrame((f) => f.includes('› Trade'));
    ui.stop();
    await ui.waitForFrame((f) => f.includes('stopping…'));
    ui.stop();
    expect(ui.forced()).toBe(true);
  });
});
