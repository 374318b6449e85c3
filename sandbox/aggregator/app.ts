/**
 * The swap-aggregator emulator: a Fastify app speaking docs/contracts.md B over constant-product
 * pools. Returned without listening (the launcher and tests choose the port).
 *
 * Knobs: constructor options; `POST /sandbox/no-route {tokenIn, tokenOut, clear?}` marks a pair
 * (either direction) as routeless; `POST /sandbox/tamper-calldata {kind, count?}` makes the next
 * calldata answers lie in their tail (kind `destination`: another account receives the output;
 * `min-received`: a minimum of 1; `token`: another output token; `pool`: the first swap names a
 * pool that does not exist, the tail stays honest, so only the chain finds out; `off`); latency and fail-next
 * come from sandbox/faults.ts.
 * `app.aggregatorStats` counts hits per path and the most requests in flight at once (tests
 * use it to prove the client's concurrency).
 */
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import * as Type from 'typebox';
import { U256_MAX } from '../../shared/amount.js';
import { minimumReceived, parseSlippageBps } from '../../shared/slippage.js';
import { addressToBigInt, findToken, resolveToken, type Token } from '../../shared/tokens.js';
import { type FaultSettings, faults } from '../faults.js';
import { emulatorStatus } from '../http-errors.js';
import { DEFAULT_POOLS, type Pool, type PoolSpec, resolvePools } from './pools.js';
import { findBestRoute, spotPrices } from './router.js';
import { toCalldata, toRouteResponse, type WireNoRoute, type WireRouteResponse } from './wire.js';

interface AggregatorEmulatorOptions {
  latencyMs?: number;
  faults?: FaultSettings;
  pools?: PoolSpec[];
  /**
   * Existing pool objects to quote from instead of `pools` (the launcher shares one set with the
   * chain emulator, whose swaps change the reserves: the next quote reflects every trade).
   */
  poolSet?: Pool[];
  /** pairs (symbols or addresses, either direction) that have no route */
  noRoutePairs?: Array<[string, string]>;
  logger?: boolean;
  /**
   * Fastify's schema compilers; its defaults when absent (tests that build many emulators pass one
   * that keeps what it compiled: docs/decisions.md "Apps built by one test file compile each schema
   * once")
   */
  schemaController?: FastifyServerOptions['schemaController'];
}

interface AggregatorStats {
  inFlight: number;
  maxInFlight: number;
  /** hits per route path, e.g. { '/route': 3 } (admin calls included) */
  hits: Record<string, number>;
  reset(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    aggregatorStats: AggregatorStats;
  }
}

class BadQuery extends Error {}

type Query = Record<string, string | string[] | undefined>;

function field(query: Query, name: string, required = true): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw new BadQuery(`${name} given more than once`);
  if (value === undefined || value === '') {
    if (required) throw new BadQuery(`${name} is required`);
    return undefined;
  }
  return value;
}

function parseBaseUnits(text: string, name: string): bigint {
  if (!/^[0-9]{1,78}$/.test(text))
    throw new BadQuery(`${name} must be a positive integer in base units`);
  const value = BigInt(text);
  if (value === 0n || value > U256_MAX) throw new BadQuery(`${name} must be between 1 and 2^256-1`);
  return value;
}

function parseFelt(text: string, name: string): bigint {
  const value = addressToBigInt(text);
  if (value === undefined) throw new BadQuery(`${name} must be a 0x-hex felt`);
  return value;
}

const pairKey = (a: string, b: string): string => [a, b].sort().join('|');

interface PairRequest {
  amount: bigint;
  tokenIn: Token | undefined;
  tokenOut: Token | undefined;
}

function tokenOf(text: string, name: string): Token | undefined {
  parseFelt(text, name);
  return findToken('mainnet', text);
}

type CalldataTamper = 'destination' | 'min-received' | 'token' | 'pool';

