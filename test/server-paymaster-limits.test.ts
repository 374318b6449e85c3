/**
 * POST /paymaster through a real starknet.js PaymasterRpc pointed at a listening server: every
 * refusal of ours (auth, validation, ownership, limits, sponsored gas, upstream failures) reaches
 * it as a JSON-RPC error object it reports (RpcError with our numeric code, the stable code at the
 * head of the message and in `data`), never as "undefined: undefined". Limits: 60/min per user
 * across addresses, 10 executes/min per user, sponsored gas off by default and capped per day.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ExecutableUserTransaction, PaymasterRpc, RpcError } from 'starknet';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { paymasterRefusal } from '../cli/core/chain/errors.js';
import { scopedFetch } from '../cli/core/chain/fetch.js';
import type { ServerConfig } from '../server/config.js';
import { createPaymasterRelay } from '../server/providers/paymaster.js';
import {
  type ErrorCode,
  JSON_RPC_ERROR_CODES,
  stableCodeOfJsonRpcError,
} from '../shared/errors.js';
import { buildTestApp, type SeededUser, type TestApp } from './helpers/build-test-app.js';
import { readBody } from './helpers/http.js';
import { outsideExecution } from './helpers/typed-data.js';

let upstream: Server;
let upstreamUrl: string;
let upstreamCalls: string[] = [];
let upstreamFails = false;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const rpc = JSON.parse(raw) as { id: unknown; method: string };
      upstreamCalls.push(rpc.method);
      if (upstreamFails) {
        res.writeHead(503).end('busy');
        return;
      }
      const result =
        rpc.method === 'paymaster_executeTransaction'
          ? { transaction_hash: '0x1234', tracking_id: '0x1' }
          : true;
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => upstream.close(resolve));
});

let t: TestApp;
let user: SeededUser;
let url: string;

async function start(config: Partial<ServerConfig> = {}): Promise<void> {
  const paymaster = createPaymasterRelay({ url: upstreamUrl, timeoutMs: 2_000 });
  // a trusted proxy lets a test speak from many addresses (X-Forwarded-For)
  t = await buildTestApp({ config: { trustProxy: true, ...config }, deps: { paymaster } });
  user = await t.seedUser();
  url = `${await t.app.listen({ host: '127.0.0.1', port: 0 })}/paymaster`;
}
afterEach(async () => {
  upstreamCalls = [];
  upstreamFails = false;
  await t?.close();
});

/** PaymasterRpc with its protected fetchEndpoint reachable, for params the typed helpers cannot build. */
class Probe extends PaymasterRpc {
  raw(method: string, params?: object): Promise<unknown> {
    return this.fetchEndpoint(method as never, params as never);
  }
}

function client(token: string | undefined, from = '198.51.100.1'): Probe {
  return new Probe({
    nodeUrl: url,
    headers: {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      'x-forwarded-for': from,
    },
  });
}

