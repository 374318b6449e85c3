/**
 * The JWT guard on protected routes: every kind of bad token is 401 (TOKEN_EXPIRED when only
 * the expiry is wrong), and a valid token cannot sign for another wallet.
 */
import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JWT_AUDIENCE, JWT_ISSUER, JWT_SANDBOX_AUDIENCE } from '../server/config.js';
import { CLOCK_SKEW_SECONDS, createTokenService } from '../server/jwt.js';
import {
  buildTestApp,
  errorCodeOf,
  post,
  type SeededUser,
  TEST_JWT_SECRET,
  type TestApp,
} from './helpers/build-test-app.js';

const key = new TextEncoder().encode(TEST_JWT_SECRET);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const nowSeconds = () => Math.floor(Date.now() / 1000);

let t: TestApp;
let alice: SeededUser;
let bob: SeededUser;

beforeAll(async () => {
  t = await buildTestApp();
  alice = await t.seedUser('alice@example.com');
  bob = await t.seedUser('bob@example.com');
});
afterAll(async () => {
  await t.close();
});

function claims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    email: alice.user.email,
    walletId: alice.wallet.id,
    walletAddress: alice.wallet.address,
    ...overrides,
  };
}

async function signed(options: {
  payload?: Record<string, unknown>;
  alg?: string;
  secret?: Uint8Array;
  iss?: string;
  aud?: string;
  exp?: number;
  nbf?: number;
  iat?: number;
  sub?: string | null;
}): Promise<string> {
  let jwt = new SignJWT(options.payload ?? claims())
    .setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT' })
    .setIssuer(options.iss ?? JWT_ISSUER)
    .setAudience(options.aud ?? JWT_AUDIENCE)
    .setIssuedAt(options.iat)
    .setJti('test-jti')
    .setExpirationTime(options.exp ?? nowSeconds() + 3600);
  if (options.sub !== null) jwt = jwt.setSubject(options.sub ?? alice.user.id);
  if (options.nbf !== undefined) jwt = jwt.setNotBefore(options.nbf);
  return jwt.sign(options.secret ?? key);
}

