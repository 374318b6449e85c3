/**
 * The sign-in flow and the wallet routes, over the fake identity provider: login → code →
 * verify → token; find and create answer for the token's own user and wallet only.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, post, type TestApp } from './helpers/build-test-app.js';

let t: TestApp;
beforeEach(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  await t.close();
});

async function signIn(email: string, remoteAddress = '198.51.100.20') {
  const login = await post(t.app, '/auth/login', { email }, { remoteAddress });
  expect(login.statusCode, login.body).toBe(200);
  expect(login.json()).toEqual({ success: true, message: expect.any(String) });
  const code = t.identity.outbox.get(email) as string;
  const verify = await post(t.app, '/auth/verify', { email, code }, { remoteAddress });
  expect(verify.statusCode, verify.body).toBe(200);
  return verify.json() as { token: string; expiresAt: string; userId: string; walletId: string; walletAddress: string; walletPublicKey: string; isExisting: boolean };
}

describe('POST /auth/login and /auth/verify', () => {
  it('a new user gets a token and a new wallet; signing in again finds the same wallet', async () => {
    const first = await signIn('new@example.com');
    expect(first.isExisting).toBe(false);
    const wallet = t.identity.wallets.get(first.walletId)?.wallet;
    expect(wallet).toBeDefined();
    expect(first).toMatchObject({ walletAddress: wallet?.address, walletPublicKey: wallet?.publicKey, userId: t.identity.users.get('new@example.com')?.id });
    expect(Date.parse(first.expiresAt) - Date.now()).toBeGreaterThan(7 * 24 * 3600 * 1000 - 60_000);
    const claims = await t.tokens.verify(first.token);
    expect(claims).toMatchObject({ userId: first.userId, walletId: first.walletId, walletAddress: first.walletAddress, email: 'new@example.com' });

    const second = await signIn('new@example.com', '198.51.100.21');
    expect(second.isExisting).toBe(true);
    expect(second.walletId).toBe(first.walletId);
    expect(second.token).not.toBe(first.token);
  });

  it.each([
    { description: 'a wrong code', code: (real: string) => (real === '123456' ? '654321' : '123456') },
    { description: 'no code was ever sent', code: () => '123456', skipLogin: true },
  ])('$description → 401 INVALID_OTP, no token', async ({ code, skipLogin }) => {
    if (!skipLogin) await post(t.app, '/auth/login', { email: 'x@example.com' });
    const res = await post(t.app, '/auth/verify', { email: 'x@example.com', code: code(t.identity.outbox.get('x@example.com') ?? '') });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('INVALID_OTP');
    expect(res.body).not.toContain('token');
  });
});

describe('POST /wallet/find', () => {
  it('returns the token wallet, and null once the provider no longer has it', async () => {
    const { token, wallet } = await t.seedUser();
    const found = await post(t.app, '/wallet/find', {}, { token });
    expect(found.json()).toEqual({ wallet: { id: wallet.id, address: wallet.address, publicKey: wallet.publicKey } });
    t.identity.wallets.delete(wallet.id);
    expect((await post(t.app, '/wallet/find', {}, { token })).json()).toEqual({ wallet: null });
  });

  it('accepts a POST without a body', async () => {
    const { token } = await t.seedUser();
    const res = await t.app.inject({ method: 'POST', url: '/wallet/find', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('refuses a body naming another wallet (no ids are taken from the body)', async () => {
    const { token } = await t.seedUser();
    const other = await t.seedUser();
    const res = await post(t.app, '/wallet/find', { walletId: other.wallet.id }, { token });
    expect(res.statusCode).toBe(400);
  });
});

describe('POST /wallet/create', () => {
  it('links a new wallet to the user and returns a fresh token bound to it', async () => {
    const { token, wallet: old, user } = await t.seedUser('creator@example.com');
    user.customMetadata.theme = 'dark';
    const res = await post(t.app, '/wallet/create', {}, { token });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { wallet: { id: string; address: string; publicKey: string }; token: string; expiresAt: string };
    expect(body.wallet.id).not.toBe(old.id);
    expect(t.identity.users.get('creator@example.com')?.customMetadata).toEqual({ server_wallet_id: body.wallet.id, theme: 'dark' });
    const claims = await t.tokens.verify(body.token);
    expect(claims).toMatchObject({ userId: user.id, walletId: body.wallet.id, walletAddress: body.wallet.address });
    // the new token signs for the new wallet
    const signed = await post(t.app, '/sign/hash', { walletId: body.wallet.id, hash: '0x1' }, { token: body.token });
    expect(signed.statusCode).toBe(200);
  });

  it('refuses when the e-mail now belongs to another account → 401', async () => {
    const { token, user } = await t.seedUser('moved@example.com');
    t.identity.users.delete('moved@example.com');
    t.identity.addUser('moved@example.com');
    const res = await post(t.app, '/wallet/create', {}, { token });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('UNAUTHORIZED');
    expect([...t.identity.users.values()].some((u) => u.id === user.id)).toBe(false);
  });
});
