/**
 * One plan model (docs/architecture.md "One plan model"): one multi-leg plan document — a batch
 * that sends, stakes and supplies — rendered by every face: the headless text, the app's review
 * and the tool server's question before signing. Each shows every one of the core's lines, with
 * the same amounts, recipients and bounds: no face shows less than another.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { planOfLeg } from '../../test/helpers/leg-fixtures.js';
import { SESSION } from '../../test/helpers/fake-services.js';
import { signedIn } from '../../test/helpers/screens.js';
import { OTHER, planOf, STRK, USDC } from '../../test/helpers/swap-fixtures.js';
import { type Rendered, renderWithProviders } from '../../test/helpers/tui.js';
import { planDocument } from '../core/actions/document.js';
import { planLines } from '../core/actions/plan-lines.js';
import { renderPlan } from '../headless/plan-render.js';
import { consentMessage } from '../mcp/plan-view.js';
import { planView } from './adapter.js';
import type { PlanHandle, PlanRequest } from './services.js';

const E18 = 10n ** 18n;

function batchDocument() {
  const { leg: stake } = planOfLeg('stake');
  const { leg: supply } = planOfLeg('supply');
  const plan = planOf(
    'batch',
    [],
    [{ token: USDC, amount: 1_250_001n, to: OTHER }],
    [stake, supply],
  );
  return planDocument(plan, {
    gas: { mode: 'default', token: STRK, maxFee: E18 / 3n, estimatedFee: E18 / 7n },
    balances: [
      { token: USDC.address, amount: 1_000_000_000_007n },
      { token: STRK.address, amount: 500n * E18 + 1n },
    ],
    acknowledgments: [{ id: 'unknown-pool', reason: 'the pool is not a known one', details: {} }],
  });
}

const request: PlanRequest = {
  kind: 'batch',
  slippageBps: 100,
  params: { sends: [{ amount: '1.250001', token: 'USDC', to: OTHER }] },
};

/** The whole text, its lines joined (a wide terminal: nothing wraps; the app's marks apart). */
const flat = (text: string): string => text.replace(/\s+/g, ' ');

let ui: Rendered | undefined;
afterEach(() => {
  ui?.unmount();
  ui = undefined;
});

describe('one plan model: every face shows the same lines', () => {
  const doc = batchDocument();
  const lines = planLines(doc);

  it('the batch has a line for each leg, its recipient, the totals with the gas, and an acknowledgment', () => {
    expect(new Set(lines.flatMap((l) => (l.leg === null ? [] : [l.leg])))).toEqual(
      new Set([0, 1, 2]),
    );
    expect(lines.filter((l) => l.to !== null).map((l) => l.to)).toEqual([OTHER]);
    expect(lines.map((l) => l.kind)).toEqual(
      expect.arrayContaining(['leaves', 'total', 'gas', 'acknowledgment']),
    );
    // exact, never rounded: 1.250001 USDC, a third of a STRK
    expect(lines.map((l) => l.words).join('\n')).toContain('1.250001 USDC');
    expect(lines.map((l) => l.words).join('\n')).toContain('0.333333333333333333 STRK');
  });

  it('the headless text, the app review and the tool server question each contain every line', async () => {
    const headless = flat(renderPlan(doc));
    const question = flat(consentMessage(doc));
    ui = renderWithProviders(signedIn(), {
      rows: 120,
      columns: 240,
      initial: {
        screen: {
          name: 'review',
          plan: planView(
            request,
            { document: doc, slippageBps: 100, confirmBy: Date.now() + 60_000 },
            {} as PlanHandle,
          ),
        },
        stack: [{ name: 'home' }],
        environment: { sandbox: true, network: 'mainnet', serverUrl: 'http://127.0.0.1:3001' },
        session: SESSION,
        stopping: false,
        fatal: undefined,
      },
    });
    const review = flat(await ui.waitForFrame((f) => f.includes('Simulated balance changes')));
    for (const face of [headless, review, question])
      for (const line of lines) {
        expect(face).toContain(flat(line.words));
        for (const a of line.amounts) expect(face).toContain(`${a.amount} ${a.symbol}`);
        if (line.to !== null) expect(face).toContain(line.to);
      }
  });
});
