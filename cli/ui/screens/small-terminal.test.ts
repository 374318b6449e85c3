/**
 * The whole app at 80×24 (docs/app.md "Screens"): every screen opened the way a person would, and
 * on each nothing cut — no line wider than the terminal, no frame taller than it, no line ending
 * in a cut (`…`) but the History list's summaries (the selected entry is whole below them), the
 * footer's keys on screen. The words that used to be cut at this size are checked whole: the log
 * path of a sandbox started for the session, the sandbox mailbox hint, History's kind column.
 * Leaving leaves no "stopping…" behind. The TUI over a fake services port (pure UI logic; the
 * real program is driven in tmux by test/tui-*.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HistoryEntry, Portfolio } from '../services.js';
import { fakeServices, SESSION } from '../../../test/helpers/fake-services.js';
import { lendingBorrow, lendingDoc, stakingDoc } from '../../../test/helpers/position-docs.js';
import { openFromHome, signedIn } from '../../../test/helpers/screens.js';
import { KEYS, type Rendered, renderWithProviders } from '../../../test/helpers/tui.js';

const SIZE = { columns: 80, rows: 24 };
const LOG = '/home/someone/.config/finance-tui/sandbox/a-rather-long-folder/sandbox-child.log';

let ui: Rendered | undefined;
afterEach(() => {
  ui?.unmount();
  ui = undefined;
});

/** A path wraps where the terminal ends it (at a hyphen too): whole means every character is on screen. */
const unwrapped = (frame: string): string => frame.replace(/\s+/g, '');

/** The frame as the terminal shows it: within 80×24, nothing cut but what `cutOk` allows. */
function expectWhole(frame: string, cutOk: (line: string) => boolean = () => false): void {
  const lines = frame.split('\n');
  expect(lines.length, frame).toBeLessThanOrEqual(SIZE.rows);
  for (const line of lines) {
    expect([...line].length, line).toBeLessThanOrEqual(SIZE.columns);
    // Ink cuts a line at the terminal's edge with an ellipsis in its last column
    if ([...line].length === SIZE.columns && line.endsWith('…'))
      expect(cutOk(line), `cut: ${line}\n${frame}`).toBe(true);
  }
  // the footer is on screen, its keys whole (it wraps on a narrow terminal)
  expect(unwrapped(frame)).toContain('Ctrl+Cquit');
}

const flat = (frame: string): string => frame.replace(/\s+/g, ' ');

const portfolio: Portfolio = {
  network: 'sandbox',
  sandbox: true,
  address: SESSION.walletAddress,
  email: SESSION.email,
  tokens: [
    {
      symbol: 'ETH',
      balance: '10',
      share: { percent: '75.00', units: 7500 },
      valueUsd: '30000.00',
      ifSoldNow: null,
      unpriced: null,
      cached: false,
    },
    {
      symbol: 'USDC',
      balance: '10000',
      share: { percent: '25.00', units: 2500 },
      valueUsd: '10000.00',
      ifSoldNow: null,
      unpriced: null,
      cached: false,
    },
  ],
  total: { usd: '40000.00', cents: '4000000' },
  unpriced: [],
  notes: [],
  pricing: { method: 'm', cacheSeconds: 20, pricesAsOf: null, ageSeconds: 3, fromCache: 0 },
  asOf: '2026-11-25T10:00:00.000Z',
} as unknown as Portfolio;

const lending = lendingDoc([lendingBorrow('1500', '1', '1.1500', 'ETH', '1875')], []);

const staking = stakingDoc('100', '10', '2026-12-02T10:00:00.000Z');

const history: HistoryEntry[] = [
  {
    transactionHash: `0x${'1'.repeat(64)}`,
    at: '2026-11-24T10:07:00.000Z',
    kind: 'withdraw-collateral',
    summary: 'withdraw 0.5 ETH collateral from the ETH/USDC position in the Vesu Prime pool',
    status: 'succeeded',
  },
  {
    transactionHash: `0x${'2'.repeat(64)}`,
    at: '2026-11-24T10:06:00.000Z',
    kind: 'unstake-complete',
    summary: 'withdraw 10 STRK from Alpha',
    status: 'succeeded',
  },
  {
    transactionHash: `0x${'3'.repeat(64)}`,
    at: '2026-11-24T10:05:00.000Z',
    kind: 'send',
    summary: 'send 1 STRK to 0x0123…cdef',
    status: 'succeeded',
  },
];

