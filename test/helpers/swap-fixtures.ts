/**
 * Routes, quotes and honest router calldata for the swap-plan unit tests: what an honest
 * aggregator would send for a pair, built with the same calldata layout the emulator uses.
 */
import type { AggregatorClient, Route } from '../../cli/clients/aggregator.js';
import {
  buildPlan,
  type PlanKind,
  type PlannedLeg,
  type PlannedTransfer,
  type PlannedSwap,
  type ActionPlan,
  type SwapQuote,
  toSwapQuote,
} from '../../cli/core/actions/plan.js';
import { ROUTER_ADDRESS } from '../../shared/swap-calldata.js';
import { encodeSwapCalldata } from '../../shared/swap-calldata.js';
import { resolveToken, type Token } from '../../shared/tokens.js';

export const ETH = resolveToken('mainnet', 'ETH');
export const STRK = resolveToken('mainnet', 'STRK');
export const USDC = resolveToken('mainnet', 'USDC');
export const ACCOUNT = `0x${'a11ce'.padStart(64, '0')}`;
export const OTHER = `0x${'b0b'.padStart(64, '0')}`;
export const POOL = `0x${'9001'.padStart(64, '0')}`;
export const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

interface RouteOptions {
  /** 1 = one direct pool (2 bps fee); 2 = through STRK (15 bps) */
  hops?: 1 | 2;
  prices?: [unknown, unknown];
}

export function routeOf(
  from: Token,
  to: Token,
  inputAmount: bigint,
  outputAmount: bigint,
  options: RouteOptions = {},
): Route {
  const hops = options.hops ?? 1;
  const [pIn, pOut] = options.prices ?? [3000, 1];
  const middle = from.address === STRK.address || to.address === STRK.address ? ETH : STRK;
  const path =
    hops === 1
      ? [[from, to]]
      : [
          [from, middle],
          [middle, to],
        ];
  return {
    inputToken: {
      symbol: from.symbol,
      name: from.name,
      address: from.address,
      decimals: from.decimals,
      price: pIn as number,
    },
    outputToken: {
      symbol: to.symbol,
      name: to.name,
      address: to.address,
      decimals: to.decimals,
      price: pOut as number,
    },
    inputAmount,
    outputAmount,
    estimatedGasUsed: 100_000n,
    estimatedGasUsedInUsd: '0.01',
    legs: [
      {
        percent: '100%',
        hops: path.map(([a, b]) => [
          {
            protocol: 1,
            poolName: `${a?.symbol}/${b?.symbol}`,
            poolAddress: POOL,
            fromTokenAddress: a?.address ?? '',
            toTokenAddress: b?.address ?? '',
            percent: '100%',
          },
        ]),
      },
    ],
  };
}

export function quoteOf(
  from: Token,
  to: Token,
  amountIn: bigint,
  gross: bigint,
  options: RouteOptions & { slippageBps?: number; quotedAt?: number } = {},
): SwapQuote {
  return toSwapQuote(
    routeOf(from, to, amountIn, gross, options),
    from,
    to,
    options.slippageBps ?? 100,
    'mainnet',
    options.quotedAt ?? T0,
  );
}

/** The calldata an honest aggregator sends for `quote`: min_received = its calldata minimum. */
export function honestCalldata(
  quote: SwapQuote,
  destination = ACCOUNT,
  tail: Partial<{
    tokenIn: bigint;
    tokenOut: bigint;
    amountIn: bigint;
    minReceived: bigint;
    destination: bigint;
  }> = {},
): string[] {
  const hops = quote.summary.route[0]?.hops ?? [];
  const swaps = hops.map((hop) => ({
    tokenIn: resolveToken('mainnet', hop.from).address,
    tokenOut: resolveToken('mainnet', hop.to).address,
    rate: 1_000_000n,
    protocol: 1,
    poolAddress: POOL,
  }));
  return encodeSwapCalldata(swaps, {
    tokenIn: BigInt(quote.from.address),
    tokenOut: BigInt(quote.to.address),
    amountIn: quote.amountIn,
    minReceived: quote.calldataMinimumReceived,
    destination: BigInt(destination),
    ...tail,
  });
}

export function plannedSwap(quote: SwapQuote, calldata = honestCalldata(quote)): PlannedSwap {
  return { confirmed: quote, executing: quote, calldata };
}

/** A mainnet sandbox plan of ACCOUNT: the swaps, the transfers, then any other legs. */
export function planOf(
  kind: PlanKind,
  swaps: PlannedSwap[],
  sends: PlannedTransfer[] = [],
  legs: PlannedLeg[] = [],
): ActionPlan {
  return buildPlan({
    kind,
    network: 'mainnet',
    sandbox: true,
    account: ACCOUNT,
    router: ROUTER_ADDRESS,
    legs: [
      ...swaps.map((swap) => ({ type: 'swap' as const, swap })),
      ...sends.map((transfer) => ({ type: 'transfer' as const, transfer })),
      ...legs,
    ],
  });
}

/** The plan of one leg of its own type (a stake, a supply, a borrow…): nothing else in it. */
export const legPlanOf = (kind: PlanKind, leg: PlannedLeg): ActionPlan =>
  planOf(kind, [], [], [leg]);

/**
 * An aggregator that prices STRK alone, at $0.50 (an honest route: what it pays in USDC agrees
 * with its price field, value.ts); anything else has no route.
 */
export const strkPricer = (): AggregatorClient =>
  ({
    network: 'mainnet',
    getRoute: async (r: { amount: bigint; tokenIn: string }) => {
      if (r.tokenIn !== STRK.address) throw new Error('no route');
      return routeOf(STRK, USDC, r.amount, r.amount / 2n / 10n ** 12n, { prices: ['0.5', 1] });
    },
  }) as unknown as AggregatorClient;

/** 1 ETH → 3000 USDC through one pool: the plan of `trade 1 ETH USDC`. */
export function ethToUsdcTrade(
  options: RouteOptions & { slippageBps?: number; quotedAt?: number } = {},
): ActionPlan {
  return planOf('trade', [plannedSwap(quoteOf(ETH, USDC, 10n ** 18n, 3_000_000_000n, options))]);
}
