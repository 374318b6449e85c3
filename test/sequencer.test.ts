/**
 * The file order (test/sequencer.ts): longest first, shuffled only inside windows, the same order
 * for the same seed and another for another.
 */
import { describe, expect, it } from 'vitest';
import { prng, shuffleWindows } from './sequencer.js';

describe('shuffleWindows', () => {
  const ordered = Array.from({ length: 21 }, (_, i) => i);

  it('keeps every file once, each inside its own window of the longest-first order', () => {
    const out = shuffleWindows(ordered, 8, prng(7));
    expect([...out].sort((a, b) => a - b)).toEqual(ordered);
    for (let start = 0; start < ordered.length; start += 8)
      expect(out.slice(start, start + 8).sort((a, b) => a - b)).toEqual(
        ordered.slice(start, start + 8),
      );
  });

  it('the same seed gives the same order; seeds differ in order', () => {
    expect(shuffleWindows(ordered, 8, prng(7))).toEqual(shuffleWindows(ordered, 8, prng(7)));
    const orders = new Set(
      [1, 2, 3, 4, 5].map((seed) => shuffleWindows(ordered, 8, prng(seed)).join(',')),
    );
    expect(orders.size).toBeGreaterThan(1);
    expect(orders.has(ordered.join(','))).toBe(false);
  });
});
