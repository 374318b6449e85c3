/**
 * The paymaster relay's fetch (cli/core/chain/fetch.ts) maps our server's plain HTTP refusals
 * exactly as the rest of the client does (cli/clients/server-error.ts): known codes kept, unknown
 * ones SERVER_ERROR, Retry-After read, and the server's text made one printable line — a hostile
 * server cannot put escape sequences on the user's terminal. Against a real socket.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopedFetch } from './fetch.js';
import { AppError } from '../../../shared/errors.js';

let server: Server;
let url: string;
let answer: { status: number; headers?: Record<string, string>; body: unknown };

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      res
        .writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers })
        .end(JSON.stringify(answer.body)),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/paymaster`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function refusal(): Promise<AppError> {
  const fetchLike = scopedFetch({ service: 'server', timeoutMs: 2_000, maxResponseBytes: 65_536 });
  const error = await fetchLike(url, {
    method: 'POST',
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'paymaster_isAvailable' }),
  }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('scopedFetch: our server refusals', () => {
  it('a known code keeps its code; the message is one printable line', async () => {
    answer = {
      status: 401,
      body: {
        error: {
          code: 'UNAUTHORIZED',
          message: '\u001b[31mtoken\u001b]0;pwned\u0007 expired\r\nnext line',
          requestId: 'r-1',
        },
      },
    };
    const error = await refusal();
    expect(error).toMatchObject({
      code: 'UNAUTHORIZED',
      details: { status: 401, requestId: 'r-1', url },
    });
    // eslint-disable-next-line no-control-regex -- the test looks for exactly these characters
    expect(error.message).not.toMatch(/[\u0000-\u001f\u007f]/);
    expect(error.message).toContain('expired');
  });

  it('429: RATE_LIMITED with retryAfterSeconds, as the HTTP layer reports it', async () => {
    answer = {
      status: 429,
      headers: { 'retry-after': '17' },
      body: { error: { code: 'RATE_LIMITED', message: 'too many executions' } },
    };
    expect(await refusal()).toMatchObject({
      code: 'RATE_LIMITED',
      details: { retryAfterSeconds: 17 },
    });
  });

  it('a code this client does not know: SERVER_ERROR naming it, never a guess', async () => {
    answer = { status: 418, body: { error: { code: 'TEAPOT', message: 'short and stout' } } };
    const error = await refusal();
    expect(error).toMatchObject({
      code: 'SERVER_ERROR',
      details: { status: 418, serverCode: 'TEAPOT' },
    });
    expect(error.message).toMatch(/paymaster relay answered TEAPOT: short and stout/);
  });
});
