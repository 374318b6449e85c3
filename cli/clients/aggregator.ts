/**
 * Client of the swap aggregator (docs/contracts.md B, Fibrous). The same code talks to the real
 * service and to the sandbox emulator; only the base URL differs.
 *
 * Multi-swap quotes: one output token for all → one /routeBatch; otherwise one /route per pair,
 * concurrently. This client fetches and validates; it holds no domain rule and imports nothing
 * from the core (docs/architecture.md "Layout"): where swaps run (mainnet only), how many pairs
 * a multi-swap takes, that an amount is positive and a swap's two tokens differ are the core's
 * rules (cli/core/actions/rules.ts, limits.ts), checked by its callers before any request.
 *
 * Calldata is checked before it is returned (money safety: a signer must never get calldata
 * that differs from what was asked): its tail must name the asked input and output tokens, the
 * asked input amount and destination, and a min_received of at least floor(quoted output ×
 * (10000 − slippage bps) / 10000). Anything else is CALLDATA_MISMATCH with the field
 * (INVALID_RESPONSE when it is not the router layout at all).
 */
import { AppError, ErrorCode, usageError } from '../../shared/errors.js';
import { printable } from '../../shared/printable.js';
import {
  DEFAULT_SLIPPAGE_BPS,
  minimumReceived,
  slippagePercentString,
} from '../../shared/slippage.js';
import { type CalldataTail, decodeSwapCalldataTail } from '../../shared/swap-calldata.js';
import { addressToBigInt, type Network } from '../../shared/tokens.js';
import {
  CalldataResponseCheck,
  checkRouteMatches,
  ExecuteBatchCheck,
  HealthCheck,
  invalidResponse,
  noRoute,
  type Route,
  RouteBatchCheck,
  RouteResponseCheck,
  toRoute,
} from './aggregator-schemas.js';
import { type BackoffOptions, createHttpClient, type RetryInfo } from './http.js';

export type { Route, RouteLeg, RouteSwap, RouteToken } from './aggregator-schemas.js';

export interface AggregatorClientOptions {
  baseUrl: string;
  apiKey?: string | undefined;
  network: Network;
  /** per attempt, for the whole answer, body included (default 10 s) */
  timeoutMs?: number;
  /** retries after the first attempt (default 3) */
  retries?: number;
  backoff?: BackoffOptions;
  /** called before each retry (progress lines, tests) */
  onRetry?: (info: RetryInfo) => void;
}

/**
 * Per call: aborting `signal` cancels that call's requests at once (no retry), so a screen can
 * drop one stale quote while the client lives on.
 */
interface AggregatorCall {
  signal?: AbortSignal | undefined;
}

/** One swap to quote: token addresses and the input in base units. */
export interface SwapPair {
  amount: bigint;
  tokenIn: string;
  tokenOut: string;
}

interface RouteRequest extends SwapPair {
  direct?: boolean;
  excludeProtocols?: number[];
}

interface ExecutionParams {
  /** default 100 (1 %) */
  slippageBps?: number;
  /** the account that receives the output */
  destination: string;
}

interface BatchRequest {
  amounts: bigint[];
  tokensIn: string[];
  tokenOut: string;
}

interface BatchCalldataRequest extends BatchRequest, ExecutionParams {
  /**
   * The gross outputAmount of each pair's route as quoted (getRouteBatch) and shown to the
   * user. /executeBatch returns calldata only, so this is what each min_received is checked
   * against: at least floor(quoted × (10000 − slippage bps) / 10000). If the market moved
   * against the user since the quote, the calldata is refused and the flow must re-quote.
   */
  quotedOutputs: bigint[];
}

interface AggregatorHealth {
  ok: boolean;
  /** `staus ?? status` as sent */
  status: number | string | undefined;
  message: string | undefined;
}

interface MultiQuote {
  /** how the routes were fetched: one batch request, or one request per pair in parallel */
  mode: 'batch' | 'parallel';
  routes: Route[];
}

export interface AggregatorClient {
  readonly baseUrl: string;
  readonly network: Network;
  getRoute(request: RouteRequest, call?: AggregatorCall): Promise<Route>;
  getCalldata(
    request: RouteRequest & ExecutionParams,
    call?: AggregatorCall,
  ): Promise<{ route: Route; calldata: string[] }>;
  getRouteBatch(request: BatchRequest, call?: AggregatorCall): Promise<Route[]>;
  getCalldataBatch(request: BatchCalldataRequest, call?: AggregatorCall): Promise<string[][]>;
  checkAggregatorHealth(call?: AggregatorCall): Promise<AggregatorHealth>;
  quoteMulti(pairs: SwapPair[], call?: AggregatorCall): Promise<MultiQuote>;
}

const pairLabel = (p: SwapPair): string => `${p.amount} ${p.tokenIn} -> ${p.tokenOut}`;

