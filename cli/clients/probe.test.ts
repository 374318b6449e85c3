import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { probeServer } from './probe.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) =>
    server === undefined ? resolve(undefined) : server.close(resolve),
  );
  server = undefined;
});

/** A server answering /health with `health` and / with our root document. */
async function serverWith(health: { status: number; body: unknown }): Promise<string> {
  server = createServer((request, response) => {
    const { status, body } =
      request.url === '/health'
        ? health
        : { status: 200, body: { name: 'finance-tui-auth', version: '1.2.3', status: 'ok' } };
    response.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => (server as Server).listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${((server as Server).address() as { port: number }).port}`;
}

describe('probeServer', () => {
  it('a server whose /health is 503 degraded is there (never started again on its port), marked degraded', async () => {
    const url = await serverWith({
      status: 503,
      body: { status: 'degraded', unavailable: ['redis'] },
    });
    expect(await probeServer(url)).toEqual({
      reachable: true,
      version: '1.2.3',
      sandbox: false,
      degraded: true,
    });
  });

  it('any other failing /health is unreachable', async () => {
    const url = await serverWith({ status: 500, body: {} });
    expect(await probeServer(url)).toMatchObject({ reachable: false });
  });
});
