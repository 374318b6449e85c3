/**
 * One key press per event. Ink hands `useInput` one event per piece of a stdin chunk: it splits
 * escape sequences (arrows, Esc), Backspace and Ctrl+C out of a chunk, but keeps the rest of the
 * chunk as one string — "100\t\t\t50" (tmux send-keys, a paste, a fast typist, a busy machine)
 * arrives as one event whose `key` says nothing. Split such text into the keys it is made of, each
 * described as Ink describes that character alone (ink/build/parse-keypress.js and
 * hooks/use-input.js, ink 8, which Ink does not export): so a burst is the same key presses as
 * typed slowly. See docs/architecture.md "Interactive app".
 */
import type { Key } from 'ink';

export interface KeyPress {
  input: string;
  key: Key;
}

const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

/** The marks that make an event one key press (capsLock and numLock are states, not keys). */
const MARKS = (Object.keys(NO_KEY) as (keyof Key)[]).filter(
  (name) => name !== 'capsLock' && name !== 'numLock',
);

/** A key Ink marks (an arrow, Enter, Ctrl+…) is one key press already. */
function isMarked(key: Key): boolean {
  return MARKS.some((name) => key[name] === true);
}

/** What Ink's `useInput` gives for this one character typed alone. */
export function keyOfCharacter(ch: string): KeyPress {
  const key = { ...NO_KEY };
  switch (ch) {
    case '\r':
      return { input: '', key: { ...key, return: true } };
    case '\n':
      // Ink names it "enter" but marks no key: Enter on a terminal in raw mode is \r
      return { input: '\n', key };
    case '\t':
      return { input: '', key: { ...key, tab: true } };
    case '\u007f':
    case '\b':
      return { input: '', key: { ...key, backspace: true } };
    case '\u001b':
      return { input: '', key: { ...key, escape: true } };
    case '\u0000':
      return { input: ' ', key: { ...key, ctrl: true } };
  }
  const code = ch.codePointAt(0) ?? 0;
  if (code >= 1 && code <= 26)
    return { input: String.fromCharCode(code + 96), key: { ...key, ctrl: true } };
  if (/^[A-Z]$/.test(ch)) return { input: ch, key: { ...key, shift: true } };
  return { input: ch, key };
}

/**
 * The key presses of one Ink event: the event itself when it is one key (a marked key, one
 * character, or nothing), else each character of its text in order.
 */
export function splitBurst(input: string, key: Key): KeyPress[] {
  const chars = [...input];
  if (chars.length <= 1 || isMarked(key)) return [{ input, key }];
  return chars.map(keyOfCharacter);
}
