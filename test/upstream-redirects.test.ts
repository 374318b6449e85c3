/**
 * Upstream redirects are never followed: a redirect from the identity provider or the paymaster
 * would re-send our app credentials, the user's e-mail and OTP code, the paymaster API key and
 * the transaction to wherever Location points. Against a real redirecting upstream on loopback
 * whose target (another origin) records every request it gets: the target is never reached, and
 * the call fails as a 502 naming the upstream.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createIdentityProvider } from '../server/providers/identity.js';
import { createPaymasterRelay } from '../server/providers/paymaster.js';
import { buildTestApp, post, TEST_APP_SECRET, type TestApp } from './helpers/build-test-app.js';
import { readBody } from './helpers/http.js';

interface Seen {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingMessage['headers'];
  body: string;
}

const targetHits: Seen[] = [];
let target: Server;
let redirector: Server;
let redirectorUrl: string;
let redirectStatus = 307;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  target = createServer((req, res) => {
    void readBody(req).then((body) => {
      targetHits.push({ method: req.method, url: req.url, headers: req.headers, body });
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"jsonrpc":"2.0","id":1,"result":true}');
    });
  });
  const targetUrl = await listen(target);
  // another port is another origin: the classic credential-forwarding case
  redirector = createServer((req, res) => {
    req.resume();
    res.writeHead(redirectStatus, { location: `${targetUrl}${req.url ?? '/'}` }).end();
  });
  redirectorUrl = await listen(redirector);
});
afterAll(async () => {
  await new Promise((resolve) => redirector.close(resolve));
  await new Promise((resolve) => target.close(resolve));
});

let t: TestApp;
afterEach(async () => {
  targetHits.length = 0;
  await t?.close();
});

describe.each([307, 308, 302, 301])('an upstream answering HTTP %i', (status) => {
  beforeAll(() => {
    redirectStatus = status;
  });

  it('identity provider: login and verify fail with 502, the e-mail and code never reach the target', async () => {
    const identity = createIdentityProvider({
      authUrl: `${redirectorUrl}/api/v1`,
      apiUrl: redirectorUrl,
      appId: 'test-app',
      appSecret: TEST_APP_SECRET,
      origin: 'http://localhost',
      timeoutMs: 2_000,
    });
    t = await buildTestApp({ deps: { identity } });
    const login = await post(t.app, '/auth/login', { email: 'redirected@example.com' });
    expect(login.statusCode).toBe(502);
    expect(login.json().error).toMatchObject({
      code: 'IDENTITY_PROVIDER_ERROR',
      message: expect.stringMatching(/identity provider .*redirect/),
    });
    const verify = await post(t.app, '/auth/verify', {
      email: 'redirected@example.com',
      code: '123456',
    });
    expect(verify.statusCode).toBe(502);
    expect(targetHits).toEqual([]);
  });

  it('paymaster: the relay fails with 502 PAYMASTER_ERROR, the API key never reaches the target', async () => {
    const paymaster = createPaymasterRelay({
      url: `${redirectorUrl}/v1`,
      apiKey: 'pm-secret-key',
      timeoutMs: 2_000,
    });
    t = await buildTestApp({ deps: { paymaster } });
    const { token } = await t.seedUser();
    const res = await post(
      t.app,
      '/paymaster',
      { jsonrpc: '2.0', id: 1, method: 'paymaster_isAvailable' },
      { token },
    );
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toMatchObject({
      data: { code: 'PAYMASTER_ERROR' },
      message: expect.stringMatching(/redirect/),
    });
    expect(targetHits).toEqual([]);
    expect(res.body).not.toContain('pm-secret-key');
  });
});
