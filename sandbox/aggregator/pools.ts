/**
 * Constant-product pools (x·y = k, fee taken from the input) over the mainnet registry tokens.
 * The default set is shaped like a real market: ETH = 3000 USDC, STRK = 0.5 USDC,
 * WBTC = 90 000 USDC, stablecoins = 1; two ETH/USDC pools with different fees and depth (so
 * splitting can pay), and DAI/WBTC with no common pool (only a two-hop route exists).
 *
 * The default pools are mutually consistent, as an arbitraged market is: every pool's mid
 * price (reserve ratio) equals the ratio of the tokens' USD prices, whatever path links them.
 * The emulator quotes those USD prices (router.ts spotPrices), so the client's price impact
 * (shared/fees.ts priceImpactBps) is exactly pool fees + curve slippage for any route here.
 * Keep it so when editing this table; sandbox/aggregator/app.test.ts checks it.
 */
import { parseAmount } from '../../shared/amount.js';
import { parseAddress, resolveToken, type Token } from '../../shared/tokens.js';

export interface PoolSpec {
  /** a felt; derived from the index when omitted */
  address?: string;
  name?: string;
  /** the aggregator's protocol number (the router's dispatch key) */
  protocol?: number;
  /** symbol or address from the mainnet registry */
  tokenA: string;
  tokenB: string;
  /** base units (bigint) or a human decimal string in the token's units */
  reserveA: bigint | string;
  reserveB: bigint | string;
  feeBps: number;
}

export interface Pool {
  address: string;
  name: string;
  protocol: number;
  tokenA: Token;
  tokenB: Token;
  reserveA: bigint;
  reserveB: bigint;
  feeBps: number;
}

const PROTOCOL_NAMES: Record<number, string> = {
  1: 'SandboxSwap',
  2: 'SandboxStable',
  3: 'SandboxConcentrated',
};

export const DEFAULT_POOLS: readonly PoolSpec[] = [
  { tokenA: 'ETH', tokenB: 'USDC', reserveA: '2000', reserveB: '6000000', feeBps: 30, protocol: 1 },
  { tokenA: 'ETH', tokenB: 'USDC', reserveA: '800', reserveB: '2400000', feeBps: 5, protocol: 3 },
  { tokenA: 'ETH', tokenB: 'STRK', reserveA: '1000', reserveB: '6000000', feeBps: 30, protocol: 1 },
  {
    tokenA: 'STRK',
    tokenB: 'USDC',
    reserveA: '10000000',
    reserveB: '5000000',
    feeBps: 30,
    protocol: 1,
  },
  { tokenA: 'WBTC', tokenB: 'ETH', reserveA: '50', reserveB: '1500', feeBps: 30, protocol: 1 },
  { tokenA: 'WBTC', tokenB: 'USDC', reserveA: '20', reserveB: '1800000', feeBps: 30, protocol: 3 },
  { tokenA: 'ETH', tokenB: 'USDT', reserveA: '500', reserveB: '1500000', feeBps: 30, protocol: 1 },
  {
    tokenA: 'USDC',
    tokenB: 'USDT',
    reserveA: '5000000',
    reserveB: '5000000',
    feeBps: 5,
    protocol: 2,
  },
  {
    tokenA: 'USDC',
    tokenB: 'USDC.e',
    reserveA: '3000000',
    reserveB: '3000000',
    feeBps: 1,
    protocol: 2,
  },
  {
    tokenA: 'DAI',
    tokenB: 'USDC',
    reserveA: '2000000',
    reserveB: '2000000',
    feeBps: 5,
    protocol: 2,
  },
];

function reserve(value: bigint | string, token: Token): bigint {
  const units = typeof value === 'bigint' ? value : parseAmount(value, token.decimals);
  if (units <= 0n) throw new RangeError(`pool reserve of ${token.symbol} must be positive`);
  return units;
}

export function resolvePools(specs: readonly PoolSpec[]): Pool[] {
  return specs.map((spec, index) => {
    const tokenA = resolveToken('mainnet', spec.tokenA);
    const tokenB = resolveToken('mainnet', spec.tokenB);
    if (tokenA.address === tokenB.address)
      throw new RangeError('a pool needs two different tokens');
    if (!Number.isInteger(spec.feeBps) || spec.feeBps < 0 || spec.feeBps >= 10_000)
      throw new RangeError('feeBps must be 0..9999');
    const protocol = spec.protocol ?? 1;
    // Deterministic fake addresses: recognisable in calldata, stable across restarts.
    const address =
      spec.address ?? `0x5a4d${(index + 1).toString(16).padStart(4, '0')}${'0'.repeat(52)}`;
    return {
      address: parseAddress(address),
      name:
        spec.name ??
        `${PROTOCOL_NAMES[protocol] ?? `Protocol${protocol}`} ${tokenA.symbol}/${tokenB.symbol} ${spec.feeBps}bps`,
      protocol,
      tokenA,
      tokenB,
      reserveA: reserve(spec.reserveA, tokenA),
      reserveB: reserve(spec.reserveB, tokenB),
      feeBps: spec.feeBps,
    };
  });
}

/** Uniswap-v2 formula with the fee in bps: out = in·(1−f)·R_out / (R_in + in·(1−f)), floored. */
export function getAmountOut(
  amountIn: bigint,
  reserveIn: bigint,
  reserveOut: bigint,
  feeBps: number,
): bigint {
  if (amountIn <= 0n) return 0n;
  const inWithFee = amountIn * BigInt(10_000 - feeBps);
  return (inWithFee * reserveOut) / (reserveIn * 10_000n + inWithFee);
}

/** Reserves of `pool` oriented from `tokenIn`; undefined when the pool does not hold it. */
export function orient(
  pool: Pool,
  tokenIn: string,
): { reserveIn: bigint; reserveOut: bigint; tokenOut: Token } | undefined {
  if (pool.tokenA.address === tokenIn)
    return { reserveIn: pool.reserveA, reserveOut: pool.reserveB, tokenOut: pool.tokenB };
  if (pool.tokenB.address === tokenIn)
    return { reserveIn: pool.reserveB, reserveOut: pool.reserveA, tokenOut: pool.tokenA };
  return undefined;
}

/** Output of a path of pools starting at `tokenIn`. */
export function pathOutput(path: readonly Pool[], tokenIn: string, amountIn: bigint): bigint {
  let token = tokenIn;
  let amount = amountIn;
  for (const pool of path) {
    const side = orient(pool, token);
    if (side === undefined) throw new RangeError('path does not connect');
    amount = getAmountOut(amount, side.reserveIn, side.reserveOut, pool.feeBps);
    token = side.tokenOut.address;
  }
  return amount;
}
