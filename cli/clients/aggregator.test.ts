/**
 * Contract test of docs/contracts.md B: the real client against the real emulator on a loopback
 * socket. Backoff delays are injected tiny; no test sleeps: waits are on a fake clock or events.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildAggregatorEmulator } from '../../sandbox/aggregator/app.js';
import {
  type AggregatorClientOptions,
  createAggregatorClient,
  type SwapPair,
} from './aggregator.js';
import type { RetryInfo } from './http.js';
import { decodeSwapCalldataTail, encodeSwapCalldata } from '../../shared/swap-calldata.js';
import { failure } from '../../test/helpers/failure.js';
import { resolveToken } from '../../shared/tokens.js';

const t = (symbol: string) => resolveToken('mainnet', symbol);
const ETH = t('ETH').address;
const USDC = t('USDC').address;
const STRK = t('STRK').address;
const DAI = t('DAI').address;
const WBTC = t('WBTC').address;
const DEST = '0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';

let app: FastifyInstance;
let baseUrl: string;
const seenKeys: Array<string | undefined> = [];

beforeAll(async () => {
  app = await buildAggregatorEmulator();
  app.addHook('onRequest', async (request) => {
    seenKeys.push(request.headers['x-api-key'] as string | undefined);
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  // a request a test abandoned may still sleep in an injected latency: cut, not waited out
  const closing = app.close();
  app.server.closeAllConnections();
  await closing;
});
afterEach(() => {
  vi.useRealTimers();
  app.faults.apply({ latencyMs: 0, failNext: { count: 0 } });
  app.faults.requests = 0;
  app.aggregatorStats.reset();
  seenKeys.length = 0;
});

function client(overrides: Partial<AggregatorClientOptions> = {}) {
  return createAggregatorClient({
    baseUrl,
    network: 'mainnet',
    retries: 2,
    backoff: { baseMs: 1, maxMs: 5 },
    timeoutMs: 2000,
    ...overrides,
  });
}

/** Lets real I/O run (setImmediate is never faked here) until `done()`: an event, not a clock. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await nextTurn();
}
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

const eth = (n: bigint) => n * 10n ** 18n;
const usdc = (n: bigint) => n * 10n ** 6n;

describe('aggregator client ↔ emulator', () => {
  it('getRoute returns bigint amounts for the asked pair and sends the API key', async () => {
    const route = await client({ apiKey: 'k-123' }).getRoute({
      amount: eth(1n),
      tokenIn: ETH,
      tokenOut: USDC,
    });
    expect(route.inputAmount).toBe(eth(1n));
    expect(typeof route.outputAmount).toBe('bigint');
    expect(route.outputAmount > usdc(2900n) && route.outputAmount < usdc(3100n)).toBe(true);
    expect(route.outputToken.symbol).toBe('USDC');
    expect(route.outputToken.decimals).toBe(6);
    expect(route.legs[0]?.hops[0]?.[0]?.poolName).toMatch(/ETH\/USDC/);
    expect(seenKeys).toEqual(['k-123']);
    expect(app.faults.requests).toBe(1);
  });

  it('getCalldata: the tail carries tokens, amount, min received at the slippage, and destination', async () => {
    const { route, calldata } = await client().getCalldata({
      amount: usdc(250n),
      tokenIn: USDC,
      tokenOut: STRK,
      slippageBps: 50,
      destination: DEST,
    });
    const tail = decodeSwapCalldataTail(calldata);
    expect(tail.tokenIn).toBe(BigInt(USDC));
    expect(tail.tokenOut).toBe(BigInt(STRK));
    expect(tail.amountIn).toBe(usdc(250n));
    expect(tail.minReceived).toBe((route.outputAmount * 9950n) / 10000n);
    expect(tail.destination).toBe(BigInt(DEST));
  });

  it('getCalldata defaults slippage to 1 %', async () => {
    const { route, calldata } = await client().getCalldata({
      amount: eth(2n),
      tokenIn: ETH,
      tokenOut: USDC,
      destination: DEST,
    });
    expect(decodeSwapCalldataTail(calldata).minReceived).toBe(
      (route.outputAmount * 9900n) / 10000n,
    );
  });

  it('getRouteBatch and getCalldataBatch answer per pair in input order, one request each', async () => {
    const request = { amounts: [usdc(100n), eth(1000n)], tokensIn: [USDC, STRK], tokenOut: ETH };
    const routes = await client().getRouteBatch(request);
    expect(routes.map((r) => r.inputToken.symbol)).toEqual(['USDC', 'STRK']);
    expect(app.aggregatorStats.hits['/routeBatch']).toBe(1);
    const calldata = await client().getCalldataBatch({
      ...request,
      slippageBps: 100,
      destination: DEST,
      quotedOutputs: routes.map((r) => r.outputAmount),
    });
    expect(calldata).toHaveLength(2);
    expect(decodeSwapCalldataTail(calldata[1] ?? []).amountIn).toBe(eth(1000n));
    expect(app.aggregatorStats.hits['/executeBatch']).toBe(1);
    expect(app.faults.requests).toBe(2);
  });

  it('checkAggregatorHealth reads the misspelled "staus"', async () => {
    expect(await client().checkAggregatorHealth()).toEqual({
      ok: true,
      status: 200,
      message: expect.any(String),
    });
  });

  it('quoteMulti with one output token makes exactly one /routeBatch request', async () => {
    const pairs: SwapPair[] = [
      { amount: usdc(100n), tokenIn: USDC, tokenOut: ETH },
      { amount: eth(50n), tokenIn: STRK, tokenOut: ETH },
      { amount: 10n ** 7n, tokenIn: WBTC, tokenOut: ETH },
    ];
    const result = await client().quoteMulti(pairs);
    expect(result.mode).toBe('batch');
    expect(result.routes).toHaveLength(3);
    expect(app.faults.requests).toBe(1);
    expect(app.aggregatorStats.hits).toEqual({ '/routeBatch': 1 });
  });

  it('quoteMulti with mixed outputs makes one /route per pair, all in flight at once', async () => {
    // every request waits, unanswered, until all three are in: only requests sent together pass
    app.faults.apply({ holdAfter: 0 });
    const pairs: SwapPair[] = [
      { amount: usdc(100n), tokenIn: USDC, tokenOut: ETH },
      { amount: eth(50n), tokenIn: STRK, tokenOut: USDC },
      { amount: 10n ** 7n, tokenIn: WBTC, tokenOut: DAI },
    ];
    const answer = client().quoteMulti(pairs);
    await until(() => app.faults.held.size === 3);
    app.faults.apply({ releaseHeld: true });
    const result = await answer;
    expect(result.mode).toBe('parallel');
    expect(result.routes.map((r) => r.outputToken.symbol)).toEqual(['ETH', 'USDC', 'DAI']);
    expect(app.aggregatorStats.hits).toEqual({ '/route': 3 });
    expect(app.aggregatorStats.maxInFlight).toBe(3);
  });

  it('retries transient failures: two 503s, then success on the third attempt', async () => {
    app.faults.apply({ failNext: { count: 2, status: 503 } });
    const route = await client().getRoute({ amount: eth(1n), tokenIn: ETH, tokenOut: USDC });
    expect(route.outputAmount > 0n).toBe(true);
    expect(app.faults.requests).toBe(3);
  });

  it('retries 429 and dropped connections', async () => {
    app.faults.apply({ failNext: { count: 1, status: 429 } });
    await client().getRoute({ amount: eth(1n), tokenIn: ETH, tokenOut: USDC });
    expect(app.faults.requests).toBe(2);
    app.faults.requests = 0;
    app.faults.apply({ failNext: { count: 1, drop: true } });
    await client().getRoute({ amount: eth(1n), tokenIn: ETH, tokenOut: USDC });
    expect(app.faults.requests).toBe(2);
  });

  it('gives up after a bounded number of attempts with NETWORK_ERROR naming the URL, not the key', async () => {
    app.faults.apply({ failNext: { count: 1000, status: 502 } });
    const error = await failure(
      client({ apiKey: 'secret-key' }).getRoute({ amount: eth(1n), tokenIn: ETH, tokenOut: USDC }),
    );
    expect(error.code).toBe('NETWORK_ERROR');
    expect(error.message).toContain(`${baseUrl}/route`);
    expect(error.message).toContain('3 attempts');
    expect(error.message).toContain('HTTP 502');
    expect(error.message).not.toContain('secret-key');
    expect(app.faults.requests).toBe(3);
  });

  it('a dropped connection every time ends in NETWORK_ERROR', async () => {
    app.faults.apply({ failNext: { count: 1000, drop: true } });
    const error = await failure(
      client({ retries: 1 }).getRoute({ amount: eth(1n), tokenIn: ETH, tokenOut: USDC }),
    );
    expect(error.code).toBe('NETWORK_ERROR');
    expect(app.faults.requests).toBe(2);
  });

  it('times out each attempt and retries the timeout, then NETWORK_ERROR', async () => {
    // the emulator would answer after 30 s: only the 200 ms deadline can make this fail (long
    // enough for each attempt to reach the emulator on a loaded machine; a request cut before it
    // arrived would land in the next test)
    app.faults.apply({ latencyMs: 30_000 });
    let retried = 0;
    const error = await failure(
      client({ timeoutMs: 200, retries: 1, onRetry: () => (retried += 1) }).getRoute({
        amount: eth(1n),
        tokenIn: ETH,
        tokenOut: USDC,
      }),
    );
    expect(error.code).toBe('NETWORK_ERROR');
    expect(error.message).toMatch(/timed out after 200 ms/);
    // the client's count decides; the emulator saw both attempts
    expect(retried).toBe(1);
    await until(() => app.aggregatorStats.hits['/route'] === 2);
    // both abandoned requests are closed on the server too: nothing of this test is left open
    await until(() => app.aggregatorStats.inFlight === 0);
  });

  it('does not retry a non-transient 400', async () => {
    app.faults.apply({ failNext: { count: 5, status: 400 } });
    const error = await failure(
      client().getRoute({ amount: eth(1n), tokenIn: ETH, tokenOut: USDC }),
    );
    expect(error.code).toBe('NETWORK_ERROR');
    expect(app.faults.requests).toBe(1);
  });

  it('{success: false} becomes NO_ROUTE_FOUND with the aggregator message, single and batch', async () => {
    const admin = await fetch(`${baseUrl}/sandbox/no-route`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tokenIn: 'STRK', tokenOut: 'ETH' }),
    });
    expect(admin.status).toBe(200);
    try {
      const single = await failure(
        client().getRoute({ amount: eth(1n), tokenIn: ETH, tokenOut: STRK }),
      );
      expect(single.code).toBe('NO_ROUTE_FOUND');
      expect(single.message).toContain('No route found for ETH -> STRK');
      const batch = await failure(
        client().quoteMulti([
          { amount: usdc(1n), tokenIn: USDC, tokenOut: ETH },
          { amount: eth(1n), tokenIn: STRK, tokenOut: ETH },
        ]),
      );
      expect(batch.code).toBe('NO_ROUTE_FOUND');
    } finally {
      await fetch(`${baseUrl}/sandbox/no-route`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tokenIn: 'STRK', tokenOut: 'ETH', clear: true }),
      });
    }
  });

  // Where swaps run, the 2–3 pair rule, positive amounts and distinct tokens are the core's
  // rules, checked by its callers (cli/core/quote.test.ts); the client checks only its request.
  it('a malformed batch (lengths that differ, no pair) is USAGE_ERROR, with zero requests', async () => {
    const exec = { destination: DEST, quotedOutputs: [1n] };
    expect(
      (await failure(client().getRouteBatch({ amounts: [1n], tokensIn: [], tokenOut: ETH }))).code,
    ).toBe('USAGE_ERROR');
    expect(
      (
        await failure(
          client().getCalldataBatch({
            amounts: [1n, 2n],
            tokensIn: [USDC],
            tokenOut: ETH,
            ...exec,
          }),
        )
      ).code,
    ).toBe('USAGE_ERROR');
    expect(
      (await failure(client().getRouteBatch({ amounts: [], tokensIn: [], tokenOut: ETH }))).code,
    ).toBe('USAGE_ERROR');
    expect((await failure(client().quoteMulti([]))).code).toBe('USAGE_ERROR');
    expect(app.faults.requests).toBe(0);
  });

  it('backoff is jittered: the delays ky waits are random × min(max, base × 2^(n−1))', async () => {
    const delaysWith = async (random: () => number): Promise<Array<number | undefined>> => {
      const seen: RetryInfo[] = [];
      app.faults.apply({ failNext: { count: 3, status: 503 } });
      await client({
        retries: 3,
        backoff: { baseMs: 10, maxMs: 25, random },
        onRetry: (info) => seen.push(info),
      }).getRoute({ amount: eth(1n), tokenIn: ETH, tokenOut: USDC });
      expect(seen.map((r) => r.retry)).toEqual([1, 2, 3]);
      return seen.map((r) => r.delayMs);
    };
    // random = 0: no wait at all (without jitter these would be 10, 20, 25)
    expect(await delaysWith(() => 0)).toEqual([0, 0, 0]);
    // random ≈ 1: the full exponential delay, capped at maxMs
    const full = await delaysWith(() => 0.999);
    expect(full[0]).toBeCloseTo(9.99, 6);
    expect(full[1]).toBeCloseTo(19.98, 6);
    expect(full[2]).toBeCloseTo(24.975, 6);
  });

  it('the backoff wait is real: the retry goes out when its delay has passed on the clock, not before', async () => {
    // Only setTimeout is faked: ky's wait and the attempt deadline run on the fake clock, the
    // sockets (and setImmediate, which `until` turns on) stay real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      app.faults.apply({ failNext: { count: 1, status: 503 } });
      let delays = 0;
      const retried: RetryInfo[] = [];
      const pending = client({
        retries: 1,
        // called as ky computes the wait it is about to take: 0.5 × 40 ms = 20 ms
        backoff: { baseMs: 40, maxMs: 100, random: () => (delays++, 0.5) },
        onRetry: (info) => retried.push(info),
      }).getRoute({ amount: eth(1n), tokenIn: ETH, tokenOut: USDC });
      // the 503 is in and ky has computed its wait; one more turn and its timer is set
      await until(() => delays === 1);
      await nextTurn();
      await vi.advanceTimersByTimeAsync(19);
      expect(retried).toEqual([]);
      expect(app.faults.requests).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      await until(() => retried.length === 1);
      expect(retried[0]?.delayMs).toBe(20);
      expect((await pending).outputAmount > 0n).toBe(true);
      expect(app.faults.requests).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('aborting the signal mid-request rejects at once with CANCELLED and makes no further attempt', async () => {
    // Its own emulator: the aborted request is still sleeping server-side when the test ends.
    const slow = await buildAggregatorEmulator({ latencyMs: 1000 });
    await slow.listen({ host: '127.0.0.1', port: 0 });
    try {
      const controller = new AbortController();
      const url = `http://127.0.0.1:${(slow.server.address() as AddressInfo).port}`;
      let retries = 0;
      // the emulator answers after 1 s, well within the deadline: only the abort can end the call
      // in CANCELLED rather than a route
      const c = client({ baseUrl: url, retries: 3, timeoutMs: 5000, onRetry: () => retries++ });
      const call = { signal: controller.signal };
      const pending = failure(c.getRoute({ amount: eth(1n), tokenIn: ETH, tokenOut: USDC }, call));
      await until(() => slow.faults.requests === 1);
      controller.abort();
      const error = await pending;
      expect(error.code).toBe('CANCELLED');
      // no retry was started (onRetry runs before each one), and the call is over
      expect(retries).toBe(0);
      expect(slow.faults.requests).toBe(1);
      // Already aborted: no request at all.
      expect(
        (await failure(c.getRoute({ amount: eth(1n), tokenIn: ETH, tokenOut: USDC }, call))).code,
      ).toBe('CANCELLED');
      expect(slow.faults.requests).toBe(1);
      // The signal is the call's, not the client's: the same client still serves a new call
      // (answered at once: the latency above was for the aborted call).
      slow.faults.apply({ latencyMs: 0 });
      const route = await c.getRoute(
        { amount: eth(1n), tokenIn: ETH, tokenOut: USDC },
        { signal: new AbortController().signal },
      );
      expect(route.outputAmount > 0n).toBe(true);
      // a stray retry of the aborted call would have landed during that second (backoff ≤ 5 ms)
      expect(slow.faults.requests).toBe(2);
      expect(retries).toBe(0);
    } finally {
      // the aborted request is still sleeping there: cut its socket rather than wait out keep-alive
      const closing = slow.close();
      slow.server.closeAllConnections();
      await closing;
    }
  });

  it('aborting during a backoff wait rejects at once and makes no further attempt', async () => {
    // The fake clock never reaches the 5 s wait: only the abort can end this call.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      app.faults.apply({ failNext: { count: 5, status: 503 } });
      const controller = new AbortController();
      let delays = 0;
      let retries = 0;
      const c = client({
        retries: 3,
        backoff: { baseMs: 5000, maxMs: 5000, random: () => (delays++, 1) },
        onRetry: () => retries++,
      });
      const pending = failure(
        c.getRoute(
          { amount: eth(1n), tokenIn: ETH, tokenOut: USDC },
          { signal: controller.signal },
        ),
      );
      await until(() => delays === 1);
      await nextTurn();
      controller.abort();
      expect((await pending).code).toBe('CANCELLED');
      expect(retries).toBe(0);
      expect(app.faults.requests).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('aggregator client ↔ a server sending junk', () => {
  let junk: Server;
  let junkUrl: string;
  let reply: { status: number; body: string } = { status: 200, body: '' };

  beforeAll(async () => {
    junk = createServer((_request, response) => {
      response.writeHead(reply.status, { 'content-type': 'application/json' });
      response.end(reply.body);
    });
    await new Promise<void>((resolve) => junk.listen(0, '127.0.0.1', resolve));
    junkUrl = `http://127.0.0.1:${(junk.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => junk.close(resolve));
  });

  const validRoute = {
    success: true,
    inputToken: { name: 'Ether', symbol: 'ETH', address: ETH, decimals: '18', price: '3000.5' },
    outputToken: { name: 'USD Coin', symbol: 'USDC', address: USDC, decimals: 6, price: 1 },
    inputAmount: '1000000000000000000',
    outputAmount: '2990000000',
    estimatedGasUsed: '190000',
    estimatedGasUsedInUsd: 0.15,
    route: [
      {
        percent: '100%',
        swaps: [
          [
            {
              protocol: 2,
              poolName: 'P',
              poolAddress: '0x1',
              fromTokenAddress: ETH,
              toTokenAddress: USDC,
              percent: '100%',
            },
          ],
        ],
      },
    ],
    time: 0.1,
  };

  const cases: Array<{ name: string; body: string; code: string }> = [
    { name: 'not JSON', body: '<html>oops</html>', code: 'INVALID_RESPONSE' },
    { name: 'wrong shape', body: JSON.stringify({ hello: 'world' }), code: 'INVALID_RESPONSE' },
    {
      name: 'amount as a number',
      body: JSON.stringify({ ...validRoute, outputAmount: 2.99e9 }),
      code: 'INVALID_RESPONSE',
    },
    {
      name: 'negative amount',
      body: JSON.stringify({ ...validRoute, outputAmount: '-5' }),
      code: 'INVALID_RESPONSE',
    },
    {
      name: 'route for another token',
      body: JSON.stringify({ ...validRoute, outputToken: { ...validRoute.inputToken } }),
      code: 'INVALID_RESPONSE',
    },
    {
      name: 'decimals not an integer',
      body: JSON.stringify({
        ...validRoute,
        outputToken: { ...validRoute.outputToken, decimals: 'six' },
      }),
      code: 'INVALID_RESPONSE',
    },
    {
      name: 'no route',
      body: JSON.stringify({ success: false, errorMessage: 'Insufficient liquidity' }),
      code: 'NO_ROUTE_FOUND',
    },
  ];

  it.each(cases)('$name → $code', async ({ body, code }) => {
    reply = { status: 200, body };
    const error = await failure(
      createAggregatorClient({ baseUrl: junkUrl, network: 'mainnet', retries: 0 }).getRoute({
        amount: eth(1n),
        tokenIn: ETH,
        tokenOut: USDC,
      }),
    );
    expect(error.code).toBe(code);
  });

  describe('calldata is checked against the request before it is returned', () => {
    const request = {
      amount: eth(1n),
      tokenIn: ETH,
      tokenOut: USDC,
      slippageBps: 100,
      destination: DEST,
    };
    // validRoute quotes 2 990 USDC gross: at 1 % the router minimum must be ≥ 2 960.1 USDC.
    const floor = (2_990_000_000n * 9_900n) / 10_000n;
    const swaps = [
      { tokenIn: ETH, tokenOut: USDC, rate: 1_000_000n, protocol: 2, poolAddress: '0x1' },
    ];
    const good = {
      tokenIn: BigInt(ETH),
      tokenOut: BigInt(USDC),
      amountIn: eth(1n),
      minReceived: floor,
      destination: BigInt(DEST),
    };
    const calldata = (tail: Partial<typeof good> = {}) =>
      encodeSwapCalldata(swaps, { ...good, ...tail });
    const c = () => createAggregatorClient({ baseUrl: junkUrl, network: 'mainnet', retries: 0 });

    it('accepts calldata that matches, with hex in either case', async () => {
      reply = {
        status: 200,
        body: JSON.stringify({
          route: validRoute,
          calldata: calldata({ minReceived: floor + 5n }).map((f) => f.toUpperCase()),
        }),
      };
      const result = await c().getCalldata(request);
      expect(decodeSwapCalldataTail(result.calldata).minReceived).toBe(floor + 5n);
    });

    it.each([
      ['another destination', { destination: BigInt(DEST) + 1n }, 'destination', /destination/],
      ['another input amount', { amountIn: eth(2n) }, 'amount_in', /spends/],
      ['another input token', { tokenIn: BigInt(STRK) }, 'token_in', /input token/],
      ['another output token', { tokenOut: BigInt(DAI) }, 'token_out', /output token/],
      ['a minimum one unit too low', { minReceived: floor - 1n }, 'min_received', /guarantees/],
      ['a zero minimum', { minReceived: 0n }, 'min_received', /guarantees/],
    ] as Array<[string, Partial<typeof good>, string, RegExp]>)(
      'getCalldata: %s → CALLDATA_MISMATCH naming %s',
      async (_name, tail, field, why) => {
        reply = {
          status: 200,
          body: JSON.stringify({ route: validRoute, calldata: calldata(tail) }),
        };
        const error = await failure(c().getCalldata(request));
        expect(error.code).toBe('CALLDATA_MISMATCH');
        // min_received also names both figures (a batch caller tells a price move from tampering)
        expect(error.details).toEqual(
          field === 'min_received'
            ? { field, guaranteed: String(tail.minReceived), floor: String(floor) }
            : { field },
        );
        expect(error.message).toMatch(why);
      },
    );

    it('getCalldata: calldata that is not the router layout → INVALID_RESPONSE', async () => {
      reply = {
        status: 200,
        body: JSON.stringify({ route: validRoute, calldata: calldata().slice(1) }),
      };
      expect((await failure(c().getCalldata(request))).code).toBe('INVALID_RESPONSE');
    });

    it('getCalldataBatch checks every pair against its own request and quote', async () => {
      const batch = {
        amounts: [eth(1n), eth(1n)],
        tokensIn: [ETH, ETH],
        tokenOut: USDC,
        slippageBps: 100,
        destination: DEST,
        quotedOutputs: [2_990_000_000n, 2_990_000_000n],
      };
      reply = { status: 200, body: JSON.stringify([calldata(), calldata()]) };
      expect(await c().getCalldataBatch(batch)).toHaveLength(2);
      for (const tail of [
        { destination: 0x666n },
        { amountIn: 1n },
        { tokenIn: BigInt(STRK) },
        { minReceived: floor - 1n },
      ]) {
        reply = { status: 200, body: JSON.stringify([calldata(), calldata(tail)]) };
        const error = await failure(c().getCalldataBatch(batch));
        expect(error.code).toBe('CALLDATA_MISMATCH');
        expect(error.details).toMatchObject({ pair: 2 });
        expect(error.message).toContain('pair 2');
      }
      // the quote the user saw is the reference: a higher quote makes the same minimum too low
      reply = { status: 200, body: JSON.stringify([calldata(), calldata()]) };
      expect(
        await failure(
          c().getCalldataBatch({ ...batch, quotedOutputs: [2_990_000_000n, 3_000_000_000n] }),
        ),
      ).toMatchObject({ code: 'CALLDATA_MISMATCH', details: { field: 'min_received', pair: 2 } });
    });
  });

  it.each([
    ['{}', {}],
    ['a message only', { message: 'fine' }],
    ['status "ok"', { status: 'ok' }],
    ['a non-numeric staus', { staus: 'healthy', status: 200 }],
    ['an array', [200]],
  ])('health check answering %s → INVALID_RESPONSE', async (_name, body) => {
    reply = { status: 200, body: JSON.stringify(body) };
    const error = await failure(
      createAggregatorClient({
        baseUrl: junkUrl,
        network: 'mainnet',
        retries: 0,
      }).checkAggregatorHealth(),
    );
    expect(error.code).toBe('INVALID_RESPONSE');
  });

  it.each([
    [{ staus: 200, message: 'ok' }, true],
    [{ staus: '200' }, true],
    [{ status: 200 }, true],
    [{ status: '503' }, false],
    [{ staus: 500, status: 200 }, false],
  ])('health check %j → ok %s', async (body, ok) => {
    reply = { status: 200, body: JSON.stringify(body) };
    expect(
      (
        await createAggregatorClient({
          baseUrl: junkUrl,
          network: 'mainnet',
          retries: 0,
        }).checkAggregatorHealth()
      ).ok,
    ).toBe(ok);
  });

  it('accepts the contract variants: string decimals/price and {success, routes} batches', async () => {
    reply = { status: 200, body: JSON.stringify(validRoute) };
    const c = createAggregatorClient({ baseUrl: junkUrl, network: 'mainnet', retries: 0 });
    const route = await c.getRoute({ amount: eth(1n), tokenIn: ETH, tokenOut: USDC });
    expect(route.inputToken.decimals).toBe(18);
    // an upper-case 0X prefix is still an address (compared as a number)
    reply = {
      status: 200,
      body: JSON.stringify({
        ...validRoute,
        outputToken: { ...validRoute.outputToken, address: `0X${USDC.slice(2).toUpperCase()}` },
      }),
    };
    expect(
      (await c.getRoute({ amount: eth(1n), tokenIn: ETH, tokenOut: `0X${USDC.slice(2)}` }))
        .outputToken.address,
    ).toBe(USDC);
    expect(route.outputAmount).toBe(2_990_000_000n);
    reply = {
      status: 200,
      body: JSON.stringify({ success: true, routes: [validRoute, validRoute] }),
    };
    const routes = await c.getRouteBatch({
      amounts: [eth(1n), eth(1n)],
      tokensIn: [ETH, ETH],
      tokenOut: USDC,
    });
    expect(routes).toHaveLength(2);
    reply = { status: 200, body: JSON.stringify({ status: 200, message: 'fine' }) };
    expect((await c.checkAggregatorHealth()).ok).toBe(true);
  });
});
