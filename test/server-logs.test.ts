/**
 * Secrets never reach a log line: the whole flow (login → verify → wallet → sign → paymaster,
 * plus the failure paths) with the real identity adapter talking to the identity emulator over
 * loopback, so the app credential really travels (`Authorization: Basic base64(id:secret)`) and
 * the emulator's upstream session tokens really come back. Both the server's and the emulator's
 * log streams are captured and searched.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIdentityEmulator } from '../sandbox/identity/app.js';
import { createIdentityProvider } from '../server/providers/identity.js';
import { createPaymasterRelay } from '../server/providers/paymaster.js';
import {
  buildTestApp,
  post,
  TEST_APP_SECRET,
  TEST_JWT_SECRET,
  type TestApp,
} from './helpers/build-test-app.js';

const APP_ID = 'test-app';
const BASIC = Buffer.from(`${APP_ID}:${TEST_APP_SECRET}`).toString('base64');
const WRONG_SECRET = 'wrong-identity-app-secret-qwertyuiop';
const WRONG_BASIC = Buffer.from(`${APP_ID}:${WRONG_SECRET}`).toString('base64');
const PAYMASTER_KEY = 'pm-secret-key-value';

function capture(): { stream: Writable; text: () => string } {
  let all = '';
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      all += chunk.toString();
      callback();
    },
  });
  return { stream, text: () => all };
}

let emulator: FastifyInstance;
let emulatorUrl: string;
const emulatorLogs = capture();
let paymasterUpstream: Server;
let paymasterUrl: string;

beforeAll(async () => {
  emulator = await buildIdentityEmulator({
    appId: APP_ID,
    appSecret: TEST_APP_SECRET,
    logStream: emulatorLogs.stream,
  });
  await emulator.listen({ host: '127.0.0.1', port: 0 });
  emulatorUrl = `http://127.0.0.1:${(emulator.server.address() as AddressInfo).port}`;
  // a minimal JSON-RPC paymaster, so the relay (and its API key header) runs for real too
  paymasterUpstream = createServer((req, res) => {
    req.resume().on('end', () => {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"jsonrpc":"2.0","id":1,"result":true}');
    });
  });
  await new Promise<void>((resolve) => paymasterUpstream.listen(0, '127.0.0.1', resolve));
  paymasterUrl = `http://127.0.0.1:${(paymasterUpstream.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await emulator?.close();
  await new Promise((resolve) => paymasterUpstream?.close(resolve));
});

async function appWithSecret(appSecret: string): Promise<TestApp> {
  const identity = createIdentityProvider({
    authUrl: `${emulatorUrl}/api/v1`,
    apiUrl: emulatorUrl,
    appId: APP_ID,
    appSecret,
    origin: 'http://localhost:3001',
    timeoutMs: 2_000,
  });
  const paymaster = createPaymasterRelay({
    url: paymasterUrl,
    apiKey: PAYMASTER_KEY,
    timeoutMs: 2_000,
  });
  return buildTestApp({
    config: { paymasterApiKey: PAYMASTER_KEY, identityAppSecret: appSecret },
    deps: { identity, paymaster },
  });
}

async function emulatorJson(path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${emulatorUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  expect(response.status, path).toBe(200);
  return response.json();
}

describe('logs', () => {
  it('carry no OTP code, JWT, Authorization value, app secret (plain or Basic) or JWT secret', async () => {
    const t = await appWithSecret(TEST_APP_SECRET);
    const misconfigured = await appWithSecret(WRONG_SECRET);
    try {
      const email = 'log-test@example.com';
      const login = await post(
        t.app,
        '/auth/login',
        { email },
        { headers: { cookie: 'session=cookie-secret-value' } },
      );
      expect(login.statusCode, login.body).toBe(200);
      const { code } = (await emulatorJson(`/sandbox/outbox/${encodeURIComponent(email)}`)) as {
        code: string;
      };
      expect(code).toMatch(/^[0-9]{6}$/);

      // a wrong code first (the provider's 422 path), and a malformed one (a validation path)
      const wrong = code === '000000' ? '111111' : '000000';
      expect((await post(t.app, '/auth/verify', { email, code: wrong })).statusCode).toBe(401);
      expect((await post(t.app, '/auth/verify', { email, code: `${code}9` })).statusCode).toBe(400);

      const verify = await post(t.app, '/auth/verify', { email, code });
      expect(verify.statusCode, verify.body).toBe(200);
      const session = verify.json() as { token: string; walletId: string; walletAddress: string };

      const authorization = `Bearer ${session.token}`;
      const headers = { authorization };
      expect((await post(t.app, '/wallet/find', {}, { headers })).statusCode).toBe(200);
      expect((await post(t.app, '/wallet/create', {}, { headers })).statusCode).toBe(409);
      expect(
        (
          await post(
            t.app,
            '/sign/hash',
            { walletId: session.walletId, hash: '0xabc' },
            { headers },
          )
        ).statusCode,
      ).toBe(200);
      expect(
        (
          await post(
            t.app,
            '/sign/message',
            { walletId: session.walletId, message: 'hello' },
            { headers },
          )
        ).statusCode,
      ).toBe(200);
      expect(
        (
          await post(
            t.app,
            '/paymaster',
            { jsonrpc: '2.0', id: 1, method: 'paymaster_isAvailable' },
            { headers },
          )
        ).statusCode,
      ).toBe(200);
      expect(
        (
          await post(
            t.app,
            '/paymaster',
            { jsonrpc: '2.0', id: 1, method: 'paymaster_isAvailable', params: [] },
            { headers },
          )
        ).statusCode,
      ).toBe(400);
      // an upstream failure while signing (a warn line on our side, an error reply on theirs)
      await emulatorJson('/sandbox/faults', { failNext: { count: 1, status: 500 } });
      expect(
        (
          await post(
            t.app,
            '/sign/hash',
            { walletId: session.walletId, hash: '0xabd' },
            { headers },
          )
        ).statusCode,
      ).toBe(502);
      // the provider refusing our credentials: the request that failed carried the Basic header
      expect((await post(misconfigured.app, '/auth/login', { email })).statusCode).toBe(502);
      // a tampered token (error path) and a token in a query string
      expect(
        (await post(t.app, '/wallet/find', {}, { headers: { authorization: `${authorization}x` } }))
          .statusCode,
      ).toBe(401);
      expect((await t.app.inject({ url: `/health?token=${session.token}` })).statusCode).toBe(200);
      // a JSON parse error whose message would quote the body
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/auth/verify',
            headers: { 'content-type': 'application/json' },
            payload: `{"email":"${email}","code":"${code}"`,
          })
        ).statusCode,
      ).toBe(400);

      const serverLogs = t.logs() + misconfigured.logs();
      const upstreamLogs = emulatorLogs.text();
      expect(serverLogs.split('\n').filter(Boolean).length).toBeGreaterThan(20);
      // the emulator really logged the calls the adapter made (so an empty stream cannot pass)
      expect(upstreamLogs).toContain('/api/v1/passwordless/authenticate');
      expect(upstreamLogs).toContain('/raw_sign');

      const secrets: Array<readonly [string, string]> = [
        ['OTP code', `"${code}"`],
        ['OTP code (bare)', `code":"${code}`],
        ['JWT', session.token],
        ['JWT signature part', session.token.split('.')[2] as string],
        ['Authorization value', authorization],
        ['cookie', 'cookie-secret-value'],
        ['app secret', TEST_APP_SECRET],
        ['app credential as sent (base64 of id:secret)', BASIC],
        ['wrong app secret', WRONG_SECRET],
        ['wrong app credential as sent', WRONG_BASIC],
        ['JWT secret', TEST_JWT_SECRET],
        ['paymaster API key', PAYMASTER_KEY],
        // the provider's own session tokens from the authenticate answer (sandbox_<kind>_…)
        ['provider token', 'sandbox_token_'],
        ['provider access token', 'sandbox_access_'],
        ['provider refresh token', 'sandbox_refresh_'],
      ];
      for (const [stream, logs] of [
        ['server', serverLogs],
        ['identity emulator', upstreamLogs],
      ] as const) {
        for (const [what, secret] of secrets)
          expect(logs.includes(secret), `${what} found in ${stream} logs`).toBe(false);
        // any Basic credential at all, whatever its casing
        expect(
          logs.toLowerCase().includes('basic '),
          `a Basic authorization found in ${stream} logs`,
        ).toBe(false);
      }
      // the logs are still useful: every request id and path is there
      expect(serverLogs).toContain('"url":"/sign/hash"');
      expect(serverLogs).toContain('"url":"/health"');
    } finally {
      await t.close();
      await misconfigured.close();
    }
  });
});
