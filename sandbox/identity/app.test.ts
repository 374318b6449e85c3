import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { argentAccountAddress, verifyStarkSignature } from '../../shared/starknet.js';
import { fileSchemaCompilers } from '../../test/helpers/schema-compilers.js';
import { buildIdentityEmulator, type IdentityEmulatorOptions } from './app.js';

const APP_ID = 'test-app-id';
const APP_SECRET = 'test-app-secret-0123456789';
const ORIGIN = 'http://localhost:3001';
const BASIC = `Basic ${Buffer.from(`${APP_ID}:${APP_SECRET}`).toString('base64')}`;
const HEADERS = { 'privy-app-id': APP_ID, authorization: BASIC };
const OTP_HEADERS = { ...HEADERS, origin: ORIGIN };

const apps: FastifyInstance[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function build(options: Partial<IdentityEmulatorOptions> = {}): Promise<FastifyInstance> {
  const app = await buildIdentityEmulator({
    appId: APP_ID,
    appSecret: APP_SECRET,
    schemaController: fileSchemaCompilers,
    ...options,
  });
  apps.push(app);
  return app;
}

/**
 * One emulator of the default options for the tests whose requests change nothing in it (refused
 * credentials, an outbox read): built once for the file, as building one is most of such a test's
 * CPU (docs/benchmarks.md "Issue 36, sixth round: the unit project"). A refused request leaves no
 * state behind (the credential check keeps none), so no test sees another's.
 */
let unchanged: Promise<FastifyInstance> | undefined;
const unchangedApp = (): Promise<FastifyInstance> =>
  (unchanged ??= buildIdentityEmulator({
    appId: APP_ID,
    appSecret: APP_SECRET,
    schemaController: fileSchemaCompilers,
  }));
afterAll(async () => {
  await (await unchanged)?.close();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'identity-emulator-'));
  dirs.push(dir);
  return dir;
}

async function sendOtp(app: FastifyInstance, email: string): Promise<string> {
  const init = await app.inject({
    method: 'POST',
    url: '/api/v1/passwordless/init',
    headers: OTP_HEADERS,
    payload: { email },
  });
  expect(init.statusCode).toBe(200);
  expect(init.json()).toEqual({ success: true });
  const mail = await app.inject({
    method: 'GET',
    url: `/sandbox/outbox/${encodeURIComponent(email)}`,
  });
  expect(mail.statusCode).toBe(200);
  return mail.json().code as string;
}

const authenticate = (app: FastifyInstance, email: string, code: string) =>
  app.inject({
    method: 'POST',
    url: '/api/v1/passwordless/authenticate',
    headers: OTP_HEADERS,
    payload: { email, code },
  });

const wrongCode = (code: string): string => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

async function createWallet(
  app: FastifyInstance,
  body: Record<string, unknown> = { chain_type: 'starknet' },
) {
  const response = await app.inject({
    method: 'POST',
    url: '/v1/wallets',
    headers: HEADERS,
    payload: body,
  });
  expect(response.statusCode).toBe(200);
  return response.json() as {
    id: string;
    address: string;
    public_key: string;
    owner_id: string | null;
    chain_type: string;
  };
}

describe('app credentials', () => {
  const badHeaders: [string, Record<string, string>][] = [
    ['no headers', {}],
    ['no app id', { authorization: BASIC }],
    ['no authorization', { 'privy-app-id': APP_ID }],
    ['wrong app id header', { ...HEADERS, 'privy-app-id': 'other-app' }],
    [
      'wrong secret',
      { ...HEADERS, authorization: `Basic ${Buffer.from(`${APP_ID}:nope`).toString('base64')}` },
    ],
    [
      'wrong id inside basic',
      {
        ...HEADERS,
        authorization: `Basic ${Buffer.from(`other:${APP_SECRET}`).toString('base64')}`,
      },
    ],
    ['bearer instead of basic', { ...HEADERS, authorization: `Bearer ${APP_SECRET}` }],
  ];

  it.each(badHeaders)(
    '%s → 401 with one indistinguishable body, on both hosts',
    async (_name, headers) => {
      const app = await unchangedApp();
      const api = await app.inject({
        method: 'POST',
        url: '/v1/wallets',
        headers,
        payload: { chain_type: 'starknet' },
      });
      const otp = await app.inject({
        method: 'POST',
        url: '/api/v1/passwordless/init',
        headers: { ...headers, origin: ORIGIN },
        payload: { email: 'a@example.com' },
      });
      for (const response of [api, otp]) {
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({
          error: 'Invalid app ID or app secret',
          code: 'invalid_credentials',
        });
      }
      expect(api.body).not.toContain(APP_SECRET);
    },
  );

  it('the sandbox outbox needs no credentials', async () => {
    const app = await unchangedApp();
    const response = await app.inject({
      method: 'GET',
      url: '/sandbox/outbox/nobody%40example.com',
    });
    expect(response.statusCode).toBe(404);
  });
});

