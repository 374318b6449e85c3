/**
 * With Redis, instances share limits: two app instances on one real redis-server allow 5
 * logins per IP between them, and the per-e-mail limits (per source and in all), and a token signed out on one is refused by the other. And two `finance-tui serve` processes on one redis-server
 * provision one wallet per user however the calls are spread between them. `serve` checks at start
 * that Redis will keep sign-outs (an append-only file, no eviction), and with one a signed-out
 * token stays refused across a Redis restart. Skipped (with the reason) only when redis-server is
 * not installed. With REDIS_PERSISTENCE=warn and a Redis that does not answer, `serve` starts,
 * /health says degraded and the requests that need Redis are 503 DEPENDENCY_UNAVAILABLE.
 *
 * The four groups, and the tests inside each, run side by side (docs/decisions.md "The server's
 * process tests run side by side where they wait"): every test has its own redis-server (or its
 * own keys, IPs and e-mail addresses on the shared one) and its own serve processes; much of
 * their time is waiting for a child to start or a Redis to come back.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, type ExpectStatic, it } from 'vitest';
import { buildIdentityEmulator } from '../sandbox/identity/app.js';
import { createTokenService } from '../server/jwt.js';
import { createRedisRevocations, MAX_IDS_PER_SECOND } from '../server/revocations.js';
import { createIdentityProvider } from '../server/providers/identity.js';
import { buildTestApp, post, type TestApp } from './helpers/build-test-app.js';
import {
  closedPort,
  quietPort,
  type Spawned,
  serveEnv,
  spawnBin,
  spawnServe,
  tempHome,
} from './helpers/process.js';
import {
  type RedisOptions,
  type RedisServer,
  redisServerPath,
  startRedisServer,
} from './helpers/redis.js';

/**
 * At most two `serve` processes starting at once, across the file. A start is mostly CPU (the
 * bundle's load, the app's build): more at once only queue for the two cores, and on a loaded
 * machine miss their ready line. What runs side by side is the rest — Redises restarted, upstream
 * calls held, reconnects, the in-process apps.
 */
const starting = slots(2);

function slots(count: number): <T>(work: () => Promise<T>) => Promise<T> {
  let free = count;
  const waiting: Array<() => void> = [];
  return async (work) => {
    if (free > 0) free -= 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next === undefined) free += 1;
      else next();
    }
  };
}

