/**
 * Contract test of docs/contracts.md part A: the real identity adapter against the identity emulator,
 * over real HTTP on loopback. Both sides follow the contract page; this pins them to each other.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildIdentityEmulator } from '../../sandbox/identity/app.js';
import type { FaultSettings } from '../../sandbox/faults.js';
import { type AppError, isAppError } from '../../shared/errors.js';
import { argentAccountAddress, verifyStarkSignature } from '../../shared/starknet.js';
import { createIdentityProvider, type IdentityProviderOptions } from './identity.js';
import { createLocalLock } from '../locks.js';
import {
  type Provisioning,
  provisionWallet,
  SERVER_WALLET_KEY,
  verifyAndProvision,
} from './identity-flow.js';
import type { IdentityProvider } from './types.js';

const APP_ID = 'contract-app';
const APP_SECRET = 'contract-secret-Zq81vT0pLk';
const ORIGIN = 'http://localhost:3001';
const BASIC = Buffer.from(`${APP_ID}:${APP_SECRET}`).toString('base64');

let emulator: FastifyInstance;
let url: string;
let identity: IdentityProvider;
let emailCounter = 0;

const urlOf = (server: Server): string =>
  `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

function adapter(overrides: Partial<IdentityProviderOptions> = {}, base = url): IdentityProvider {
  return createIdentityProvider({
    authUrl: `${base}/api/v1`,
    apiUrl: base,
    appId: APP_ID,
    appSecret: APP_SECRET,
    origin: ORIGIN,
    timeoutMs: 2_000,
    ...overrides,
  });
}

const freshEmail = (): string => `user${++emailCounter}.${Date.now()}@example.com`;

async function outboxCode(email: string): Promise<string> {
  const response = await fetch(`${url}/sandbox/outbox/${encodeURIComponent(email)}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { code: string }).code;
}

async function login(email: string): Promise<string> {
  await identity.sendOtp(email);
  return outboxCode(email);
}

async function setFaults(settings: FaultSettings): Promise<void> {
  const response = await fetch(`${url}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(settings),
  });
  expect(response.status).toBe(200);
}

async function upstreamRequests(): Promise<number> {
  return ((await (await fetch(`${url}/sandbox/faults`)).json()) as { requests: number }).requests;
}

/** The error a promise rejects with, checked to be a safe AppError. */
async function failure(promise: Promise<unknown>, secrets: string[] = []): Promise<AppError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(isAppError(caught), `expected an AppError, got ${String(caught)}`).toBe(true);
  const error = caught as AppError;
  for (const secret of [APP_SECRET, BASIC, ...secrets]) expect(error.message).not.toContain(secret);
  expect(error.cause).toBeUndefined();
  return error;
}

beforeAll(async () => {
  emulator = await buildIdentityEmulator({
    appId: APP_ID,
    appSecret: APP_SECRET,
    allowedOrigins: [ORIGIN],
  });
  await emulator.listen({ host: '127.0.0.1', port: 0 });
  url = urlOf(emulator.server);
  identity = adapter();
});

afterAll(async () => {
  await emulator.close();
});

afterEach(async () => {
  await setFaults({ latencyMs: 0, failNext: { count: 0 } });
});