describe('origin on OTP calls', () => {
  it('requires an Origin header', async () => {
    const app = await build();
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/passwordless/init',
      headers: HEADERS,
      payload: { email: 'a@example.com' },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('invalid_origin');
  });

  it('refuses origins off the allow-list and accepts those on it', async () => {
    const app = await build({ allowedOrigins: ['https://app.example.com'] });
    const payload = { email: 'a@example.com' };
    const url = '/api/v1/passwordless/init';
    const refused = await app.inject({
      method: 'POST',
      url,
      headers: { ...HEADERS, origin: 'https://evil.example.com' },
      payload,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'invalid_origin' });
    const accepted = await app.inject({
      method: 'POST',
      url,
      headers: { ...HEADERS, origin: 'https://app.example.com' },
      payload,
    });
    expect(accepted.statusCode).toBe(200);
  });
});

describe('e-mail OTP', () => {
  it('sends a 6-digit code to the outbox only, and verifying it creates the user once', async () => {
    const app = await build({ now: () => Date.parse('2026-11-01T10:00:00Z') });
    const code = await sendOtp(app, 'Alice@Example.com');
    expect(code).toMatch(/^[0-9]{6}$/);
    const mail = (
      await app.inject({ method: 'GET', url: '/sandbox/outbox/alice%40example.com' })
    ).json();
    expect(mail).toEqual({ email: 'alice@example.com', code, sentAt: '2026-11-01T10:00:00.000Z' });

    const first = await authenticate(app, 'alice@example.com', code);
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({ session_update_action: 'set', is_new_user: true });
    for (const token of ['token', 'privy_access_token', 'refresh_token'])
      expect(typeof body[token]).toBe('string');
    expect(body.user.id).toMatch(/^did:privy:[a-z0-9]+$/);
    expect(body.user.linked_accounts).toEqual([
      expect.objectContaining({ type: 'email', address: 'alice@example.com' }),
    ]);

    // a code works once
    expect((await authenticate(app, 'alice@example.com', code)).statusCode).toBe(422);

    const again = await authenticate(
      app,
      'alice@example.com',
      await sendOtp(app, 'alice@example.com'),
    );
    expect(again.json()).toMatchObject({ is_new_user: false, user: { id: body.user.id } });
  });

  it('expires a code after 10 minutes (injected clock)', async () => {
    let now = 1_000_000;
    const app = await build({ now: () => now });
    const code = await sendOtp(app, 'bob@example.com');
    now += 10 * 60 * 1000;
    const late = await authenticate(app, 'bob@example.com', code);
    expect(late.statusCode).toBe(422);
    expect(late.json()).toEqual({ error: 'Invalid email and code combination' });

    const fresh = await sendOtp(app, 'bob@example.com');
    now += 10 * 60 * 1000 - 1;
    expect((await authenticate(app, 'bob@example.com', fresh)).statusCode).toBe(200);
  });

  it('kills a code after 5 wrong tries, but not after 4', async () => {
    const app = await build();
    const survivor = await sendOtp(app, 'carol@example.com');
    for (let i = 0; i < 4; i += 1)
      expect((await authenticate(app, 'carol@example.com', wrongCode(survivor))).statusCode).toBe(
        422,
      );
    expect((await authenticate(app, 'carol@example.com', survivor)).statusCode).toBe(200);

    const victim = await sendOtp(app, 'carol@example.com');
    for (let i = 0; i < 5; i += 1)
      expect((await authenticate(app, 'carol@example.com', wrongCode(victim))).statusCode).toBe(
        422,
      );
    expect((await authenticate(app, 'carol@example.com', victim)).statusCode).toBe(422);
  });

  it('a new init replaces the old code', async () => {
    const app = await build();
    const old = await sendOtp(app, 'dave@example.com');
    let replacement = await sendOtp(app, 'dave@example.com');
    // one chance in a million that the new code equals the old one
    while (replacement === old) replacement = await sendOtp(app, 'dave@example.com');
    expect((await authenticate(app, 'dave@example.com', old)).statusCode).toBe(422);
    expect((await authenticate(app, 'dave@example.com', replacement)).statusCode).toBe(200);
  });

  it('a code for one address does not work for another', async () => {
    const app = await build();
    const code = await sendOtp(app, 'erin@example.com');
    expect((await authenticate(app, 'frank@example.com', code)).statusCode).toBe(422);
  });

  it('never writes codes, the secret, tokens or keys to its log', async () => {
    const stream = new PassThrough();
    let log = '';
    stream.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    const app = await build({ logStream: stream });
    const code = await sendOtp(app, 'gina@example.com');
    const verified = (await authenticate(app, 'gina@example.com', code)).json();
    await app.inject({
      method: 'POST',
      url: '/api/v1/passwordless/authenticate',
      headers: OTP_HEADERS,
      payload: { email: 'x', code: '123' },
    });
    const wallet = await createWallet(app);
    await app.inject({
      method: 'POST',
      url: `/v1/wallets/${wallet.id}/raw_sign`,
      headers: HEADERS,
      payload: { params: { hash: '0x1' } },
    });
    expect(log).toContain('/api/v1/passwordless/authenticate');
    for (const secret of [code, APP_SECRET, BASIC.slice(6), verified.token, verified.refresh_token])
      expect(log).not.toContain(secret);
  });
});