describe.skipIf(redisServerPath === undefined)(
  'shared limits and sign-outs through Redis (needs redis-server on PATH; skipped when absent)',
  // each test its own client IPs, e-mail addresses, users and key prefix on the shared Redis
  { concurrent: true },
  () => {
    let redis: RedisServer;
    const clients: Redis[] = [];
    const apps: TestApp[] = [];

    beforeAll(async () => {
      redis = await startRedisServer();
      for (let i = 0; i < 2; i++) {
        const client = new Redis({
          host: '127.0.0.1',
          port: redis.port,
          lazyConnect: true,
          maxRetriesPerRequest: 1,
        });
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

    it('two instances share the 5/min login limit of one IP', async ({ expect }) => {
      const [a, b] = apps as [TestApp, TestApp];
      const emails = Array.from({ length: 12 }, (_, i) => `r${i}@example.com`);
      const send = (app: TestApp, i: number) =>
        post(app.app, '/auth/login', { email: emails[i] }, { remoteAddress: '203.0.113.77' });
      // codes mailed by this test alone (the other tests mail through the same apps, meanwhile)
      const mailed = () =>
        emails.filter((email) => a.identity.outbox.has(email) || b.identity.outbox.has(email))
          .length;
      expect(mailed()).toBe(0);
      const responses = await Promise.all(
        Array.from({ length: 12 }, (_, i) => send(i % 2 === 0 ? a : b, i)),
      );
      expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(5);
      const limited = responses.filter((r) => r.statusCode === 429);
      expect(limited).toHaveLength(7);
      expect(limited[0]?.json().error.code).toBe('RATE_LIMITED');
      expect(Number(limited[0]?.headers['retry-after'])).toBeGreaterThan(0);
      // both instances served some and refused some: the counter really is shared
      expect(mailed()).toBe(5);
    });

    it('two instances share the per-e-mail limits; the counter keys hold no e-mail address', async ({
      expect,
    }) => {
      const [a, b] = apps as [TestApp, TestApp];
      const email = 'shared-victim@example.com';
      // one source: 3 codes to the address, the two instances together
      const fromOne = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          post(
            i % 2 === 0 ? a.app : b.app,
            '/auth/login',
            { email },
            {
              remoteAddress: '198.51.99.1',
            },
          ),
        ),
      );
      expect(fromOne.filter((r) => r.statusCode === 200)).toHaveLength(3);
      // 37 more sources: 30 codes to the address in all
      const sends = await Promise.all(
        Array.from({ length: 37 }, (_, i) =>
          post(
            i % 2 === 0 ? a.app : b.app,
            '/auth/login',
            { email },
            {
              remoteAddress: `198.51.100.${i + 1}`,
            },
          ),
        ),
      );
      expect(sends.filter((r) => r.statusCode === 200)).toHaveLength(27);
      expect(sends.filter((r) => r.statusCode === 429)).toHaveLength(10);
      // the newest code was mailed by one of the two fakes
      const code = a.identity.outbox.get(email) ?? (b.identity.outbox.get(email) as string);
      const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
      const guesses = await Promise.all(
        Array.from({ length: 56 }, (_, i) =>
          post(
            i % 2 === 0 ? a.app : b.app,
            '/auth/verify',
            { email, code: wrong(i) },
            {
              remoteAddress: `198.51.101.${i + 1}`,
            },
          ),
        ),
      );
      expect(guesses.filter((r) => r.statusCode === 401)).toHaveLength(50);
      expect(guesses.filter((r) => r.statusCode === 429)).toHaveLength(6);
      const keys = [
        ...(await (clients[0] as Redis).keys('finance-tui-rl:*:email:*')),
        ...(await (clients[0] as Redis).keys('finance-tui-rl:*:email-source:*')),
      ];
      expect(keys.length).toBeGreaterThanOrEqual(4);
      for (const key of keys) expect(key.toLowerCase()).not.toContain('victim');
    });

    it('another IP is counted separately', async ({ expect }) => {
      const [a] = apps as [TestApp];
      const res = await post(
        a.app,
        '/auth/login',
        { email: 'other@example.com' },
        { remoteAddress: '203.0.113.78' },
      );
      expect(res.statusCode).toBe(200);
    });

    it('a token signed out on one instance is refused by the other; the record expires with the tokens it ends', async ({
      expect,
    }) => {
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

    it('the store keeps the same rules as in memory: earlier ended, later and same-second siblings not, a crowded second ended whole', async ({
      expect,
    }) => {
      const store = createRedisRevocations(clients[1] as Redis, { prefix: 'test-rules:' });
      // a whole second of today: a fixed date would age past the store's 7-day keep and expire
      const base = Math.floor(Date.now() / 1000) * 1000;
      const at = (ms: number) => new Date(base + ms);
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
  },
);

describe.skipIf(redisServerPath === undefined)(
  'one wallet per user across two server processes sharing Redis (needs redis-server)',
  { concurrent: true },
  () => {
    const APP_ID = 'redis-lock-app';
    const APP_SECRET = 'redis-lock-app-secret-value';
    const JWT_SECRET = 'YAcZSvR8XIlUgpWGx3fiNS6rqdHlr1HtgbKP7fMnKWU';
    const home = tempHome();
    const dataFile = join(home.dir, 'identity.json');
    let redis: RedisServer;
    let emulator: FastifyInstance;
    let emulatorUrl: string;
    const servers: Array<{ proc: Spawned; url: string }> = [];

    beforeAll(async () => {
      // what a deployment runs (serve refuses a Redis without persistence)
      redis = await startRedisServer({ persistence: 'aof', dir: home.dir });
      emulator = await buildIdentityEmulator({ appId: APP_ID, appSecret: APP_SECRET, dataFile });
      emulatorUrl = await emulator.listen({ host: '127.0.0.1', port: 0 });
      const env = serveEnv(
        {
          home: home.dir,
          appId: APP_ID,
          appSecret: APP_SECRET,
          jwtSecret: JWT_SECRET,
          emulatorUrl,
        },
        { REDIS_URL: redis.url },
      );
      // both start at once (each is pushed as it listens, so afterAll stops what started)
      await Promise.all(
        [0, 1].map(async () => servers.push(await starting(() => spawnServe(env, home.dir)))),
      );
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

    const walletsInEmulator = (): number =>
      (JSON.parse(readFileSync(dataFile, 'utf8')) as { wallets: unknown[] }).wallets.length;

    it('concurrent /wallet/create spread over both processes: one new wallet, linked; the rest 409', async ({
      expect,
    }) => {
      // a user whose linked wallet no longer exists, and a token for it (made as the server would)
      const identity = createIdentityProvider({
        authUrl: `${emulatorUrl}/api/v1`,
        apiUrl: emulatorUrl,
        appId: APP_ID,
        appSecret: APP_SECRET,
        origin: 'http://localhost',
        timeoutMs: 5_000,
      });
      const email = 'two-instances@example.com';
      await identity.sendOtp(email);
      const { code } = (await (await fetch(`${emulatorUrl}/sandbox/outbox/${email}`)).json()) as {
        code: string;
      };
      const { user } = await identity.verifyOtp(email, code);
      await identity.setCustomMetadata(user.id, { server_wallet_id: 'wallet-that-is-gone' });
      const { token } = await createTokenService({ secret: JWT_SECRET }).issue({
        userId: user.id,
        email,
        walletId: 'wallet-that-is-gone',
        walletAddress: '0x1',
      });
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
            return {
              status: res.status,
              body: (await res.json()) as { wallet?: { id: string }; error?: { code: string } },
            };
          }),
        );
        expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
        expect(results.filter((r) => r.status === 409).map((r) => r.body.error?.code)).toEqual([
          'WALLET_EXISTS',
          'WALLET_EXISTS',
          'WALLET_EXISTS',
        ]);
        expect(walletsInEmulator()).toBe(before + 1);
        const created = results.find((r) => r.status === 200)?.body.wallet?.id;
        expect((await identity.getUserByEmail(email))?.customMetadata).toEqual({
          server_wallet_id: created,
        });
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
  },
);

describe.skipIf(redisServerPath === undefined)(
  'serve checks that Redis keeps sign-outs (needs redis-server)',
  // each test its own redis-server (and folder) and serve processes; a test's time includes its
  // wait for a start slot, behind the file's other starts: a ceiling as the hooks' (90 s)
  { concurrent: true, timeout: 90_000 },
  () => {
    const APP_ID = 'redis-persistence-app';
    const APP_SECRET = 'redis-persistence-app-secret';
    const JWT_SECRET = 'JkrbcpL56oHnoPQ5g-dgqvk_qwzycL-7Q8gz2fbA0Gs';
    const home = tempHome();
    let emulator: FastifyInstance;
    let emulatorUrl: string;
    const redises: RedisServer[] = [];
    const procs: Spawned[] = [];
    const folders: Array<{ dir: string; cleanup: () => void }> = [];

    beforeAll(async () => {
      emulator = await buildIdentityEmulator({ appId: APP_ID, appSecret: APP_SECRET });
      emulatorUrl = await emulator.listen({ host: '127.0.0.1', port: 0 });
    });
    afterAll(async () => {
      for (const proc of procs) {
        proc.kill('SIGKILL');
        await proc.exited;
      }
      await Promise.all(redises.map((redis) => redis.stopped()));
      await emulator?.close();
      home.cleanup();
      for (const folder of folders) folder.cleanup();
    });

    /** A folder of its own, removed after the file: two Redises must not share their files. */
    function folder(): string {
      const made = tempHome();
      folders.push(made);
      return made.dir;
    }

    async function redisWith(options: RedisOptions): Promise<RedisServer> {
      const redis = await startRedisServer(options);
      redises.push(redis);
      return redis;
    }

    /** `serve` on `redisUrl`: it listens (its URL), or exits (its code and stderr). */
    async function serve(
      redisUrl: string,
      extra: Record<string, string> = {},
    ): Promise<{ url: string; proc: Spawned } | { code: number | null; stderr: string }> {
      return starting(() => serveOnce(redisUrl, extra));
    }

    async function serveOnce(
      redisUrl: string,
      extra: Record<string, string>,
    ): Promise<{ url: string; proc: Spawned } | { code: number | null; stderr: string }> {
      const proc = spawnBin(
        ['serve', '--port', '0'],
        serveEnv(
          {
            home: home.dir,
            appId: APP_ID,
            appSecret: APP_SECRET,
            jwtSecret: JWT_SECRET,
            emulatorUrl,
          },
          { REDIS_URL: redisUrl, ...extra },
        ),
        home.dir,
      );
      procs.push(proc);
      const outcome = await Promise.race([
        proc.exited.then(({ code }) => ({ code })),
        proc.waitForLine((line) => line.includes('Server listening at')),
      ]);
      if (typeof outcome === 'string')
        return {
          url: /Server listening at (http:\/\/[0-9.:]+)/.exec(outcome)?.[1] as string,
          proc,
        };
      return { code: outcome.code, stderr: proc.stderr() };
    }

    const refusedWith = (
      expect: ExpectStatic,
      outcome: Awaited<ReturnType<typeof serve>>,
      reason: RegExp,
    ): void => {
      expect(outcome).toMatchObject({ code: 1 });
      const { stderr } = outcome as { stderr: string };
      const lines = stderr.trim().split('\n');
      expect(lines, stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/REDIS_URL: /);
      expect(lines[0]).toMatch(reason);
      expect(lines[0]).toMatch(/REDIS_PERSISTENCE=warn/);
      expect(stderr).not.toContain('redis://');
    };

    it('a Redis without persistence: serve refuses to start, saying what to set', async ({
      expect,
    }) => {
      const redis = await redisWith({ persistence: 'none' });
      refusedWith(expect, await serve(redis.url), /no persistence .*set appendonly yes/);
    });

    it('a Redis that may evict keys (sign-outs included): refused', async ({ expect }) => {
      const evicting = await redisWith({
        persistence: 'aof',
        dir: folder(),
        args: ['--maxmemory-policy', 'allkeys-lru'],
      });
      refusedWith(expect, await serve(evicting.url), /maxmemory-policy allkeys-lru.*noeviction/);
    });

    it('a Redis whose CONFIG is disabled, and one that does not answer: refused (a check that cannot classify refuses)', async ({
      expect,
    }) => {
      const noConfig = await redisWith({
        persistence: 'aof',
        dir: folder(),
        args: ['--rename-command', 'CONFIG', ''],
      });
      refusedWith(
        expect,
        await serve(noConfig.url),
        /could not read Redis's persistence settings \(CONFIG GET: ERR\)/,
      );
      refusedWith(
        expect,
        await serve(`redis://127.0.0.1:${await quietPort('127.0.0.1')}`),
        /could not read Redis's persistence settings \(CONFIG GET: no answer\)/,
      );
    });

    it('RDB snapshots only, or REDIS_PERSISTENCE=warn: it starts and logs the warning', async ({
      expect,
    }) => {
      const snapshots = await redisWith({ persistence: 'snapshots', dir: folder() });
      const started = await serve(snapshots.url);
      expect(started).toHaveProperty('url');
      const { proc } = started as { proc: Spawned };
      await proc.waitForLine(
        (line) =>
          line.includes('"redisPersistence":"snapshots"') && line.includes('set appendonly yes'),
      );
      const none = await redisWith({ persistence: 'none' });
      const warned = await serve(none.url, { REDIS_PERSISTENCE: 'warn' });
      expect(warned).toHaveProperty('url');
      await (warned as { proc: Spawned }).proc.waitForLine(
        (line) =>
          line.includes('"redisPersistence":"none"') &&
          line.includes('a restart forgets every sign-out'),
      );
    });

    it.for([
      {
        persistence: 'aof' as const,
        afterRestart: 'TOKEN_REVOKED',
        extra: {} as Record<string, string>,
      },
      // the hole the check closes: what a Redis without persistence does to a sign-out
      {
        persistence: 'none' as const,
        afterRestart: 'accepted again',
        extra: { REDIS_PERSISTENCE: 'warn' },
      },
    ])(
      'Redis with persistence $persistence restarted: a signed-out token is $afterRestart',
      async ({ persistence, afterRestart, extra }, { expect }) => {
        const dir = tempHome();
        try {
          // restarted on the same port: one below the ephemeral range, which no listen(0) of the
          // tests running meanwhile can take while it is down
          const port = await quietPort('127.0.0.1');
          let redis = await startRedisServer({ persistence, dir: dir.dir, port });
          const started = await serve(redis.url, extra);
          const { url } = started as { url: string };
          const { token } = await createTokenService({ secret: JWT_SECRET }).issue({
            userId: `did:privy:${persistence}`,
            email: `${persistence}@example.com`,
            walletId: 'w',
            walletAddress: '0x1',
          });
          const logout = async (): Promise<{ status: number; code: string | undefined }> => {
            const res = await fetch(`${url}/auth/logout`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
              body: '{}',
            });
            return {
              status: res.status,
              code: ((await res.json()) as { error?: { code: string } }).error?.code,
            };
          };
          expect(await logout()).toEqual({ status: 200, code: undefined });
          expect(await logout()).toEqual({ status: 401, code: 'TOKEN_REVOKED' });
          await redis.stopped();
          redis = await startRedisServer({ persistence, dir: dir.dir, port });
          redises.push(redis);
          // until the server has reconnected, a check fails closed (503 DEPENDENCY_UNAVAILABLE)
          let after = await logout();
          for (let tries = 0; after.status === 503 && tries < 100; tries++) {
            expect(after.code).toBe('DEPENDENCY_UNAVAILABLE');
            await new Promise((resolve) => setTimeout(resolve, 100));
            after = await logout();
          }
          expect(after).toEqual(
            afterRestart === 'TOKEN_REVOKED'
              ? { status: 401, code: 'TOKEN_REVOKED' }
              : { status: 200, code: undefined },
          );
        } finally {
          dir.cleanup();
        }
      },
    );
  },
);

// No redis-server needed: nothing listens at the URL. A deployment that set REDIS_PERSISTENCE=warn
// (a managed Redis without CONFIG) starts on it; before, /health said ok and every login was a 500.
describe(
  'serve with a Redis that does not answer (REDIS_PERSISTENCE=warn)',
  { concurrent: true },
  () => {
    const APP_ID = 'redis-down-app';
    const APP_SECRET = 'redis-down-app-secret-value';
    const JWT_SECRET = 't9klMlRFI2bh7LHvzzCDoXhzgHxPbOOAJBufZeSQZVE';
    const PASSWORD = 'redis-down-password-7f3a';
    const home = tempHome();
    let emulator: FastifyInstance;
    let served: { proc: Spawned; url: string } | undefined;

    beforeAll(async () => {
      emulator = await buildIdentityEmulator({ appId: APP_ID, appSecret: APP_SECRET });
      const emulatorUrl = await emulator.listen({ host: '127.0.0.1', port: 0 });
      const env = serveEnv(
        {
          home: home.dir,
          appId: APP_ID,
          appSecret: APP_SECRET,
          jwtSecret: JWT_SECRET,
          emulatorUrl,
        },
        {
          REDIS_URL: `redis://:${PASSWORD}@127.0.0.1:${await closedPort('127.0.0.1')}`,
          REDIS_PERSISTENCE: 'warn',
        },
      );
      served = await starting(() => spawnServe(env, home.dir));
    });
    afterAll(async () => {
      served?.proc.kill('SIGKILL');
      await served?.proc.exited;
      await emulator?.close();
      home.cleanup();
    });

    it('/health is 503 degraded naming redis; login, verify and an authenticated call are 503 DEPENDENCY_UNAVAILABLE', async ({
      expect,
    }) => {
      const { url, proc } = served as { proc: Spawned; url: string };
      const health = await fetch(`${url}/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toEqual({ status: 'degraded', unavailable: ['redis'] });

      const { token } = await createTokenService({ secret: JWT_SECRET }).issue({
        userId: 'did:privy:redis-down',
        email: 'down@example.com',
        walletId: 'w',
        walletAddress: '0x1',
      });
      const calls: Array<[string, unknown, Record<string, string>]> = [
        ['/auth/login', { email: 'down@example.com' }, {}],
        ['/auth/verify', { email: 'down@example.com', code: '123456' }, {}],
        ['/wallet/find', {}, { authorization: `Bearer ${token}` }],
      ];
      for (const [path, body, headers] of calls) {
        const res = await fetch(`${url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        });
        expect(res.status, path).toBe(503);
        const answer = (await res.json()) as { error: { code: string; message: string } };
        expect(answer.error.code, path).toBe('DEPENDENCY_UNAVAILABLE');
        expect(answer.error.message).toContain('Redis');
      }
      // the stores' errors are logged by their code: the URL and its password never
      expect(proc.stdout()).toContain('"errorCode":"DEPENDENCY_UNAVAILABLE"');
      expect(proc.stdout()).not.toContain(PASSWORD);
    });
  },
);