function routeQuery(request: RouteRequest): Record<string, string> {
  const query: Record<string, string> = {
    amount: request.amount.toString(),
    tokenInAddress: request.tokenIn,
    tokenOutAddress: request.tokenOut,
  };
  if (request.direct !== undefined) query.direct = String(request.direct);
  if (request.excludeProtocols?.length) query.excludeProtocols = request.excludeProtocols.join(',');
  return query;
}

/** Only after checkBatch, which checks the lengths. */
function batchQuery(request: BatchRequest): Record<string, string> {
  return {
    amounts: request.amounts.join(','),
    tokenInAddresses: request.tokensIn.join(','),
    tokenOutAddresses: request.tokenOut,
  };
}

function executionQuery(params: ExecutionParams): Record<string, string> {
  if (addressToBigInt(params.destination) === undefined)
    throw usageError(`destination "${params.destination}" is not a Starknet address`);
  return {
    slippage: slippagePercentString(params.slippageBps ?? DEFAULT_SLIPPAGE_BPS),
    destination: params.destination,
  };
}

/** Before any batch request: a well-formed request (one input token per amount, at least one). */
function checkBatch(request: BatchRequest): void {
  if (request.amounts.length !== request.tokensIn.length)
    throw usageError('amounts and tokensIn must be of the same length');
  if (request.amounts.length === 0) throw usageError('a batch needs at least one pair');
}

interface ExpectedSwap {
  tokenIn: string;
  tokenOut: string;
  amount: bigint;
  destination: string;
  slippageBps: number;
  /** the gross output the min_received must be derived from */
  quotedOutput: bigint;
}

/**
 * The calldata's tail against the request (addresses as numbers): undecodable is
 * INVALID_RESPONSE; a well-formed tail that says something other than what was asked is
 * CALLDATA_MISMATCH naming the field (the same code the pre-sign check uses).
 */
function checkCalldata(
  calldata: readonly string[],
  expected: ExpectedSwap,
  url: string,
  pair: number | undefined,
): void {
  const label = pair === undefined ? '' : `pair ${pair}: `;
  let tail: CalldataTail;
  try {
    tail = decodeSwapCalldataTail(calldata);
  } catch (error) {
    throw invalidResponse(
      url,
      `${label}calldata is not in the router layout (${error instanceof Error ? error.message : 'undecodable'})`,
    );
  }
  const refuse = (field: string, why: string, extra: Record<string, string> = {}): never => {
    throw new AppError(
      ErrorCode.CALLDATA_MISMATCH,
      `the aggregator at ${url} sent calldata${pair === undefined ? '' : ` for pair ${pair}`} that ${why}; refusing it`,
      { details: { field, ...(pair === undefined ? {} : { pair }), ...extra } },
    );
  };
  if (tail.tokenIn !== addressToBigInt(expected.tokenIn))
    refuse('token_in', 'swaps another input token');
  if (tail.tokenOut !== addressToBigInt(expected.tokenOut))
    refuse('token_out', 'swaps to another output token');
  if (tail.amountIn !== expected.amount)
    refuse('amount_in', `spends ${tail.amountIn} instead of ${expected.amount}`);
  if (tail.destination !== addressToBigInt(expected.destination))
    refuse('destination', 'sends the output to another destination');
  const floor = minimumReceived(expected.quotedOutput, expected.slippageBps);
  if (tail.minReceived < floor) {
    // base units as strings: a batch caller tells a price move between its two requests from tampering by them
    refuse(
      'min_received',
      `guarantees ${tail.minReceived}, less than ${floor} (quote ${expected.quotedOutput} at ${expected.slippageBps} bps slippage)`,
      {
        guaranteed: tail.minReceived.toString(),
        floor: floor.toString(),
      },
    );
  }
}

/** A route answer checked and converted, or a refusal: not a route (INVALID_RESPONSE) or no route. */
function routeOf(body: unknown, url: string, pair?: SwapPair): Route {
  if (!RouteResponseCheck.Check(body)) throw invalidResponse(url, 'not a route response');
  if (!body.success) throw noRoute(body.errorMessage, pair ? pairLabel(pair) : undefined);
  try {
    return toRoute(body, url);
  } catch (error) {
    if (error instanceof AppError && error.code === ErrorCode.INVALID_RESPONSE) throw error;
    throw invalidResponse(url, error instanceof Error ? error.message : 'bad route');
  }
}

/** The health answer: the real service misspells the field ("staus"); the schema accepts the correct one too. */
function healthOf(body: unknown, url: string): AggregatorHealth {
  if (!HealthCheck.Check(body))
    throw invalidResponse(url, 'not a health response (no numeric "staus" or "status")');
  const status = (body.staus ?? body.status) as number | string;
  return {
    ok: String(status) === '200',
    status,
    message: body.message === undefined ? undefined : printable(body.message),
  };
}

