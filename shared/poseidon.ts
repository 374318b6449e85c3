/**
 * Starknet's Poseidon hash (the Hades permutation of width 3: rate 2, capacity 1; 8 full rounds
 * and 83 partial ones; the S-box x³ on every lane in a full round, on the last lane in a partial
 * one), written for Starknet's fixed MDS matrix
 *
 *     [[3, 1, 1], [1, −1, 1], [1, 1, −2]]
 *
 * whose product is three additions of t = a + b + c (a' = t + 2a, b' = t − 2b, c' = t − 3c)
 * instead of nine field multiplications: the SNIP-12 hash of a trade's outside execution is a
 * few dozen permutations, and the library's generic permutation was most of its cost
 * (docs/benchmarks.md "Issue 35, sixth round"). The round constants are StarkWare's: the
 * SHA-256 of "Hades<i>" as a big-endian number, reduced mod P (as @scure/starknet derives them),
 * computed on first use. shared/poseidon.test.ts holds both functions equal to starknet.js's on
 * random inputs.
 */
import { createRequire } from 'node:module';
import type * as Crypto from 'node:crypto';
import { STARK_PRIME as P } from './felt.js';

const FULL_ROUNDS = 8;
const PARTIAL_ROUNDS = 83;
const ROUNDS = FULL_ROUNDS + PARTIAL_ROUNDS;

let constants: bigint[] | undefined;

/** The 3 × 91 round constants, in round order (built once). */
function roundConstants(): bigint[] {
  if (constants !== undefined) return constants;
  // required, not imported: docs/decisions.md "Built-ins required, TypeBox by name"
  const { createHash } = createRequire(import.meta.url)('node:crypto') as typeof Crypto;
  const built: bigint[] = [];
  for (let i = 0; i < 3 * ROUNDS; i++)
    built.push(BigInt(`0x${createHash('sha256').update(`Hades${i}`).digest('hex')}`) % P);
  constants = built;
  return built;
}

/**
 * The permutation of a state of three field elements (each in [0, P)), in place.
 *
 * Every step is a ring operation, so a value is reduced mod P only where its size matters: a cube
 * is taken whole and reduced once; in a partial round a and b are only added to, and are reduced
 * every fourth round (each lane grows by under 3 bits a round, so no operand of a cube passes
 * ~270 bits); a difference may be negative until the end, where each lane is brought into
 * [0, P). The same result as reducing every step, with about a third fewer BigInt operations
 * (docs/benchmarks.md "Issue 35, ninth round").
 */
function permute(state: [bigint, bigint, bigint]): void {
  const rc = roundConstants();
  let [a, b, c] = state;
  let k = 0;
  const fullRound = (): void => {
    a = (a + rc[k++]!) ** 3n % P;
    b = (b + rc[k++]!) ** 3n % P;
    c = (c + rc[k++]!) ** 3n % P;
    const t = a + b + c;
    a = t + a + a;
    b = t - b - b;
    c = t - c - c - c;
  };
  for (let round = 0; round < FULL_ROUNDS / 2; round++) fullRound();
  for (let round = 0; round < PARTIAL_ROUNDS; round++) {
    a += rc[k++]!;
    b += rc[k++]!;
    c = (c + rc[k++]!) ** 3n % P;
    const t = a + b + c;
    a = t + a + a;
    b = t - b - b;
    c = t - c - c - c;
    if (round % 4 === 3) {
      a %= P;
      b %= P;
    }
  }
  for (let round = 0; round < FULL_ROUNDS / 2; round++) fullRound();
  state[0] = canonical(a);
  state[1] = canonical(b);
  state[2] = canonical(c);
}

/** x mod P in [0, P) (x may be negative) */
const canonical = (x: bigint): bigint => {
  const r = x % P;
  return r < 0n ? r + P : r;
};

/**
 * Poseidon over many field elements (starknet.js's `poseidonHashMany`, Cairo's
 * `poseidon_hash_many`): the values, then 1, padded with 0 to an even count, absorbed two at a
 * time. Each value must be in [0, P) (RangeError otherwise: the library would reduce it).
 */
export function poseidonHashMany(values: readonly bigint[]): bigint {
  for (const value of values)
    if (value < 0n || value >= P) throw new RangeError('a Poseidon input is not a field element');
  const padded = [...values, 1n];
  if (padded.length % 2 === 1) padded.push(0n);
  const state: [bigint, bigint, bigint] = [0n, 0n, 0n];
  for (let i = 0; i < padded.length; i += 2) {
    state[0] = (state[0] + padded[i]!) % P;
    state[1] = (state[1] + padded[i + 1]!) % P;
    permute(state);
  }
  return state[0];
}
