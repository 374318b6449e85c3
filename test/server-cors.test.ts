/**
 * CORS answers are @fastify/cors's, though the server runs its hook only for requests that carry
 * an Origin (server/plugins/cors.ts: the others get `Vary: Origin` directly). This runs
 * @fastify/cors alone with the options the server gives it, on the same routes, and checks that
 * the server's CORS headers (and a preflight's status) are the same for every combination of
 * method, route, origin and preflight headers; a @fastify/cors upgrade that answers a request
 * without Origin differently fails here.
 */
import cors from '@fastify/cors';
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corsOptions } from '../server/plugins/cors.js';
import { buildTestApp, type TestApp } from './helpers/build-test-app.js';

const ALLOWED = 'https://app.example.com';

/** Fastify with @fastify/cors as the server registers it, and routes at the server's paths. */
async function corsAlone(): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(cors, corsOptions([ALLOWED]));
  app.get('/health', async () => ({ status: 'ok' }));
  app.post('/auth/login', async () => ({ ok: true }));
  await app.ready();
  return app;
}

const corsPart = (headers: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(headers).filter(
      ([name]) => name.startsWith('access-control-') || name === 'vary',
    ),
  );

const requests: InjectOptions[] = [];
for (const method of ['GET', 'POST', 'OPTIONS'] as const)
  for (const url of ['/health', '/auth/login', '/nope'])
    for (const origin of [undefined, ALLOWED, 'https://evil.example.com', 'null'])
      for (const preflight of [false, true])
        requests.push({
          method,
          url,
          headers: {
            ...(origin === undefined ? {} : { origin }),
            ...(preflight
              ? {
                  'access-control-request-method': 'POST',
                  'access-control-request-headers': 'authorization,content-type',
                }
              : {}),
          },
        });

let ours: TestApp;
let alone: FastifyInstance;
beforeAll(async () => {
  ours = await buildTestApp();
  alone = await corsAlone();
});
afterAll(async () => {
  await ours?.close();
  await alone?.close();
});

describe('CORS as @fastify/cors answers it', () => {
  it.each(requests.map((request) => [request.method, request.url, request.headers, request]))(
    '%s %s %j',
    async (_method, _url, _headers, request) => {
      const [mine, theirs] = await Promise.all([
        ours.app.inject(request as InjectOptions),
        alone.inject(request as InjectOptions),
      ]);
      expect(corsPart(mine.headers)).toEqual(corsPart(theirs.headers));
      if (request.method === 'OPTIONS') expect(mine.statusCode).toBe(theirs.statusCode);
    },
  );

  it('a request without Origin gets Vary: Origin and nothing else of CORS', async () => {
    const res = await ours.app.inject({ url: '/health' });
    expect(corsPart(res.headers)).toEqual({ vary: 'Origin' });
  });
});
