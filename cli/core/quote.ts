/**
 * Quotes: what a swap (or 2–3) would return right now. Resolve tokens and amounts exactly,
 * ask the aggregator (one batch request when every pair has the same output token, else one
 * request per pair in parallel), summarise with fee, minimum received and price impact.
 * Read-only: nothing is signed or sent.
 */
import { usageError } from '../../shared/errors.js';
import { formatBpsAsPercent } from '../../shared/fees.js';
import type { Network } from '../../shared/tokens.js';
import {
  type AggregatorClient,
  createAggregatorClient,
  type Route,
  type SwapPair,
} from '../clients/aggregator.js';
import { checkPairCount } from './actions/limits.js';
import { resolvePair, swapsAllowed } from './actions/rules.js';
import { type QuoteSummary, summarizeQuote } from './quote-summary.js';
import type { CallOptions } from './call.js';
import type { Endpoints, NetworkName } from './endpoints.js';

export interface PairSpec {
  /** decimal string in token units ("1.5") */
  amount: string;
  /** symbol or address */
  from: string;
  to: string;
}

export interface QuoteRequest {
  pairs: PairSpec[];
  /** --pairs was used: the multi-swap rules (2–3 pairs) apply */
  multi: boolean;
  /** undefined: the settings' default */
  slippageBps?: number | undefined;
}

export interface QuoteResult {
  network: NetworkName;
  sandbox: boolean;
  aggregatorUrl: string;
  mode: 'single' | 'batch' | 'parallel';
  slippage: { bps: number; percent: string };
  quotes: QuoteSummary[];
}

export interface QuoteDeps {
  client: AggregatorClient;
  network: Network;
  networkName: NetworkName;
  sandbox: boolean;
  /** from settings, when the request gives none */
  defaultSlippageBps: number;
}

/** The aggregator client for these endpoints (cheap: no connection until a call). */
export function aggregatorFor(
  endpoints: Endpoints,
  options: { timeoutMs?: number; retries?: number } = {},
): AggregatorClient {
  return createAggregatorClient({
    baseUrl: endpoints.aggregatorUrl,
    apiKey: endpoints.aggregatorApiKey,
    network: endpoints.network,
    ...options,
  });
}

export function quoteDeps(
  endpoints: Endpoints,
  client: AggregatorClient = aggregatorFor(endpoints),
): QuoteDeps {
  return {
    client,
    network: endpoints.network,
    networkName: endpoints.networkName,
    sandbox: endpoints.sandbox,
    defaultSlippageBps: endpoints.settings.slippageBps,
  };
}

export async function quote(
  request: QuoteRequest,
  deps: QuoteDeps,
  call: CallOptions = {},
): Promise<QuoteResult> {
  // the rules of a swap, before any request (actions/rules.ts, actions/limits.ts)
  swapsAllowed(deps.network);
  if (request.multi) checkPairCount(request.pairs.length);
  const slippageBps = request.slippageBps ?? deps.defaultSlippageBps;
  const resolved = request.pairs.map((p) => resolvePair(deps.network, p));
  const swaps: SwapPair[] = resolved.map((r) => ({
    amount: r.amount,
    tokenIn: r.from.address,
    tokenOut: r.to.address,
  }));
  const aggregatorCall = { signal: call.signal };
  // the network wait: a face shows it (the tool server as progress notifications)
  call.onProgress?.({ kind: 'quoting', swaps: swaps.length, batch: request.multi });

  let mode: QuoteResult['mode'];
  let routes: Route[];
  if (request.multi) {
    const multi = await deps.client.quoteMulti(swaps, aggregatorCall);
    mode = multi.mode;
    routes = multi.routes;
  } else {
    const [single] = swaps;
    if (single === undefined) throw usageError('nothing to quote');
    mode = 'single';
    routes = [await deps.client.getRoute(single, aggregatorCall)];
  }
  const quotes = routes.map((route, i) => {
    const r = resolved[i] as (typeof resolved)[number];
    return summarizeQuote(route, r.from, r.to, slippageBps, deps.network);
  });
  return {
    network: deps.networkName,
    sandbox: deps.sandbox,
    aggregatorUrl: deps.client.baseUrl,
    mode,
    slippage: { bps: slippageBps, percent: formatBpsAsPercent(slippageBps) },
    quotes,
  };
}
