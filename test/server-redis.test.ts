/**
 * With Redis, instances share limits: two app instances on one real redis-server allow 5
 * logins per IP between them. Skipped (with the reason) only when redis-server is not installed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, post, type TestApp } from './helpers/build-test-app.js';

function findOnPath(binary: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, binary);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const redisServer = findOnPath('redis-server');

describe.skipIf(redisServer === undefined)('shared limits through Redis (needs redis-server on PATH; skipped when absent)', () => {
  let child: ChildProcess;
  const clients: Redis[] = [];
  const apps: TestApp[] = [];

  beforeAll(async () => {
    const port = await freePort();
    child = spawn(redisServer as string, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('Ready to accept connections')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
    });
    for (let i = 0; i < 2; i++) {
      const client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 1 });
      await client.connect();
      clients.push(client);
      apps.push(await buildTestApp({ deps: { redis: client } }));
    }
  });

  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const client of clients) client.disconnect();
    child?.kill('SIGTERM');
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
});
