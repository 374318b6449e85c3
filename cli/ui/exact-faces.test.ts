/**
 * One plan document with 18-decimal amounts, rendered by every face: the headless plan, the app's
 * review and receipt, and the tool server's text. Each face says each amount with every digit
 * (docs/decisions.md "Amounts are shown exact, everywhere").
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  ETH,
  OTHER,
  planOf,
  plannedSwap,
  quoteOf,
  STRK,
  USDC,
} from '../../test/helpers/swap-fixtures.js';
import { SESSION } from '../../test/helpers/fake-services.js';
import { signedIn } from '../../test/helpers/screens.js';
import { type Rendered, renderWithProviders } from '../../test/helpers/tui.js';
import { planDocument, type PlanDocument } from '../core/actions/document.js';
import type { GasQuote } from '../core/actions/checks.js';
import type { PlanLine } from '../core/actions/plan-lines.js';
import { formatAmount } from '../../shared/amount.js';
import { renderPlan } from '../headless/plan-render.js';
import { toolText } from '../mcp/server.js';
import { planView } from './adapter.js';
import type { PlanHandle, PlanRequest, Receipt } from './services.js';
import type { AppState, Screen } from './state.js';

const E18 = 10n ** 18n;
const SEND = 2n * E18 - 1n; // 1.999999999999999999 ETH
const OUT = 1_999_999_999_999_999_999n; // what the swap returns before the fee
const GAS: GasQuote = {
  mode: 'default',
  token: STRK,
  maxFee: 123_456_789_123_456_789n,
  estimatedFee: 98_765_432_198_765_432n,
};

/** A receipt's balance change, as the core's receipt lines carry it. */
const change = (symbol: string, address: string, baseUnits: bigint): PlanLine => ({
  kind: 'change',
  leg: null,
  words: `${baseUnits} ${symbol} (the app signs its own)`,
  amounts: [{ symbol, address, decimals: 18, baseUnits, amount: formatAmount(baseUnits, 18) }],
  to: null,
});

function documentOf(): PlanDocument {
  const swap = plannedSwap(quoteOf(USDC, ETH, 6_000_000_000n, OUT, { prices: [1, 3000] }));
  const plan = planOf('batch', [swap], [{ token: ETH, amount: SEND, to: OTHER }]);
  const received = swap.confirmed.minimumReceived + 7n;
  return planDocument(plan, {
    gas: GAS,
    balances: [
      { token: ETH.address, amount: 5n * E18 + 1n },
      { token: USDC.address, amount: 7_000_000_001n },
      { token: STRK.address, amount: 3n * E18 + 3n },
    ],
    simulation: {
      reverted: false,
      transfers: [],
      balanceChanges: [
        { token: ETH.address, symbol: 'ETH', decimals: 18, amount: received - SEND },
        { token: USDC.address, symbol: 'USDC', decimals: 6, amount: -6_000_000_000n },
      ],
    },
  });
}

/** Every amount a person is told in the document, as `<amount> <symbol>`. */
function amountsOf(doc: PlanDocument): string[] {
  const said = (m: { amount: string; symbol: string }) =>
    `${m.amount.replace(/^-/, '')} ${m.symbol}`;
  const s = doc.swaps[0];
  if (s === undefined || doc.gas.mode !== 'default' || doc.simulation.status !== 'ok')
    throw new Error('the fixture is a swap with a paid fee and a simulation');
  return [
    said(s.amountIn),
    said(s.expectedOutput),
    said(s.confirmedMinimumReceived),
    said(s.fee.amount),
    ...doc.sends.map((x) => said(x.amount)),
    said(doc.gas.maxFee),
    ...(doc.gas.estimatedFee === null ? [] : [said(doc.gas.estimatedFee)]),
    ...doc.simulation.balanceChanges.map((c) => said(c.change)),
  ];
}

const request: PlanRequest = {
  kind: 'batch',
  slippageBps: 100,
  params: {
    swaps: [{ amount: '6000', from: 'USDC', to: 'ETH' }],
    sends: [{ amount: '1.999999999999999999', token: 'ETH', to: OTHER }],
  },
};

const stateOn = (screen: Screen): AppState => ({
  screen,
  stack: [{ name: 'home' }],
  environment: { sandbox: true, network: 'mainnet', serverUrl: 'http://127.0.0.1:3001' },
  session: SESSION,
  stopping: false,
  fatal: undefined,
});

/** The whole text of a frame, its lines joined (a wide terminal: nothing wraps). */
const flat = (frame: string): string => frame.replace(/\s+/g, ' ');

let ui: Rendered | undefined;
afterEach(() => {
  ui?.unmount();
  ui = undefined;
});

describe('exact amounts in every face', () => {
  const doc = documentOf();
  const amounts = amountsOf(doc);

  it('the fixture has 18-decimal amounts that a shortened figure would cut', () => {
    expect(amounts).toContain('1.999999999999999999 ETH');
    expect(amounts.filter((a) => /\.\d{7,} /.test(a)).length).toBeGreaterThanOrEqual(5);
  });

  it('the headless plan says every amount exactly', () => {
    const printed = flat(renderPlan(doc));
    for (const a of amounts) expect(printed).toContain(a);
    expect(printed).toMatch(/simulation: ok: [^\n]*-\d+\.\d{18} ETH/);
  });

  it('the tool server text says every amount exactly', () => {
    const text = toolText(doc as unknown as Record<string, unknown>);
    for (const a of amounts) {
      const value = a.split(' ')[0] ?? '';
      expect([`"amount":"${value}"`, `"amount":"-${value}"`].some((t) => text.includes(t))).toBe(
        true,
      );
    }
    expect(text).toContain('"amount":"-0.020395999999999993"');
  });

  it("the app's review says every amount exactly", async () => {
    const plan = planView(
      request,
      { document: doc, slippageBps: 100, confirmBy: Date.now() + 60_000 },
      {} as PlanHandle,
    );
    ui = renderWithProviders(signedIn(), {
      rows: 120,
      columns: 200,
      initial: stateOn({ name: 'review', plan }),
    });
    const frame = flat(await ui.waitForFrame((f) => f.includes('Simulated balance changes')));
    for (const a of amounts) expect(frame).toContain(a);
  });

  it("the app's receipt says every change exactly", async () => {
    const receipt: Receipt = {
      headline: 'Batch confirmed',
      transactionHash: `0x${'ab'.repeat(32)}`,
      status: 'succeeded',
      lines: [
        change('ETH', ETH.address, -SEND),
        change('STRK', STRK.address, 123_456_789_123_456_789n),
      ],
    };
    ui = renderWithProviders(signedIn(), {
      rows: 40,
      columns: 200,
      initial: stateOn({ name: 'receipt', receipt }),
    });
    const frame = await ui.waitForFrame((f) => f.includes('Done'));
    expect(frame).toContain('−1.999999999999999999 ETH');
    expect(frame).toContain('+0.123456789123456789 STRK');
  });
});