const TamperCalldataBody = Type.Object(
  {
    kind: Type.Union([
      Type.Literal('destination'),
      Type.Literal('min-received'),
      Type.Literal('token'),
      Type.Literal('pool'),
      Type.Literal('off'),
    ]),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
);

/** The lie a tampered calldata tells (its last seven felts are token_in … destination; felt 5 is the first swap's pool). */
function tamperTail(calldata: string[], kind: CalldataTamper): string[] {
  const out = [...calldata];
  const at = out.length - 7;
  if (kind === 'pool') out[5] = '0xdead';
  else if (kind === 'destination') out[at + 6] = '0x5a4d0bad';
  else if (kind === 'min-received') {
    out[at + 4] = '1';
    out[at + 5] = '0';
  } else {
    const tokenOut = BigInt(out[at + 1] ?? '0');
    const other = [resolveToken('mainnet', 'DAI'), resolveToken('mainnet', 'USDT')].find(
      (t) => BigInt(t.address) !== tokenOut,
    );
    out[at + 1] = other?.address ?? '0x1';
  }
  return out;
}

const NoRouteBody = Type.Object(
  {
    tokenIn: Type.String({ minLength: 1 }),
    tokenOut: Type.String({ minLength: 1 }),
    clear: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** A quote's one pair from its query (`/route`, `/calldata`). */
function singlePair(query: Query): PairRequest {
  return {
    amount: parseBaseUnits(field(query, 'amount') ?? '', 'amount'),
    tokenIn: tokenOf(field(query, 'tokenInAddress') ?? '', 'tokenInAddress'),
    tokenOut: tokenOf(field(query, 'tokenOutAddress') ?? '', 'tokenOutAddress'),
  };
}

/** A batch's pairs from its query (`/routeBatch`, `/executeBatch`): at most 10, one output token. */
function batchPairs(query: Query): PairRequest[] {
  const amounts = (field(query, 'amounts') ?? '').split(',');
  const inputs = (field(query, 'tokenInAddresses') ?? '').split(',');
  const outputs = (field(query, 'tokenOutAddresses') ?? '').split(',');
  if (amounts.length !== inputs.length)
    throw new BadQuery('amounts and tokenInAddresses must have the same length');
  if (amounts.length > 10) throw new BadQuery('too many pairs');
  const outs = outputs.map((o) => parseFelt(o, 'tokenOutAddresses'));
  if (
    outs.some((o) => o !== outs[0]) ||
    (outputs.length !== 1 && outputs.length !== amounts.length)
  ) {
    throw new BadQuery('tokenOutAddresses must name one output token');
  }
  const tokenOut = tokenOf(outputs[0] ?? '', 'tokenOutAddresses');
  return amounts.map((a, i) => ({
    amount: parseBaseUnits(a, 'amounts'),
    tokenIn: tokenOf(inputs[i] ?? '', 'tokenInAddresses'),
    tokenOut,
  }));
}

/** The slippage and destination of a calldata request. */
function execution(query: Query): { bps: number; destination: bigint } {
  const slippage = field(query, 'slippage') ?? '';
  let bps: number;
  try {
    bps = parseSlippageBps(slippage);
  } catch {
    throw new BadQuery('slippage must be a percent from 0.01 to 50');
  }
  return { bps, destination: parseFelt(field(query, 'destination') ?? '', 'destination') };
}

/** What the routes and the knobs share: the pools, the routeless pairs, a pending tamper. */
interface AggregatorState {
  pools: Pool[];
  usdc: string;
  noRoute: Set<string>;
  tamper: { kind: CalldataTamper; count: number } | undefined;
}

/**
 * The emulator: a small root that registers its parts in a fixed order — the request counter
 * (before the faults plugin, so in-flight time includes injected latency), the faults, the error
 * handler, the aggregator's routes, the sandbox knobs.
 */
export async function buildAggregatorEmulator(
  options: AggregatorEmulatorOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger === true,
    ...(options.schemaController === undefined
      ? {}
      : { schemaController: options.schemaController }),
  });
  const state: AggregatorState = {
    pools: options.poolSet ?? resolvePools(options.pools ?? DEFAULT_POOLS),
    usdc: resolveToken('mainnet', 'USDC').address,
    noRoute: new Set<string>(
      (options.noRoutePairs ?? []).map(([a, b]) =>
        pairKey(resolveToken('mainnet', a).address, resolveToken('mainnet', b).address),
      ),
    ),
    tamper: undefined,
  };
  countRequests(app);
  await app.register(faults, {
    initial: {
      ...options.faults,
      ...(options.latencyMs !== undefined ? { latencyMs: options.latencyMs } : {}),
    },
  });
  app.setErrorHandler(answerError);
  registerRoutes(app, state);
  registerKnobs(app, state);
  return app;
}

/** `app.aggregatorStats`: hits per path and the most requests in flight at once. */
function countRequests(app: FastifyInstance): void {
  const stats: AggregatorStats = {
    inFlight: 0,
    maxInFlight: 0,
    hits: {},
    reset() {
      // inFlight is a gauge of requests still open (one a test abandoned may close later): kept,
      // or its late close would take it below zero; the high-water mark starts again from it
      this.maxInFlight = this.inFlight;
      this.hits = {};
    },
  };
  app.decorate('aggregatorStats', stats);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '';
    stats.hits[path] = (stats.hits[path] ?? 0) + 1;
    stats.inFlight += 1;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    // The response's 'close' fires once, whether it was sent or the socket was dropped.
    reply.raw.once('close', () => {
      stats.inFlight -= 1;
    });
  });
}

