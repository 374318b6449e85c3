import { describe, expect, it } from 'vitest';
import { fromU256, parseTransferEvent, TRANSFER_EVENT_KEY, u256Felts } from './erc20.js';
import { parseFelt } from './felt.js';

const hex = (value: bigint): string => `0x${value.toString(16)}`;
const TOKEN = '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
const pad = (value: bigint): string => `0x${value.toString(16).padStart(64, '0')}`;

describe('u256 felts', () => {
  it('splits and joins exactly at the 2^128 boundary', () => {
    for (const value of [0n, 1n, (1n << 128n) - 1n, 1n << 128n, (1n << 256n) - 1n]) {
      const [low, high] = u256Felts(value);
      expect(fromU256(BigInt(low), BigInt(high))).toBe(value);
    }
    expect(() => u256Felts(1n << 256n)).toThrow(RangeError);
    expect(() => u256Felts(-1n)).toThrow(RangeError);
    expect(fromU256(1n << 128n, 0n)).toBeUndefined();
  });

  it('reads felts as 0x-hex or decimal, below the field prime only', () => {
    expect(parseFelt('0x10')).toBe(16n);
    expect(parseFelt('16')).toBe(16n);
    expect(parseFelt('0x' + 'f'.repeat(64))).toBeUndefined();
    expect(parseFelt('-1')).toBeUndefined();
    expect(parseFelt(16)).toBeUndefined();
  });
});

describe('Transfer events', () => {
  const amount = (1n << 128n) + 5n;
  const [low, high] = u256Felts(amount);

  it('parses the legacy layout (keys [Transfer], data [from, to, low, high])', () => {
    const event = {
      from_address: TOKEN,
      keys: [hex(TRANSFER_EVENT_KEY)],
      data: ['0x1', '0x2', low, high],
    };
    expect(parseTransferEvent(event)).toEqual({
      token: pad(BigInt(TOKEN)),
      from: pad(1n),
      to: pad(2n),
      amount,
    });
  });

  it('parses the keyed layout (keys [Transfer, from, to], data [low, high])', () => {
    const event = {
      from_address: TOKEN,
      keys: [hex(TRANSFER_EVENT_KEY), '0x1', '0x2'],
      data: [low, high],
    };
    expect(parseTransferEvent(event)).toEqual({
      token: pad(BigInt(TOKEN)),
      from: pad(1n),
      to: pad(2n),
      amount,
    });
  });

  it('takes the emitter from a trace invocation when the event carries none', () => {
    const event = { keys: [hex(TRANSFER_EVENT_KEY), '0x1', '0x2'], data: [low, high] };
    expect(parseTransferEvent(event)).toBeUndefined();
    expect(parseTransferEvent(event, TOKEN)?.token).toBe(pad(BigInt(TOKEN)));
  });

  it('ignores other events and malformed ones', () => {
    expect(
      parseTransferEvent({
        from_address: TOKEN,
        keys: ['0x1234'],
        data: ['0x1', '0x2', low, high],
      }),
    ).toBeUndefined();
    expect(
      parseTransferEvent({
        from_address: TOKEN,
        keys: [hex(TRANSFER_EVENT_KEY)],
        data: ['0x1', '0x2', low],
      }),
    ).toBeUndefined();
    expect(
      parseTransferEvent({
        from_address: TOKEN,
        keys: [hex(TRANSFER_EVENT_KEY)],
        data: ['0x1', '0x2', hex(1n << 128n), '0x0'],
      }),
    ).toBeUndefined();
    expect(
      parseTransferEvent({
        from_address: TOKEN,
        keys: [hex(TRANSFER_EVENT_KEY)],
        data: ['0x1', 'zz', low, high],
      }),
    ).toBeUndefined();
  });
});
