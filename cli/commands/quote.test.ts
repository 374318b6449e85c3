import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { parseQuoteOptions } from './quote.js';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof AppError
      ? `${error.code}: ${error.message}`
      : `not an AppError: ${String(error)}`;
  }
  return undefined;
}

describe('parseQuoteOptions', () => {
  it.each([
    [['-1', 'ETH', 'USDC']],
    [['-0.5', 'ETH', 'USDC', '--json']],
    [['--sandbox', '-.5', 'ETH', 'USDC']],
    [['--slippage', '1', '-2', 'ETH', 'USDC']],
  ])(
    'a negative amount %j → INVALID_AMOUNT "must not be negative", not an unknown option',
    (argv) => {
      expect(codeOf(() => parseQuoteOptions(argv))).toMatch(
        /^INVALID_AMOUNT: .*amount must not be negative/,
      );
    },
  );

  it("a negative flag value is the flag's problem, not an amount: its own check refuses it", () => {
    expect(codeOf(() => parseQuoteOptions(['1', 'ETH', 'USDC', '--slippage', '-1']))).toMatch(
      /^INVALID_SLIPPAGE: .*must not be negative/,
    );
  });

  it('still parses ordinary arguments, and unknown options stay usage errors', () => {
    expect(parseQuoteOptions(['1.5', 'ETH', 'USDC', '--slippage', '0.5'])).toMatchObject({
      pairs: [{ amount: '1.5', from: 'ETH', to: 'USDC' }],
      slippageBps: 50,
    });
    expect(codeOf(() => parseQuoteOptions(['1', 'ETH', 'USDC', '-x']))).toMatch(/^USAGE_ERROR/);
  });
});
