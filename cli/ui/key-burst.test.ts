/** A burst of keys in one Ink event is split into the key presses Ink gives for each alone. */
import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { keyOfCharacter, splitBurst } from './key-burst.js';

const plain = keyOfCharacter('a').key;
const marked = (input: string, key: Key): string => {
  const on = Object.entries(key)
    .filter(([, v]) => v === true)
    .map(([k]) => k);
  return `${JSON.stringify(input)}${on.length > 0 ? ` ${on.join('+')}` : ''}`;
};

describe('splitBurst', () => {
  it('splits text with Tabs and Enter into one key press per character, in order', () => {
    const keys = splitBurst('100\t\t\t50\r', plain).map((k) => marked(k.input, k.key));
    expect(keys).toEqual([
      '"1"',
      '"0"',
      '"0"',
      '"" tab',
      '"" tab',
      '"" tab',
      '"5"',
      '"0"',
      '"" return',
    ]);
  });

  it('describes each character as Ink does alone: capitals shifted, Ctrl letters, Backspace, Esc', () => {
    const keys = splitBurst('A\u0004\u007f\b\u001b \u0000\n', plain).map((k) =>
      marked(k.input, k.key),
    );
    expect(keys).toEqual([
      '"A" shift',
      '"d" ctrl',
      '"" backspace',
      '"" backspace',
      '"" escape',
      '" "',
      '" " ctrl',
      '"\\n"',
    ]);
  });

  it('keeps a key Ink marked, a single character and a character outside the BMP whole', () => {
    const up = { ...plain, upArrow: true };
    expect(splitBurst('', up)).toEqual([{ input: '', key: up }]);
    expect(splitBurst('x', { ...plain, meta: true })).toEqual([
      { input: 'x', key: { ...plain, meta: true } },
    ]);
    expect(splitBurst('💰', plain)).toEqual([{ input: '💰', key: plain }]);
    expect(splitBurst('é💰', plain).map((k) => k.input)).toEqual(['é', '💰']);
  });
});
