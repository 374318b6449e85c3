/**
 * The app as a person meets it (issue #14, "The app, as a person meets it" and edge 5), over the
 * fake port: typed text is never altered and is read by the core's own rule; leaving a review
 * keeps the form; slippage above 5 % warns and above 15 % needs the typed word; errors go with
 * their cause; focus and choices are seen without colour; key bursts; a dead code; the sandbox's
 * settings; logout; 80×24.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parsePositiveAmount } from '../../core/actions/rules.js';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { DEBOUNCE_MS } from '../hooks/live-quote-state.js';
import type { Balances } from '../services.js';
import { fakeServices, SESSION } from '../../../test/helpers/fake-services.js';
import { chooseOption, moveUntil, openFromHome, signedIn } from '../../../test/helpers/screens.js';
import { KEYS, type Rendered, renderWithProviders } from '../../../test/helpers/tui.js';

let ui: Rendered | undefined;
afterEach(() => {
  ui?.unmount();
  ui = undefined;
});

const OTHER = `0x0${'5'.repeat(63)}`;
/** the core's own words for `text` as an amount of USDC (6 decimals) */
const coreSays = (text: string): string => {
  try {
    parsePositiveAmount(text, { symbol: 'USDC', decimals: 6 });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${text} parsed`);
};

const clear = async (rendered: Rendered, n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await rendered.press(KEYS.backspace, { change: false });
};

describe('the amount field shows what was typed', () => {
  it('1,5 / -1 / 1e999 / abc stay as typed, with the core’s error (1,5 says to write 1.5); nothing is quoted or planned', async () => {
    const services = signedIn({ features: { trade: true }, autoQuoteImpactBps: 5 });
    // the live quote's real pause: typed a key at a time, "1" of "1,5" is never quoted
    ui = renderWithProviders(services, { quoteDebounceMs: DEBOUNCE_MS });
    await openFromHome(ui, 'Trade');
    await ui.waitForFrame((f) => f.includes('› Amount'));
    for (const text of ['1,5', '-1', '1e999', 'abc']) {
      const frame = await ui.type(text);
      expect(frame).toMatch(
        new RegExp(`› Amount +${text.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}(?: |$)`, 'm'),
      );
      expect(frame).toContain(coreSays(text));
      await ui.press(KEYS.enter, { change: false });
      await clear(ui, text.length);
    }
    expect(coreSays('1,5')).toContain('write 1.5');
    expect(services.calls.filter((c) => c.startsWith('quote ') || c.startsWith('plan '))).toEqual(
      [],
    );
    // a good amount is quoted as typed
    await ui.type('15');
    await ui.waitForFrame((f) => f.includes('You receive'));
    expect(services.calls).toContain('quote 15 USDC>ETH 100');
  });

  it('send: -1 stays -1 and is refused with the core’s words; nothing is planned', async () => {
    const services = signedIn({ features: { send: true } });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Send');
    const frame = await ui.type('-1');
    expect(frame).toMatch(/› Amount +-1(?: |$)/m);
    expect(frame).toContain('invalid STRK amount "-1": must not be negative');
    await ui.press(KEYS.tab, { change: false });
    await ui.press(OTHER);
    await ui.press(KEYS.enter, { change: false });
    expect(services.calls.some((c) => c.startsWith('plan '))).toBe(false);
  });
});

describe('leaving a review', () => {
  it('trade: Esc returns to the form as it was (amount, tokens, slippage)', async () => {
    const services = signedIn({ features: { trade: true }, autoQuoteImpactBps: 5 });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Trade');
    await ui.press(KEYS.tab); // → slippage
    await chooseOption(ui, /\[2%\]/);
    await ui.press(KEYS.tab); // → from
    await chooseOption(ui, /From +\[STRK\]/); // another token
    await ui.press(KEYS.tab);
    await ui.press(KEYS.tab); // → amount
    const before = await ui.type('42');
    const from = /From +\[?(\w+)/.exec(before)?.[1];
    expect(from).toBeDefined();
    expect(before).toContain('[2%]');
    await ui.waitForFrame((f) => f.includes('You receive'));
    await ui.press(KEYS.enter);
    await ui.waitForFrame((f) => f.includes('Review the swap'));
    await ui.press(KEYS.escape);
    const back = await ui.waitForFrame((f) => f.includes('› Amount'));
    expect(back).toMatch(/› Amount +42(?: |$)/m);
    expect(back).toMatch(new RegExp(`From +${from}`));
    expect(back).toContain('[2%]');
  });

  it('send: n returns to the form as it was (token, amount, recipient)', async () => {
    const services = signedIn({ features: { send: true } });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Send');
    await ui.type('3');
    await ui.press(KEYS.tab, { change: false });
    await ui.press(OTHER);
    await ui.press(KEYS.enter);
    await ui.waitForFrame((f) => f.includes('Review the transfer'));
    await ui.press('n');
    const back = await ui.waitForFrame((f) => f.includes('Send') && f.includes('› To'));
    expect(back).toMatch(/Amount +3(?: |$)/m);
    expect(back).toContain(OTHER);
    expect(back).toMatch(/Token +STRK/);
  });
});

describe('slippage', () => {
  /** Trade → slippage → custom → `percent` typed */
  async function customSlippage(rendered: Rendered, percent: string): Promise<string> {
    await openFromHome(rendered, 'Trade');
    await rendered.type('5');
    await rendered.press(KEYS.tab); // slippage
    await chooseOption(rendered, /\[custom\]/);
    return rendered.type(percent);
  }

  it('the default stays 1 %; above 5 % the form and the review warn, and y signs', async () => {
    const services = signedIn({ features: { trade: true }, autoQuoteImpactBps: 5 });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Trade');
    expect(ui.frame()).toContain('[1%]');
    await ui.press(KEYS.escape);
    await ui.waitForFrame((f) => f.includes('› Trade'));
    const frame = await customSlippage(ui, '6');
    expect(frame).toContain('[custom]');
    expect(frame).toContain('slippage 6% is high');
    expect(frame).not.toContain('type SWAP');
    await ui.waitForFrame((f) => f.includes('You receive'));
    await ui.press(KEYS.enter);
    const review = await ui.waitForFrame((f) => f.includes('Review the swap'));
    expect(review).toContain('slippage 6% is high');
    expect(review).not.toContain('Type SWAP');
    await ui.press('y');
    await ui.waitForFrame((f) => f.includes('Swap confirmed'));
  });

  it('above 15 % the review takes only the typed word', async () => {
    const services = signedIn({ features: { trade: true }, autoQuoteImpactBps: 5 });
    ui = renderWithProviders(services);
    const frame = await customSlippage(ui, '20');
    expect(frame).toContain('slippage 20% is high');
    expect(frame).toContain('the review asks you to type SWAP');
    await ui.waitForFrame((f) => f.includes('You receive'));
    await ui.press(KEYS.enter);
    const review = await ui.waitForFrame((f) => f.includes('Review the swap'));
    expect(review).toContain('Slippage 20% is very high. Type SWAP');
    await ui.press('y');
    await ui.press(KEYS.enter, { change: false });
    expect(services.calls.some((c) => c.startsWith('execute'))).toBe(false);
    await ui.press(KEYS.backspace);
    await ui.type('SWAP');
    await ui.press(KEYS.enter);
    await ui.waitForFrame((f) => f.includes('Swap confirmed'));
  });
});

describe('errors go with their cause', () => {
  it('a refused plan is not said any more once the token changes', async () => {
    const services = signedIn({
      features: { send: true },
      plan: async (request) => {
        if (request.kind === 'send' && request.params.token === 'STRK')
          throw new AppError(
            ErrorCode.INSUFFICIENT_BALANCE,
            'not enough STRK: you have 0, this needs 1',
          );
        throw new AppError(ErrorCode.INTERNAL_ERROR, 'unexpected');
      },
    });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Send');
    await ui.type('1');
    await ui.press(KEYS.tab, { change: false });
    await ui.press(OTHER);
    await ui.press(KEYS.enter);
    await ui.waitForFrame((f) => f.includes('not enough STRK'));
    await ui.press(KEYS.tab); // → token
    await ui.press(KEYS.down);
    const frame = await ui.waitForFrame((f) => !/Token +STRK/.test(f) && !/\[STRK\]/.test(f));
    expect(frame).not.toContain('not enough STRK');
  });
});

describe('without colour, and in bursts', () => {
  it('the focused field has a › and the chosen preset brackets (NO_COLOR theme)', async () => {
    const services = signedIn({ features: { trade: true } });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Trade');
    let frame = ui.frame();
    expect(frame).toMatch(/› Amount/);
    expect(frame).toMatch(/ {2}From/);
    expect(frame).toContain('[1%]');
    frame = await ui.press(KEYS.tab);
    expect(frame).toMatch(/› Slippage/);
    frame = await ui.press(KEYS.down);
    expect(frame).toContain('[2%]');
    expect(frame).not.toContain('[1%]');
  });

  it('the token picker applies every key of a burst: ↓↓↓ moves three rows, three Backspaces remove three characters', async () => {
    const services = signedIn({ features: { trade: true } });
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Trade');
    await ui.press(KEYS.tab); // → slippage
    await ui.press(KEYS.tab); // → from
    const tokens = services.tokens().map((t) => t.symbol);
    const start = tokens.indexOf('USDC');
    const expected = tokens[(start + 3) % tokens.length]!;
    // one chunk, as a held key or tmux sends it
    await ui.press(KEYS.down + KEYS.down + KEYS.down);
    let frame = await ui.waitForFrame((f) => f.includes(`From       [${expected}]`));
    expect(frame).toContain(`[${expected}]`);
    frame = await ui.press('STRK');
    expect(frame).toContain('filter: STRK');
    await ui.press(KEYS.backspace + KEYS.backspace + KEYS.backspace);
    frame = await ui.waitForFrame((f) => f.includes('filter: S') && !f.includes('filter: ST'));
    expect(frame).toMatch(/filter: S$/m);
  });
});

describe('sign-in', () => {
  it('five wrong codes: the code is dead, Ctrl+F does not refill it, Ctrl+R sends a new one at once', async () => {
    const services = fakeServices();
    // Ctrl+F reads the sandbox outbox: counted, so "it did nothing" is a count, not a pause
    let outboxReads = 0;
    const sandboxCode = services.sandboxCode?.bind(services);
    expect(sandboxCode).toBeInstanceOf(Function);
    services.sandboxCode = (...args) => {
      outboxReads++;
      return sandboxCode!(...args);
    };
    ui = renderWithProviders(services);
    await ui.waitForFrame((f) => f.includes('Sign in'));
    await ui.press('alice@example.com');
    await ui.press(KEYS.enter);
    await ui.waitForFrame((f) => f.includes('code sent to'));
    for (let i = 0; i < 5; i++) {
      await ui.press('000000');
      await ui.press(KEYS.enter);
      await ui.waitForFrame((f) =>
        f.includes(i < 4 ? 'Wrong or expired code' : 'This code is dead'),
      );
    }
    const frame = ui.frame();
    expect(frame).toContain('This code is dead: 5 wrong tries');
    expect(frame).toContain('Press Ctrl+R to send a new code');
    expect(frame).not.toContain('Ctrl+F');
    await ui.press(KEYS.ctrlF, { change: false });
    expect(outboxReads).toBe(0);
    expect(ui.frame()).not.toContain('code filled');
    expect(ui.frame()).not.toContain('••••••');
    await ui.press(KEYS.ctrlR);
    await ui.waitForFrame((f) => !f.includes('This code is dead') && f.includes('code sent to'));
    expect(services.calls.filter((c) => c.startsWith('requestCode'))).toHaveLength(2);
    await ui.press(KEYS.ctrlF);
    await ui.waitForFrame((f) => f.includes('code filled'));
    expect(outboxReads).toBe(1);
    await ui.press(KEYS.enter);
    await ui.waitForFrame((f) => f.includes('Wallet'));
  });

  it('after logout the sign-in screen says so and keeps the e-mail', async () => {
    const services = signedIn();
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Log out');
    await ui.press('y');
    const frame = await ui.waitForFrame((f) => f.includes('Sign in'));
    expect(frame).toContain('Logged out');
    expect(frame).toContain(`E-mail ${SESSION.email}`);
    await ui.press(KEYS.enter);
    await ui.waitForFrame((f) => f.includes('code sent to alice@example.com'));
  });
});

describe('settings in a sandbox session', () => {
  it('say it is the sandbox and show its real URLs, not the saved mainnet server', async () => {
    const services = signedIn();
    ui = renderWithProviders(services);
    const frame = await openFromHome(ui, 'Settings');
    expect(frame).toContain('In use now: the sandbox (local, mainnet-like, no real funds)');
    for (const url of [
      'http://127.0.0.1:41001',
      'http://127.0.0.1:41002',
      'http://127.0.0.1:41003/rpc',
      'http://127.0.0.1:41004',
    ])
      expect(frame).toContain(url);
    expect(frame).toContain('Saved settings (used when the app runs without the sandbox)');
  });
});

describe('80×24', () => {
  const six: Balances = {
    available: true,
    asOf: '',
    totalUsdCents: 123456789n,
    tokens: ['ETH', 'STRK', 'USDC', 'USDT', 'WBTC', 'DAI'].map((symbol) => ({
      symbol,
      decimals: 18,
      amount: 123456789012345678901234n,
      usdCents: 1234567n,
    })),
  };

  it('every home menu item is drawn and reachable, the cursor always on screen', async () => {
    const services = signedIn({
      features: {
        balances: true,
        trade: true,
        multiSwap: true,
        batch: true,
        send: true,
        history: true,
        portfolio: true,
      },
      balances: six,
    });
    ui = renderWithProviders(services, { rows: 24, columns: 80 });
    let frame = await ui.waitForFrame((f) => f.includes('Total'));
    for (const label of [
      'Trade',
      'Multi-swap',
      'Batch',
      'Send',
      'History',
      'Status',
      'Portfolio',
      'Staking',
      'Lending',
      'Settings',
      'Log out',
    ])
      expect(frame).toContain(label);
    expect(frame).toMatch(/123456\.789012345678901234 DAI +\$12,345\.67/);
    expect(frame).toContain('Total $1,234,567.89');
    // down to the last item by its label; the highlighted one stays on screen all the way
    frame = await moveUntil(
      ui,
      (f) => {
        expect(f).toMatch(/› \w/);
        return f.includes('› Log out');
      },
      'the menu item "Log out"',
    );
    expect(frame.split('\n').length).toBeLessThanOrEqual(24);
  });

  it('a review’s figures and a refusal wrap whole at 80 columns, never cut with …', async () => {
    const long = `the paymaster refused this transfer because the gas token balance is short by 0.123456789012345678 STRK and the fee must be covered first`;
    const services = signedIn({
      features: { send: true },
      plan: async () => {
        throw new AppError(ErrorCode.INSUFFICIENT_BALANCE, long);
      },
    });
    ui = renderWithProviders(services, { rows: 40, columns: 80 });
    await openFromHome(ui, 'Send');
    await ui.type('1.123456789012345678');
    await ui.press(KEYS.tab, { change: false });
    await ui.press(OTHER);
    await ui.press(KEYS.enter);
    const frame = await ui.waitForFrame((f) => f.includes('paymaster refused'));
    expect(frame.replace(/\s+/g, ' ')).toContain(long);
    expect(frame).not.toContain('…');
  });
});
