/** The TUI's pure logic: mode decision, app reducer, field editing, filters, flows, theme. */
import { describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { usd } from './format.js';
import { initialLiveQuote, liveQuoteReducer, REFRESH_MS } from './hooks/live-quote-state.js';
import { footerText } from './keymap.js';
import { decideMode } from './mode.js';
import { commandNames } from '../run.js';
import {
  canResend,
  canSubmit,
  codeIsDead,
  initialSignIn,
  MAX_WRONG_CODES,
  RESEND_AFTER_MS,
  type SignInState,
  signInReducer,
} from './screens/sign-in-state.js';
import { menuWindow } from './screens/home.js';
import { SLIPPAGE_CONFIRM_BPS, SLIPPAGE_WARN_BPS, slippageLevel } from '../core/actions/rules.js';
import { MAX_BATCH_PAIRS, MIN_BATCH_PAIRS } from '../core/actions/limits.js';
import { MAX_BATCH_SENDS } from '../core/actions/plan.js';
import {
  checkRows,
  focusStops,
  initialRows,
  rowsReducer,
  type RowsAction,
  type RowsForm,
} from './screens/rows-state.js';
import { initialTrade, quoteImpactLevel, requestOf } from './screens/trade-state.js';
import { appReducer, initialState } from './state.js';
import type { PlanView } from './services.js';
import { historyWindow } from './screens/info.js';
import { wrappedLines } from './widgets/layout.js';
import { themeFor } from './theme.js';
import { editField } from './widgets/field-state.js';
import { filterItems, moveHighlight } from './widgets/picker-state.js';

const tty = { stdinIsTTY: true, stdoutIsTTY: true, env: {} };

describe('decideMode', () => {
  it.each([
    ['a command word', { ...tty, argv: ['quote', '1', 'ETH', 'USDC'] }, 'command'],
    ['--help', { ...tty, argv: ['--help'] }, 'command'],
    ['--version after --sandbox', { ...tty, argv: ['--sandbox', '--version'] }, 'command'],
    ['nothing, on a terminal', { ...tty, argv: [] }, 'interactive'],
    ['--sandbox, on a terminal', { ...tty, argv: ['--sandbox'] }, 'interactive'],
    ['no command, stdin piped', { ...tty, stdinIsTTY: false, argv: [] }, 'refused'],
    ['no command, stdout piped', { ...tty, stdoutIsTTY: false, argv: [] }, 'refused'],
    ['no command under CI', { ...tty, env: { CI: 'true' }, argv: [] }, 'refused'],
    ['no command, CI=false', { ...tty, env: { CI: 'false' }, argv: [] }, 'interactive'],
    ['--json without a command', { ...tty, argv: ['--json'] }, 'refused'],
    ['an unknown flag', { ...tty, argv: ['--sandbx'] }, 'refused'],
  ])('%s', (_label, input, kind) => {
    expect(decideMode(input).kind).toBe(kind);
  });

  it('a refusal names the headless commands, and the flag when one is wrong', () => {
    const piped = decideMode({ ...tty, stdinIsTTY: false, argv: [] });
    expect(piped).toMatchObject({
      kind: 'refused',
      json: false,
      message: expect.stringContaining('send, trade'),
    });
    // every command word, as run.ts's table has them
    const named = (piped as { message: string }).message
      .replace(/^.*use a command: | \(finance-tui --help\)$/g, '')
      .split(', ');
    expect(named).toEqual(commandNames());
    expect(decideMode({ ...tty, argv: ['--sandbx'] })).toMatchObject({
      message: expect.stringContaining('--sandbx'),
    });
    expect(decideMode({ ...tty, argv: ['--sandbox'] })).toEqual({
      kind: 'interactive',
      sandbox: true,
    });
  });
});

describe('appReducer', () => {
  const session = {
    email: 'a@b.co',
    userId: 'u',
    walletId: 'w',
    walletAddress: '0x1',
    expiresAt: '',
    isExisting: true,
  };
  const env = { sandbox: true, network: 'mainnet' as const, serverUrl: 'http://x' };
  it('connected without a session signs in; with one goes home', () => {
    expect(
      appReducer(initialState, { type: 'connected', environment: env, session: null }).screen.name,
    ).toBe('signIn');
    expect(
      appReducer(initialState, { type: 'connected', environment: env, session }).screen.name,
    ).toBe('home');
  });
  it('Esc pops the back-stack; never leaves executing; home clears it', () => {
    let s = appReducer(initialState, { type: 'connected', environment: env, session });
    s = appReducer(s, {
      type: 'open',
      screen: { name: 'trade' },
      returnTo: { name: 'home', selected: 0 },
    });
    s = appReducer(s, { type: 'open', screen: { name: 'status' } });
    expect(s.stack.map((x) => x.name)).toEqual(['home', 'trade']);
    s = appReducer(s, { type: 'back' });
    expect(s.screen.name).toBe('trade');
    // the reducer never looks inside a plan
    const plan = { handle: 'planned' } as unknown as PlanView;
    s = appReducer(s, { type: 'replace', screen: { name: 'executing', plan } });
    expect(appReducer(s, { type: 'back' })).toBe(s);
    // a second confirmation keeps the running execution (the same screen object: one execution)
    expect(appReducer(s, { type: 'replace', screen: { name: 'executing', plan } })).toBe(s);
    s = appReducer(s, { type: 'home' });
    expect(s).toMatchObject({ screen: { name: 'home' }, stack: [] });
    expect(appReducer(s, { type: 'back' })).toBe(s);
    expect(appReducer(s, { type: 'signedOut' })).toMatchObject({
      session: null,
      screen: { name: 'signIn' },
    });
    // signed in: the e-mail stays filled in, and the note is said
    const signedIn = appReducer(s, {
      type: 'signedIn',
      session: {
        email: 'a@b.co',
        userId: 'u',
        walletId: 'w',
        walletAddress: '0x1',
        expiresAt: '',
        isExisting: true,
      },
    });
    expect(appReducer(signedIn, { type: 'signedOut', note: 'Logged out' })).toMatchObject({
      session: null,
      screen: { name: 'signIn', email: 'a@b.co', note: 'Logged out' },
    });
  });
});

describe('wrappedLines', () => {
  it('counts lines wrapped at word boundaries, as the footer is', () => {
    expect(wrappedLines('Esc back · Ctrl+C quit', 40)).toBe(1);
    // 10 columns: "Esc back ·" | "Ctrl+C" | "quit" — not ceil(22 / 10) = 3 by luck: words move whole
    expect(wrappedLines('Esc back · Ctrl+C quit', 10)).toBe(3);
    expect(wrappedLines('aaaa bbbb cccc', 9)).toBe(2);
    expect(wrappedLines('aaaa bbbbb', 9)).toBe(2);
    expect(wrappedLines('a'.repeat(25), 10)).toBe(3);
  });
});

describe('historyWindow', () => {
  it('keeps the selected row in a window that fits the rows left', () => {
    expect(historyWindow(2, 0, 20)).toEqual({ first: 0, last: 2 });
    expect(historyWindow(100, 0, 10)).toEqual({ first: 0, last: 10 });
    expect(historyWindow(100, 9, 10)).toEqual({ first: 0, last: 10 });
    expect(historyWindow(100, 10, 10)).toEqual({ first: 1, last: 11 });
    expect(historyWindow(100, 99, 10)).toEqual({ first: 90, last: 100 });
    // a tiny terminal still shows a few
    expect(historyWindow(100, 50, -4)).toEqual({ first: 48, last: 51 });
  });
});

describe('editField', () => {
  it('inserts filtered, capped text at the cursor; edits and moves', () => {
    const rules = { accept: /[0-9]/, maxLength: 6 };
    let s = editField({ value: '', cursor: 0 }, { type: 'insert', text: '12a3\u001b4567' }, rules);
    expect(s).toEqual({ value: '123456', cursor: 6 });
    s = editField(s, { type: 'left' }, rules);
    s = editField(s, { type: 'backspace' }, rules);
    expect(s).toEqual({ value: '12346', cursor: 4 });
    s = editField(s, { type: 'home' });
    expect(editField(s, { type: 'backspace' })).toEqual(s);
    expect(editField(s, { type: 'delete' })).toEqual({ value: '2346', cursor: 0 });
    expect(editField({ value: 'abc', cursor: 99 }, { type: 'insert', text: 'd' })).toEqual({
      value: 'abcd',
      cursor: 4,
    });
  });
});

describe('picker filter', () => {
  const items = [
    { symbol: 'ETH', name: 'Ether' },
    { symbol: 'USDC', name: 'USD Coin' },
    { symbol: 'USDT', name: 'Tether USD' },
    { symbol: 'STRK', name: 'Starknet Token' },
  ];
  it('symbol prefixes first, then names; wraps the highlight', () => {
    expect(filterItems(items, 'us').map((t) => t.symbol)).toEqual(['USDC', 'USDT']);
    expect(filterItems(items, 'ether').map((t) => t.symbol)).toEqual(['ETH', 'USDT']);
    expect(filterItems(items, 'zzz')).toEqual([]);
    expect(moveHighlight(0, -1, 4)).toBe(3);
    expect(moveHighlight(3, 1, 4)).toBe(0);
  });
});

describe('sign-in flow', () => {
  const t0 = 1_000_000;
  it('resend waits RESEND_AFTER_MS; Retry-After blocks everything until it passes', () => {
    let s = signInReducer({ ...initialSignIn, email: 'a@b.co' }, { type: 'sending' });
    s = signInReducer(s, { type: 'sent', now: t0 });
    expect(s.step).toBe('code');
    expect(canResend(s, t0 + RESEND_AFTER_MS - 1)).toBe(false);
    expect(canResend(s, t0 + RESEND_AFTER_MS)).toBe(true);
    const limited = new AppError(ErrorCode.RATE_LIMITED, 'slow down', {
      details: { retryAfterSeconds: 60 },
    });
    s = signInReducer({ ...s, code: '123456' }, { type: 'failed', error: limited, now: t0 });
    expect(canSubmit(s, t0 + 59_000)).toEqual({ ok: false, why: 'rate limited' });
    expect(canSubmit(s, t0 + 60_000)).toEqual({ ok: true });
  });
  it('a wrong code clears the field and keeps the e-mail', () => {
    const s = signInReducer(
      { ...initialSignIn, step: 'code', email: 'a@b.co', code: '111111' },
      {
        type: 'failed',
        error: new AppError(ErrorCode.INVALID_OTP, 'invalid or expired code'),
        now: t0,
      },
    );
    expect(s).toMatchObject({ code: '', email: 'a@b.co', failure: { code: 'INVALID_OTP' } });
    expect(canSubmit(s, t0)).toMatchObject({ ok: false });
  });
});

describe('a dead code', () => {
  it(`after MAX_WRONG_CODES wrong tries nothing is submitted or filled; a new code starts again at once`, () => {
    const wrong = new AppError(ErrorCode.INVALID_OTP, 'invalid or expired code');
    let s: SignInState = signInReducer(
      { ...initialSignIn, email: 'a@b.co' },
      { type: 'sent', now: 0 },
    );
    for (let i = 0; i < MAX_WRONG_CODES; i++) {
      expect(codeIsDead(s)).toBe(false);
      s = signInReducer({ ...s, code: '000000' }, { type: 'verifying' });
      s = signInReducer(s, { type: 'failed', error: wrong, now: 1 });
    }
    expect(codeIsDead(s)).toBe(true);
    expect(canSubmit({ ...s, code: '123456' }, 2)).toEqual({ ok: false, why: 'the code is dead' });
    expect(signInReducer(s, { type: 'filled', code: '123456' }).code).toBe('');
    expect(canResend(s, 2)).toBe(true); // before RESEND_AFTER_MS
    s = signInReducer(s, { type: 'sent', now: 3 });
    expect(codeIsDead(s)).toBe(false);
    expect(signInReducer(s, { type: 'filled', code: '123456' }).code).toBe('123456');
  });
});

describe('home menu window', () => {
  it('all items when they fit; else a window that keeps the selected one', () => {
    expect(menuWindow(8, 7, 8)).toEqual({ first: 0, last: 8 });
    for (let selected = 0; selected < 8; selected++) {
      const { first, last } = menuWindow(8, selected, 6);
      expect(last - first).toBe(4);
      expect(selected).toBeGreaterThanOrEqual(first);
      expect(selected).toBeLessThan(last);
    }
  });
});

describe('slippage level', () => {
  it('warns above SLIPPAGE_WARN_BPS and needs the word above SLIPPAGE_CONFIRM_BPS (the default 1 % is quiet)', () => {
    expect(slippageLevel(100)).toBe('ok');
    expect(slippageLevel(SLIPPAGE_WARN_BPS)).toBe('ok');
    expect(slippageLevel(SLIPPAGE_WARN_BPS + 1)).toBe('high');
    expect(slippageLevel(SLIPPAGE_CONFIRM_BPS)).toBe('high');
    expect(slippageLevel(SLIPPAGE_CONFIRM_BPS + 1)).toBe('very-high');
  });
});

describe('live quote', () => {
  it('an answer to a superseded request is dropped; the spinner waits for "slow"', () => {
    let s = liveQuoteReducer(initialLiveQuote, { type: 'input', seq: 1, empty: false });
    s = liveQuoteReducer(s, { type: 'ask', seq: 1 });
    expect(s.spinner).toBe(false);
    s = liveQuoteReducer(s, { type: 'slow', seq: 1 });
    expect(s.spinner).toBe(true);
    s = liveQuoteReducer(s, { type: 'input', seq: 2, empty: false });
    const late = liveQuoteReducer(s, { type: 'answer', seq: 1, quote: {} as never, now: 5 });
    expect(late).toBe(s);
    s = liveQuoteReducer(s, { type: 'answer', seq: 2, quote: {} as never, now: 5 });
    expect(s).toMatchObject({ status: 'ready', refreshAt: 5 + REFRESH_MS, spinner: false });
  });
});

describe('trade form', () => {
  const decimals = (symbol: string) => ({ USDC: 6, ETH: 18 })[symbol];
  it('quotes only a valid amount; says why otherwise', () => {
    const form = initialTrade(100);
    expect(requestOf(form, decimals)).toEqual({ problem: undefined });
    expect(requestOf({ ...form, amount: '1.0000001' }, decimals)).toMatchObject({
      problem: expect.stringContaining('at most 6 decimal places'),
    });
    expect(requestOf({ ...form, to: 'USDC' }, decimals)).toMatchObject({
      problem: 'cannot swap USDC for itself',
    });
    expect(
      requestOf({ ...form, amount: '100', slippageChoice: 4, customSlippage: '60' }, decimals),
    ).toMatchObject({ problem: expect.any(String) });
    expect(requestOf({ ...form, amount: ' 100 ' }, decimals)).toEqual({
      request: { amount: '100', from: 'USDC', to: 'ETH', slippageBps: 100 },
    });
  });
  it("impact colours follow the core's priceImpactWarning (above 5 % warns, above 15 % needs typing)", () => {
    const level = (bps: number | undefined) =>
      quoteImpactLevel({ priceImpact: bps === undefined ? null : { bps, percent: '' } });
    expect([undefined, 500, 501, 1500, 1501].map(level)).toEqual([
      'unknown',
      'ok',
      'warn',
      'warn',
      'high',
    ]);
  });
});

describe('multi-swap and batch rows', () => {
  const decimalsOf = (symbol: string) => ({ USDC: 6, ETH: 18, STRK: 18 })[symbol];
  const OTHER = `0x0${'5'.repeat(63)}`;
  const checkRecipient = (text: string) =>
    text.trim() === OTHER ? { address: OTHER } : { problem: `"${text.trim()}" is not an address` };
  const context = { decimalsOf, checkRecipient, defaultSlippageBps: 100 };
  const run = (form: RowsForm, ...actions: RowsAction[]) => actions.reduce(rowsReducer, form);
  const type = (
    form: RowsForm,
    row: number,
    field: 'amount' | 'from' | 'to' | 'token',
    value: string,
  ) => rowsReducer(form, { type: 'edit', row, field, value });
  const kinds = (form: RowsForm) => form.rows.map((r) => r.kind);

  it('a multi-swap keeps between the core’s fewest and most swaps, and says why it refuses', () => {
    let form = initialRows('multi-swap', 100);
    expect(kinds(form)).toEqual(Array(MIN_BATCH_PAIRS).fill('swap'));
    form = run(
      form,
      ...Array<RowsAction>(MAX_BATCH_PAIRS - MIN_BATCH_PAIRS).fill({ type: 'addSwap' }),
    );
    expect(form.rows).toHaveLength(MAX_BATCH_PAIRS);
    expect(form.focus).toEqual({ row: MAX_BATCH_PAIRS - 1, field: 'amount' });
    form = rowsReducer(form, { type: 'addSwap' });
    expect(form.rows).toHaveLength(MAX_BATCH_PAIRS);
    expect(form.notice).toBe(`a multi-swap holds at most ${MAX_BATCH_PAIRS} swaps`);
    expect(rowsReducer(form, { type: 'nextField' }).notice).toBeUndefined();
    expect(rowsReducer(form, { type: 'addSend' }).notice).toContain('swaps only');
    form = run(
      form,
      ...Array<RowsAction>(MAX_BATCH_PAIRS - MIN_BATCH_PAIRS).fill({ type: 'removeRow' }),
    );
    expect(form.rows).toHaveLength(MIN_BATCH_PAIRS);
    expect(form.focus).toEqual({ row: MIN_BATCH_PAIRS - 1, field: 'amount' });
    expect(rowsReducer(form, { type: 'removeRow' })).toMatchObject({
      rows: form.rows,
      notice: `a multi-swap needs at least ${MIN_BATCH_PAIRS} swaps`,
    });
  });

  it('a batch: swaps before sends, the core’s limits, at least one row; slippage only with swaps', () => {
    let form = initialRows('batch', 100);
    expect(kinds(form)).toEqual(['swap']);
    form = run(form, { type: 'addSend' }, { type: 'addSwap' });
    expect(kinds(form)).toEqual(['swap', 'swap', 'send']);
    expect(form.focus).toEqual({ row: 1, field: 'amount' });
    form = run(form, ...Array<RowsAction>(MAX_BATCH_SENDS).fill({ type: 'addSend' }));
    expect(form.rows.filter((r) => r.kind === 'send')).toHaveLength(MAX_BATCH_SENDS);
    expect(form.notice).toBe(`a batch holds at most ${MAX_BATCH_SENDS} transfers`);
    form = run(form, ...Array<RowsAction>(MAX_BATCH_PAIRS).fill({ type: 'addSwap' }));
    expect(form.notice).toBe(`a batch holds at most ${MAX_BATCH_PAIRS} swaps`);

    form = run(
      initialRows('batch', 100),
      { type: 'addSend' },
      { type: 'focus', focus: { row: 0, field: 'from' } },
      { type: 'removeRow' },
    );
    expect(kinds(form)).toEqual(['send']);
    expect(focusStops(form)).toEqual([
      { row: 0, field: 'amount' },
      { row: 0, field: 'token' },
      { row: 0, field: 'to' },
    ]);
    expect(rowsReducer(form, { type: 'removeRow' }).notice).toBe('a batch needs at least one row');
    expect(rowsReducer(form, { type: 'focus', focus: 'slippage' }).focus).toBe('slippage');
  });

  it('Tab walks each row’s fields in line order, then the slippage, and wraps', () => {
    let form = initialRows('multi-swap', 100);
    const seen = [];
    for (let i = 0; i < 8; i++) {
      seen.push(form.focus);
      form = rowsReducer(form, { type: 'nextField' });
    }
    expect(seen).toEqual([...focusStops(form), { row: 0, field: 'amount' }]);
    expect(seen.slice(0, 4)).toEqual([
      { row: 0, field: 'amount' },
      { row: 0, field: 'from' },
      { row: 0, field: 'to' },
      { row: 1, field: 'amount' },
    ]);
    expect(seen[6]).toBe('slippage');
  });

  it('each row is checked as typed; the request is exactly the typed rows once all are complete', () => {
    let form = initialRows('multi-swap', 100);
    expect(checkRows(form, context)).toMatchObject({
      problems: [undefined, undefined],
      empty: { row: 0, field: 'amount' },
      request: undefined,
    });
    form = type(type(form, 0, 'amount', ' 100 '), 1, 'from', 'ETH');
    let check = checkRows(form, context);
    expect(check.problems).toEqual([undefined, 'cannot swap ETH for itself']);
    form = type(type(form, 1, 'from', 'STRK'), 1, 'amount', '1.0000000000000000001');
    expect(checkRows(form, context).problems[1]).toContain('at most 18 decimal places');
    form = type(form, 1, 'amount', '50');
    check = checkRows(form, context);
    expect(check.request).toEqual({
      kind: 'multi-swap',
      slippageBps: 100,
      params: {
        pairs: [
          { amount: '100', from: 'USDC', to: 'ETH' },
          { amount: '50', from: 'STRK', to: 'ETH' },
        ],
      },
    });
    form = run(form, { type: 'slippage', patch: { slippageChoice: 4, customSlippage: '60' } });
    check = checkRows(form, context);
    expect(check.slippageProblem).toEqual(expect.any(String));
    expect(check.request).toBeUndefined();
    expect(
      checkRows(run(form, { type: 'slippage', patch: { customSlippage: '0.7' } }), context).request
        ?.slippageBps,
    ).toBe(70);
  });

  it('a send row: the recipient checked as the core reads it, then planned after the swaps', () => {
    let form = run(initialRows('batch', 100), { type: 'addSend' });
    form = type(type(form, 0, 'amount', '100'), 1, 'amount', '5');
    expect(checkRows(form, context).empty).toEqual({ row: 1, field: 'to' });
    form = type(form, 1, 'to', '0x12');
    expect(checkRows(form, context)).toMatchObject({
      problems: [undefined, '"0x12" is not an address'],
      request: undefined,
    });
    form = type(form, 1, 'to', OTHER);
    expect(checkRows(form, context).request).toEqual({
      kind: 'batch',
      slippageBps: 100,
      params: {
        swaps: [{ amount: '100', from: 'USDC', to: 'ETH' }],
        sends: [{ token: 'STRK', amount: '5', to: OTHER }],
      },
    });
    // without swaps the slippage is not asked for: a bad custom value is not in the way
    form = run(
      form,
      { type: 'slippage', patch: { slippageChoice: 4, customSlippage: 'x' } },
      { type: 'focus', focus: { row: 0, field: 'amount' } },
      { type: 'removeRow' },
    );
    expect(checkRows(form, context)).toMatchObject({
      slippageProblem: undefined,
      request: { kind: 'batch', slippageBps: 100, params: { swaps: [] } },
    });
  });
});

describe('theme and text', () => {
  it('NO_COLOR, FORCE_COLOR=0 and TERM=dumb drop colour; TERM=dumb also animation', () => {
    expect(themeFor({}).color).toBe(true);
    expect(themeFor({ NO_COLOR: '1' })).toMatchObject({
      color: false,
      animate: true,
      danger: undefined,
    });
    expect(themeFor({ NO_COLOR: '' }).color).toBe(true);
    expect(themeFor({ FORCE_COLOR: '0' }).color).toBe(false);
    expect(themeFor({ TERM: 'dumb' })).toMatchObject({ color: false, animate: false });
  });
  it('footer and money', () => {
    expect(footerText(['back', 'submit'], { submit: 'sign in' })).toBe('Esc back · Enter sign in');
    expect(usd(123456789n)).toBe('$1,234,567.89');
    expect(usd(5n)).toBe('$0.05');
  });
});
