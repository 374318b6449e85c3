/**
 * An aggregator route → what a user is shown and what `--json` prints: exact amounts as
 * decimal strings (base units and human form), the service fee, minimum received, price impact.
 * Pure; JSON-safe (no bigint in the result).
 */
import { formatAmount } from '../../shared/amount.js';
import {
  applyServiceFee,
  formatBpsAsPercent,
  formatRate,
  guaranteedMinimum,
  priceImpactBps,
  serviceFeeBps,
} from '../../shared/fees.js';
import { findToken, type Network, type Token } from '../../shared/tokens.js';
import type { Route } from '../clients/aggregator.js';

export interface Money {
  /** exact human decimal, trailing zeros trimmed */
  amount: string;
  /** exact base units */
  baseUnits: string;
  symbol: string;
}

export interface QuoteSummary {
  from: { symbol: string; address: string; decimals: number };
  to: { symbol: string; address: string; decimals: number };
  amountIn: Money;
  /** what arrives: the aggregator's output minus the service fee */
  expectedOutput: Money;
  /** the aggregator's outputAmount, before the service fee */
  grossOutput: Money;
  fee: { bps: number; percent: string; amount: Money };
  /**
   * The worst case shown to the user: the smaller of floor(expectedOutput × (10000 − bps) /
   * 10000) and calldataMinimumReceived − its service fee (the router may check min_received
   * before taking the fee; see guaranteedMinimum in shared/fees.ts).
   */
  minimumReceived: Money;
  /**
   * floor(grossOutput × (10000 − bps) / 10000): what the aggregator puts in the calldata's
   * min_received (it computes it from its own outputAmount). Exposed so the pre-sign check of a
   * later step can compare like with like.
   */
  calldataMinimumReceived: Money;
  /**
   * Shortfall of the gross output versus the input's value at the aggregator's quoted token
   * prices (pool fees + curve slippage); null when the prices are missing or junk.
   */
  priceImpact: { bps: number; percent: string } | null;
  /** 'high' above 5 %, 'very-high' above 15 % (PRICE_IMPACT_*_BPS); null below or unknown */
  priceImpactWarning: PriceImpactWarning;
  /** net rate: 1 from = rate to */
  rate: string;
  route: Array<{
    percent: string;
    hops: Array<{
      from: string;
      to: string;
      pools: Array<{ protocol: number; poolName: string; poolAddress: string; percent: string }>;
    }>;
  }>;
  gas: { estimatedGasUsed: string | null; estimatedGasUsedInUsd: string | null };
}

type PriceImpactWarning = 'high' | 'very-high' | null;

/** Above 5 % a quote is worth a second look; above 15 % most users are about to lose money to a thin pool. */
export const PRICE_IMPACT_HIGH_BPS = 500;
export const PRICE_IMPACT_VERY_HIGH_BPS = 1500;

export function priceImpactWarning(impactBps: number | undefined): PriceImpactWarning {
  if (impactBps === undefined) return null;
  if (impactBps > PRICE_IMPACT_VERY_HIGH_BPS) return 'very-high';
  if (impactBps > PRICE_IMPACT_HIGH_BPS) return 'high';
  return null;
}

/**
 * The one price-impact vocabulary, for plans, reviews and the app alike: 'warn' above
 * PRICE_IMPACT_HIGH_BPS, 'high' above PRICE_IMPACT_VERY_HIGH_BPS (refused without its
 * acknowledgment), 'unknown' when the impact could not be measured (missing or junk prices).
 */
export type ImpactLevel = 'ok' | 'warn' | 'high' | 'unknown';

export function impactLevel(bps: number | undefined): ImpactLevel {
  if (bps === undefined) return 'unknown';
  const warning = priceImpactWarning(bps);
  return warning === 'very-high' ? 'high' : warning === 'high' ? 'warn' : 'ok';
}

function money(value: bigint, token: Token): Money {
  return {
    amount: formatAmount(value, token.decimals),
    baseUnits: value.toString(),
    symbol: token.symbol,
  };
}

function symbolOf(network: Network, address: string): string {
  return findToken(network, address)?.symbol ?? `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/**
 * `from`/`to` are our registry's tokens: their decimals are trusted over the aggregator's
 * (the client already checked the route is for these addresses).
 */
export function summarizeQuote(
  route: Route,
  from: Token,
  to: Token,
  slippageBps: number,
  network: Network,
): QuoteSummary {
  const feeBps = serviceFeeBps(route);
  const { fee, net } = applyServiceFee(route.outputAmount, feeBps);
  const minimum = guaranteedMinimum(route.outputAmount, feeBps, slippageBps);
  const impact = priceImpactBps({
    amountIn: route.inputAmount,
    decimalsIn: from.decimals,
    priceIn: route.inputToken.price,
    amountOut: route.outputAmount,
    decimalsOut: to.decimals,
    priceOut: route.outputToken.price,
  });
  return {
    from: { symbol: from.symbol, address: from.address, decimals: from.decimals },
    to: { symbol: to.symbol, address: to.address, decimals: to.decimals },
    amountIn: money(route.inputAmount, from),
    expectedOutput: money(net, to),
    grossOutput: money(route.outputAmount, to),
    fee: { bps: feeBps, percent: formatBpsAsPercent(feeBps), amount: money(fee, to) },
    minimumReceived: money(minimum.shown, to),
    calldataMinimumReceived: money(minimum.calldata, to),
    priceImpact: impact === undefined ? null : { bps: impact, percent: formatBpsAsPercent(impact) },
    priceImpactWarning: priceImpactWarning(impact),
    rate: formatRate(route.inputAmount, from.decimals, net, to.decimals, Math.min(to.decimals, 8)),
    route: route.legs.map((leg) => ({
      percent: leg.percent,
      hops: leg.hops.map((hop) => ({
        from: symbolOf(network, hop[0]?.fromTokenAddress ?? ''),
        to: symbolOf(network, hop[0]?.toTokenAddress ?? ''),
        pools: hop.map((s) => ({
          protocol: s.protocol,
          poolName: s.poolName,
          poolAddress: s.poolAddress,
          percent: s.percent,
        })),
      })),
    })),
    gas: {
      estimatedGasUsed:
        route.estimatedGasUsed === undefined ? null : route.estimatedGasUsed.toString(),
      estimatedGasUsedInUsd: route.estimatedGasUsedInUsd ?? null,
    },
  };
}
