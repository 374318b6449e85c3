/**
 * shared/poseidon.ts is starknet.js's Poseidon (its @scure/starknet copy, which its SNIP-12 hash
 * uses): the same hash of random field elements, of every length around the rate's padding, and
 * of the field's edges; and it refuses what is not a field element rather than reducing it.
 */
import fc from 'fast-check';
import { hash } from 'starknet';
import { describe, expect, it } from 'vitest';
import { STARK_PRIME } from './felt.js';
import { poseidonHashMany } from './poseidon.js';

const starknetJs = (values: bigint[]): bigint =>
  BigInt(hash.computePoseidonHashOnElements(values.map((v) => `0x${v.toString(16)}`)));

describe('poseidonHashMany', () => {
  it("is starknet.js's on random field elements, 0 to 7 of them", () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 0n, max: STARK_PRIME - 1n }), { maxLength: 7 }),
        (v) => {
          expect(poseidonHashMany(v)).toBe(starknetJs(v));
        },
      ),
      { numRuns: 40 },
    );
  });

  it("is starknet.js's at the field's edges", () => {
    for (const values of [[], [0n], [STARK_PRIME - 1n], [STARK_PRIME - 1n, STARK_PRIME - 1n, 1n]])
      expect(poseidonHashMany(values)).toBe(starknetJs(values));
  });

  it('refuses a value outside the field', () => {
    expect(() => poseidonHashMany([STARK_PRIME])).toThrow(RangeError);
    expect(() => poseidonHashMany([1n, -1n])).toThrow(RangeError);
  });
});