/** What a starknet.js caller gets: the RpcError, its JSON-RPC code and our stable code. */
async function refusal(call: Promise<unknown>): Promise<{
  error: RpcError;
  rpcCode: number;
  code: ErrorCode | undefined;
  data: Record<string, unknown>;
}> {
  const error = await call.then(
    () => {
      throw new Error('expected a refusal');
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(RpcError);
  const rpcError = error as RpcError;
  const base = rpcError.baseError as unknown as { code: number; data: Record<string, unknown> };
  return {
    error: rpcError,
    rpcCode: base.code,
    code: stableCodeOfJsonRpcError(base),
    data: base.data,
  };
}

function expectReported(result: Awaited<ReturnType<typeof refusal>>, code: ErrorCode): void {
  expect(result.code).toBe(code);
  expect(result.rpcCode).toBe(JSON_RPC_ERROR_CODES[code]);
  // starknet.js prints "<code>: <message>: <data>": ours reads "-32001: UNAUTHORIZED: …"
  expect(result.error.message).toContain(`${JSON_RPC_ERROR_CODES[code]}: ${code}: `);
  expect(result.error.message).not.toContain('undefined: undefined');
  expect(typeof result.data.requestId).toBe('string');
}

const invoke = (address: string): ExecutableUserTransaction => ({
  type: 'invoke',
  // the relay checks the account, not the typed data (the paymaster verifies the signature)
  invoke: {
    userAddress: address,
    typedData: outsideExecution(1, 2) as never,
    signature: ['0x1', '0x2'],
  },
});
const payInStrk = {
  version: '0x1' as const,
  feeMode: {
    mode: 'default' as const,
    gasToken: '0x4718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d',
  },
};
const sponsored = { version: '0x1' as const, feeMode: { mode: 'sponsored' as const } };

describe('refusals reach PaymasterRpc as JSON-RPC errors', () => {
  it('no token → UNAUTHORIZED; an expired-looking token → UNAUTHORIZED', async () => {
    await start();
    expectReported(await refusal(client(undefined).isAvailable()), 'UNAUTHORIZED');
    expectReported(await refusal(client('not.a.jwt').isAvailable()), 'UNAUTHORIZED');
    expect(upstreamCalls).toEqual([]);
  });

  it('a transaction for another wallet → WALLET_MISMATCH', async () => {
    await start();
    expectReported(
      await refusal(client(user.token).executeTransaction(invoke('0x0123'), payInStrk)),
      'WALLET_MISMATCH',
    );
    expect(upstreamCalls).toEqual([]);
  });

  it('a method that is not a relayed paymaster_* one → method not found (-32601), VALIDATION_ERROR in data', async () => {
    await start();
    const result = await refusal(client(user.token).raw('starknet_call', {}));
    expect(result.code).toBe('VALIDATION_ERROR');
    expect(result.rpcCode).toBe(-32601);
  });

  it('params nested past the bound → VALIDATION_ERROR naming it, not "could not be reached"', async () => {
    await start();
    let deep: unknown = { user_address: user.wallet.address };
    for (let i = 0; i < 2_000; i++) deep = { nested: deep };
    const result = await refusal(
      client(user.token).raw('paymaster_buildTransaction', { transaction: deep }),
    );
    expectReported(result, 'VALIDATION_ERROR');
    expect(result.error.message).toMatch(/nested deeper than 32 levels/);
    expect(upstreamCalls).toEqual([]);
  });

  it('sponsored gas while the server does not offer it → SPONSORED_DISABLED (default mode still relays)', async () => {
    await start();
    expectReported(
      await refusal(client(user.token).executeTransaction(invoke(user.wallet.address), sponsored)),
      'SPONSORED_DISABLED',
    );
    expect(upstreamCalls).toEqual([]);
    await expect(
      client(user.token).executeTransaction(invoke(user.wallet.address), payInStrk),
    ).resolves.toEqual({ transaction_hash: '0x1234', tracking_id: '0x1' });
  });

  it('an upstream failure → PAYMASTER_ERROR', async () => {
    await start();
    upstreamFails = true;
    expectReported(await refusal(client(user.token).isAvailable()), 'PAYMASTER_ERROR');
  });

  it('the JSON-RPC id of the request is echoed once the body is read; HTTP status is kept', async () => {
    await start();
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'abc-7',
        method: 'paymaster_isAvailable',
        params: [],
      }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      id: 'abc-7',
      error: {
        code: -32602,
        message:
          'VALIDATION_ERROR: paymaster params must be a named object (SNIP-29), not an array',
        data: { code: 'VALIDATION_ERROR', requestId: res.headers.get('x-request-id') },
      },
    });
    // refused before the body is read: id null
    const unsupported = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', authorization: `Bearer ${user.token}` },
      body: 'x',
    });
    expect(unsupported.status).toBe(415);
    expect(await unsupported.json()).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32009, data: { code: 'UNSUPPORTED_MEDIA_TYPE' } },
    });
  });
});

describe('limits per user', () => {
  it('60 calls a minute per user, however many addresses they come from; Retry-After in data', async () => {
    await start();
    for (let i = 0; i < 60; i++)
      await expect(client(user.token, `203.0.113.${i + 1}`).isAvailable()).resolves.toBe(true);
    const result = await refusal(client(user.token, '192.0.2.200').isAvailable());
    expectReported(result, 'RATE_LIMITED');
    expect(result.data.retryAfter).toBeGreaterThan(0);
    expect(result.data.retryAfter).toBeLessThanOrEqual(60);
    // another user is not affected
    const other = await t.seedUser();
    await expect(client(other.token, '192.0.2.200').isAvailable()).resolves.toBe(true);
  });

  it('10 paymaster_executeTransaction a minute per user', async () => {
    await start();
    for (let i = 0; i < 10; i++)
      await client(user.token, `203.0.113.${i + 1}`).executeTransaction(
        invoke(user.wallet.address),
        payInStrk,
      );
    expectReported(
      await refusal(
        client(user.token, '203.0.113.99').executeTransaction(
          invoke(user.wallet.address),
          payInStrk,
        ),
      ),
      'RATE_LIMITED',
    );
    expect(upstreamCalls.filter((m) => m === 'paymaster_executeTransaction')).toHaveLength(10);
    // other methods still pass
    await expect(client(user.token).isAvailable()).resolves.toBe(true);
  });

  it('with PAYMASTER_SPONSORED=1, sponsored executes are capped per user per day; paying in a token is not', async () => {
    await start({ paymasterSponsored: true, sponsoredDailyLimit: 2 });
    for (let i = 0; i < 2; i++)
      await client(user.token).executeTransaction(invoke(user.wallet.address), sponsored);
    const result = await refusal(
      client(user.token).executeTransaction(invoke(user.wallet.address), sponsored),
    );
    expectReported(result, 'SPONSORED_LIMIT_REACHED');
    expect(result.error.message).toMatch(/2 sponsored transactions for the day/);
    expect(Number(result.data.retryAfter)).toBeGreaterThan(23 * 3600);
    await expect(
      client(user.token).executeTransaction(invoke(user.wallet.address), payInStrk),
    ).resolves.toMatchObject({ transaction_hash: '0x1234' });
    // building a sponsored transaction spends no gas and is not counted
    const build = {
      transaction: { type: 'invoke', invoke: { user_address: user.wallet.address, calls: [] } },
      parameters: { version: '0x1', fee_mode: { mode: 'sponsored' } },
    };
    await expect(client(user.token).raw('paymaster_buildTransaction', build)).resolves.toBe(true);
    expect(upstreamCalls.filter((m) => m === 'paymaster_executeTransaction')).toHaveLength(3);
  });
});

