import { describe, expect, it } from 'vitest';
import { isPrintable, printable } from './printable.js';

describe('printable: outside text as one safe line', () => {
  it('removes whole escape sequences: CSI, OSC (BEL and ST), DCS, two-byte ESC, C1 CSI', () => {
    expect(printable('a\u001b[2Jb')).toBe('ab');
    expect(printable('a\u001b[38;5;196mred\u001b[0m')).toBe('ared');
    expect(printable('x\u001b]0;pwned\u0007y')).toBe('xy');
    expect(printable('x\u001b]8;;http://evil\u001b\\link\u001b]8;;\u001b\\y')).toBe('xlinky');
    expect(printable('x\u001bPq#0;2;0;0;0\u001b\\y')).toBe('xy');
    expect(printable('x\u001bcy')).toBe('xy');
    expect(printable('x\u009b31my')).toBe('xy');
    expect(printable('x\u001b]0;never ends')).toBe('x');
  });

  it('turns other controls into one space: CR, LF, tab, NUL, DEL, C1, line separators', () => {
    expect(printable('paid 1 ETH\rpaid 0 ETH')).toBe('paid 1 ETH paid 0 ETH');
    expect(printable('a\n\n\tb\u0000c\u007fd\u0085e\u2028f')).toBe('a b c d e f');
  });

  it('removes bidi overrides and isolates, and invisible characters', () => {
    expect(printable('abc\u202Eevil.exe')).toBe('abcevil.exe');
    expect(printable('\u2066a\u2067b\u2068c\u2069\u200e\u200f\u061c')).toBe('abc');
    expect(printable('a\u200bb\u200dc\ufeffd\u00ade\u2060f')).toBe('abcdef');
  });

  it('keeps ordinary text, other scripts and emoji as they are', () => {
    for (const text of [
      'Ekubo ETH/USDC 0.05%',
      'Jedi — 10 000 €',
      'שלום עולם',
      '日本語',
      'pool 🦄',
    ])
      expect(printable(text)).toBe(text);
  });

  it('bounds the length in code points, marking a cut with …, and never splits a surrogate pair', () => {
    expect(printable('x'.repeat(400))).toHaveLength(300);
    expect(printable('x'.repeat(400)).endsWith('…')).toBe(true);
    expect(printable('abcdef', 4)).toBe('abc…');
    expect(printable('🦄🦄🦄🦄', 3)).toBe('🦄🦄…');
    expect(printable('a\ud800b')).toBe('a\ufffdb');
    // a huge input is not scanned whole
    expect(printable(`${'\u001b[2J'.repeat(1_000_000)}tail`, 20)).toBe('…');
  });

  it('is idempotent: what it returns is printable', () => {
    const once = printable('a\u001b[2J\r\u202Eb\u0007c');
    expect(printable(once)).toBe(once);
    expect(isPrintable(once)).toBe(true);
    expect(isPrintable('a\rb')).toBe(false);
  });
});
