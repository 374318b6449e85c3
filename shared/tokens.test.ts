import { describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { parseHexFelt, STARK_PRIME } from './felt.js';
import {
  addressToBigInt,
  findToken,
  listTokens,
  parseAddress,
  resolveToken,
  sameAddress,
} from './tokens.js';

const ETH = '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7';

describe('token registry', () => {
  it('finds by symbol, case-insensitively', () => {
    expect(resolveToken('mainnet', 'eth').symbol).toBe('ETH');
    expect(resolveToken('mainnet', 'usdc.E').symbol).toBe('USDC.e');
    expect(resolveToken('mainnet', ' wbtc ').decimals).toBe(8);
  });

  it('finds by address compared as a number (leading zeros and case vary)', () => {
    expect(findToken('mainnet', ETH)?.symbol).toBe('ETH');
    expect(
      findToken('mainnet', '0x49D36570D4E46F48E99674BD3FCC84644DDD6B96F7C741B1562B82F9E004DC7')
        ?.symbol,
    ).toBe('ETH');
    expect(findToken('mainnet', `0x000${ETH.slice(3)}`)?.symbol).toBe('ETH');
    expect(
      sameAddress(ETH, '0x49d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7'),
    ).toBe(true);
  });

  it('finds every registry token by its own address, on its own network only, as a search would', () => {
    for (const network of ['mainnet', 'sepolia'] as const) {
      const tokens = listTokens(network);
      for (const token of tokens)
        expect(findToken(network, token.address)).toBe(
          tokens.find((t) => BigInt(t.address) === BigInt(token.address)),
        );
    }
    expect(findToken('mainnet', '0x1234')).toBeUndefined();
    expect(findToken('mainnet', '0xnot-hex')).toBeUndefined();
  });

  it('keeps networks apart: USDC differs on Sepolia, DAI is mainnet only', () => {
    expect(resolveToken('sepolia', 'USDC').address).toBe(
      '0x0512feac6339ff7889822cb5aa2a86c848e9d392bb0e3e237c008674feed8343',
    );
    expect(resolveToken('sepolia', 'ETH').address).toBe(resolveToken('mainnet', 'ETH').address);
    expect(findToken('sepolia', 'DAI')).toBeUndefined();
    // Vesu's Sepolia assets (vesu-v2 deployment-sepolia.json @ f4d1eed6) and the bridged USDC.e
    // beside Circle's USDC: two USD coins, two symbols, two addresses
    expect(resolveToken('sepolia', 'WBTC')).toMatchObject({
      address: '0x04861ba938aed21f2cd7740acd3765ac4d2974783a3218367233de0153490cb6',
      decimals: 8,
    });
    expect(resolveToken('sepolia', 'usdc.e').address).toBe(
      '0x053b40a647cedfca6ca84f542a0fe36736031905a9639a7f19a3c1e66bfd5080',
    );
    expect(resolveToken('sepolia', 'usdc').symbol).toBe('USDC');
    expect(listTokens('mainnet').map((t) => t.symbol)).toEqual([
      'ETH',
      'STRK',
      'USDC',
      'USDC.e',
      'USDT',
      'DAI',
      'WBTC',
    ]);
  });

  it('accepts an upper-case 0X prefix, compared as a number', () => {
    const upper = `0X${ETH.slice(2).toUpperCase()}`;
    expect(findToken('mainnet', upper)?.symbol).toBe('ETH');
    expect(
      resolveToken('mainnet', '0X49d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7')
        .symbol,
    ).toBe('ETH');
    expect(parseAddress('0XABC')).toBe(`0x${'0'.repeat(61)}abc`);
    expect(sameAddress(upper, ETH)).toBe(true);
  });

  it('stores canonical 0x + 64 lowercase hex addresses', () => {
    for (const token of [...listTokens('mainnet'), ...listTokens('sepolia')]) {
      expect(token.address).toMatch(/^0x[0-9a-f]{64}$/);
    }
    expect(parseAddress('0xABC')).toBe(`0x${'0'.repeat(61)}abc`);
  });

  it.each(['DOGE', '0x1234', 'not-an-address-0x', '', '0xZZ'])(
    'unknown %j → UNKNOWN_TOKEN listing the known symbols',
    (input) => {
      try {
        resolveToken('sepolia', input);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).code).toBe('UNKNOWN_TOKEN');
        expect((error as AppError).message).toContain('ETH, STRK, USDC');
      }
    },
  );
});

describe('addressToBigInt field bounds', () => {
  it('accepts the largest felt (P - 1) and refuses P itself', () => {
    expect(addressToBigInt(`0x${(STARK_PRIME - 1n).toString(16)}`)).toBe(STARK_PRIME - 1n);
    expect(addressToBigInt(`0x${STARK_PRIME.toString(16)}`)).toBeUndefined();
  });
});

describe('addressToBigInt on the registry', () => {
  it("gives every registry address's value as the parse does, and other text as before", () => {
    for (const network of ['mainnet', 'sepolia'] as const)
      for (const { address } of listTokens(network)) {
        expect(addressToBigInt(address)).toBe(parseHexFelt(address));
        expect(addressToBigInt(` ${address.toUpperCase().replace('0X', '0x')} `)).toBe(
          parseHexFelt(address),
        );
      }
    expect(addressToBigInt('0x0')).toBe(0n);
    expect(addressToBigInt('0xg')).toBeUndefined();
    expect(addressToBigInt(1 as unknown as string)).toBeUndefined();
  });
});