const everything = () =>
  signedIn({
    features: {
      balances: true,
      trade: true,
      multiSwap: true,
      batch: true,
      send: true,
      history: true,
      portfolio: true,
    },
    portfolios: [portfolio],
    lending,
    staking,
    history,
    environment: { startedChild: { what: 'the local sandbox', logFile: LOG } },
  });

describe('the whole app at 80×24', () => {
  it.each([
    ['Trade', 'Trade'],
    ['Multi-swap', 'Multi-swap'],
    ['Batch', 'Batch'],
    ['Send', 'Send'],
    ['Portfolio', 'Total $40000.00'],
    ['Staking', 'Alpha'],
    ['Lending', 'below 1.2'],
    ['Status', 'Status'],
    ['Settings', 'Settings'],
  ])('%s: within the terminal, nothing cut, the log path whole', async (label, shown) => {
    ui = renderWithProviders(everything(), SIZE);
    const home = await ui.waitForFrame((f) => f.includes('› Trade'));
    expectWhole(home);
    expect(unwrapped(home)).toContain(`logs:${LOG}`);
    await openFromHome(ui, label);
    const frame = await ui.waitForFrame((f) => f.includes(shown) && !f.includes('› Trade'));
    expectWhole(frame);
    expect(unwrapped(frame)).toContain(`logs:${LOG}`);
  });

  it("History: each kind's label whole in one column; only the summaries meet the edge", async () => {
    ui = renderWithProviders(everything(), SIZE);
    await openFromHome(ui, 'History');
    const frame = await ui.waitForFrame((f) => f.includes('1 of 3'));
    expectWhole(frame, (line) => /^\s*›?\s*2026-11-24/.test(line));
    const rows = frame.split('\n').filter((l) => /2026-11-24 10:0\d/.test(l));
    expect(rows).toHaveLength(3);
    expect(rows[0]).toContain('Withdraw collateral');
    expect(rows[1]).toContain('Withdraw ');
    expect(rows[2]).toContain('Send ');
    // one column: the summaries start together
    const starts = rows.map((r, i) => r.indexOf(['withdraw 0.5', 'withdraw 10', 'send 1'][i]!));
    expect(new Set(starts).size).toBe(1);
  });

  it('sign-in in the sandbox: the mailbox hint whole', async () => {
    ui = renderWithProviders(fakeServices(), SIZE);
    await ui.waitForFrame((f) => f.includes('E-mail') || f.includes('e-mail'));
    await ui.type('alice@example.com');
    const frame = await ui.press(KEYS.enter);
    const code = await ui.waitForFrame((f) => f.includes('emulated mailbox'));
    expectWhole(code);
    expect(flat(code)).toContain(
      'sandbox: the code is in the emulated mailbox (GET /sandbox/outbox/<email>); Ctrl+F fills it',
    );
    expect(frame).toBeDefined();
  });

  it('a sandbox shaped like Sepolia says so: never "mainnet-like"', async () => {
    ui = renderWithProviders(signedIn({ environment: { network: 'sepolia' } }), SIZE);
    const home = await ui.waitForFrame((f) => f.includes('› Trade'));
    expect(home).toContain('sandbox (sepolia-like)');
    expect(home).not.toContain('mainnet-like');
  });

  it('quitting leaves no "stopping…" on the terminal', async () => {
    const services = everything();
    let closed: () => void = () => undefined;
    services.close = () => new Promise<void>((resolve) => (closed = resolve));
    ui = renderWithProviders(services, SIZE);
    await ui.waitForFrame((f) => f.includes('› Trade'));
    expect(await ui.press(KEYS.ctrlC)).toContain('stopping…');
    closed();
    await ui.waitForFrame(() => ui?.exitCode() === 0);
    await ui.waitForFrame((f) => !f.includes('stopping…'));
    expect(ui.frame()).not.toContain('stopping…');
  });
});
