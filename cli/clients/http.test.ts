/**
 * The one HTTP client layer (cli/clients/http.ts) against a real server on loopback: which
 * requests are retried (GET, idempotent POST) and which never are (a POST that may have had an
 * effect), 429 Retry-After as data, our server's error bodies mapped to the same code, schema
 * checks, the response size cap, bearer tokens kept out of messages, per-call cancellation.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Type from 'typebox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttpClient, retryAfterSeconds } from './http.js';
import { failure } from '../../test/helpers/failure.js';

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

let server: Server;
let baseUrl: string;
let handler: Handler;
const seen: Array<{
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}> = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      seen.push({
        method: request.method ?? '',
        url: request.url ?? '',
        authorization: request.headers.authorization,
        body,
      });
      handler(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen.length = 0;
});

const json = (
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void => {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
};

/** Fails `failures` times with `status` (and body), then answers `{ok: true}`. */
function flaky(
  failures: number,
  status: number,
  body: unknown = { error: { code: 'INTERNAL_ERROR', message: 'boom' } },
  headers: Record<string, string> = {},
): void {
  let left = failures;
  handler = (_request, _body, response) => {
    if (left > 0) {
      left -= 1;
      json(response, status, body, headers);
    } else json(response, 200, { ok: true });
  };
}

const fast = { baseMs: 1, maxMs: 2 };
const client = (extra: Partial<Parameters<typeof createHttpClient>[0]> = {}) =>
  createHttpClient({
    baseUrl,
    service: 'test server',
    errorBodies: 'app',
    retries: 3,
    backoff: fast,
    ...extra,
  });

describe('retries', () => {
  it('GET: transient failures are retried, then it succeeds', async () => {
    flaky(2, 503);
    const { body } = await client().get('thing');
    expect(body).toEqual({ ok: true });
    expect(seen).toHaveLength(3);
  });

  it('POST: a 503 is never retried (the first attempt may have had an effect)', async () => {
    flaky(1, 503);
    const error = await failure(client().post('auth/login', { email: 'a@b.co' }));
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(seen).toHaveLength(1);
  });

  it('POST: a dropped connection is never retried either', async () => {
    let first = true;
    handler = (_request, _body, response) => {
      if (first) {
        first = false;
        response.socket?.destroy();
      } else json(response, 200, { ok: true });
    };
    const error = await failure(client().post('sign/hash', {}));
    expect(error.code).toBe('NETWORK_ERROR');
    expect(seen).toHaveLength(1);
  });

  it('POST marked idempotent (a read such as /wallet/find) is retried', async () => {
    flaky(2, 502);
    const { body } = await client().post('wallet/find', {}, { idempotent: true });
    expect(body).toEqual({ ok: true });
    expect(seen.map((s) => s.method)).toEqual(['POST', 'POST', 'POST']);
  });

  it('a 4xx is not retried, GET or not', async () => {
    flaky(1, 400, { error: { code: 'VALIDATION_ERROR', message: 'bad body' } });
    expect((await failure(client().get('thing'))).code).toBe('VALIDATION_ERROR');
    expect(seen).toHaveLength(1);
  });
});

