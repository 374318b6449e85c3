/**
 * POST /auth/logout: the presented token and every earlier token of its user stop working on
 * every protected route (TOKEN_REVOKED; on /paymaster as a JSON-RPC error), while a later
 * sign-in works; only a genuine token is recorded; limited per user.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTokenService } from '../server/jwt.js';
import {
  buildTestApp,
  errorCodeOf,
  post,
  TEST_JWT_SECRET,
  type TestApp,
} from './helpers/build-test-app.js';
import { tokenAudience } from '../server/config.js';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.close();
});

const find = (token: string) => post(t.app, '/wallet/find', {}, { token });
const paymaster = (token: string) =>
  post(t.app, '/paymaster', { jsonrpc: '2.0', id: 1, method: 'paymaster_isAvailable' }, { token });

describe('POST /auth/logout', () => {
  it('ends the token on every protected route; an earlier token of the user ends with it; a later sign-in works', async () => {
    const seeded = await t.seedUser();
    const claims = await t.tokens.verify(seeded.token);
    // an earlier token of the same user (issued a minute before), and another user's token
    const earlier = await createTokenService({
      secret: TEST_JWT_SECRET,
      audience: tokenAudience(t.config),
      now: () => new Date(claims.issuedAt.getTime() - 60_000),
    }).issue({
      userId: seeded.user.id,
      email: seeded.user.email as string,
      walletId: seeded.wallet.id,
      walletAddress: seeded.wallet.address,
    });
    const other = await t.seedUser();
    expect((await find(seeded.token)).statusCode).toBe(200);

    const out = await post(t.app, '/auth/logout', {}, { token: seeded.token });
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toEqual({ success: true, message: expect.stringMatching(/^Signed out/) });

    for (const token of [seeded.token, earlier.token]) {
      const res = await find(token);
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toMatchObject({
        code: 'TOKEN_REVOKED',
        message: 'This token was signed out, sign in again',
      });
      const relay = await paymaster(token);
      expect(errorCodeOf(relay.json())).toBe('TOKEN_REVOKED');
      expect(relay.json().error.code).toBe(-32012);
      expect(
        (
          await post(t.app, '/sign/hash', { walletId: seeded.wallet.id, hash: '0x1' }, { token })
        ).json().error.code,
      ).toBe('TOKEN_REVOKED');
    }
    // signing out again with the ended token: the same 401, nothing recorded
    expect((await post(t.app, '/auth/logout', {}, { token: seeded.token })).json().error.code).toBe(
      'TOKEN_REVOKED',
    );
    expect((await find(other.token)).statusCode).toBe(200);

    // a later sign-in (one second on, as any real one is) gets a working token
    const later = await createTokenService({
      secret: TEST_JWT_SECRET,
      audience: tokenAudience(t.config),
      now: () => new Date(claims.issuedAt.getTime() + 1000),
    }).issue({
      userId: seeded.user.id,
      email: seeded.user.email as string,
      walletId: seeded.wallet.id,
      walletAddress: seeded.wallet.address,
    });
    expect((await find(later.token)).statusCode).toBe(200);
  });

  it('a token issued in the same second but not signed out keeps working', async () => {
    const seeded = await t.seedUser();
    const claims = await t.tokens.verify(seeded.token);
    const sibling = await createTokenService({
      secret: TEST_JWT_SECRET,
      audience: tokenAudience(t.config),
      now: () => claims.issuedAt,
    }).issue({
      userId: seeded.user.id,
      email: seeded.user.email as string,
      walletId: seeded.wallet.id,
      walletAddress: seeded.wallet.address,
    });
    // without a body at all, as a client may send it
    const out = await t.app.inject({
      method: 'POST',
      url: '/auth/logout',
      headers: { authorization: `Bearer ${seeded.token}` },
    });
    expect(out.statusCode, out.body).toBe(200);
    expect((await find(seeded.token)).statusCode).toBe(401);
    expect((await find(sibling.token)).statusCode).toBe(200);
  });

  it('needs a genuine token: none, a forged one and a body are refused before anything is recorded', async () => {
    const seeded = await t.seedUser();
    expect((await post(t.app, '/auth/logout', {})).json().error.code).toBe('UNAUTHORIZED');
    const forged = `${seeded.token.slice(0, -4)}AAAA`;
    expect((await post(t.app, '/auth/logout', {}, { token: forged })).json().error.code).toBe(
      'UNAUTHORIZED',
    );
    expect(
      (await post(t.app, '/auth/logout', { userId: 'someone-else' }, { token: seeded.token }))
        .statusCode,
    ).toBe(400);
    expect((await find(seeded.token)).statusCode).toBe(200);
  });

  it('is limited to 10 a minute per user', async () => {
    const seeded = await t.seedUser();
    const user = {
      userId: seeded.user.id,
      email: seeded.user.email as string,
      walletId: seeded.wallet.id,
      walletAddress: seeded.wallet.address,
    };
    const claims = await t.tokens.verify(seeded.token);
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) {
      // each a later token, so each sign-out is genuine and recorded
      const { token } = await createTokenService({
        secret: TEST_JWT_SECRET,
        audience: tokenAudience(t.config),
        now: () => new Date(claims.issuedAt.getTime() + i * 1000),
      }).issue(user);
      codes.push((await post(t.app, '/auth/logout', {}, { token })).statusCode);
    }
    expect(codes.slice(0, 10).every((c) => c === 200)).toBe(true);
    expect(codes[10]).toBe(429);
  });
});