describe('adapter methods against the emulator', () => {
  it('sendOtp + verifyOtp: a new user, then the same user again', async () => {
    const email = freshEmail();
    const first = await identity.verifyOtp(email, await login(email));
    expect(first.isNewUser).toBe(true);
    expect(first.user).toEqual({
      id: expect.stringMatching(/^did:privy:/),
      email,
      customMetadata: {},
    });
    const second = await identity.verifyOtp(email.toUpperCase(), await login(email));
    expect(second).toEqual({ user: first.user, isNewUser: false });
  });

  it('verifyOtp with a wrong code → INVALID_OTP 401, the code not in the message', async () => {
    const email = freshEmail();
    const code = await login(email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const error = await failure(identity.verifyOtp(email, wrong), [wrong, code, email]);
    expect(error).toMatchObject({ code: 'INVALID_OTP' });
    // the right code still works: one wrong try does not kill it
    await expect(identity.verifyOtp(email, code)).resolves.toMatchObject({ isNewUser: true });
  });

  it('getUserByEmail finds a user and answers null for nobody; setCustomMetadata replaces', async () => {
    const email = freshEmail();
    const { user } = await identity.verifyOtp(email, await login(email));
    expect(await identity.getUserByEmail(email)).toEqual(user);
    expect(await identity.getUserByEmail(freshEmail())).toBeNull();

    const set = await identity.setCustomMetadata(user.id, { a: 'x', n: 2, b: false });
    expect(set).toEqual({ ...user, customMetadata: { a: 'x', n: 2, b: false } });
    await identity.setCustomMetadata(user.id, { only: 'this' });
    expect((await identity.getUserByEmail(email))?.customMetadata).toEqual({ only: 'this' });
  });

  it('createWallet / getWallet / rawSign: an app-managed wallet that really signs', async () => {
    const wallet = await identity.createWallet();
    expect(wallet).toMatchObject({ chainType: 'starknet', ownerId: null });
    expect(wallet.address).toBe(argentAccountAddress(wallet.publicKey));
    expect(wallet.address).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await identity.getWallet(wallet.id)).toEqual(wallet);
    expect(await identity.getWallet('no-such-wallet')).toBeNull();

    for (const hash of ['0x1', `0x0${'5'.repeat(63)}`]) {
      const signature = await identity.rawSign(wallet.id, hash);
      expect(signature).toMatch(/^0x[0-9a-f]{128}$/);
      expect(verifyStarkSignature(hash, signature, wallet.publicKey)).toBe(true);
    }
  });

  it('rawSign on a wallet with an owner → IDENTITY_PROVIDER_ERROR naming the 401', async () => {
    const email = freshEmail();
    const { user } = await identity.verifyOtp(email, await login(email));
    const owned = await ownedWallet(user.id);
    const error = await failure(identity.rawSign(owned, '0x1'));
    expect(error).toMatchObject({ code: 'IDENTITY_PROVIDER_ERROR' });
    expect(error.message).toMatch(/identity provider answered HTTP 401/);
  });

  it('wrong credentials and a refused origin → IDENTITY_PROVIDER_ERROR without the secret', async () => {
    const badSecret = 'definitely-wrong-secret';
    const error = await failure(adapter({ appSecret: badSecret }).createWallet(), [badSecret]);
    expect(error).toMatchObject({ code: 'IDENTITY_PROVIDER_ERROR' });
    expect(error.message).toContain('401');

    const email = freshEmail();
    const refused = await failure(adapter({ origin: 'https://elsewhere.example' }).sendOtp(email), [
      email,
    ]);
    expect(refused.message).toMatch(/403 \(invalid_origin\)/);
  });
});

