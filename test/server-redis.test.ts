/**
 * With Redis, instances share limits: two app instances on one real redis-server allow 5
 * logins per IP between them, and a token signed out on one is refused by the other. And two `finance-tui serve` processes on one redis-server
 * provision one wallet per user however the calls are spread between them. Skipped (with the
 * reason) only when redis-server is not installed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIdentityEmulator } from '../sandbox/identity/app.js';
import { createTokenService } from '../server/jwt.js';
import { createRedisRevocations, MAX_IDS_PER_SECOND } from '../server/revocations.js';
import { createIdentityProvider } from '../server/providers/identity.js';
import { buildTestApp, post, type TestApp } from './helpers/build-test-app.js';
import { type Spawned, serveEnv, spawnServe, tempHome } from './helpers/process.js';
import { type RedisServer, redisServerPath, startRedisServer } from './helpers/redis.js';

describe.skipIf(redisServerPath === undefined)('shared limits and sign-outs through Redis (needs redis-server on PATH; skipped when absent)', () => {
  let redis: RedisServer;
  const clients: Redis[] = [];
  const apps: TestApp[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    for (let i = 0; i < 2; i++) {
      const client = new Redis({ host: '127.0.0.1', port: redis.port, lazyConnect: true, maxRetriesPerRequest: 1 });
      await client.connect();
      clients.push(client);
      apps.push(await buildTestApp({ deps: { redis: client } }));
    }
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const client of clients) client.disconnect();
    redis?.stop();
  });

  it('two instances share the 5/min login limit of one IP', async () => {
    const [a, b] = apps as [TestApp, TestApp];
    const send = (app: TestApp, i: number) => post(app.app, '/auth/login', { email: `r${i}@example.com` }, { remoteAddress: '203.0.113.77' });
    const responses = await Promise.all(Array.from({ length: 12 }, (_, i) => send(i % 2 === 0 ? a : b, i)));
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(5);
    const limited = responses.filter((r) => r.statusCode === 429);
    expect(limited).toHaveLength(7);
    expect(limited[0]?.json().error.code).toBe('RATE_LIMITED');
    expect(Number(limited[0]?.headers['retry-after'])).toBeGreaterThan(0);
    // both instances served some and refused some: the counter really is shared
    expect(a.identity.outbox.size + b.identity.outbox.size).toBe(5);
  });

  it('another IP is counted separately', async () => {
    const [a] = apps as [TestApp];
    const res = await post(a.app, '/auth/login', { email: 'other@example.com' }, { remoteAddress: '203.0.113.78' });
    expect(res.statusCode).toBe(200);
  });

  it('a token signed out on one instance is refused by the other; the record expires with the tokens it ends', async () => {
    const [a, b] = apps as [TestApp, TestApp];
    const seeded = await a.seedUser();
    const other = await a.seedUser();
    expect((await post(b.app, '/wallet/find', {}, { token: seeded.token })).statusCode).toBe(200);
    expect((await post(a.app, '/auth/logout', {}, { token: seeded.token })).statusCode).toBe(200);
    const refused = await post(b.app, '/wallet/find', {}, { token: seeded.token });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('TOKEN_REVOKED');
    expect((await post(b.app, '/wallet/find', {}, { token: other.token })).statusCode).toBe(200);
    const ttl = await (clients[0] as Redis).ttl(`finance-tui:revoked:${seeded.user.id}`);
    expect(ttl).toBeGreaterThan(7 * 24 * 3600 - 120);
    expect(ttl).toBeLessThanOrEqual(7 * 24 * 3600);
  });

  it('the store keeps the same rules as in memory: earlier ended, later and same-second siblings not, a crowded second ended whole', async () => {
    const store = createRedisRevocations(clients[1] as Redis, { prefix: 'test-rules:' });
    const at = (ms: number) => new Date(Date.UTC(2026, 10, 22) + ms);
    const token = (jti: string, ms: number) => ({ userId: 'u1', jti, issuedAt: at(ms) });
    await store.revoke(token('b', 0));
    expect(await store.isRevoked(token('b', 0))).toBe(true);
    expect(await store.isRevoked(token('a', -1000))).toBe(true);
    expect(await store.isRevoked(token('sibling', 0))).toBe(false);
    expect(await store.isRevoked(token('c', 1000))).toBe(false);
    await store.revoke(token('old', -5000));
    expect(await store.isRevoked(token('c', 1000))).toBe(false);
    for (let i = 0; i < MAX_IDS_PER_SECOND; i++) await store.revoke(token(`j${i}`, 0));
    expect(await store.isRevoked(token('sibling', 0))).toBe(true);
    expect(await store.isRevoked(token('c', 1000))).toBe(false);
  });
});

describe.skipIf(redisServerPath === undefined)('one wallet per user across two server processes sharing Redis (needs redis-server)', () => {
  const APP_ID = 'redis-lock-app';
  const APP_SECRET = 'redis-lock-app-secret-value';
  const JWT_SECRET = 'redis-lock-jwt-secret-0123456789abcdef';
  const home = tempHome();
  const dataFile = join(home.dir, 'identity.json');
  let redis: RedisServer;
  let emulator: FastifyInstance;
  let emulatorUrl: string;
  const servers: Array<{ proc: Spawned; url: string }> = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    emulator = await buildIdentityEmulator({ appId: APP_ID, appSecret: APP_SECRET, dataFile });
    emulatorUrl = await emulator.listen({ host: '127.0.0.1', port: 0 });
    for (let i = 0; i < 2; i++) {
      const env = serveEnv({ home: home.dir, appId: APP_ID, appSecret: APP_SECRET, jwtSecret: JWT_SECRET, emulatorUrl }, { REDIS_URL: redis.url });
      servers.push(await spawnServe(env, home.dir));
    }
  });

  afterAll(async () => {
    for (const { proc } of servers) {
      proc.kill('SIGKILL');
      await proc.exited;
    }
    await emulator?.close();
    redis?.stop();
    home.cleanup();
  });

  const walletsInEmulator = (): number => (JSON.parse(readFileSync(dataFile, 'utf8')) as { wallets: unknown[] }).wallets.length;

  it('concurrent /wallet/create spread over both processes: one new wallet, linked; the rest 409', async () => {
    // a user whose linked wallet no longer exists, and a token for it (made as the server would)
    const identity = createIdentityProvider({ authUrl: `${emulatorUrl}/api/v1`, apiUrl: emulatorUrl, appId: APP_ID, appSecret: APP_SECRET, origin: 'http://localhost', timeoutMs: 5_000 });
    const email = 'two-instances@example.com';
    await identity.sendOtp(email);
    const { code } = (await (await fetch(`${emulatorUrl}/sandbox/outbox/${email}`)).json()) as { code: string };
    const { user } = await identity.verifyOtp(email, code);
    await identity.setCustomMetadata(user.id, { server_wallet_id: 'wallet-that-is-gone' });
    const { token } = await createTokenService({ secret: JWT_SECRET }).issue({ userId: user.id, email, walletId: 'wallet-that-is-gone', walletAddress: '0x1' });
    const before = walletsInEmulator();

    // every upstream call takes a while, so all four requests are inside provisioning together
    emulator.faults.apply({ latencyMs: 150 });
    try {
      const results = await Promise.all(
        Array.from({ length: 4 }, async (_, i) => {
          const res = await fetch(`${servers[i % 2]?.url}/wallet/create`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: '{}',
          });
          return { status: res.status, body: (await res.json()) as { wallet?: { id: string }; error?: { code: string } } };
        }),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
      expect(results.filter((r) => r.status === 409).map((r) => r.body.error?.code)).toEqual(['WALLET_EXISTS', 'WALLET_EXISTS', 'WALLET_EXISTS']);
      expect(walletsInEmulator()).toBe(before + 1);
      const created = results.find((r) => r.status === 200)?.body.wallet?.id;
      expect((await identity.getUserByEmail(email))?.customMetadata).toEqual({ server_wallet_id: created });
    } finally {
      emulator.faults.apply({ latencyMs: 0 });
    }
    // every lock was released (compare-and-delete), none left to expire
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    try {
      expect(await client.keys('finance-tui-lock:*')).toEqual([]);
    } finally {
      client.disconnect();
    }
  });
});