export function createAggregatorClient(options: AggregatorClientOptions): AggregatorClient {
  const http = createHttpClient({
    baseUrl: options.baseUrl,
    ...(options.apiKey ? { headers: { 'X-API-Key': options.apiKey } } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.retries !== undefined ? { retries: options.retries } : {}),
    ...(options.backoff ? { backoff: options.backoff } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    service: 'aggregator',
  });
  const get = (
    path: string,
    query: Record<string, string> | undefined,
    call: AggregatorCall = {},
  ) => http.get(path, { ...(query ? { query } : {}), signal: call.signal });

  async function getRoute(request: RouteRequest, call?: AggregatorCall): Promise<Route> {
    const { url, body } = await get('route', routeQuery(request), call);
    const route = routeOf(body, url, request);
    checkRouteMatches(route, request, url);
    return route;
  }

  async function getCalldata(
    request: RouteRequest & ExecutionParams,
    call?: AggregatorCall,
  ): Promise<{ route: Route; calldata: string[] }> {
    const { url, body } = await get(
      'calldata',
      { ...routeQuery(request), ...executionQuery(request) },
      call,
    );
    if (!CalldataResponseCheck.Check(body)) throw invalidResponse(url, 'not a calldata response');
    if ('success' in body && body.success === false)
      throw noRoute(body.errorMessage, pairLabel(request));
    if (!('route' in body)) throw invalidResponse(url, 'no route in calldata response');
    const route = routeOf(body.route, url, request);
    checkRouteMatches(route, request, url);
    checkCalldata(
      body.calldata,
      {
        ...request,
        slippageBps: request.slippageBps ?? DEFAULT_SLIPPAGE_BPS,
        quotedOutput: route.outputAmount,
      },
      url,
      undefined,
    );
    return { route, calldata: body.calldata };
  }

  async function getRouteBatch(request: BatchRequest, call?: AggregatorCall): Promise<Route[]> {
    checkBatch(request);
    const { url, body } = await get('routeBatch', batchQuery(request), call);
    if (!RouteBatchCheck.Check(body)) throw invalidResponse(url, 'not a route batch');
    let items: unknown[];
    if (Array.isArray(body)) items = body;
    else if (!body.success) throw noRoute(body.errorMessage);
    else items = body.routes ?? [];
    if (items.length !== request.amounts.length)
      throw invalidResponse(url, `expected ${request.amounts.length} routes, got ${items.length}`);
    return items.map((item, i) => {
      const pair = {
        amount: request.amounts[i] ?? 0n,
        tokenIn: request.tokensIn[i] ?? '',
        tokenOut: request.tokenOut,
      };
      const route = routeOf(item, url, pair);
      checkRouteMatches(route, pair, url);
      return route;
    });
  }

  async function getCalldataBatch(
    request: BatchCalldataRequest,
    call?: AggregatorCall,
  ): Promise<string[][]> {
    checkBatch(request);
    if (request.quotedOutputs.length !== request.amounts.length)
      throw usageError('quotedOutputs must give one quoted output per pair');
    const { url, body } = await get(
      'executeBatch',
      { ...batchQuery(request), ...executionQuery(request) },
      call,
    );
    if (!ExecuteBatchCheck.Check(body)) throw invalidResponse(url, 'not a batch of calldata');
    if (!Array.isArray(body)) throw noRoute(body.errorMessage);
    if (body.length !== request.amounts.length)
      throw invalidResponse(url, `expected ${request.amounts.length} calldata, got ${body.length}`);
    body.forEach((calldata, i) =>
      checkCalldata(
        calldata,
        {
          tokenIn: request.tokensIn[i] ?? '',
          tokenOut: request.tokenOut,
          amount: request.amounts[i] ?? 0n,
          destination: request.destination,
          slippageBps: request.slippageBps ?? DEFAULT_SLIPPAGE_BPS,
          quotedOutput: request.quotedOutputs[i] ?? 0n,
        },
        url,
        i + 1,
      ),
    );
    return body;
  }

  async function checkAggregatorHealth(call?: AggregatorCall): Promise<AggregatorHealth> {
    const { url, body } = await get('healthCheck', undefined, call);
    return healthOf(body, url);
  }

  async function quoteMulti(pairs: SwapPair[], call?: AggregatorCall): Promise<MultiQuote> {
    if (pairs.length === 0) throw usageError('nothing to quote');
    const out = addressToBigInt(pairs[0]?.tokenOut ?? '');
    if (pairs.every((p) => addressToBigInt(p.tokenOut) === out)) {
      const routes = await getRouteBatch(
        {
          amounts: pairs.map((p) => p.amount),
          tokensIn: pairs.map((p) => p.tokenIn),
          tokenOut: pairs[0]?.tokenOut ?? '',
        },
        call,
      );
      return { mode: 'batch', routes };
    }
    return {
      mode: 'parallel',
      routes: await Promise.all(pairs.map((pair) => getRoute(pair, call))),
    };
  }

  return {
    baseUrl: options.baseUrl,
    network: options.network,
    getRoute,
    getCalldata,
    getRouteBatch,
    getCalldataBatch,
    checkAggregatorHealth,
    quoteMulti,
  };
}
