/**
 * POST /paymaster against a real JSON-RPC HTTP server on 127.0.0.1 (no mocks): the relay adds
 * the API key, relays answers and JSON-RPC errors verbatim, and maps transport failures.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPaymasterRelay, MAX_RESPONSE_BYTES } from './paymaster.js';
import {
  buildTestApp,
  errorCodeOf,
  post,
  type SeededUser,
  type TestApp,
} from '../../test/helpers/build-test-app.js';
import { readBody } from '../../test/helpers/http.js';

interface Seen {
  body: unknown;
  headers: IncomingMessage['headers'];
  remotePort: number | undefined;
}

type Behaviour = (req: IncomingMessage, res: ServerResponse, body: unknown) => void;

let upstream: Server;
let upstreamUrl: string;
let behaviour: Behaviour;
const seen: Seen[] = [];
const hanging: ServerResponse[] = [];

const answer: Behaviour = (_req, res, body) => {
  const rpc = body as { id: unknown; method: string };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      jsonrpc: '2.0',
      id: rpc.id,
      result: rpc.method === 'paymaster_isAvailable' ? true : { echoed: rpc.method },
    }),
  );
};

beforeAll(async () => {
  upstream = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const body = JSON.parse(raw) as unknown;
      seen.push({ body, headers: req.headers, remotePort: req.socket.remotePort });
      behaviour(req, res, body);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  for (const res of hanging) res.destroy();
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

let t: TestApp;
let user: SeededUser;
// Sponsorship is on unless a test says otherwise: most params below ask for sponsored gas, and
// these tests are about relaying and ownership (test/server-paymaster-limits.test.ts covers it).
async function appWith(
  options: { url?: string; apiKey?: string; timeoutMs?: number; sponsored?: boolean } = {},
): Promise<void> {
  const paymaster = createPaymasterRelay({
    url: options.url ?? upstreamUrl,
    apiKey: options.apiKey,
    timeoutMs: options.timeoutMs ?? 2_000,
  });
  t = await buildTestApp({
    config: { paymasterSponsored: options.sponsored ?? true },
    deps: { paymaster },
  });
  user = await t.seedUser();
  from = undefined;
}

/**
 * The tests whose request is refused before anything is relayed (each holds `seen` empty) share
 * one app of the default options, built once for the file: building the whole auth server is
 * most of such a test's CPU (docs/benchmarks.md "Issue 36, sixth round: the unit project"). None
 * sees another's requests: each signs in its own user (the per-user limits) and sends from its own
 * address (the per-IP limit), and the relay, never reached, keeps no socket of theirs.
 */
let refusing: Promise<TestApp> | undefined;
let refusingTests = 0;
/** the client address of this test's requests; undefined: app.inject's own */
let from: string | undefined;
async function refusingApp(): Promise<void> {
  refusing ??= buildTestApp({
    config: { paymasterSponsored: true },
    deps: {
      paymaster: createPaymasterRelay({ url: upstreamUrl, apiKey: undefined, timeoutMs: 2_000 }),
    },
  });
  t = await refusing;
  user = await t.seedUser();
  refusingTests += 1;
  from = `10.0.${refusingTests >> 8}.${refusingTests & 255}`;
}
/** POST /paymaster as this test's user, from this test's address */
const send = (body: unknown) =>
  post(t.app, '/paymaster', body, {
    token: user.token,
    ...(from === undefined ? {} : { remoteAddress: from }),
  });

afterEach(async () => {
  behaviour = answer;
  seen.length = 0;
  if (t !== undefined && t !== (await refusing)) await t.close();
});
afterAll(async () => {
  await (await refusing)?.close();
});
behaviour = answer;

const rpc = (method: string, params?: unknown) => ({
  jsonrpc: '2.0',
  id: 7,
  method,
  ...(params === undefined ? {} : { params }),
});

