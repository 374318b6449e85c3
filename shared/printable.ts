/**
 * Outside text made safe to show and to store — the one function for it (docs/architecture.md
 * "Client behaviour": outside text is made printable once, where it enters the client).
 *
 * What a service or the chain sends (pool and token names, error messages, revert reasons) may
 * carry terminal control: clear the screen, set the window title, move the cursor back over
 * what was printed, or reorder what a person reads. `printable` returns one line that holds
 * none of it:
 * - whole escape sequences are removed: CSI (`ESC [ … final`, and C1 CSI U+009B), OSC
 *   (`ESC ] … BEL|ST`, and U+009D), DCS/SOS/PM/APC strings (`ESC P|X|^|_ … ST`) and two-byte
 *   `ESC x` sequences;
 * - every other C0 control (tab, line feed and carriage return included), DEL and every C1
 *   control becomes a space; so do the Unicode line and paragraph separators;
 * - bidirectional controls (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069) and invisible
 *   characters (U+00AD, U+180E, U+200B–U+200D, U+2060–U+2064, U+FEFF) are removed;
 * - a lone surrogate becomes U+FFFD; runs of spaces become one, the ends are trimmed;
 * - at most `max` characters (code points) are kept; a cut text ends in "…".
 */

/* eslint-disable no-control-regex -- this module's job is to find control characters */
const ESCAPE_SEQUENCE = new RegExp(
  [
    // OSC, DCS, SOS, PM, APC: up to BEL or ST (ESC \ or U+009C); an unterminated one to the end
    '(?:\\u001b[\\]PX^_]|[\\u0090\\u0098\\u009d\\u009e\\u009f])[^\\u0007\\u001b\\u009c]*(?:\\u0007|\\u001b\\\\|\\u009c|$)',
    // CSI: parameters, intermediates, one final byte
    '(?:\\u001b\\[|\\u009b)[\\u0030-\\u003f]*[\\u0020-\\u002f]*[\\u0040-\\u007e]?',
    // any other ESC and the one character it introduces
    '\\u001b[\\u0020-\\u007e]?',
  ].join('|'),
  'g',
);
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const INVISIBLE = /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/* eslint-enable no-control-regex */

const PRINTABLE_MAX = 300;

/** `text` as one printable line of at most `max` characters (see above). */
export function printable(text: string, max = PRINTABLE_MAX): string {
  // bounded work: never more than a few times what can be kept is looked at
  const bounded = text.length > max * 8 + 64 ? text.slice(0, max * 8 + 64) : text;
  const clean = bounded
    .replace(LONE_SURROGATE, '\ufffd')
    .replace(ESCAPE_SEQUENCE, '')
    .replace(CONTROL, ' ')
    .replace(INVISIBLE, '')
    .replace(/ {2,}/g, ' ')
    .trim();
  const points = Array.from(clean);
  if (points.length <= max && bounded.length === text.length) return clean;
  return max > 0
    ? `${points
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`
    : '';
}

/** Whether `text` is already what printable makes of it (for tests and guards). */
export function isPrintable(text: string): boolean {
  return printable(text, Number.MAX_SAFE_INTEGER) === text;
}
