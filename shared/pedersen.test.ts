/**
 * shared/pedersen.ts is @scure/starknet's Pedersen, both copies the repo loads (ours, 2.x, and
 * starknet.js's, 1.1): the same hash of random field elements, of elements whose digits stress the
 * signed recoding (runs of 8s, 9s and 15s carry through the whole low part), at the field's edges
 * and every top-bits value; and it refuses what is not a field element rather than reducing it.
 */
import { pedersen as scurePedersen } from '@scure/starknet';
import fc from 'fast-check';
import { hash } from 'starknet';
import { describe, expect, it } from 'vitest';
import { STARK_PRIME } from './felt.js';
import { pedersen } from './pedersen.js';

const felt = fc.bigInt({ min: 0n, max: STARK_PRIME - 1n });
/** A field element made of the hex digits where a signed digit's carry starts, ends or runs. */
const carryFelt = fc
  .array(fc.constantFrom('0', '1', '7', '8', '9', 'f'), { minLength: 1, maxLength: 63 })
  .map((digits) => BigInt(`0x${digits.join('')}`) % STARK_PRIME);

const starknetJs = (a: bigint, b: bigint): bigint => BigInt(hash.computePedersenHash(a, b));

describe('pedersen', () => {
  it("is @scure/starknet's on random field elements", () => {
    fc.assert(
      fc.property(felt, felt, (a, b) => {
        expect(pedersen(a, b)).toBe(BigInt(scurePedersen(a, b)));
      }),
      { numRuns: 60 },
    );
  });

  it("is starknet.js's copy's where signed digits carry", () => {
    fc.assert(
      fc.property(fc.oneof(carryFelt, felt), carryFelt, (a, b) => {
        expect(pedersen(a, b)).toBe(starknetJs(a, b));
      }),
      { numRuns: 40 },
    );
  });

  it('is the same at the field and the low part edges, and for every top-bits value', () => {
    const low = (1n << 248n) - 1n;
    const edges = [
      0n,
      1n,
      8n,
      9n,
      low,
      low + 1n,
      STARK_PRIME - 1n,
      2n ** 251n,
      BigInt(`0x${'8'.repeat(62)}`),
    ];
    for (let top = 0n; top <= 8n; top++) edges.push((top << 248n) | 0x1234n);
    for (const a of edges)
      for (const b of [0n, a, STARK_PRIME - 1n])
        expect(pedersen(a, b), `${a}, ${b}`).toBe(BigInt(scurePedersen(a, b)));
    // a known value: Pedersen(0, 0) is the shift point's x (the chain state of shared/starknet.ts)
    expect(pedersen(0n, 0n)).toBe(
      0x49ee3eba8c1600700ee1b87eb599f16716b0b1022947733551fde4050ca6804n,
    );
  });

  it('refuses a value outside the field', () => {
    expect(() => pedersen(STARK_PRIME, 0n)).toThrow(RangeError);
    expect(() => pedersen(0n, -1n)).toThrow(RangeError);
    expect(() => pedersen(1 as unknown as bigint, 0n)).toThrow(RangeError);
  });
});
