/**
 * Route search over the pools: every direct pool and every two-hop path, then a split of the
 * amount across two pool-disjoint paths (percent searched in 5 % steps) when that returns more
 * than the best single path. Outputs are exactly what the pools return (bigint math).
 */
import { type Pool, orient, pathOutput } from './pools.js';

interface PlannedLeg {
  /** whole percent of the input sent down this leg */
  percent: number;
  path: Pool[];
  amountIn: bigint;
  amountOut: bigint;
}

export interface RoutePlan {
  legs: PlannedLeg[];
  amountOut: bigint;
}

const SPLIT_STEP = 5;
/** Only the best few single paths are paired for splits: enough for a market of this size. */
const SPLIT_CANDIDATES = 6;

function enumeratePaths(pools: readonly Pool[], tokenIn: string, tokenOut: string): Pool[][] {
  const paths: Pool[][] = [];
  for (const first of pools) {
    const side = orient(first, tokenIn);
    if (side === undefined) continue;
    const middle = side.tokenOut.address;
    if (middle === tokenOut) {
      paths.push([first]);
      continue;
    }
    for (const second of pools) {
      if (second === first) continue;
      const next = orient(second, middle);
      if (next !== undefined && next.tokenOut.address === tokenOut) paths.push([first, second]);
    }
  }
  return paths;
}

const disjoint = (a: readonly Pool[], b: readonly Pool[]): boolean =>
  a.every((pool) => !b.includes(pool));

export function findBestRoute(
  pools: readonly Pool[],
  tokenIn: string,
  tokenOut: string,
  amountIn: bigint,
): RoutePlan | undefined {
  if (tokenIn === tokenOut || amountIn <= 0n) return undefined;
  const scored = enumeratePaths(pools, tokenIn, tokenOut)
    .map((path) => ({ path, out: pathOutput(path, tokenIn, amountIn) }))
    .sort((a, b) => (b.out > a.out ? 1 : b.out < a.out ? -1 : a.path.length - b.path.length));
  const best = scored[0];
  if (best === undefined || best.out <= 0n) return undefined;

  let plan: RoutePlan = {
    legs: [{ percent: 100, path: best.path, amountIn, amountOut: best.out }],
    amountOut: best.out,
  };
  const candidates = scored.slice(0, SPLIT_CANDIDATES);
  for (let i = 0; i < candidates.length; i++) {
    for (let j = i + 1; j < candidates.length; j++) {
      const a = candidates[i];
      const b = candidates[j];
      // Paths sharing a pool would each see the pool's reserves untouched by the other: wrong math.
      if (a === undefined || b === undefined || !disjoint(a.path, b.path)) continue;
      for (let percent = SPLIT_STEP; percent < 100; percent += SPLIT_STEP) {
        const inA = (amountIn * BigInt(percent)) / 100n;
        const inB = amountIn - inA;
        if (inA === 0n || inB === 0n) continue;
        const outA = pathOutput(a.path, tokenIn, inA);
        const outB = pathOutput(b.path, tokenIn, inB);
        if (outA === 0n || outB === 0n || outA + outB <= plan.amountOut) continue;
        plan = {
          legs: [
            { percent, path: a.path, amountIn: inA, amountOut: outA },
            { percent: 100 - percent, path: b.path, amountIn: inB, amountOut: outB },
          ],
          amountOut: outA + outB,
        };
      }
    }
  }
  return plan;
}

const PRICE_DECIMALS = 18n;
const PRICE_SCALE = 10n ** PRICE_DECIMALS;

/**
 * USD spot prices (× 1e18) from the reserves: USDC is 1, every other token is priced through
 * the deepest pool linking it to an already priced token (breadth first from USDC). With the
 * default pools (mutually consistent, see pools.ts) every path gives the same price; with
 * custom, inconsistent pools the deepest pool wins, as the real API's per-token prices would.
 */
export function spotPrices(pools: readonly Pool[], usdcAddress: string): Map<string, bigint> {
  const prices = new Map<string, bigint>([[usdcAddress, PRICE_SCALE]]);
  let changed = true;
  while (changed) {
    changed = false;
    const found = new Map<string, { price: bigint; depth: bigint }>();
    for (const pool of pools) {
      for (const [known, other, rKnown, rOther] of [
        [pool.tokenA, pool.tokenB, pool.reserveA, pool.reserveB],
        [pool.tokenB, pool.tokenA, pool.reserveB, pool.reserveA],
      ] as const) {
        const knownPrice = prices.get(known.address);
        if (knownPrice === undefined || prices.has(other.address)) continue;
        // price(other) = price(known) × (rKnown / 10^dKnown) / (rOther / 10^dOther)
        const price =
          (knownPrice * rKnown * 10n ** BigInt(other.decimals)) /
          (rOther * 10n ** BigInt(known.decimals));
        const depth = (rKnown * knownPrice) / 10n ** BigInt(known.decimals);
        const previous = found.get(other.address);
        if (previous === undefined || depth > previous.depth)
          found.set(other.address, { price, depth });
      }
    }
    for (const [address, { price }] of found) {
      prices.set(address, price);
      changed = true;
    }
  }
  return prices;
}

/** A scaled price → a JSON number with up to 8 significant fractional digits (display data). */
export function priceToNumber(scaled: bigint | undefined): number {
  if (scaled === undefined) return 0;
  const whole = scaled / PRICE_SCALE;
  const fraction = (scaled % PRICE_SCALE)
    .toString()
    .padStart(Number(PRICE_DECIMALS), '0')
    .slice(0, 10);
  return Number(`${whole}.${fraction}`);
}