const cases: Array<{
  description: string;
  authorization: () => Promise<string | undefined>;
  code: string;
}> = [
  {
    description: 'no Authorization header',
    authorization: async () => undefined,
    code: 'UNAUTHORIZED',
  },
  {
    description: 'Basic instead of Bearer',
    authorization: async () => `Basic ${Buffer.from('a:b').toString('base64')}`,
    code: 'UNAUTHORIZED',
  },
  { description: 'empty bearer', authorization: async () => 'Bearer ', code: 'UNAUTHORIZED' },
  { description: 'garbage', authorization: async () => 'Bearer not-a-jwt', code: 'UNAUTHORIZED' },
  {
    description: 'three garbage parts',
    authorization: async () => 'Bearer aaa.bbb.ccc',
    code: 'UNAUTHORIZED',
  },
  {
    description: 'alg none (unsigned)',
    authorization: async () =>
      `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims(), sub: alice.user.id, iss: JWT_ISSUER, aud: JWT_AUDIENCE, iat: nowSeconds(), exp: nowSeconds() + 3600, jti: 'x' })}.`,
    code: 'UNAUTHORIZED',
  },
  {
    description: 'HS512 with the right secret',
    authorization: async () => `Bearer ${await signed({ alg: 'HS512' })}`,
    code: 'UNAUTHORIZED',
  },
  {
    description: 'HS384 with the right secret',
    authorization: async () => `Bearer ${await signed({ alg: 'HS384' })}`,
    code: 'UNAUTHORIZED',
  },
  {
    description: 'wrong secret',
    authorization: async () =>
      `Bearer ${await signed({ secret: new TextEncoder().encode('another-secret-that-is-32-chars-long!!') })}`,
    code: 'UNAUTHORIZED',
  },
  {
    description: 'expired',
    authorization: async () => `Bearer ${await signed({ exp: nowSeconds() - 10 })}`,
    code: 'TOKEN_EXPIRED',
  },
  {
    description: 'expired by our own issuer 7 days + 1 s ago',
    authorization: async () => {
      const past = new Date(Date.now() - (7 * 24 * 3600 + 1) * 1000);
      return `Bearer ${(await createTokenService({ secret: TEST_JWT_SECRET, now: () => past }).issue({ userId: alice.user.id, email: 'alice@example.com', walletId: alice.wallet.id, walletAddress: alice.wallet.address })).token}`;
    },
    code: 'TOKEN_EXPIRED',
  },
  {
    description: 'nbf in the future',
    authorization: async () => `Bearer ${await signed({ nbf: nowSeconds() + 600 })}`,
    code: 'UNAUTHORIZED',
  },
  {
    description: 'iat in the future (beyond the clock skew)',
    authorization: async () => `Bearer ${await signed({ iat: nowSeconds() + 600 })}`,
    code: 'UNAUTHORIZED',
  },
  {
    description: 'issued 8 days ago although exp says later (the 7-day cap)',
    authorization: async () =>
      `Bearer ${await signed({ iat: nowSeconds() - 8 * 24 * 3600, exp: nowSeconds() + 3600 })}`,
    code: 'TOKEN_EXPIRED',
  },
  {
    description: 'wrong iss',
    authorization: async () => `Bearer ${await signed({ iss: 'someone-else' })}`,
    code: 'UNAUTHORIZED',
  },
  {
    description: 'wrong aud',
    authorization: async () => `Bearer ${await signed({ aud: 'another-app' })}`,
    code: 'UNAUTHORIZED',
  },
  {
    description: 'a sandbox token (same secret) on a real server',
    authorization: async () => `Bearer ${await signed({ aud: JWT_SANDBOX_AUDIENCE })}`,
    code: 'UNAUTHORIZED',
  },
  {
    description: 'tampered payload (wallet swapped, signature kept)',
    authorization: async () => {
      const [header, payload, signature] = alice.token.split('.') as [string, string, string];
      const body = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<
        string,
        unknown
      >;
      return `Bearer ${header}.${b64({ ...body, walletId: bob.wallet.id })}.${signature}`;
    },
    code: 'UNAUTHORIZED',
  },
  {
    description:
      'the same signature bytes spelt with other padding bits (only the canonical spelling passes)',
    authorization: async () => {
      const [header, payload, signature] = alice.token.split('.') as [string, string, string];
      // 32 bytes are 43 base64url characters: the last one carries 2 spare bits
      const last = signature.charCodeAt(signature.length - 1);
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const twin = alphabet[alphabet.indexOf(String.fromCharCode(last)) ^ 1] as string;
      const respelt = `${signature.slice(0, -1)}${twin}`;
      expect(Buffer.from(respelt, 'base64url').equals(Buffer.from(signature, 'base64url'))).toBe(
        true,
      );
      return `Bearer ${header}.${payload}.${respelt}`;
    },
    code: 'UNAUTHORIZED',
  },
  {
    description: 'a header asking for an extension (crit), correctly signed',
    authorization: async () => {
      const header = b64({ alg: 'HS256', typ: 'JWT', crit: ['exp'] });
      const payload = alice.token.split('.')[1] as string;
      const signature = createHmac('sha256', key)
        .update(`${header}.${payload}`)
        .digest('base64url');
      return `Bearer ${header}.${payload}.${signature}`;
    },
    code: 'UNAUTHORIZED',
  },
  {
    description: 'a payload that is not a JSON object, correctly signed',
    authorization: async () => {
      const header = alice.token.split('.')[0] as string;
      const payload = Buffer.from('"alice"').toString('base64url');
      const signature = createHmac('sha256', key)
        .update(`${header}.${payload}`)
        .digest('base64url');
      return `Bearer ${header}.${payload}.${signature}`;
    },
    code: 'UNAUTHORIZED',
  },
  {
    description: 'missing sub',
    authorization: async () => `Bearer ${await signed({ sub: null })}`,
    code: 'UNAUTHORIZED',
  },
  {
    description: 'missing walletId claim',
    authorization: async () =>
      `Bearer ${await signed({ payload: { email: 'alice@example.com', walletAddress: alice.wallet.address } })}`,
    code: 'UNAUTHORIZED',
  },
  {
    description: 'walletId claim of the wrong type',
    authorization: async () => `Bearer ${await signed({ payload: claims({ walletId: 42 }) })}`,
    code: 'UNAUTHORIZED',
  },
];

describe('sandbox tokens', () => {
  it("a sandbox server accepts its own audience and refuses a real server's token with the same secret", async () => {
    const sandbox = await buildTestApp({ config: { sandbox: true } });
    try {
      const user = await sandbox.seedUser('carol@example.com');
      const own = await post(sandbox.app, '/wallet/find', {}, { token: user.token });
      expect(own.statusCode).toBe(200);
      const payload = JSON.parse(
        Buffer.from(user.token.split('.')[1] as string, 'base64url').toString(),
      ) as { aud: string };
      expect(payload.aud).toBe(JWT_SANDBOX_AUDIENCE);
      const real = await signed({
        aud: JWT_AUDIENCE,
        payload: {
          email: user.user.email,
          walletId: user.wallet.id,
          walletAddress: user.wallet.address,
        },
        sub: user.user.id,
      });
      const refused = await post(
        sandbox.app,
        '/wallet/find',
        {},
        { headers: { authorization: `Bearer ${real}` } },
      );
      expect(refused.statusCode).toBe(401);
    } finally {
      await sandbox.close();
    }
  });
});

