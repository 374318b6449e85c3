/**
 * Request-level behaviour of the auth server: body limit, parsing errors, 404 shape, CORS,
 * request ids, secure headers, root and health.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../server/app.js';
import { loadConfig } from '../server/config.js';
import {
  buildTestApp,
  FakeIdentity,
  post,
  TEST_JWT_SECRET,
  type TestApp,
} from './helpers/build-test-app.js';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

function expectErrorShape(body: string, code: string): void {
  const parsed = JSON.parse(body) as {
    error: { code: string; message: string; requestId: string };
  };
  expect(parsed.error.code).toBe(code);
  expect(typeof parsed.error.message).toBe('string');
  expect(parsed.error.message.length).toBeGreaterThan(0);
  expect(typeof parsed.error.requestId).toBe('string');
}

describe('bodies', () => {
  it('accepts a body of exactly 1 MB up to the parser and refuses 1 MB + 1 byte with 413', async () => {
    t = await buildTestApp();
    const filler = (n: number) => JSON.stringify({ email: 'a@example.com', pad: 'x'.repeat(n) });
    const overhead = filler(0).length;
    const atLimit = filler(BODY_LIMIT_BYTES - overhead);
    const overLimit = filler(BODY_LIMIT_BYTES - overhead + 1);
    expect(Buffer.byteLength(overLimit)).toBe(BODY_LIMIT_BYTES + 1);

    const ok = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: atLimit,
    });
    // parsed, then refused by the schema (unknown property), not by the size limit
    expect(ok.statusCode).toBe(400);

    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: overLimit,
    });
    expect(res.statusCode).toBe(413);
    expectErrorShape(res.body, 'PAYLOAD_TOO_LARGE');
  });

  it.each([
    { description: 'truncated object', payload: '{"email": "a@example.com"' },
    { description: 'trailing garbage', payload: '{"email": "a@example.com"} x' },
    { description: 'bare word', payload: 'hello' },
    { description: 'empty body with a JSON content type', payload: '' },
  ])('malformed JSON ($description) → 400 VALIDATION_ERROR', async ({ payload }) => {
    t = await buildTestApp();
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expectErrorShape(res.body, 'VALIDATION_ERROR');
    // JSON.parse messages quote the input; ours must not
    expect(res.body).not.toContain('a@example.com');
  });

  it.each([
    { description: 'text/plain', contentType: 'text/plain' },
    { description: 'form data', contentType: 'application/x-www-form-urlencoded' },
    { description: 'xml', contentType: 'application/xml' },
  ])('a $description body → 415 UNSUPPORTED_MEDIA_TYPE', async ({ contentType }) => {
    t = await buildTestApp();
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': contentType },
      payload: 'email=a@example.com',
    });
    expect(res.statusCode).toBe(415);
    expectErrorShape(res.body, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it.each([
    { description: 'missing email', body: {} },
    { description: 'not an e-mail', body: { email: 'nope' } },
    { description: 'extra property', body: { email: 'a@example.com', admin: true } },
    { description: 'number instead of string', body: { email: 42 } },
  ])(
    'schema violation ($description) → 400 with a message naming the problem',
    async ({ body }) => {
      t = await buildTestApp();
      const res = await post(t.app, '/auth/login', body);
      expect(res.statusCode).toBe(400);
      expectErrorShape(res.body, 'VALIDATION_ERROR');
      expect(res.json().error.message).toMatch(/^Invalid request: /);
    },
  );
});

describe('routing and shape', () => {
  it.each([
    { method: 'GET' as const, url: '/nope' },
    { method: 'POST' as const, url: '/auth/nope' },
    { method: 'GET' as const, url: '/auth/login' },
  ])('$method $url → 404 NOT_FOUND in the error shape', async ({ method, url }) => {
    t = await buildTestApp();
    const res = await t.app.inject({ method, url });
    expect(res.statusCode).toBe(404);
    expectErrorShape(res.body, 'NOT_FOUND');
    expect(res.headers['x-request-id']).toBe(res.json().error.requestId);
  });

  it('GET / names the server and its version; sandbox only when on', async () => {
    t = await buildTestApp();
    expect((await t.app.inject({ url: '/' })).json()).toEqual({
      name: 'finance-tui-auth',
      version: '9.9.9-test',
      status: 'ok',
    });
    await t.close();
    t = await buildTestApp({ config: { sandbox: true } });
    expect((await t.app.inject({ url: '/' })).json()).toEqual({
      name: 'finance-tui-auth',
      version: '9.9.9-test',
      status: 'ok',
      sandbox: true,
    });
  });

  it('GET /health → {status: ok}', async () => {
    t = await buildTestApp();
    const res = await t.app.inject({ url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('an unexpected failure is 500 INTERNAL_ERROR with no internals in production', async () => {
    const identity = (await import('./helpers/build-test-app.js')).FakeIdentity;
    const broken = new identity();
    broken.sendOtp = async () => {
      throw new TypeError('secret internal detail at /srv/app.js:12');
    };
    t = await buildTestApp({ config: { nodeEnv: 'production' }, deps: { identity: broken } });
    const res = await post(t.app, '/auth/login', { email: 'a@example.com' });
    expect(res.statusCode).toBe(500);
    expectErrorShape(res.body, 'INTERNAL_ERROR');
    expect(res.body).not.toContain('secret internal detail');
    // …but the log has it, with the request id
    const line = t
      .logs()
      .split('\n')
      .find((l) => l.includes('secret internal detail'));
    expect(line).toBeDefined();
    expect(line).toContain(res.json().error.requestId);
  });

  it.each([
    { description: 'the default config (no NODE_ENV): production', env: {}, exposed: false },
    { description: 'NODE_ENV=production', env: { NODE_ENV: 'production' }, exposed: false },
    {
      description: 'NODE_ENV=development, asked for by name',
      env: { NODE_ENV: 'development' },
      exposed: true,
    },
  ])('500 internals with $description → exposed: $exposed', async ({ env, exposed }) => {
    const config = loadConfig({
      IDENTITY_APP_ID: 'app',
      IDENTITY_APP_SECRET: 'secret',
      JWT_SECRET: TEST_JWT_SECRET,
      ...env,
    });
    if (!('NODE_ENV' in env)) expect(config.nodeEnv).toBe('production');
    const broken = new FakeIdentity();
    broken.sendOtp = async () => {
      throw new TypeError('secret internal detail at /srv/app.js:12');
    };
    t = await buildTestApp({ config: { ...config, port: 0 }, deps: { identity: broken } });
    const res = await post(t.app, '/auth/login', { email: 'a@example.com' });
    expect(res.statusCode).toBe(500);
    expectErrorShape(res.body, 'INTERNAL_ERROR');
    expect(res.body.includes('secret internal detail')).toBe(exposed);
  });

  it("an upstream AppError is answered with its code and the code's status", async () => {
    const { FakeIdentity } = await import('./helpers/build-test-app.js');
    const { AppError } = await import('../shared/errors.js');
    const down = new FakeIdentity();
    down.sendOtp = async () => {
      throw new AppError('IDENTITY_PROVIDER_ERROR', 'The identity provider failed (HTTP 503)');
    };
    t = await buildTestApp({ deps: { identity: down } });
    const res = await post(t.app, '/auth/login', { email: 'a@example.com' });
    expect(res.statusCode).toBe(502);
    expectErrorShape(res.body, 'IDENTITY_PROVIDER_ERROR');
  });
});

describe('CORS', () => {
  it('an allowed origin gets Access-Control-Allow-Origin', async () => {
    t = await buildTestApp();
    const res = await t.app.inject({
      url: '/health',
      headers: { origin: 'https://app.example.com' },
    });
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');
  });

  it.each(['https://evil.example.com', 'https://app.example.com.evil.com', 'null'])(
    'origin %s gets no CORS header',
    async (origin) => {
      t = await buildTestApp();
      const res = await t.app.inject({ url: '/health', headers: { origin } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    },
  );

  it('preflight from an allowed origin lists the methods and headers; others get nothing', async () => {
    t = await buildTestApp();
    const headers = {
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type',
    };
    const ok = await t.app.inject({
      method: 'OPTIONS',
      url: '/sign/hash',
      headers: { ...headers, origin: 'https://app.example.com' },
    });
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(String(ok.headers['access-control-allow-headers'])).toContain('authorization');
    const other = await t.app.inject({
      method: 'OPTIONS',
      url: '/sign/hash',
      headers: { ...headers, origin: 'https://evil.example.com' },
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('request id', () => {
  it.each([
    { description: 'a sane incoming id is kept', incoming: 'abc-123.DEF:45_6', kept: true },
    { description: 'a 128-char id is kept', incoming: 'a'.repeat(128), kept: true },
    { description: 'a 129-char id is replaced', incoming: 'a'.repeat(129), kept: false },
    { description: 'an id with spaces is replaced', incoming: 'abc def', kept: false },
    {
      description: 'an id with a newline-ish payload is replaced',
      incoming: 'abc%0d%0aINJECTED',
      kept: false,
    },
    { description: 'an id with JSON is replaced', incoming: '{"level":60}', kept: false },
    { description: 'no id gets one', incoming: undefined, kept: false },
  ])('$description', async ({ incoming, kept }) => {
    t = await buildTestApp();
    const res = await t.app.inject({
      url: '/health',
      headers: incoming === undefined ? {} : { 'x-request-id': incoming },
    });
    const echoed = res.headers['x-request-id'];
    expect(typeof echoed).toBe('string');
    if (kept) expect(echoed).toBe(incoming);
    else {
      expect(echoed).not.toBe(incoming);
      expect(echoed).toMatch(/^[0-9a-f-]{36}$/);
    }
    // the id is in the log lines of that request
    expect(t.logs()).toContain(`"reqId":"${echoed}"`);
  });

  it('error responses echo the id in header and body', async () => {
    t = await buildTestApp();
    const res = await post(t.app, '/sign/hash', {}, { headers: { 'x-request-id': 'trace-me' } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['x-request-id']).toBe('trace-me');
    expect(res.json().error.requestId).toBe('trace-me');
  });
});

describe('secure headers', () => {
  it.each(['/health', '/nope'])(
    '%s carries nosniff, frame deny, a locked-down CSP and no x-powered-by',
    async (url) => {
      t = await buildTestApp();
      const res = await t.app.inject({ url });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-powered-by']).toBeUndefined();
    },
  );
});
