import { describe, expect, it } from 'vitest';
import { ErrorCode, isAppError } from '../../../shared/errors.js';
import { resolveToken } from '../../../shared/tokens.js';
import { parseAddress } from '../../../shared/tokens.js';
import { buildApproveCall, buildTransferCall } from './calls.js';
import { summarizeTransfers } from './transfers.js';

const STRK = resolveToken('mainnet', 'STRK');
const USDC = resolveToken('mainnet', 'USDC');

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isAppError(error) ? error.code : 'not an AppError';
  }
  return undefined;
}

describe('buildTransferCall', () => {
  it('encodes the recipient padded and the amount as an exact u256', () => {
    const amount = (1n << 128n) + 7n;
    expect(buildTransferCall(STRK, '0x1234', amount)).toEqual({
      contractAddress: STRK.address,
      entrypoint: 'transfer',
      calldata: [`0x${'0'.repeat(60)}1234`, '0x7', '0x1'],
    });
    expect(buildApproveCall(USDC, '0XABC', 5n).calldata).toEqual([
      `0x${'0'.repeat(61)}abc`,
      '0x5',
      '0x0',
    ]);
  });

  it.each([
    ['zero', '0x0'],
    ['not hex', 'alice.stark'],
    ['2^251 (outside the address range)', `0x8${'0'.repeat(62)}`],
    ['wider than a felt', `0x${'f'.repeat(65)}`],
    ['empty', ''],
  ])('refuses a recipient that is %s: INVALID_ADDRESS', (_why, to) => {
    expect(codeOf(() => buildTransferCall(STRK, to, 1n))).toBe(ErrorCode.INVALID_ADDRESS);
  });

  it.each([0n, -1n, 1n << 256n])('refuses the amount %s: INVALID_AMOUNT', (amount) => {
    expect(codeOf(() => buildTransferCall(STRK, '0x1234', amount))).toBe(ErrorCode.INVALID_AMOUNT);
  });

  it('accepts the largest address below 2^251', () => {
    expect(parseAddress(`0x7${'f'.repeat(62)}`)).toBe(`0x07${'f'.repeat(62)}`);
  });
});

describe('summarizeTransfers', () => {
  const me = `0x${'0'.repeat(62)}aa`;
  const forwarder = `0x${'0'.repeat(62)}ff`;
  const key = '0x99cd8bde557814842a3121e8ddfd433a539b8c9f14bf31ebf108d12e6196e9';
  const legacy = (token: string, from: string, to: string, amount: bigint) => ({
    event: {
      from_address: token,
      keys: [key],
      data: [from, to, `0x${amount.toString(16)}`, '0x0'],
    },
  });

  it('nets per token, reports the fee apart, and ignores unknown emitters and third parties', () => {
    const summary = summarizeTransfers(
      [
        legacy(STRK.address, me, '0x1', 100n),
        legacy(USDC.address, '0x2', me, 40n),
        legacy(STRK.address, me, forwarder, 30n),
        legacy(STRK.address, forwarder, me, 12n),
        // a fake token emitting a Transfer to us: not a balance change
        legacy('0x1234', '0x3', me, 1_000_000n),
        // someone else's transfer
        legacy(STRK.address, '0x4', '0x5', 9n),
      ],
      me,
      'mainnet',
      { recipient: forwarder, gasToken: STRK.address },
    );
    expect(summary.feePaid).toBe(18n);
    expect(summary.balanceChanges).toEqual([
      { token: STRK.address, symbol: 'STRK', decimals: 18, amount: -100n },
      { token: USDC.address, symbol: 'USDC', decimals: 6, amount: 40n },
    ]);
    expect(summary.transfers).toHaveLength(4);
  });
});
