/**
 * The sign-in flow and the wallet routes, over the fake identity provider: login → code →
 * verify → token; find and create answer for the token's own user and wallet only.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../shared/errors.js';
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
  return verify.json() as {
    token: string;
    expiresAt: string;
    userId: string;
    walletId: string;
    walletAddress: string;
    walletPublicKey: string;
    isExisting: boolean;
  };
}

describe('POST /auth/login and /auth/verify', () => {
  it('a new user gets a token and a new wallet; signing in again finds the same wallet', async () => {
    const first = await signIn('new@example.com');
    expect(first.isExisting).toBe(false);
    const wallet = t.identity.wallets.get(first.walletId)?.wallet;
    expect(wallet).toBeDefined();
    expect(first).toMatchObject({
      walletAddress: wallet?.address,
      walletPublicKey: wallet?.publicKey,
      userId: t.identity.users.get('new@example.com')?.id,
    });
    expect(Date.parse(first.expiresAt) - Date.now()).toBeGreaterThan(7 * 24 * 3600 * 1000 - 60_000);
    const claims = await t.tokens.verify(first.token);
    expect(claims).toMatchObject({
      userId: first.userId,
      walletId: first.walletId,
      walletAddress: first.walletAddress,
      email: 'new@example.com',
    });

    const second = await signIn('new@example.com', '198.51.100.21');
    expect(second.isExisting).toBe(true);
    expect(second.walletId).toBe(first.walletId);
    expect(second.token).not.toBe(first.token);
  });

  it.each([
    {
      description: 'a wrong code',
      code: (real: string) => (real === '123456' ? '654321' : '123456'),
    },
    { description: 'no code was ever sent', code: () => '123456', skipLogin: true },
  ])('$description → 401 INVALID_OTP, no token', async ({ code, skipLogin }) => {
    if (!skipLogin) await post(t.app, '/auth/login', { email: 'x@example.com' });
    const res = await post(t.app, '/auth/verify', {
      email: 'x@example.com',
      code: code(t.identity.outbox.get('x@example.com') ?? ''),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('INVALID_OTP');
    expect(res.body).not.toContain('token');
  });
});

describe('e-mail addresses with invisible characters', () => {
  it.each([
    ['NUL', 'a\u0000b@example.com'],
    ['a control character', 'a\u0007b@example.com'],
    ['a C1 control character', 'a\u0085b@example.com'],
    ['a zero-width space', 'ad\u200bmin@example.com'],
    ['a right-to-left override', 'user\u202e@example.com'],
    ['a bidi isolate', '\u2066user@example.com'],
    ['a byte-order mark', 'user@exa\ufeffmple.com'],
    ['a soft hyphen', 'us\u00ader@example.com'],
    ['a no-break space', 'us\u00a0er@example.com'],
    ['a line separator', 'us\u2028er@example.com'],
  ])(
    '%s → 400 VALIDATION_ERROR on login and verify; nothing reaches the provider',
    async (_name, email) => {
      const login = await post(t.app, '/auth/login', { email });
      expect(login.statusCode).toBe(400);
      expect(login.json().error.code).toBe('VALIDATION_ERROR');
      const verify = await post(t.app, '/auth/verify', { email, code: '123456' });
      expect(verify.statusCode).toBe(400);
      expect(t.identity.outbox.size).toBe(0);
    },
  );

  it('letters of any script still pass (the provider judges deliverability)', async () => {
    expect((await post(t.app, '/auth/login', { email: 'jürgen@bücher.example' })).statusCode).toBe(
      200,
    );
  });
});

describe('POST /wallet/find', () => {
  it('returns the token wallet, and null once the provider no longer has it', async () => {
    const { token, wallet } = await t.seedUser();
    const found = await post(t.app, '/wallet/find', {}, { token });
    expect(found.json()).toEqual({
      wallet: { id: wallet.id, address: wallet.address, publicKey: wallet.publicKey },
    });
    t.identity.wallets.delete(wallet.id);
    expect((await post(t.app, '/wallet/find', {}, { token })).json()).toEqual({ wallet: null });
  });

  it('accepts a POST without a body', async () => {
    const { token } = await t.seedUser();
    const res = await t.app.inject({
      method: 'POST',
      url: '/wallet/find',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it.each([
    { description: 'the same e-mail', email: (own: string) => own },
    {
      description: 'the same e-mail in another case, with spaces around it',
      email: (own: string) => `  ${own.toUpperCase()} `,
    },
  ])(
    "accepts {email} when it is the token's ($description), as starkfi sends it",
    async ({ email }) => {
      const { token, wallet, user } = await t.seedUser();
      const res = await post(
        t.app,
        '/wallet/find',
        { email: email(user.email as string) },
        { token },
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        wallet: { id: wallet.id, address: wallet.address, publicKey: wallet.publicKey },
      });
    },
  );

  it('refuses {email} of someone else with 403 EMAIL_MISMATCH, and a malformed one with 400', async () => {
    const { token } = await t.seedUser();
    const other = await t.seedUser();
    const res = await post(t.app, '/wallet/find', { email: other.user.email }, { token });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('EMAIL_MISMATCH');
    expect(res.body).not.toContain(other.wallet.id);
    expect(
      (await post(t.app, '/wallet/find', { email: 'not an e-mail' }, { token })).statusCode,
    ).toBe(400);
  });

  it('a SyntaxError inside our own code is a 500, not "not valid JSON"', async () => {
    const { token } = await t.seedUser();
    t.identity.getWallet = async () => {
      throw new SyntaxError('Cannot convert zz to a BigInt');
    };
    const res = await post(t.app, '/wallet/find', {}, { token });
    expect(res.statusCode).toBe(500);
    expect(res.json().error.code).toBe('INTERNAL_ERROR');
    expect(res.json().error.message).not.toMatch(/not valid JSON/);
  });

  it('refuses a body naming another wallet (no ids are taken from the body)', async () => {
    const { token } = await t.seedUser();
    const other = await t.seedUser();
    const res = await post(t.app, '/wallet/find', { walletId: other.wallet.id }, { token });
    expect(res.statusCode).toBe(400);
  });
});

describe('POST /wallet/create', () => {
  it('refuses with 409 WALLET_EXISTS while the linked wallet is usable, and changes nothing', async () => {
    const { token, wallet: old, user } = await t.seedUser('keeper@example.com');
    user.customMetadata.theme = 'dark';
    const walletsBefore = t.identity.wallets.size;
    const res = await post(t.app, '/wallet/create', {}, { token });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe('WALLET_EXISTS');
    expect(res.json().error.message).toMatch(/already has a usable wallet/);
    expect(t.identity.wallets.size).toBe(walletsBefore);
    expect(t.identity.users.get('keeper@example.com')?.customMetadata).toEqual({
      server_wallet_id: old.id,
      theme: 'dark',
    });
    // the old wallet is still the one a later sign-in finds
    const again = await signIn('keeper@example.com');
    expect(again).toMatchObject({ isExisting: true, walletId: old.id, walletAddress: old.address });
  });

  it.each([
    {
      description: 'is owned (app credentials cannot sign with it)',
      spoil: (t: TestApp, id: string) =>
        void ((
          t.identity.wallets.get(id) as { wallet: { ownerId: string | null } }
        ).wallet.ownerId = 'did:privy:owner'),
    },
    {
      description: 'no longer exists',
      spoil: (t: TestApp, id: string) => void t.identity.wallets.delete(id),
    },
  ])(
    'links a new wallet when the linked one $description, with a fresh token bound to it',
    async ({ spoil }) => {
      const { token, wallet: old, user } = await t.seedUser('creator@example.com');
      user.customMetadata.theme = 'dark';
      spoil(t, old.id);
      const res = await post(t.app, '/wallet/create', {}, { token });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as {
        wallet: { id: string; address: string; publicKey: string };
        token: string;
        expiresAt: string;
      };
      expect(body.wallet.id).not.toBe(old.id);
      expect(t.identity.users.get('creator@example.com')?.customMetadata).toEqual({
        server_wallet_id: body.wallet.id,
        theme: 'dark',
      });
      const claims = await t.tokens.verify(body.token);
      expect(claims).toMatchObject({
        userId: user.id,
        walletId: body.wallet.id,
        walletAddress: body.wallet.address,
      });
      // the new token signs for the new wallet
      const signed = await post(
        t.app,
        '/sign/hash',
        { walletId: body.wallet.id, hash: '0x1' },
        { token: body.token },
      );
      expect(signed.statusCode).toBe(200);
      // …and now that one is usable, a second create is refused
      expect((await post(t.app, '/wallet/create', {}, { token: body.token })).statusCode).toBe(409);
    },
  );

  it('a wallet lookup that fails upstream is an error, never a new wallet', async () => {
    const { token, wallet: old, user } = await t.seedUser('flaky@example.com');
    t.identity.getWallet = async () => {
      throw new AppError(
        ErrorCode.IDENTITY_PROVIDER_ERROR,
        'identity provider answered HTTP 503 to get wallet',
      );
    };
    const res = await post(t.app, '/wallet/create', {}, { token });
    expect(res.statusCode).toBe(502);
    expect(user.customMetadata).toEqual({ server_wallet_id: old.id });
  });

  it('is limited to 5 a minute per IP', async () => {
    const { token } = await t.seedUser();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push(
        (await post(t.app, '/wallet/create', {}, { token, remoteAddress: '198.51.100.77' }))
          .statusCode,
      );
    expect(statuses).toEqual([409, 409, 409, 409, 409, 429, 429]);
    // another address has its own allowance
    expect(
      (await post(t.app, '/wallet/create', {}, { token, remoteAddress: '198.51.100.78' }))
        .statusCode,
    ).toBe(409);
    // calls without a valid token are refused before they count
    for (let i = 0; i < 6; i++)
      expect(
        (await post(t.app, '/wallet/create', {}, { remoteAddress: '198.51.100.79' })).statusCode,
      ).toBe(401);
    expect(
      (await post(t.app, '/wallet/create', {}, { token, remoteAddress: '198.51.100.79' }))
        .statusCode,
    ).toBe(409);
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