describe('users', () => {
  async function newUser(app: FastifyInstance, email: string): Promise<string> {
    return (await authenticate(app, email, await sendOtp(app, email))).json().user.id as string;
  }

  it('finds users by e-mail (404 when none), case-insensitively', async () => {
    const app = await build();
    const id = await newUser(app, 'hal@example.com');
    const found = await app.inject({
      method: 'POST',
      url: '/v1/users/email/address',
      headers: HEADERS,
      payload: { address: 'HAL@example.com' },
    });
    expect(found.json()).toMatchObject({ id, custom_metadata: {} });
    const missing = await app.inject({
      method: 'POST',
      url: '/v1/users/email/address',
      headers: HEADERS,
      payload: { address: 'nobody@example.com' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toHaveProperty('error');
  });

  it('replaces custom metadata as a whole and validates values', async () => {
    const app = await build();
    const id = await newUser(app, 'ivy@example.com');
    const url = `/v1/users/${encodeURIComponent(id)}/custom_metadata`;
    const set = async (custom_metadata: unknown) =>
      app.inject({ method: 'POST', url, headers: HEADERS, payload: { custom_metadata } });

    expect((await set({ a: 'x', b: 2, c: true })).json().custom_metadata).toEqual({
      a: 'x',
      b: 2,
      c: true,
    });
    expect((await set({ server_wallet_id: 'w1' })).json().custom_metadata).toEqual({
      server_wallet_id: 'w1',
    });
    for (const bad of [
      { a: null },
      { a: { nested: 1 } },
      { a: [1] },
      'text',
      { a: 'x'.repeat(2000) },
    ]) {
      const response = await set(bad);
      expect(response.statusCode).toBe(400);
    }
    const user = await app.inject({
      method: 'POST',
      url: '/v1/users/email/address',
      headers: HEADERS,
      payload: { address: 'ivy@example.com' },
    });
    expect(user.json().custom_metadata).toEqual({ server_wallet_id: 'w1' });

    const unknown = await app.inject({
      method: 'POST',
      url: '/v1/users/did%3Aprivy%3Anope/custom_metadata',
      headers: HEADERS,
      payload: { custom_metadata: {} },
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('wallets', () => {
  it('creates app-managed Starknet wallets whose address is the ArgentX v0.5.0 address of the key', async () => {
    const app = await build();
    const wallet = await createWallet(app);
    expect(wallet).toMatchObject({ chain_type: 'starknet', owner_id: null, policy_ids: [] });
    expect(wallet.public_key).toMatch(/^0x[0-9a-f]{64}$/);
    expect(wallet.address).toBe(argentAccountAddress(wallet.public_key));
    const fetched = await app.inject({
      method: 'GET',
      url: `/v1/wallets/${wallet.id}`,
      headers: HEADERS,
    });
    expect(fetched.json()).toEqual(wallet);
    expect(
      (await app.inject({ method: 'GET', url: '/v1/wallets/nope', headers: HEADERS })).statusCode,
    ).toBe(404);
    const other = await app.inject({
      method: 'POST',
      url: '/v1/wallets',
      headers: HEADERS,
      payload: { chain_type: 'ethereum' },
    });
    expect(other.statusCode).toBe(400);
  });

  it('raw_sign returns a signature that verifies against the public key (hash padded or not)', async () => {
    const app = await build();
    const wallet = await createWallet(app);
    for (const hash of ['0x2a', `0x${'0'.repeat(40)}${'ab'.repeat(12)}`, `0x7${'f'.repeat(62)}`]) {
      const response = await app.inject({
        method: 'POST',
        url: `/v1/wallets/${wallet.id}/raw_sign`,
        headers: HEADERS,
        payload: { params: { hash } },
      });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({ method: 'raw_sign', data: { encoding: 'hex' } });
      expect(body.data.signature).toMatch(/^0x[0-9a-f]{128}$/);
      expect(verifyStarkSignature(hash, body.data.signature, wallet.public_key)).toBe(true);
      expect(verifyStarkSignature('0x2b', body.data.signature, wallet.public_key)).toBe(false);
    }
  });

  it('raw_sign refuses malformed or out-of-range hashes and unknown wallets', async () => {
    const app = await build();
    const wallet = await createWallet(app);
    const sign = (id: string, hash: unknown) =>
      app.inject({
        method: 'POST',
        url: `/v1/wallets/${id}/raw_sign`,
        headers: HEADERS,
        payload: { params: { hash } },
      });
    expect((await sign(wallet.id, 'abc')).statusCode).toBe(400);
    expect((await sign(wallet.id, `0x8${'0'.repeat(63)}`)).statusCode).toBe(400);
    expect((await sign(wallet.id, `0x${'f'.repeat(65)}`)).statusCode).toBe(400);
    expect((await sign('nope', '0x1')).statusCode).toBe(404);
  });

  it('a wallet with an owner cannot be signed with app credentials alone', async () => {
    const app = await build();
    const email = 'jay@example.com';
    const userId = (await authenticate(app, email, await sendOtp(app, email))).json().user
      .id as string;
    const owned = await createWallet(app, { chain_type: 'starknet', owner: { user_id: userId } });
    expect(owned.owner_id).toBe(userId);
    const response = await app.inject({
      method: 'POST',
      url: `/v1/wallets/${owned.id}/raw_sign`,
      headers: HEADERS,
      payload: { params: { hash: '0x1' } },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toMatch(/authorization signature required/);
    const badOwner = await app.inject({
      method: 'POST',
      url: '/v1/wallets',
      headers: HEADERS,
      payload: { chain_type: 'starknet', owner: { user_id: 'did:privy:nobody' } },
    });
    expect(badOwner.statusCode).toBe(400);
  });

  it('persists users and keys to a 0600 file that a second instance reloads; keys never go on the wire', async () => {
    const dataFile = join(tempDir(), 'nested', 'identity.json');
    const first = await build({ dataFile });
    const email = 'kim@example.com';
    const userId = (await authenticate(first, email, await sendOtp(first, email))).json().user
      .id as string;
    await first.inject({
      method: 'POST',
      url: `/v1/users/${encodeURIComponent(userId)}/custom_metadata`,
      headers: HEADERS,
      payload: { custom_metadata: { k: 1 } },
    });
    const wallet = await createWallet(first);

    expect(statSync(dataFile).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(dataFile, 'utf8')) as {
      wallets: { id: string; privateKey: string }[];
    };
    const privateKey = saved.wallets.find((w) => w.id === wallet.id)?.privateKey;
    expect(privateKey).toMatch(/^0x[0-9a-f]{64}$/);
    await first.close();

    const second = await build({ dataFile });
    const fetched = await second.inject({
      method: 'GET',
      url: `/v1/wallets/${wallet.id}`,
      headers: HEADERS,
    });
    expect(fetched.json()).toEqual(wallet);
    const signed = await second.inject({
      method: 'POST',
      url: `/v1/wallets/${wallet.id}/raw_sign`,
      headers: HEADERS,
      payload: { params: { hash: '0x1234' } },
    });
    expect(verifyStarkSignature('0x1234', signed.json().data.signature, wallet.public_key)).toBe(
      true,
    );
    const user = await second.inject({
      method: 'POST',
      url: '/v1/users/email/address',
      headers: HEADERS,
      payload: { address: email },
    });
    expect(user.json()).toMatchObject({ id: userId, custom_metadata: { k: 1 } });

    for (const body of [fetched.body, signed.body, user.body])
      expect(body).not.toContain((privateKey as string).slice(2));
  });

  it('refuses a corrupt state file instead of silently starting empty', async () => {
    const dataFile = join(tempDir(), 'identity.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(dataFile, '{"version": 1, "users": "nope"}');
    await expect(
      buildIdentityEmulator({ appId: APP_ID, appSecret: APP_SECRET, dataFile }),
    ).rejects.toThrow(/not an identity state file/);
  });
});

describe('fault injection', () => {
  it('is wired in: the next request fails with the injected status', async () => {
    const app = await build();
    await app.inject({
      method: 'POST',
      url: '/sandbox/faults',
      payload: { failNext: { count: 1, status: 503 } },
    });
    expect(
      (await app.inject({ method: 'GET', url: '/v1/wallets/x', headers: HEADERS })).statusCode,
    ).toBe(503);
    expect(
      (await app.inject({ method: 'GET', url: '/v1/wallets/x', headers: HEADERS })).statusCode,
    ).toBe(404);
  });
});
