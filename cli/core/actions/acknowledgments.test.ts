import { describe, expect, it } from 'vitest';
import { refusal } from '../../../test/helpers/failure.js';
import { ETH, planOf, plannedSwap, quoteOf, USDC } from '../../../test/helpers/swap-fixtures.js';
import { mergeAcknowledgments, requireAcknowledgments } from './acknowledgments.js';
import { planDocument } from './document.js';
import { legAcknowledgments } from './legs/index.js';

// 1 ETH at $3000 for this many USDC (impact = 1 − out / 3000), at this slippage
const trade = (usdc: bigint, slippageBps = 100) =>
  planOf('trade', [plannedSwap(quoteOf(ETH, USDC, 10n ** 18n, usdc, { slippageBps }))]);

describe('acknowledgments: one confirmation level per plan, decided by the core', () => {
  it('a plain swap needs none; slippage above 15 % needs high-slippage; impact above 15 % high-impact', () => {
    expect(legAcknowledgments(trade(2_991_000_000n).legs, trade(2_991_000_000n))).toEqual([]);
    const slippy = trade(2_991_000_000n, 2000);
    expect(legAcknowledgments(slippy.legs, slippy).map((a) => a.id)).toEqual(['high-slippage']);
    expect(legAcknowledgments(trade(2_991_000_000n, 1500).legs, slippy)).toEqual([]);
    const both = trade(2_549_000_000n, 2000);
    expect(legAcknowledgments(both.legs, both).map((a) => a.id)).toEqual([
      'high-impact',
      'high-slippage',
    ]);
  });

  it('the plan document lists them, with reasons that name the figures', () => {
    const slippy = trade(2_991_000_000n, 2000);
    const doc = planDocument(slippy, { acknowledgments: legAcknowledgments(slippy.legs, slippy) });
    expect(doc.acknowledgments).toEqual([
      { id: 'high-slippage', reason: expect.stringContaining('slippage 20% is above 15%') },
    ]);
  });

  it('refused until every one is given: a stable code, details.remedy = the missing ids, no flag named', () => {
    const slippy = trade(2_991_000_000n, 2000);
    const needed = legAcknowledgments(slippy.legs, slippy);
    const refused = refusal(() => requireAcknowledgments(needed, []));
    expect(refused).toMatchObject({
      code: 'ACKNOWLEDGMENT_REQUIRED',
      details: { remedy: ['high-slippage'] },
    });
    expect(JSON.stringify(refused)).not.toContain('--');
    expect(() => requireAcknowledgments(needed, ['high-slippage'])).not.toThrow();
    // a high impact keeps its own code, with its figures
    const both = trade(2_549_000_000n, 2000);
    expect(
      refusal(() => requireAcknowledgments(legAcknowledgments(both.legs, both), ['high-slippage'])),
    ).toMatchObject({
      code: 'PRICE_IMPACT_TOO_HIGH',
      details: { remedy: ['high-impact'], bps: 1503, limitBps: 1500 },
    });
  });

  it('one entry per id, the reasons of several legs joined', () => {
    expect(
      mergeAcknowledgments([
        { id: 'high-impact', reason: 'a' },
        { id: 'exit-restart', reason: 'b' },
        { id: 'high-impact', reason: 'c' },
      ]),
    ).toEqual([
      { id: 'high-impact', reason: 'a; c' },
      { id: 'exit-restart', reason: 'b' },
    ]);
  });
});