async function ownedWallet(userId: string): Promise<string> {
  const response = await fetch(`${url}/v1/wallets`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'privy-app-id': APP_ID,
      authorization: `Basic ${BASIC}`,
    },
    body: JSON.stringify({ chain_type: 'starknet', owner: { user_id: userId } }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

/** The flows over `provider`, with an in-process lock (the routes share one per app). */
function flow(provider: IdentityProvider): Provisioning {
  return { identity: provider, lock: createLocalLock(), waitMs: 5_000 };
}

describe('verifyAndProvision end to end', () => {
  it('gives a new user a wallet linked in metadata, and the same wallet on the next login', async () => {
    const email = freshEmail();
    const first = await verifyAndProvision(flow(identity), email, await login(email));
    expect(first.isExisting).toBe(false);
    expect(first.wallet).toMatchObject({ chainType: 'starknet', ownerId: null });
    expect(first.user.customMetadata).toEqual({ [SERVER_WALLET_KEY]: first.wallet.id });
    expect((await identity.getUserByEmail(email))?.customMetadata[SERVER_WALLET_KEY]).toBe(
      first.wallet.id,
    );

    const second = await verifyAndProvision(flow(identity), email, await login(email));
    expect(second.isExisting).toBe(true);
    expect(second.wallet).toEqual(first.wallet);
    expect(second.user.id).toBe(first.user.id);
  });

  it('replaces an owned wallet (and a dangling id), keeping other metadata keys', async () => {
    const email = freshEmail();
    const { user } = await identity.verifyOtp(email, await login(email));
    const owned = await ownedWallet(user.id);
    await identity.setCustomMetadata(user.id, { [SERVER_WALLET_KEY]: owned, plan: 'pro' });

    const replaced = await verifyAndProvision(flow(identity), email, await login(email));
    expect(replaced.isExisting).toBe(false);
    expect(replaced.wallet.id).not.toBe(owned);
    expect(replaced.wallet.ownerId).toBeNull();
    expect((await identity.getUserByEmail(email))?.customMetadata).toEqual({
      [SERVER_WALLET_KEY]: replaced.wallet.id,
      plan: 'pro',
    });

    await identity.setCustomMetadata(user.id, { [SERVER_WALLET_KEY]: 'gone-wallet', plan: 'pro' });
    const dangling = await verifyAndProvision(flow(identity), email, await login(email));
    expect(dangling.isExisting).toBe(false);
    expect(dangling.user.customMetadata).toEqual({
      [SERVER_WALLET_KEY]: dangling.wallet.id,
      plan: 'pro',
    });
  });

  it('the e-mail lookup finding another account → IDENTITY_PROVIDER_ERROR, nothing created or linked', async () => {
    const other = freshEmail();
    const otherUser = (await verifyAndProvision(flow(identity), other, await login(other))).user;
    const otherMetadata = (await identity.getUserByEmail(other))?.customMetadata;
    const email = freshEmail();
    const code = await login(email);
    const writes: string[] = [];
    // a provider that answers the lookup with the wrong account (a relinked e-mail, a bug upstream)
    const confused: IdentityProvider = {
      ...identity,
      getUserByEmail: async () => identity.getUserByEmail(other),
      createWallet: async () => {
        writes.push('createWallet');
        return identity.createWallet();
      },
      setCustomMetadata: async (userId, metadata) => {
        writes.push(`setCustomMetadata ${userId}`);
        return identity.setCustomMetadata(userId, metadata);
      },
    };
    const error = await failure(verifyAndProvision(flow(confused), email, code), [code]);
    expect(error).toMatchObject({ code: 'IDENTITY_PROVIDER_ERROR' });
    expect(error.message).toMatch(/different account/);
    expect(writes).toEqual([]);
    expect((await identity.getUserByEmail(other))?.customMetadata).toEqual(otherMetadata);
    // the user who signed in exists (authenticate made it) but has nothing linked
    const signedIn = await identity.getUserByEmail(email);
    expect(signedIn?.id).not.toBe(otherUser.id);
    expect(signedIn?.customMetadata).toEqual({});
  });

  it('provisionWallet refuses WALLET_EXISTS over a usable wallet and replaces an owned one', async () => {
    const email = freshEmail();
    const first = await verifyAndProvision(flow(identity), email, await login(email));
    const error = await failure(provisionWallet(flow(identity), { email, userId: first.user.id }));
    expect(error).toMatchObject({ code: 'WALLET_EXISTS' });
    expect((await identity.getUserByEmail(email))?.customMetadata).toEqual({
      [SERVER_WALLET_KEY]: first.wallet.id,
    });

    const owned = await ownedWallet(first.user.id);
    const user = await identity.setCustomMetadata(first.user.id, { [SERVER_WALLET_KEY]: owned });
    const replaced = await provisionWallet(flow(identity), { email, userId: user.id });
    expect(replaced.wallet.id).not.toBe(owned);
    expect((await identity.getUserByEmail(email))?.customMetadata).toEqual({
      [SERVER_WALLET_KEY]: replaced.wallet.id,
    });
  });

  it('a wrong code → INVALID_OTP, and nothing is provisioned', async () => {
    const email = freshEmail();
    const code = await login(email);
    const wrong = String((Number(code) + 7) % 1_000_000).padStart(6, '0');
    const error = await failure(verifyAndProvision(flow(identity), email, wrong), [wrong, code]);
    expect(error).toMatchObject({ code: 'INVALID_OTP' });
    expect(await identity.getUserByEmail(email)).toBeNull();
  });

  it('a failing wallet lookup is an error, never a reason to make a new wallet', async () => {
    const email = freshEmail();
    const first = await verifyAndProvision(flow(identity), email, await login(email));
    const code = await login(email);
    // authenticate and user lookup pass, then the GET (and its one retry) fail
    await setFaults({ failNext: { count: 0 } });
    const spy: IdentityProvider = {
      ...identity,
      getWallet: async (id) => {
        await setFaults({ failNext: { count: 2, status: 503 } });
        return identity.getWallet(id);
      },
    };
    const error = await failure(verifyAndProvision(flow(spy), email, code));
    expect(error.code).toBe('IDENTITY_PROVIDER_ERROR');
    expect((await identity.getUserByEmail(email))?.customMetadata[SERVER_WALLET_KEY]).toBe(
      first.wallet.id,
    );
  });
});

describe('upstream faults', () => {
  it('nothing listening → IDENTITY_PROVIDER_ERROR 502', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadUrl = urlOf(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const dead = adapter({}, deadUrl);
    for (const call of [
      () => dead.createWallet(),
      () => dead.getWallet('x'),
      () => dead.sendOtp('a@example.com'),
    ]) {
      const error = await failure(call());
      expect(error).toMatchObject({ code: 'IDENTITY_PROVIDER_ERROR' });
      expect(error.message).toMatch(/could not be reached/);
    }
  });

  it('latency past timeoutMs → UPSTREAM_TIMEOUT 504', async () => {
    // its own emulator: requests that outlive the adapter's timeout are still sleeping in there,
    // and close() waits for them, so they cannot bleed into the next test's fault counter. The
    // adapter's deadline is armed before its request is sent, the emulator's sleep after it
    // arrives, so the deadline always fires first, however late the machine runs the timers
    const slow = await buildIdentityEmulator({
      appId: APP_ID,
      appSecret: APP_SECRET,
      faults: { latencyMs: 300 },
    });
    try {
      await slow.listen({ host: '127.0.0.1', port: 0 });
      const hasty = adapter({ timeoutMs: 100 }, urlOf(slow.server));
      const email = freshEmail();
      const error = await failure(hasty.verifyOtp(email, '123456'), ['123456', email]);
      expect(error).toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
      expect((await failure(hasty.getWallet('x'))).code).toBe('UPSTREAM_TIMEOUT');
    } finally {
      await slow.close();
    }
  });

  it('a 500 → IDENTITY_PROVIDER_ERROR; a read retries once, a write never', async () => {
    await setFaults({ failNext: { count: 1, status: 500 } });
    const before = await upstreamRequests();
    const error = await failure(identity.createWallet());
    expect(error).toMatchObject({ code: 'IDENTITY_PROVIDER_ERROR' });
    expect(error.message).toMatch(/HTTP 500 \(injected_fault\) to create wallet/);
    expect((await upstreamRequests()) - before).toBe(1);

    const wallet = await identity.createWallet();
    await setFaults({ failNext: { count: 1, status: 500 } });
    expect(await identity.getWallet(wallet.id)).toEqual(wallet);
    await setFaults({ failNext: { count: 2, status: 502 } });
    expect((await failure(identity.getWallet(wallet.id))).code).toBe('IDENTITY_PROVIDER_ERROR');
  });

  it('a read meets a failed connection: tried once more; a write never', async () => {
    const calls: string[] = [];
    const flaky = adapter({
      transport: async (request) => {
        calls.push(request.method);
        throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      },
    });
    expect((await failure(flaky.getWallet('w'))).message).toMatch(
      /could not be reached for get wallet/,
    );
    expect(calls).toEqual(['GET', 'GET']);
    calls.length = 0;
    expect((await failure(flaky.createWallet())).code).toBe('IDENTITY_PROVIDER_ERROR');
    expect(calls).toEqual(['POST']);
  });

  it('429 and a dropped connection → IDENTITY_PROVIDER_ERROR', async () => {
    await setFaults({ failNext: { count: 1, status: 429 } });
    expect((await failure(identity.sendOtp(freshEmail()))).message).toMatch(/HTTP 429/);
    await setFaults({ failNext: { count: 1, drop: true } });
    expect((await failure(identity.createWallet())).code).toBe('IDENTITY_PROVIDER_ERROR');
  });
});

describe('responses that break the contract', () => {
  let rogue: Server;
  let reply: { status: number; body: string } = { status: 200, body: '{}' };

  beforeAll(async () => {
    rogue = createServer((_request, response) => {
      response.writeHead(reply.status, { 'content-type': 'application/json' });
      response.end(reply.body);
    });
    await new Promise<void>((resolve) => rogue.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => rogue.close(() => resolve()));
  });

  const cases: [
    string,
    { status: number; body: string },
    (p: IdentityProvider) => Promise<unknown>,
  ][] = [
    ['invalid JSON', { status: 200, body: 'not json {' }, (p) => p.createWallet()],
    [
      'a wallet without an id',
      { status: 200, body: '{"address":"0x1","chain_type":"starknet","public_key":"0x2"}' },
      (p) => p.createWallet(),
    ],
    [
      'a starknet wallet without a public key',
      { status: 200, body: '{"id":"w","address":"0x1","chain_type":"starknet"}' },
      (p) => p.getWallet('w'),
    ],
    [
      'a signature of the wrong length',
      { status: 200, body: '{"method":"raw_sign","data":{"signature":"0x12","encoding":"hex"}}' },
      (p) => p.rawSign('w', '0x1'),
    ],
    [
      'a user without linked accounts',
      { status: 200, body: '{"id":"did:privy:x"}' },
      (p) => p.getUserByEmail('a@example.com'),
    ],
    [
      'an error body that quotes secrets',
      { status: 400, body: `{"error":"bad ${APP_SECRET} 123456 token_abc"}` },
      (p) => p.verifyOtp('a@example.com', '123456'),
    ],
  ];

  it.each(cases)('%s → IDENTITY_PROVIDER_ERROR 502', async (_name, answer, call) => {
    reply = answer;
    const error = await failure(call(adapter({}, urlOf(rogue))), [
      '123456',
      'token_abc',
      'a@example.com',
    ]);
    expect(error).toMatchObject({ code: 'IDENTITY_PROVIDER_ERROR' });
  });

  it('accepts the documented variants: 401 for a bad code, unpadded hex, extra fields', async () => {
    const rogueIdentity = adapter({}, urlOf(rogue));
    reply = { status: 401, body: '{"error":"Invalid code"}' };
    expect((await failure(rogueIdentity.verifyOtp('a@example.com', '000000'))).code).toBe(
      'INVALID_OTP',
    );
    reply = {
      status: 200,
      body: '{"id":"w","address":"0xABC","chain_type":"starknet","public_key":"0x5","owner_id":null,"policy_ids":[],"extra":1}',
    };
    expect(await rogueIdentity.getWallet('w')).toEqual({
      id: 'w',
      address: `0x${'0'.repeat(61)}abc`,
      publicKey: `0x${'0'.repeat(63)}5`,
      chainType: 'starknet',
      ownerId: null,
    });
  });
});
