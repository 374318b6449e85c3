/**
 * Plans → the aggregator's wire shapes (docs/contracts.md B): RouteResponse and router calldata.
 *
 * Calldata `rate` (fraction × 1e6): a leg's first hop gets the leg's share of the input
 * (percent × 1e4); a later hop gets 1e6, all of what the previous hop produced. Each hop here
 * is one pool, so there are no parallel pool swaps inside a hop.
 */
import { encodeSwapCalldata, RATE_ONE, type CalldataSwap } from '../../shared/swap-calldata.js';
import type { Token } from '../../shared/tokens.js';
import { orient } from './pools.js';
import { priceToNumber, type RoutePlan } from './router.js';

interface WireToken {
  name: string;
  symbol: string;
  address: string;
  decimals: number;
  price: number;
}

interface WireSwap {
  protocol: number;
  poolName: string;
  poolAddress: string;
  fromTokenAddress: string;
  toTokenAddress: string;
  percent: string;
}

export interface WireRouteResponse {
  success: true;
  inputToken: WireToken;
  outputToken: WireToken;
  inputAmount: string;
  outputAmount: string;
  estimatedGasUsed: string;
  estimatedGasUsedInUsd: number;
  route: Array<{ percent: string; swaps: WireSwap[][] }>;
  time: number;
}

export interface WireNoRoute {
  success: false;
  errorMessage: string;
}

// Gas model for the estimate: a fixed router overhead plus a cost per pool touched.
const GAS_BASE = 120_000n;
const GAS_PER_SWAP = 70_000n;
/** USD per gas unit × 1e18 (≈ 0.15 USD for a one-pool swap): display only. */
const USD_PER_GAS_SCALED = 790_000_000_000n;

function wireToken(token: Token, prices: ReadonlyMap<string, bigint>): WireToken {
  return {
    name: token.name,
    symbol: token.symbol,
    address: token.address,
    decimals: token.decimals,
    price: priceToNumber(prices.get(token.address)),
  };
}

export function toRouteResponse(
  plan: RoutePlan,
  tokenIn: Token,
  tokenOut: Token,
  amountIn: bigint,
  prices: ReadonlyMap<string, bigint>,
  startedAt: bigint,
): WireRouteResponse {
  let pools = 0n;
  const route = plan.legs.map((leg) => {
    let from = tokenIn.address;
    const swaps = leg.path.map((pool) => {
      const side = orient(pool, from);
      if (side === undefined) throw new RangeError('plan does not connect');
      const swap: WireSwap = {
        protocol: pool.protocol,
        poolName: pool.name,
        poolAddress: pool.address,
        fromTokenAddress: from,
        toTokenAddress: side.tokenOut.address,
        percent: '100%',
      };
      from = side.tokenOut.address;
      pools += 1n;
      return [swap];
    });
    return { percent: `${leg.percent}%`, swaps };
  });
  const gas = GAS_BASE + GAS_PER_SWAP * pools;
  return {
    success: true,
    inputToken: wireToken(tokenIn, prices),
    outputToken: wireToken(tokenOut, prices),
    inputAmount: amountIn.toString(),
    outputAmount: plan.amountOut.toString(),
    estimatedGasUsed: gas.toString(),
    estimatedGasUsedInUsd: priceToNumber(gas * USD_PER_GAS_SCALED),
    route,
    // seconds spent routing, as the real API reports it
    time: Number((process.hrtime.bigint() - startedAt) / 1000n) / 1e6,
  };
}

export function toCalldata(
  response: WireRouteResponse,
  minReceived: bigint,
  destination: bigint,
): string[] {
  const swaps: CalldataSwap[] = [];
  for (const leg of response.route) {
    const legRate = BigInt(leg.percent.replace('%', '')) * (RATE_ONE / 100n);
    leg.swaps.forEach((hop, index) => {
      for (const s of hop) {
        const hopShare = BigInt(s.percent.replace('%', '')) * (RATE_ONE / 100n);
        const base = index === 0 ? legRate : RATE_ONE;
        swaps.push({
          tokenIn: s.fromTokenAddress,
          tokenOut: s.toTokenAddress,
          rate: (base * hopShare) / RATE_ONE,
          protocol: s.protocol,
          poolAddress: s.poolAddress,
        });
      }
    });
  }
  return encodeSwapCalldata(swaps, {
    tokenIn: BigInt(response.inputToken.address),
    tokenOut: BigInt(response.outputToken.address),
    amountIn: BigInt(response.inputAmount),
    minReceived,
    destination,
  });
}
