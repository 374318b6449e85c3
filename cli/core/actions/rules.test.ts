import { describe, expect, it } from 'vitest';
import { checkBaseUnits, U256_MAX } from '../../../shared/amount.js';
import { AppError } from '../../../shared/errors.js';
import { resolveToken } from '../../../shared/tokens.js';
import {
  pairProblem,
  parsePositiveAmount,
  resolvePair,
  swapsAllowed,
  swapsSupported,
} from './rules.js';

/** The code `run` throws (these rules throw synchronously). */
function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
}

const USDC = resolveToken('mainnet', 'USDC');
const ETH = resolveToken('mainnet', 'ETH');

describe('where swaps run (swapsSupported, swapsAllowed)', () => {
  it('mainnet (and the mainnet-like sandbox) only', () => {
    expect(swapsSupported('mainnet')).toBe(true);
    expect(swapsSupported('sepolia')).toBe(false);
    expect(() => swapsAllowed('mainnet')).not.toThrow();
    expect(codeOf(() => swapsAllowed('sepolia'))).toBe('NETWORK_UNSUPPORTED');
  });
});

describe('a swap has two different tokens (pairProblem)', () => {
  it('compares addresses as numbers: case and padding do not matter', () => {
    const shout = { symbol: 'ETH', address: `0X${ETH.address.slice(2).toUpperCase()}` };
    const short = { symbol: 'ETH', address: `0x${ETH.address.slice(2).replace(/^0+/, '')}` };
    expect(pairProblem(ETH, shout)).toBe('cannot swap ETH for itself');
    expect(pairProblem(short, ETH)).toBe('cannot swap ETH for itself');
    expect(pairProblem(USDC, ETH)).toBeUndefined();
  });

  it('compares symbols when a side has no address (a form of symbols)', () => {
    expect(pairProblem({ symbol: 'ETH' }, { symbol: 'eth' })).toBe('cannot swap ETH for itself');
    expect(pairProblem({ symbol: 'USDC' }, { symbol: 'USDC.e' })).toBeUndefined();
  });

  it('resolvePair refuses the same token given once by symbol and once by address', () => {
    expect(
      codeOf(() => resolvePair('mainnet', { amount: '1', from: 'ETH', to: ETH.address })),
    ).toBe('USAGE_ERROR');
  });
});

describe('a typed amount (parsePositiveAmount)', () => {
  it.each([
    ['1', 1_000_000n],
    ['007.10', 7_100_000n],
    ['  2.5\t', 2_500_000n],
    ['0.000001', 1n],
  ])('%j USDC → %s base units', (text, units) => {
    expect(parsePositiveAmount(text, USDC)).toBe(units);
  });

  it.each(['', '   ', '0', '0.000000', '-1', '1e6', '0x10', '1.0000001', '1,5', '.5', '1.'])(
    '%j is INVALID_AMOUNT',
    (text) => {
      expect(codeOf(() => parsePositiveAmount(text, USDC))).toBe('INVALID_AMOUNT');
    },
  );
});

describe('an amount in base units (checkBaseUnits)', () => {
  it('is above zero and within a u256', () => {
    expect(checkBaseUnits(1n, 'ETH')).toBe(1n);
    expect(checkBaseUnits(U256_MAX, 'ETH')).toBe(U256_MAX);
    for (const bad of [0n, -1n, U256_MAX + 1n])
      expect(codeOf(() => checkBaseUnits(bad, 'ETH'))).toBe('INVALID_AMOUNT');
  });
});
