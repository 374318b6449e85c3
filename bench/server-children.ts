/**
 * The processes bench/server-health.ts measures against, each in its own process so no two share
 * an event loop: `bare` is a plain node:http server answering /health with the same JSON as ours
 * (the baseline), `identity` is the identity-provider emulator (in memory). Each prints one
 * `{"port": N}` line on stdout when listening and runs until killed.
 *
 * `headers` is `bare` sending the same 16 response headers as ours (request id, the security
 * headers, `vary: Origin`, the content type and length): what those headers cost node:http alone,
 * with no framework.
 *
 * `fastify` is the framework's floor: Fastify alone (no logger, no limits, no connection bounds)
 * answering /health with our route's response schema and the same 16 response headers ours sends
 * (request id, the security headers, `vary: Origin`), so the bench shows how near bare node:http
 * any server built on Fastify with these headers can come on this machine.
 *
 * `unthrottled` is our server as `finance-tui serve` starts it (config from the environment,
 * startServer, pino lines on stdout), except that its rate-limit counter store counts every hit
 * as usual but never reports one over the limit: the latency phase sends 2,000 signatures of one
 * user, which the 30/min/user limit would turn into 429s. This knob exists only here; the server
 * has no environment variable that lifts its limits.
 *
 * Run by the bench as: node --import tsx bench/server-children.ts bare|headers|fastify|identity|unthrottled
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { buildIdentityEmulator } from '../sandbox/identity/app.js';
import { HealthResponse } from '../shared/api.js';
import { loadConfig } from '../server/config.js';
import { closeGracefully, startServer } from '../server/main.js';
import {
  type CounterStore,
  type LimitRule,
  MemoryCounterStore,
} from '../server/plugins/rate-limit.js';
import { REQUEST_ID_HEADER } from '../server/plugins/request-id.js';
import { SECURITY_HEADERS } from '../server/plugins/security.js';

export const BENCH_APP_ID = 'bench-app';
export const BENCH_APP_SECRET = 'bench-identity-app-secret-0123456789';

const HEALTH = JSON.stringify({ status: 'ok' });

async function main(mode: string | undefined): Promise<void> {
  if (mode === 'bare' || mode === 'headers') {
    const ours = mode === 'headers';
    const server = createServer((req, res) => {
      if (req.url === '/health') {
        res.writeHead(200, {
          ...(ours
            ? { [REQUEST_ID_HEADER]: randomUUID(), ...SECURITY_HEADERS, vary: 'Origin' }
            : {}),
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(HEALTH),
        });
        res.end(HEALTH);
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
    return;
  }
  if (mode === 'fastify') {
    const app = Fastify({ logger: false });
    app.addHook('onRequest', (_request, reply, done) => {
      reply.header(REQUEST_ID_HEADER, randomUUID());
      reply.headers(SECURITY_HEADERS);
      reply.header('vary', 'Origin');
      done();
    });
    app.get('/health', { schema: { response: { 200: HealthResponse } } }, async () => ({
      status: 'ok' as const,
    }));
    await app.listen({ host: '127.0.0.1', port: 0 });
    process.stdout.write(
      `${JSON.stringify({ port: (app.server.address() as AddressInfo).port })}\n`,
    );
    return;
  }
  if (mode === 'identity') {
    const app = await buildIdentityEmulator({ appId: BENCH_APP_ID, appSecret: BENCH_APP_SECRET });
    await app.listen({ host: '127.0.0.1', port: 0 });
    process.stdout.write(
      `${JSON.stringify({ port: (app.server.address() as AddressInfo).port })}\n`,
    );
    return;
  }
  if (mode === 'unthrottled') {
    const counters = new MemoryCounterStore();
    const store: CounterStore = {
      hit: (rule: LimitRule, subject: string) => ({ ...counters.hit(rule, subject), count: 1 }),
    };
    const handle = await startServer(loadConfig(process.env), { rateLimitStore: store });
    process.once('SIGTERM', () => {
      const log = (message: string): void => handle.app.log.info(message);
      void closeGracefully(
        { close: () => handle.close(), servers: [handle.app.server] },
        { graceMs: 5_000, log },
      ).then(() => process.exit(0));
    });
    return;
  }
  process.stderr.write('usage: server-children.ts bare|headers|fastify|identity|unthrottled\n');
  process.exit(2);
}

if (process.argv[1]?.endsWith('server-children.ts')) await main(process.argv[2]);