describe('relay', () => {
  it('relays a paymaster call and adds x-paymaster-api-key', async () => {
    await appWith({ apiKey: 'pm-key-123' });
    const res = await post(t.app, '/paymaster', rpc('paymaster_isAvailable'), {
      token: user.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ jsonrpc: '2.0', id: 7, result: true });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.body).toEqual(rpc('paymaster_isAvailable'));
    expect(seen[0]?.headers['x-paymaster-api-key']).toBe('pm-key-123');
    // the caller's own token never travels upstream
    expect(seen[0]?.headers.authorization).toBeUndefined();
  });

  it('keeps its connection to the paymaster between calls (keep-alive)', async () => {
    await appWith();
    for (let i = 0; i < 3; i++) {
      const res = await post(t.app, '/paymaster', rpc('paymaster_isAvailable'), {
        token: user.token,
      });
      expect(res.statusCode).toBe(200);
    }
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((s) => s.remotePort)).size).toBe(1);
  });

  it('sends no API key header when none is configured', async () => {
    await appWith();
    await post(t.app, '/paymaster', rpc('paymaster_getSupportedTokens'), { token: user.token });
    expect(seen[0]?.headers['x-paymaster-api-key']).toBeUndefined();
  });

  it('relays a transaction for the token own wallet (address compared as a number)', async () => {
    await appWith();
    const padded = `0x${user.wallet.address.slice(2).replace(/^0*/, '').padStart(64, '0').toUpperCase()}`;
    const params = {
      transaction: { type: 'invoke', invoke: { user_address: padded, calls: [] } },
      parameters: { version: '0x1', fee_mode: { mode: 'sponsored' } },
    };
    const res = await post(t.app, '/paymaster', rpc('paymaster_buildTransaction', params), {
      token: user.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result).toEqual({ echoed: 'paymaster_buildTransaction' });
  });

  it.each([
    { description: 'HTTP 200', status: 200 },
    { description: 'HTTP 400', status: 400 },
  ])('relays a JSON-RPC error response as-is ($description)', async ({ status }) => {
    await appWith();
    const error = {
      jsonrpc: '2.0',
      id: 7,
      error: { code: 151, message: 'TOKEN_NOT_SUPPORTED', data: { token: '0x1' } },
    };
    behaviour = (_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(error));
    };
    const params = {
      transaction: { type: 'invoke', invoke: { user_address: user.wallet.address, calls: [] } },
      parameters: { version: '0x1', fee_mode: { mode: 'sponsored' } },
    };
    const res = await post(t.app, '/paymaster', rpc('paymaster_buildTransaction', params), {
      token: user.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(error);
  });
});

describe('refusals', () => {
  it.each([
    'starknet_call',
    'eth_sendTransaction',
    'paymaster',
    'paymaster_',
    'xpaymaster_isAvailable',
    'paymaster_isAvailable/../x',
    'paymaster_executeRawTransaction',
    'paymaster_trackingIdToLatestHash',
  ])('method %s → 400, never sent upstream', async (method) => {
    await refusingApp();
    const res = await send(rpc(method));
    expect(res.statusCode).toBe(400);
    expect(errorCodeOf(res.json())).toBe('VALIDATION_ERROR');
    expect(seen).toHaveLength(0);
  });

  it.each([
    {
      description: 'invoke.user_address of another account',
      transaction: (other: string) => ({
        type: 'invoke',
        invoke: { user_address: other, calls: [] },
      }),
    },
    {
      description: 'deployment.address of another account',
      transaction: (other: string, own: string) => ({
        type: 'deploy_and_invoke',
        invoke: { user_address: own, calls: [] },
        deployment: { address: other },
      }),
    },
    {
      description: 'a non-hex user_address',
      transaction: () => ({ type: 'invoke', invoke: { user_address: 'me', calls: [] } }),
    },
  ])(
    'a transaction with $description → 403 WALLET_MISMATCH, never sent upstream',
    async ({ transaction }) => {
      await refusingApp();
      const params = {
        transaction: transaction('0x0123', user.wallet.address),
        parameters: { version: '0x1', fee_mode: { mode: 'sponsored' } },
      };
      const res = await send(rpc('paymaster_executeTransaction', params));
      expect(res.statusCode).toBe(403);
      expect(errorCodeOf(res.json())).toBe('WALLET_MISMATCH');
      expect(seen).toHaveLength(0);
    },
  );
});

