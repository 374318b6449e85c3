import { describe, expect, it } from 'vitest';
import {
  ADDRESS_BOUND,
  FELT_HEX,
  FELT_HEX64_PATTERN,
  feltHex,
  hexValue,
  parseFelt,
  parseHexFelt,
  STARK_PRIME,
} from './felt.js';
import { ErrorCode } from './errors.js';
import { parseAddress } from './tokens.js';
import { failure } from '../test/helpers/failure.js';

const hex = (value: bigint): string => `0x${value.toString(16)}`;

describe('feltHex: the one written form', () => {
  it('is 0x + 64 lower-case digits, zero included', () => {
    expect(feltHex(0n)).toBe(`0x${'0'.repeat(64)}`);
    expect(feltHex(0xabcn)).toBe(`0x${'0'.repeat(61)}abc`);
    expect(feltHex(STARK_PRIME - 1n)).toMatch(new RegExp(FELT_HEX64_PATTERN));
  });
});

describe('FELT_HEX: the one read form', () => {
  it.each(['0x1', '0X1', '0xABCdef', `0x${'f'.repeat(64)}`])('%s matches', (text) => {
    expect(FELT_HEX.test(text)).toBe(true);
  });
  it.each(['', '0x', ' 0x1', '0x1 ', '1', '0xg', `0x${'f'.repeat(65)}`, '-0x1', '0x1\n'])(
    '%j does not',
    (text) => {
      expect(FELT_HEX.test(text)).toBe(false);
    },
  );
});

describe('parseHexFelt: a felt typed or sent, by value', () => {
  it.each([
    ['0xabc', 0xabcn],
    ['0XABC', 0xabcn],
    ['0xAbC', 0xabcn],
    ['  0xabc\t', 0xabcn],
    ['0x0', 0n],
    ['0x000', 0n],
    // leading zeros do not count against the 64 digits
    [`0x${'0'.repeat(70)}1`, 1n],
    [`0x0${'f'.repeat(62)}`, (1n << 248n) - 1n],
    [hex(STARK_PRIME - 1n), STARK_PRIME - 1n],
  ])('%j → %s', (text, value) => {
    expect(parseHexFelt(text)).toBe(value);
  });

  it.each([
    ['empty', ''],
    ['whitespace only', '   '],
    ['no digits', '0x'],
    ['decimal', '123'],
    ['inner whitespace', '0x1 2'],
    ['65 significant digits', `0x1${'0'.repeat(64)}`],
    ['the prime', hex(STARK_PRIME)],
    ['above the prime', `0x${'f'.repeat(64)}`],
    ['too long', `0x${'0'.repeat(300)}1`],
    ['not a string', 12],
  ])('%s → undefined', (_, text) => {
    expect(parseHexFelt(text)).toBeUndefined();
  });
});

describe('hexValue: the same reading without the field bound', () => {
  it('reads values at and above the prime (a 252-bit key or hash), not 65 digits', () => {
    expect(hexValue(hex(STARK_PRIME))).toBe(STARK_PRIME);
    expect(hexValue(` 0X${'F'.repeat(64)} `)).toBe((1n << 256n) - 1n);
    expect(hexValue(`0x1${'0'.repeat(64)}`)).toBeUndefined();
    expect(hexValue('')).toBeUndefined();
  });

  it('reads the written form (its quick path) as any other spelling of the same value', () => {
    for (const value of [0n, 1n, 0xabcn, STARK_PRIME - 1n, STARK_PRIME, (1n << 256n) - 1n]) {
      const written = feltHex(value);
      expect(hexValue(written)).toBe(value);
      expect(hexValue(written)).toBe(hexValue(` ${hex(value).toUpperCase().replace('0X', '0x')} `));
    }
    // 66 characters that are not the written form still take the general reading
    expect(hexValue(`0X${'0'.repeat(63)}a`)).toBe(10n);
    expect(hexValue(`0x${'0'.repeat(63)}A`)).toBe(10n);
    expect(hexValue(` 0x${'0'.repeat(62)}a`)).toBe(10n);
    expect(hexValue(`0x${'0'.repeat(63)}g`)).toBeUndefined();
  });
});

describe('parseFelt: hex or decimal, as JSON-RPC carries it', () => {
  it('reads both spellings below the prime and nothing else', () => {
    expect(parseFelt('0x10')).toBe(16n);
    expect(parseFelt('0X10')).toBe(16n);
    expect(parseFelt('16')).toBe(16n);
    expect(parseFelt((STARK_PRIME - 1n).toString())).toBe(STARK_PRIME - 1n);
    expect(parseFelt(STARK_PRIME.toString())).toBeUndefined();
    expect(parseFelt(hex(STARK_PRIME))).toBeUndefined();
    expect(parseFelt('')).toBeUndefined();
    expect(parseFelt(' 16')).toBeUndefined();
    expect(parseFelt('-1')).toBeUndefined();
    expect(parseFelt(16)).toBeUndefined();
  });
});

describe('parseAddress: the one address validator (shared/tokens.ts)', () => {
  it.each([
    ['0xABC', `0x${'0'.repeat(61)}abc`],
    ['0XABC', `0x${'0'.repeat(61)}abc`],
    [' 0xabc ', `0x${'0'.repeat(61)}abc`],
    [`0x${'0'.repeat(66)}abc`, `0x${'0'.repeat(61)}abc`],
    [hex(ADDRESS_BOUND - 1n), feltHex(ADDRESS_BOUND - 1n)],
  ])('%j → %s', (text, address) => {
    expect(parseAddress(text)).toBe(address);
  });

  it.each([
    ['empty', ''],
    ['whitespace', '  '],
    ['not hex', '0xZZ'],
    ['65 significant digits', `0x1${'0'.repeat(64)}`],
    ['2^251 (a felt, but not an address)', hex(ADDRESS_BOUND)],
    ['the Stark prime', hex(STARK_PRIME)],
    ['zero', '0x0'],
  ])('%s → INVALID_ADDRESS naming the field', async (_, text) => {
    const error = await failure(Promise.resolve().then(() => parseAddress(text, 'recipient')));
    expect(error.code).toBe(ErrorCode.INVALID_ADDRESS);
    expect(error.message).toMatch(/^recipient /);
  });
});
