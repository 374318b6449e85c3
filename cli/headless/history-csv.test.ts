import { describe, expect, it } from 'vitest';
import { csvField, renderHistoryCsv } from './history-csv.js';

describe('history CSV', () => {
  it('quotes fields with commas, quotes and line breaks (RFC 4180); a formula-looking field stays text', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('1 ETH; 2 USDC')).toBe('1 ETH; 2 USDC');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
  });

  it('one row per entry: what left, what arrived (at least / received), exact amounts', () => {
    const csv = renderHistoryCsv([
      {
        time: '2026-11-25T10:00:00.000Z',
        updatedAt: '2026-11-25T10:00:05.000Z',
        kind: 'trade',
        network: 'mainnet',
        sandbox: false,
        account: `0x${'1'.repeat(64)}`,
        hash: '0xabc',
        status: 'succeeded',
        summary: 'x',
        amounts: [
          {
            direction: 'out',
            symbol: 'ETH',
            address: `0x${'2'.repeat(64)}`,
            amount: '1.000000000000000001',
            baseUnits: '1000000000000000001',
            basis: 'sent',
          },
          {
            direction: 'in',
            symbol: 'USDC',
            address: `0x${'3'.repeat(64)}`,
            amount: '2950.123456',
            baseUnits: '2950123456',
            basis: 'minimum',
          },
        ],
      },
    ]);
    expect(csv).toBe(
      'time,kind,network,hash,left,arrived,fee,status\r\n2026-11-25T10:00:00.000Z,trade,mainnet,0xabc,1.000000000000000001 ETH,2950.123456 USDC (at least),,succeeded\r\n',
    );
  });

  it('the gas paid, as the receipt recorded it, exact', () => {
    const csv = renderHistoryCsv([
      {
        time: '2026-11-25T10:00:00.000Z',
        updatedAt: '2026-11-25T10:00:05.000Z',
        kind: 'send',
        network: 'mainnet',
        sandbox: false,
        account: `0x${'1'.repeat(64)}`,
        hash: `0x${'a'.repeat(64)}`,
        status: 'succeeded',
        summary: 'x',
        amounts: [
          {
            direction: 'out',
            symbol: 'STRK',
            address: `0x${'2'.repeat(64)}`,
            amount: '1',
            baseUnits: '1000000000000000000',
            basis: 'sent',
            to: `0x${'4'.repeat(64)}`,
          },
        ],
        fee: { symbol: 'STRK', amount: '0.000123456789012345', baseUnits: '123456789012345' },
      },
    ]);
    expect(csv.split('\r\n')[1]).toBe(
      `2026-11-25T10:00:00.000Z,send,mainnet,0x${'a'.repeat(64)},1 STRK to 0x${'4'.repeat(64)},,0.000123456789012345 STRK,succeeded`,
    );
  });
});
