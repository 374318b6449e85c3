import { describe, expect, it } from 'vitest';
import { findVesuPool, fromI257Felts, i257Felts, vesuErrorIn, vesuFor } from './vesu.js';

describe('vesu registry', () => {
  it("has the mainnet factory and Prime pool, and Sepolia's WBTC Prime Sepolia", () => {
    const mainnet = vesuFor('mainnet');
    expect(mainnet?.poolFactory).toBe(
      '0x03760f903a37948f97302736f89ce30290e45f441559325026842b7a6fb388c0',
    );
    expect(findVesuPool(mainnet!, 'prime')?.address).toBe(
      '0x0451fe483d5921a2919ddd81d0de6696669bccdacd859f72a4fba7656b97c3b5',
    );
    expect(
      findVesuPool(mainnet!, '0x451FE483D5921A2919DDD81D0DE6696669BCCDACD859F72A4FBA7656B97C3B5')
        ?.name,
    ).toBe('Prime');
    expect(findVesuPool(mainnet!, 'other')).toBeUndefined();
    // vesuxyz/vesu-v2 deployment-sepolia.json @ f4d1eed6
    const sepolia = vesuFor('sepolia');
    expect(sepolia?.poolFactory).toBe(
      '0x03ac869e64b1164aaee7f3fd251f86581eab8bfbbd2abdf1e49c773282d4a092',
    );
    expect(findVesuPool(sepolia!, 'wbtc prime sepolia')?.address).toBe(
      '0x06227c13372b8c7b7f38ad1cfe05b5cf515b4e5c596dd05fe8437ab9747b2093',
    );
    expect(sepolia?.oracle).toBe(
      '0x06df962cf92b281dfe2a400e241b8f3da07339698add3303f66664f7880ae880',
    );
    expect(findVesuPool(sepolia!, 'prime')).toBeUndefined();
  });

  it('writes and reads i257 as abs (u256) then the sign', () => {
    expect(i257Felts(-5n)).toEqual([5n, 0n, 1n]);
    expect(i257Felts(0n)).toEqual([0n, 0n, 0n]);
    expect(i257Felts(1n << 130n)).toEqual([0n, 4n, 0n]);
    expect(fromI257Felts(5n, 0n, 1n)).toBe(-5n);
    expect(fromI257Felts(0n, 0n, 1n)).toBeUndefined();
    expect(fromI257Felts(0n, 0n, 2n)).toBeUndefined();
    expect(() => i257Felts(1n << 256n)).toThrow(RangeError);
  });

  it('names the pool error in a revert reason', () => {
    expect(vesuErrorIn("Failure reason: 'dusty-debt-balance'.")).toBe('DUSTY_DEBT_BALANCE');
    expect(vesuErrorIn('nothing')).toBeUndefined();
  });
});
