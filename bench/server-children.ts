/**
 * The processes bench/server-health.ts measures against, each in its own process so no two share
 * an event loop: `bare` is a plain node:http server answering /health with the same JSON as ours
 * (the baseline), `identity` is the identity-provider emulator (in memory). Each prints one
 * `{"port": N}` line on stdout when listening and runs until killed.
 *
 * Run by the bench as: node --import tsx bench/server-children.ts bare|identity
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildIdentityEmulator } from '../sandbox/identity/app.js';

export const BENCH_APP_ID = 'bench-app';
export const BENCH_APP_SECRET = 'bench-identity-app-secret-0123456789';

const HEALTH = JSON.stringify({ status: 'ok' });

async function main(mode: string | undefined): Promise<void> {
  if (mode === 'bare') {
    const server = createServer((req, res) => {
      if (req.url === '/health') {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(HEALTH) });
        res.end(HEALTH);
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
    return;
  }
  if (mode === 'identity') {
    const app = await buildIdentityEmulator({ appId: BENCH_APP_ID, appSecret: BENCH_APP_SECRET });
    await app.listen({ host: '127.0.0.1', port: 0 });
    process.stdout.write(`${JSON.stringify({ port: (app.server.address() as AddressInfo).port })}\n`);
    return;
  }
  process.stderr.write('usage: server-children.ts bare|identity\n');
  process.exit(2);
}

if (process.argv[1]?.endsWith('server-children.ts')) await main(process.argv[2]);