describe('an allowlist of the SNIP-29 methods the client uses, each metered by what it does', () => {
  const rawExecute = () => ({
    transaction: {
      type: 'invoke',
      invoke: {
        user_address: user.wallet.address,
        execute_from_outside_call: { to: '0x1', selector: '0x2', calldata: [] },
        signature: ['0x1', '0x2'],
      },
    },
    parameters: { version: '0x1', fee_mode: { mode: 'sponsored' } },
  });

  it('paymaster_executeRawTransaction (which real paymasters implement) is refused: no sponsored execute past the quota or the execute limit', async () => {
    await start({ paymasterSponsored: true, sponsoredDailyLimit: 2 });
    for (let i = 0; i < 2; i++)
      await client(user.token).executeTransaction(invoke(user.wallet.address), sponsored);
    expectReported(
      await refusal(client(user.token).executeTransaction(invoke(user.wallet.address), sponsored)),
      'SPONSORED_LIMIT_REACHED',
    );
    // the review relayed 43 of these past the quota
    for (let i = 0; i < 12; i++) {
      const result = await refusal(
        client(user.token, `203.0.113.${i + 1}`).raw(
          'paymaster_executeRawTransaction',
          rawExecute(),
        ),
      );
      expect(result.code).toBe('VALIDATION_ERROR');
      expect(result.rpcCode).toBe(-32601);
      expect(result.error.message).toMatch(
        /Only these JSON-RPC methods are relayed: paymaster_isAvailable, paymaster_getSupportedTokens, paymaster_buildTransaction, paymaster_executeTransaction/,
      );
    }
    expect(upstreamCalls).toEqual(['paymaster_executeTransaction', 'paymaster_executeTransaction']);
  });

  it.each([
    'paymaster_trackingIdToLatestHash',
    'paymaster_executeRawTransaction',
    'paymaster_somethingNew',
    'paymaster_',
    'paymaster_isAvailable ',
    'PAYMASTER_ISAVAILABLE',
    'constructor',
    '__proto__',
  ])('%s is not relayed (-32601)', async (method) => {
    await start();
    const result = await refusal(
      client(user.token).raw(
        method,
        method === 'paymaster_trackingIdToLatestHash' ? { tracking_id: '0x1' } : {},
      ),
    );
    expect(result.code).toBe('VALIDATION_ERROR');
    expect(result.rpcCode).toBe(-32601);
    expect(upstreamCalls).toEqual([]);
  });

  it("the four the client uses are relayed; params not of the method's shape are refused (-32602)", async () => {
    await start();
    await expect(client(user.token).isAvailable()).resolves.toBe(true);
    await expect(client(user.token).raw('paymaster_getSupportedTokens', {})).resolves.toBe(true);
    await expect(
      client(user.token).executeTransaction(invoke(user.wallet.address), payInStrk),
    ).resolves.toMatchObject({ transaction_hash: '0x1234' });
    const build = {
      transaction: { type: 'invoke', invoke: { user_address: user.wallet.address, calls: [] } },
      parameters: {
        version: '0x1',
        fee_mode: { mode: 'default', gas_token: payInStrk.feeMode.gasToken },
      },
    };
    await expect(client(user.token).raw('paymaster_buildTransaction', build)).resolves.toBe(true);
    expect(upstreamCalls).toEqual([
      'paymaster_isAvailable',
      'paymaster_getSupportedTokens',
      'paymaster_executeTransaction',
      'paymaster_buildTransaction',
    ]);
    for (const [method, params] of [
      ['paymaster_isAvailable', { anything: 1 }],
      ['paymaster_buildTransaction', { transaction: build.transaction }],
      ['paymaster_buildTransaction', { ...build, extra: {} }],
      ['paymaster_executeTransaction', { ...build, parameters: 'sponsored' }],
    ] as const) {
      const result = await refusal(client(user.token).raw(method, params));
      expectReported(result, 'VALIDATION_ERROR');
      expect(result.rpcCode).toBe(-32602);
    }
    expect(upstreamCalls).toHaveLength(4);
  });
});

describe('our own client maps the refusals back to stable codes', () => {
  it('a 4xx refusal passes to starknet.js and maps by data.code; a 5xx one becomes the AppError in the fetch', async () => {
    await start();
    const limited = await refusal(client(undefined).isAvailable());
    expect(paymasterRefusal(limited.error.baseError as never)).toMatchObject({
      code: 'UNAUTHORIZED',
    });

    upstreamFails = true;
    const fetchLike = scopedFetch({
      service: 'server',
      timeoutMs: 2_000,
      maxResponseBytes: 1_048_576,
    });
    const failed = fetchLike(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'paymaster_isAvailable' }),
    });
    await expect(failed).rejects.toMatchObject({ code: 'PAYMASTER_ERROR' });
  });
});