describe('params shape and the ownership check', () => {
  const sponsored = { version: '0x1', fee_mode: { mode: 'sponsored' } };

  it.each([
    {
      description: 'a transaction for another account',
      method: 'paymaster_executeTransaction',
      params: () => [
        {
          transaction: { type: 'invoke', invoke: { user_address: '0x0123', calls: [] } },
          parameters: sponsored,
        },
        sponsored,
      ],
    },
    {
      description: 'a transaction for the own account',
      method: 'paymaster_buildTransaction',
      params: (own: string) => [
        { type: 'invoke', invoke: { user_address: own, calls: [] } },
        sponsored,
      ],
    },
    { description: 'an empty list', method: 'paymaster_isAvailable', params: () => [] },
  ])(
    'array params ($description) → 400 VALIDATION_ERROR, never relayed',
    async ({ method, params }) => {
      await refusingApp();
      const res = await send(rpc(method, params(user.wallet.address)));
      expect(res.statusCode, res.body).toBe(400);
      expect(errorCodeOf(res.json())).toBe('VALIDATION_ERROR');
      expect(res.json().error.message).toMatch(/named object/);
      expect(seen).toHaveLength(0);
    },
  );

  it.each([
    {
      description: 'user_address under a variant transaction type',
      params: (other: string) => ({
        transaction: { type: 'invoke_v2', invoke_v2: { user_address: other, calls: [] } },
        parameters: sponsored,
      }),
    },
    {
      description: 'a second user_address in parameters',
      params: (other: string, own: string) => ({
        transaction: { type: 'invoke', invoke: { user_address: own, calls: [] } },
        parameters: { ...sponsored, user_address: other },
      }),
    },
    {
      description: 'a deploy transaction for another address',
      params: (other: string) => ({
        transaction: {
          type: 'deploy',
          deployment: { address: other, class_hash: '0x1', salt: '0x1', calldata: [], version: 1 },
        },
        parameters: sponsored,
      }),
    },
    {
      description: 'a user_address that is a number',
      params: () => ({
        transaction: { type: 'invoke', invoke: { user_address: 291, calls: [] } },
        parameters: sponsored,
      }),
    },
  ])('object params with $description → 403 WALLET_MISMATCH, never relayed', async ({ params }) => {
    await refusingApp();
    const res = await send(
      rpc('paymaster_executeTransaction', params('0x0123', user.wallet.address)),
    );
    expect(res.statusCode, res.body).toBe(403);
    expect(errorCodeOf(res.json())).toBe('WALLET_MISMATCH');
    expect(seen).toHaveLength(0);
  });

  it.each([
    {
      description: 'nested 5,000 deep',
      // written as text: the test's own JSON.stringify would run out of stack first
      body: (own: string) =>
        `{"jsonrpc":"2.0","id":7,"method":"paymaster_buildTransaction","params":{"transaction":{"type":"invoke","invoke":{"user_address":"${own}","calls":${'['.repeat(5_000)}${']'.repeat(5_000)}}}}}`,
      message: /nested deeper than 32 levels/,
    },
    {
      description: 'holding more than 20,000 values',
      body: (own: string) =>
        JSON.stringify(
          rpc('paymaster_buildTransaction', {
            transaction: {
              type: 'invoke',
              invoke: {
                user_address: own,
                calls: [{ to: '0x1', selector: '0x2', calldata: Array(25_000).fill('0x1') }],
              },
            },
          }),
        ),
      message: /more than 20000 values/,
    },
  ])(
    'params $description → 400 VALIDATION_ERROR naming the bound (not "could not be reached"), never relayed',
    async ({ body, message }) => {
      await refusingApp();
      const res = await t.app.inject({
        method: 'POST',
        url: '/paymaster',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
        payload: body(user.wallet.address),
        ...(from === undefined ? {} : { remoteAddress: from }),
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(errorCodeOf(res.json())).toBe('VALIDATION_ERROR');
      expect(res.json().error.message).toMatch(message);
      expect(seen).toHaveLength(0);
    },
  );

  it('a transaction that names no account → 400, never relayed', async () => {
    await refusingApp();
    const res = await send(
      rpc('paymaster_buildTransaction', {
        transaction: { type: 'invoke', invoke: { calls: [] } },
        parameters: sponsored,
      }),
    );
    expect(res.statusCode, res.body).toBe(400);
    expect(seen).toHaveLength(0);
  });

  it('relays deploy_and_invoke when both addresses are the own wallet', async () => {
    await appWith();
    const own = user.wallet.address;
    const params = {
      transaction: {
        type: 'deploy_and_invoke',
        invoke: { user_address: own, calls: [] },
        deployment: {
          address: own.toUpperCase().replace('0X', '0x'),
          class_hash: '0x1',
          salt: '0x1',
          calldata: [],
          version: 1,
        },
      },
      parameters: sponsored,
    };
    const res = await post(t.app, '/paymaster', rpc('paymaster_buildTransaction', params), {
      token: user.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(seen).toHaveLength(1);
  });
});

describe('upstream response size', () => {
  const overLimit = MAX_RESPONSE_BYTES + 1;
  const bigAnswer = (size: number) => {
    const head = '{"jsonrpc":"2.0","id":7,"result":"';
    const tail = '"}';
    return head + 'x'.repeat(size - head.length - tail.length) + tail;
  };

  it.each([
    { description: 'with Content-Length', chunked: false },
    { description: 'chunked, no Content-Length', chunked: true },
  ])(
    'an answer over 1 MB ($description) → 502 PAYMASTER_ERROR "too large"',
    async ({ chunked }) => {
      await appWith();
      const body = bigAnswer(overLimit);
      behaviour = (_req, res) => {
        if (chunked) {
          res.writeHead(200, { 'content-type': 'application/json' });
          for (let i = 0; i < body.length; i += 65_536) res.write(body.slice(i, i + 65_536));
          res.end();
        } else {
          res.writeHead(200, {
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
          });
          res.end(body);
        }
      };
      const res = await post(t.app, '/paymaster', rpc('paymaster_isAvailable'), {
        token: user.token,
      });
      expect(res.statusCode).toBe(502);
      expect(errorCodeOf(res.json())).toBe('PAYMASTER_ERROR');
      expect(res.json().error.message).toMatch(/too large/);
      expect(seen).toHaveLength(1);
    },
  );

  it('a 5xx whose body is over 1 MB → 502 PAYMASTER_ERROR, the body never buffered whole', async () => {
    await appWith();
    behaviour = (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('x'.repeat(overLimit));
    };
    const res = await post(t.app, '/paymaster', rpc('paymaster_isAvailable'), {
      token: user.token,
    });
    expect(res.statusCode).toBe(502);
    expect(errorCodeOf(res.json())).toBe('PAYMASTER_ERROR');
  });

  it('an answer of exactly 1 MB is still relayed', async () => {
    await appWith();
    const body = bigAnswer(MAX_RESPONSE_BYTES);
    behaviour = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    };
    const res = await post(t.app, '/paymaster', rpc('paymaster_isAvailable'), {
      token: user.token,
    });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { result: string }).result).toHaveLength(MAX_RESPONSE_BYTES - 36);
  });
});

describe('upstream failures', () => {
  it('upstream down (connection refused) → 502 PAYMASTER_ERROR', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/v1`;
    await new Promise((resolve) => closed.close(resolve));
    await appWith({ url: deadUrl, apiKey: 'pm-key-123' });
    const res = await post(t.app, '/paymaster', rpc('paymaster_isAvailable'), {
      token: user.token,
    });
    expect(res.statusCode).toBe(502);
    expect(errorCodeOf(res.json())).toBe('PAYMASTER_ERROR');
    expect(res.body).not.toContain('pm-key-123');
    expect(t.logs()).not.toContain('pm-key-123');
  });

  it.each([
    {
      description: '500',
      respond: (res: ServerResponse) => res.writeHead(500).end('{"oops":true}'),
    },
    {
      description: '503 with a JSON-RPC body',
      respond: (res: ServerResponse) =>
        res.writeHead(503).end('{"jsonrpc":"2.0","id":7,"error":{"code":163,"message":"x"}}'),
    },
    {
      description: 'non-JSON 200',
      respond: (res: ServerResponse) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html>gateway</html>'),
    },
    {
      description: 'JSON that is not JSON-RPC',
      respond: (res: ServerResponse) => res.writeHead(200).end('{"hello":"world"}'),
    },
    {
      description: '401 without JSON-RPC (bad API key)',
      respond: (res: ServerResponse) => res.writeHead(401).end('{"error":"invalid api key"}'),
    },
  ])('upstream $description → 502 PAYMASTER_ERROR', async ({ respond }) => {
    await appWith();
    behaviour = (_req, res) => respond(res);
    const res = await post(t.app, '/paymaster', rpc('paymaster_isAvailable'), {
      token: user.token,
    });
    expect(res.statusCode).toBe(502);
    expect(errorCodeOf(res.json())).toBe('PAYMASTER_ERROR');
  });

  it('slow upstream (no answer within the timeout) → 504 UPSTREAM_TIMEOUT', async () => {
    await appWith({ timeoutMs: 150 });
    behaviour = (_req, res) => {
      hanging.push(res);
    };
    const res = await post(t.app, '/paymaster', rpc('paymaster_isAvailable'), {
      token: user.token,
    });
    expect(res.statusCode).toBe(504);
    expect(errorCodeOf(res.json())).toBe('UPSTREAM_TIMEOUT');
  });

  it('headers sent but the body stalls → 504 UPSTREAM_TIMEOUT', async () => {
    await appWith({ timeoutMs: 150 });
    behaviour = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"jsonrpc":"2.0",');
      hanging.push(res);
    };
    const res = await post(t.app, '/paymaster', rpc('paymaster_isAvailable'), {
      token: user.token,
    });
    expect(res.statusCode).toBe(504);
    expect(errorCodeOf(res.json())).toBe('UPSTREAM_TIMEOUT');
  });
});
