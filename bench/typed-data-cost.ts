/**
 * What the heaviest typed data POST /sign/message accepts costs to hash, in process
 * (docs/server-security.md "Typed data"). For each family of shapes, the largest one the bound
 * (server/typed-data-bounds.ts) accepts is found by a binary search on its size, then hashed by
 * starknet.js as the route does (validateTypedData, getMessageHash), timed: median of 5 after a
 * warm-up. Printed: the estimate, the time, and the time as a ratio of the budget's worth of
 * Poseidon elements (maxWork felts through one poseidonHashMany) timed in the same run, a figure
 * that depends less on how busy the machine is (the two alternate, median of 5). On the review's
 * machine an element took ~0.15–0.2 ms, so a ratio ≤ 1.4 keeps the heaviest shape at about the
 * documented 0.1 s.
 *
 * Run: npx tsx bench/typed-data-cost.ts
 */
import { performance } from 'node:perf_hooks';
import { poseidonHashMany } from '@scure/starknet';
import { typedData, type TypedData } from 'starknet';
import { checkTypedData, TYPED_DATA_LIMITS } from '../server/typed-data-bounds.js';
import { SHAPE_FAMILIES } from '../test/helpers/typed-data.js';

const BOUND_MS = 100;

function accepted(data: unknown): number | undefined {
  try {
    return checkTypedData(data).work;
  } catch {
    return undefined;
  }
}

/** The largest size (1…4096) the bound accepts, by doubling then bisecting. */
function largest(build: (size: number) => unknown): number | undefined {
  if (accepted(build(1)) === undefined) return undefined;
  let low = 1;
  let high = 2;
  while (high <= 4096 && accepted(build(high)) !== undefined) {
    low = high;
    high *= 2;
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (accepted(build(mid)) !== undefined) low = mid;
    else high = mid;
  }
  return low;
}

function timeMs(run: () => void, rounds = 5): number {
  run();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(rounds / 2)] as number;
}

const felt = (i: number): bigint => BigInt(i * 7919 + 1);
const felts = Array.from({ length: TYPED_DATA_LIMITS.maxWork }, (_, i) => felt(i));
// the unit, timed in this run: the budget's worth of elements through one poseidonHashMany
const budgetMs = timeMs(() => poseidonHashMany(felts), 9);
console.log(
  `the budget, ${TYPED_DATA_LIMITS.maxWork} Poseidon elements: ${budgetMs.toFixed(1)} ms here now (documented: the heaviest accepted shape ≤ ${BOUND_MS} ms on a quiet core)\n`,
);

let worst = 0;
for (const [name, build] of SHAPE_FAMILIES) {
  const size = largest(build);
  if (size === undefined) {
    console.log(`${name.padEnd(42)} refused at any size`);
    continue;
  }
  const { data, work } = checkTypedData(build(size));
  const hash = () => {
    if (!typedData.validateTypedData(data)) throw new Error('not typed data');
    typedData.getMessageHash(data as TypedData, '0x1234');
  };
  // the budget's elements and the shape alternate, so both see the same load: median of ratios
  const ratios: number[] = [];
  let ms = 0;
  for (let round = 0; round < 5; round++) {
    const base = timeMs(() => poseidonHashMany(felts), 1);
    ms = timeMs(hash, 1);
    ratios.push(ms / base);
  }
  const ratio = ratios.sort((a, b) => a - b)[2] as number;
  worst = Math.max(worst, ratio);
  console.log(
    `${name.padEnd(42)} size ${String(size).padStart(5)}  ${work.toFixed(0).padStart(4)} units  ${ms.toFixed(1).padStart(6)} ms  ${ratio.toFixed(2)} × the budget's elements`,
  );
}
console.log(
  `\nheaviest accepted shape: ${worst.toFixed(2)} × ${TYPED_DATA_LIMITS.maxWork} Poseidon elements (${(worst * budgetMs).toFixed(0)} ms at this run's first timing)`,
);
