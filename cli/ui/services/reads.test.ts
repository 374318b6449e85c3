import { describe, expect, it } from 'vitest';
import { liveReadKnob } from './reads.js';

describe('FINANCE_TUI_LIVE_READ_MS (a test knob)', () => {
  it('whole milliseconds from 100 to 600000 are the live read interval', () => {
    expect(liveReadKnob({ FINANCE_TUI_LIVE_READ_MS: '1000' })).toBe(1000);
    expect(liveReadKnob({ FINANCE_TUI_LIVE_READ_MS: ' 100 ' })).toBe(100);
    expect(liveReadKnob({ FINANCE_TUI_LIVE_READ_MS: '600000' })).toBe(600_000);
  });

  it('unset or empty: undefined, the screens keep their own interval', () => {
    for (const value of [undefined, '', '  '])
      expect(liveReadKnob({ FINANCE_TUI_LIVE_READ_MS: value }), String(value)).toBeUndefined();
  });

  it('anything else is refused with CONFIG_ERROR, the value shown printable and bounded', () => {
    for (const value of [
      '99',
      '0',
      '600001',
      '1e3',
      '1.5',
      '-1000',
      '0x3e8',
      'fast',
      '1000000000000',
    ])
      expect(() => liveReadKnob({ FINANCE_TUI_LIVE_READ_MS: value }), value).toThrow(
        expect.objectContaining({
          code: 'CONFIG_ERROR',
          message: `FINANCE_TUI_LIVE_READ_MS must be whole milliseconds from 100 to 600000 (got "${value}")`,
        }),
      );
    const hostile = `\u001b]0;owned\u0007${'9'.repeat(100)}`;
    let message = '';
    try {
      liveReadKnob({ FINANCE_TUI_LIVE_READ_MS: hostile });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^FINANCE_TUI_LIVE_READ_MS must be/);
    expect([...message].some((c) => c < ' ' || c === '\u007f')).toBe(false);
    expect(message.length).toBeLessThan(140);
  });
});