describe('JWT guard', () => {
  it('a valid token passes (the table below would pass vacuously otherwise)', async () => {
    const res = await post(t.app, '/wallet/find', {}, { token: alice.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().wallet.id).toBe(alice.wallet.id);
  });

  it.each(cases)(
    '$description → 401 $code on every protected route',
    async ({ authorization, code }) => {
      const header = await authorization();
      for (const [url, body] of [
        ['/wallet/find', {}],
        ['/wallet/create', {}],
        ['/sign/hash', { walletId: alice.wallet.id, hash: '0x1' }],
        ['/sign/message', { walletId: alice.wallet.id, message: 'hi' }],
        ['/paymaster', { jsonrpc: '2.0', id: 1, method: 'paymaster_isAvailable' }],
      ] as const) {
        const res = await post(t.app, url, body, {
          headers: header === undefined ? {} : { authorization: header },
        });
        expect(res.statusCode, `${url}: ${res.body}`).toBe(401);
        expect(errorCodeOf(res.json())).toBe(code);
      }
      expect(t.identity.signed).toHaveLength(0);
    },
  );

  it.each([
    {
      description: 'sign/hash',
      url: '/sign/hash',
      body: (walletId: string) => ({ walletId, hash: '0x1234' }),
    },
    {
      description: 'sign/message',
      url: '/sign/message',
      body: (walletId: string) => ({ walletId, message: 'hello' }),
    },
  ])(
    'a valid token for wallet A cannot $description for wallet B → 403 WALLET_MISMATCH',
    async ({ url, body }) => {
      const res = await post(t.app, url, body(bob.wallet.id), { token: alice.token });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('WALLET_MISMATCH');
      expect(t.identity.signed).toHaveLength(0);
      // and the same request for its own wallet works
      expect(
        (await post(t.app, url, body(alice.wallet.id), { token: alice.token })).statusCode,
      ).toBe(200);
      t.identity.signed.length = 0;
    },
  );
});

describe('token service', () => {
  it('issues HS256 tokens with iss, aud, sub, jti, iat and a 7-day expiry, each with its own jti', async () => {
    const fixed = new Date('2030-01-01T00:00:00Z');
    const service = createTokenService({ secret: TEST_JWT_SECRET, now: () => fixed });
    const subject = {
      userId: 'did:privy:x',
      email: 'x@example.com',
      walletId: 'w1',
      walletAddress: '0xabc',
    };
    const a = await service.issue(subject);
    const b = await service.issue(subject);
    expect(a.expiresAt).toBe('2030-01-08T00:00:00.000Z');
    const header = JSON.parse(Buffer.from(a.token.split('.')[0] as string, 'base64url').toString());
    expect(header.alg).toBe('HS256');
    const verified = await service.verify(a.token);
    expect(verified).toMatchObject(subject);
    expect(verified.issuedAt.toISOString()).toBe('2030-01-01T00:00:00.000Z');
    expect(verified.jti).not.toBe((await service.verify(b.token)).jti);
    const payload = JSON.parse(
      Buffer.from(a.token.split('.')[1] as string, 'base64url').toString(),
    );
    expect(payload).toMatchObject({ iss: JWT_ISSUER, aud: JWT_AUDIENCE, sub: 'did:privy:x' });
  });

  it('a token one second before expiry is valid, at expiry it is TOKEN_EXPIRED', async () => {
    let now = new Date('2030-01-01T00:00:00Z');
    const service = createTokenService({ secret: TEST_JWT_SECRET, now: () => now });
    const { token } = await service.issue({
      userId: 'u',
      email: 'u@example.com',
      walletId: 'w',
      walletAddress: '0x1',
    });
    now = new Date(now.getTime() + (7 * 24 * 3600 - 1) * 1000);
    await expect(service.verify(token)).resolves.toBeDefined();
    now = new Date(now.getTime() + 1000);
    await expect(service.verify(token)).rejects.toMatchObject({
      code: 'TOKEN_EXPIRED',
    });
  });

  it('a token verified before meets the clock again (verified tokens are remembered, not their verdict)', async () => {
    let now = new Date('2030-01-01T00:00:00Z');
    const service = createTokenService({ secret: TEST_JWT_SECRET, now: () => now });
    const iat = Math.floor(now.getTime() / 1000);
    const token = await new SignJWT({ email: 'u@example.com', walletId: 'w', walletAddress: '0x1' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(JWT_ISSUER)
      .setAudience(JWT_AUDIENCE)
      .setSubject('u')
      .setJti('j')
      .setIssuedAt(iat)
      .setExpirationTime(iat + 60)
      .sign(key);
    await expect(service.verify(token)).resolves.toMatchObject({ userId: 'u' });
    await expect(service.verify(token)).resolves.toMatchObject({ userId: 'u' });
    // the clock stepped back past the skew: as if the iat were ahead
    now = new Date(now.getTime() - (CLOCK_SKEW_SECONDS + 1) * 1000);
    await expect(service.verify(token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    // its own exp, well before the 7-day cap
    now = new Date((iat + 60) * 1000);
    await expect(service.verify(token)).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
  });

  it("an iat a few seconds ahead (another instance's clock) passes; past the skew it is UNAUTHORIZED", async () => {
    const issuedAt = new Date('2030-01-01T00:00:30Z');
    const { token } = await createTokenService({
      secret: TEST_JWT_SECRET,
      now: () => issuedAt,
    }).issue({ userId: 'u', email: 'u@example.com', walletId: 'w', walletAddress: '0x1' });
    const at = (iso: string) =>
      createTokenService({ secret: TEST_JWT_SECRET, now: () => new Date(iso) });
    await expect(at('2030-01-01T00:00:00Z').verify(token)).resolves.toMatchObject({ userId: 'u' });
    await expect(at('2029-12-31T23:59:59Z').verify(token)).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });
});
