import { describe, expect, it } from 'vitest';
import { closest, editDistance } from './suggest.js';

describe('closest', () => {
  const flags = ['--json', '--help', '--sandbox', '--slippage', '--network', '--pairs'];

  it.each([
    ['--slipage', '--slippage'],
    ['--slippgae', '--slippage'],
    ['--SLIPPAGE', '--slippage'],
    ['--sandbx', '--sandbox'],
    ['--netwrok', '--network'],
    ['--jsno', '--json'],
  ])('%s → %s', (typo, expected) => {
    expect(closest(typo, flags)).toBe(expected);
  });

  it.each([['--x'], ['--frobnicate'], ['--yes']])('%s has no close flag', (word) => {
    expect(closest(word, flags)).toBeUndefined();
  });

  it('counts an adjacent swap as one edit', () => {
    expect(editDistance('ab', 'ba')).toBe(1);
    expect(editDistance('quote', 'qoute')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('suggests commands too', () => {
    expect(closest('qoute', ['quote', 'status', 'login'])).toBe('quote');
    expect(closest('statsu', ['quote', 'status', 'login'])).toBe('status');
  });
});