describe('429 and Retry-After', () => {
  it('POST 429: RATE_LIMITED with retryAfterSeconds as data, one attempt', async () => {
    flaky(
      1,
      429,
      { error: { code: 'RATE_LIMITED', message: 'Rate limit exceeded', requestId: 'req-1' } },
      { 'retry-after': '42' },
    );
    const error = await failure(client().post('auth/login', { email: 'a@b.co' }));
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.details).toMatchObject({ status: 429, retryAfterSeconds: 42, requestId: 'req-1' });
    expect(error.message).toContain('retry after 42 s');
    expect(seen).toHaveLength(1);
  });

  it('retryAfterSeconds reads delta-seconds and HTTP dates; junk is undefined', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterSeconds('30', now)).toBe(30);
    expect(retryAfterSeconds('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60);
    expect(retryAfterSeconds('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds(null, now)).toBeUndefined();
  });
});

describe("our server's errors", () => {
  it.each([
    [401, 'TOKEN_EXPIRED'],
    [401, 'UNAUTHORIZED'],
    [401, 'INVALID_OTP'],
    [403, 'WALLET_MISMATCH'],
    [409, 'WALLET_EXISTS'],
    [502, 'IDENTITY_PROVIDER_ERROR'],
  ])("%i %s → AppError with the same code and the server's message", async (status, code) => {
    flaky(1, status, { error: { code, message: `server says ${code}`, requestId: 'abc' } });
    const error = await failure(client().post('x', {}));
    expect(error.code).toBe(code);
    expect(error.message).toBe(`server says ${code}`);
    // the server's status is a detail of its answer; the error is its code
    expect(error.details).toMatchObject({ status });
    expect(error).not.toHaveProperty('status');
  });

  it('a code this client does not know → SERVER_ERROR naming it', async () => {
    flaky(1, 418, { error: { code: 'TEAPOT', message: 'short and stout' } });
    const error = await failure(client().post('x', {}));
    expect(error.code).toBe('SERVER_ERROR');
    expect(error.message).toContain('TEAPOT');
    expect(error.details).toMatchObject({ serverCode: 'TEAPOT', status: 418 });
  });

  it('a non-JSON error body → NETWORK_ERROR with the status', async () => {
    handler = (_request, _body, response) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end('oops');
    };
    const error = await failure(client({ retries: 0 }).get('x'));
    expect(error.code).toBe('NETWORK_ERROR');
    expect(error.details).toMatchObject({ status: 500 });
  });
});

describe('answers', () => {
  const Shape = Type.Object({ wallet: Type.String() });

  it('a body of the wrong shape → INVALID_RESPONSE; the right shape passes', async () => {
    handler = (_request, _body, response) => json(response, 200, { wallet: 42 });
    expect((await failure(client().get('x', { schema: Shape }))).code).toBe('INVALID_RESPONSE');
    handler = (_request, _body, response) => json(response, 200, { wallet: 'w1' });
    expect((await client().get('x', { schema: Shape })).body).toEqual({ wallet: 'w1' });
  });

  it('not JSON → INVALID_RESPONSE', async () => {
    handler = (_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{nope');
    };
    expect((await failure(client().get('x'))).code).toBe('INVALID_RESPONSE');
  });

  it('an answer over the size cap is refused while it streams (declared or not)', async () => {
    const big = JSON.stringify({ pad: 'x'.repeat(5_000) });
    handler = (_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(big);
    };
    expect((await failure(client({ maxResponseBytes: 1_000 }).get('x'))).code).toBe(
      'INVALID_RESPONSE',
    );
    // chunked, no Content-Length: the stream itself is cut
    handler = (_request, _body, response) => {
      response.writeHead(200, {
        'content-type': 'application/json',
        'transfer-encoding': 'chunked',
      });
      for (let i = 0; i < 10; i++) response.write('x'.repeat(500));
      response.end();
    };
    const error = await failure(client({ maxResponseBytes: 1_000 }).get('x'));
    expect(error.code).toBe('INVALID_RESPONSE');
    expect(error.message).toContain('larger than 1000 bytes');
  });
});

describe('tokens and cancellation', () => {
  const token = 'eyJhbGciOiJIUzI1NiJ9.secret-payload.signature';

  it('sends the bearer token, and no message or detail carries it', async () => {
    flaky(4, 503, { error: { code: 'UPSTREAM_TIMEOUT', message: 'upstream slow' } });
    const error = await failure(client().post('sign/hash', { hash: '0x1' }, { token }));
    expect(seen[0]?.authorization).toBe(`Bearer ${token}`);
    expect(JSON.stringify({ message: error.message, details: error.details })).not.toContain(
      'secret-payload',
    );
    const network = await failure(
      createHttpClient({ baseUrl: 'http://127.0.0.1:9', service: 'x', retries: 0 }).post(
        'a',
        {},
        { token },
      ),
    );
    expect(JSON.stringify({ message: network.message, details: network.details })).not.toContain(
      'secret-payload',
    );
  });

  it('the signal is per call: one aborted call, the next one on the same client goes through', async () => {
    let release: (() => void) | undefined;
    handler = (request, _body, response) => {
      if (request.url === '/slow') release = () => json(response, 200, { slow: true });
      else json(response, 200, { ok: true });
    };
    const http = client();
    const controller = new AbortController();
    const pending = failure(http.get('slow', { signal: controller.signal }));
    while (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect((await pending).code).toBe('CANCELLED');
    expect((await http.get('fast', { signal: new AbortController().signal })).body).toEqual({
      ok: true,
    });
    release?.();
  });
});
