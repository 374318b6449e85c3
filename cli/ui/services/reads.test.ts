import { describe, expect, it } from 'vitest';
import { liveReadKnob } from './reads.js';

describe('FINANCE_TUI_LIVE_READ_MS (a test knob)', () => {
  it('whole milliseconds from 100 to 600000 are the live read interval', () => {
    expect(liveReadKnob({ FINANCE_TUI_LIVE_READ_MS: '1000' })).toBe(1000);
    expect(liveReadKnob({ FINANCE_TUI_LIVE_READ_MS: ' 100 ' })).toBe(100);
    expect(liveReadKnob({ FINANCE_TUI_LIVE_READ_MS: '600000' })).toBe(600_000);
  });

  it('unset, empty or anything else: undefined, the screens keep their own interval', () => {
    for (const value of [
      undefined,
      '',
      '99',
      '0',
      '600001',
      '1e3',
      '1.5',
      '-1000',
      '0x3e8',
      'fast',
    ])
      expect(liveReadKnob({ FINANCE_TUI_LIVE_READ_MS: value }), String(value)).toBeUndefined();
  });
});