/** A bad query or body is 400 in the aggregator's error shape; anything else a bare 500. */
function answerError(
  error: Error & { statusCode?: number; validation?: unknown },
  _request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error instanceof BadQuery)
    return reply.code(400).send({ error: error.message, code: 'invalid_query' });
  if (error.validation !== undefined)
    return reply.code(400).send({ error: error.message, code: 'invalid_body' });
  const status = emulatorStatus(error);
  return reply
    .code(status)
    .send({ error: status === 500 ? 'internal error' : error.message, code: 'error' });
}

/** One pair's best route over the pools as they are now, or the aggregator's "no route". */
function routeOf(state: AggregatorState, pair: PairRequest): WireRouteResponse | WireNoRoute {
  const started = process.hrtime.bigint();
  const { tokenIn, tokenOut, amount } = pair;
  if (tokenIn === undefined || tokenOut === undefined)
    return { success: false, errorMessage: 'Token not supported' };
  if (tokenIn.address === tokenOut.address)
    return { success: false, errorMessage: 'Input and output tokens are the same' };
  if (state.noRoute.has(pairKey(tokenIn.address, tokenOut.address))) {
    return {
      success: false,
      errorMessage: `No route found for ${tokenIn.symbol} -> ${tokenOut.symbol}`,
    };
  }
  const plan = findBestRoute(state.pools, tokenIn.address, tokenOut.address, amount);
  if (plan === undefined)
    return {
      success: false,
      errorMessage: `No route found for ${tokenIn.symbol} -> ${tokenOut.symbol}`,
    };
  // priced from the reserves as they are now: trades on the shared pools move prices too
  return toRouteResponse(
    plan,
    tokenIn,
    tokenOut,
    amount,
    spotPrices(state.pools, state.usdc),
    started,
  );
}

/** Calldata as answered: tampered while the tamper knob has answers left. */
function maybeTamper(state: AggregatorState, calldata: string[]): string[] {
  if (state.tamper === undefined) return calldata;
  const { kind } = state.tamper;
  state.tamper.count -= 1;
  if (state.tamper.count <= 0) state.tamper = undefined;
  return tamperTail(calldata, kind);
}

/** The aggregator's own routes (docs/contracts.md B): health, route, calldata and their batches. */
function registerRoutes(app: FastifyInstance, state: AggregatorState): void {
  const route = (pair: PairRequest) => routeOf(state, pair);
  const health = async (): Promise<{ staus: number; message: string }> => ({
    staus: 200,
    message: 'Fibrous sandbox emulator is healthy',
  });
  app.get('/healthCheck', health);
  app.get('/healthcheck', health);

  app.get('/route', async (request) => route(singlePair(request.query as Query)));

  app.get('/calldata', async (request) => {
    const query = request.query as Query;
    const pair = singlePair(query);
    const { bps, destination } = execution(query);
    const result = route(pair);
    if (!result.success) return result;
    return {
      route: result,
      calldata: maybeTamper(
        state,
        toCalldata(result, minimumReceived(BigInt(result.outputAmount), bps), destination),
      ),
    };
  });

  app.get('/routeBatch', async (request) => batchPairs(request.query as Query).map(route));

  app.get('/executeBatch', async (request) => {
    const query = request.query as Query;
    const pairs = batchPairs(query);
    const { bps, destination } = execution(query);
    const routes = pairs.map(route);
    const failed = routes.find((r): r is WireNoRoute => !r.success);
    if (failed !== undefined) return failed;
    return (routes as WireRouteResponse[]).map((r) =>
      maybeTamper(state, toCalldata(r, minimumReceived(BigInt(r.outputAmount), bps), destination)),
    );
  });
}

/** The sandbox-only knobs: calldata that lies, pairs without a route. */
function registerKnobs(app: FastifyInstance, state: AggregatorState): void {
  app.post(
    '/sandbox/tamper-calldata',
    { schema: { body: TamperCalldataBody } },
    async (request) => {
      const body = request.body as { kind: CalldataTamper | 'off'; count?: number };
      state.tamper = body.kind === 'off' ? undefined : { kind: body.kind, count: body.count ?? 1 };
      return { tamper: state.tamper ?? null };
    },
  );

  app.post(
    '/sandbox/no-route',
    { schema: { body: NoRouteBody } },
    async (request, reply: FastifyReply) => {
      const body = request.body as { tokenIn: string; tokenOut: string; clear?: boolean };
      const a = findToken('mainnet', body.tokenIn);
      const b = findToken('mainnet', body.tokenOut);
      if (a === undefined || b === undefined)
        return reply.code(400).send({ error: 'unknown token', code: 'invalid_body' });
      const key = pairKey(a.address, b.address);
      if (body.clear === true) state.noRoute.delete(key);
      else state.noRoute.add(key);
      return { noRoutePairs: [...state.noRoute].map((k) => k.split('|')) };
    },
  );
}
