/**
 * Secrets never reach a log line: the whole flow (login → verify → wallet → sign → paymaster,
 * plus the failure paths) with a captured pino stream.
 */
import { describe, expect, it } from 'vitest';
import { buildTestApp, post, TEST_APP_SECRET, TEST_JWT_SECRET } from './helpers/build-test-app.js';

describe('logs', () => {
  it('carry no OTP code, JWT, Authorization value, app secret or JWT secret', async () => {
    const t = await buildTestApp({ config: { paymasterApiKey: 'pm-secret-key-value' } });
    try {
      const email = 'log-test@example.com';
      const login = await post(t.app, '/auth/login', { email }, { headers: { cookie: 'session=cookie-secret-value' } });
      expect(login.statusCode).toBe(200);
      const code = t.identity.outbox.get(email) as string;
      expect(code).toMatch(/^[0-9]{6}$/);

      // a wrong code first (an upstream 401 path), and a malformed one (a validation path)
      const wrong = code === '000000' ? '111111' : '000000';
      expect((await post(t.app, '/auth/verify', { email, code: wrong })).statusCode).toBe(401);
      expect((await post(t.app, '/auth/verify', { email, code: `${code}9` })).statusCode).toBe(400);

      const verify = await post(t.app, '/auth/verify', { email, code });
      expect(verify.statusCode, verify.body).toBe(200);
      const session = verify.json() as { token: string; walletId: string };

      const authorization = `Bearer ${session.token}`;
      const headers = { authorization };
      expect((await post(t.app, '/wallet/find', {}, { headers })).statusCode).toBe(200);
      expect((await post(t.app, '/sign/hash', { walletId: session.walletId, hash: '0xabc' }, { headers })).statusCode).toBe(200);
      expect((await post(t.app, '/sign/message', { walletId: session.walletId, message: 'hello' }, { headers })).statusCode).toBe(200);
      expect((await post(t.app, '/paymaster', { jsonrpc: '2.0', id: 1, method: 'paymaster_isAvailable' }, { headers })).statusCode).toBe(200);
      // a tampered token (error path) and a token in a query string
      expect((await post(t.app, '/wallet/find', {}, { headers: { authorization: `${authorization}x` } })).statusCode).toBe(401);
      expect((await t.app.inject({ url: `/health?token=${session.token}` })).statusCode).toBe(200);
      // a JSON parse error whose message would quote the body
      expect((await t.app.inject({ method: 'POST', url: '/auth/verify', headers: { 'content-type': 'application/json' }, payload: `{"email":"${email}","code":"${code}"` })).statusCode).toBe(400);

      const logs = t.logs();
      expect(logs.split('\n').filter(Boolean).length).toBeGreaterThan(20);
      for (const [what, secret] of [
        ['OTP code', `"${code}"`],
        ['OTP code (bare)', `code":"${code}`],
        ['JWT', session.token],
        ['JWT signature part', session.token.split('.')[2] as string],
        ['Authorization value', authorization],
        ['cookie', 'cookie-secret-value'],
        ['app secret', TEST_APP_SECRET],
        ['JWT secret', TEST_JWT_SECRET],
        ['paymaster API key', 'pm-secret-key-value'],
      ] as const) {
        expect(logs.includes(secret), `${what} found in logs`).toBe(false);
      }
      // the logs are still useful: every request id and path is there
      expect(logs).toContain('"url":"/sign/hash"');
      expect(logs).toContain('"url":"/health"');
    } finally {
      await t.close();
    }
  });
});
