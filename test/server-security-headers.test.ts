/**
 * The security headers are precomputed (server/plugins/security.ts) instead of computed by
 * helmet on every response. This runs helmet with the options the server used to give it and
 * checks that our replies carry exactly the headers helmet adds, with the same values, on a
 * success, an error and a 404: a helmet upgrade that adds or changes a header fails here.
 */
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { SECURITY_HEADERS } from '../server/plugins/security.js';
import { buildTestApp, post, type TestApp } from './helpers/build-test-app.js';

const HELMET_OPTIONS = {
  global: true,
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  },
  frameguard: { action: 'deny' as const },
  referrerPolicy: { policy: 'no-referrer' as const },
  crossOriginResourcePolicy: { policy: 'same-origin' as const },
};

async function plainApp(withHelmet: boolean): Promise<FastifyInstance> {
  const app = Fastify();
  if (withHelmet) await app.register(helmet, HELMET_OPTIONS);
  app.get('/health', async () => ({ status: 'ok' }));
  await app.ready();
  return app;
}

/** The headers helmet adds to a response of `url` (those of the same app without helmet removed). */
async function helmetHeaders(url: string): Promise<Record<string, unknown>> {
  const [bare, helmeted] = await Promise.all([plainApp(false), plainApp(true)]);
  try {
    const without = (await bare.inject({ url })).headers;
    const added = { ...(await helmeted.inject({ url })).headers };
    for (const name of Object.keys(without)) delete added[name];
    return added;
  } finally {
    await Promise.all([bare.close(), helmeted.close()]);
  }
}

const OURS_NOT_SECURITY = new Set([
  'content-type',
  'content-length',
  'date',
  'connection',
  'keep-alive',
  'x-request-id',
  'vary',
  'retry-after',
]);

function securityPart(headers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(headers).filter(
      ([name]) => !OURS_NOT_SECURITY.has(name) && !name.startsWith('x-ratelimit-'),
    ),
  );
}

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

describe('security headers', () => {
  it('helmet, with the options we used to give it, adds exactly SECURITY_HEADERS', async () => {
    expect(await helmetHeaders('/health')).toEqual(SECURITY_HEADERS);
    expect(await helmetHeaders('/nope')).toEqual(SECURITY_HEADERS);
  });

  it.each([
    {
      description: 'a success',
      request: (app: FastifyInstance) => app.inject({ url: '/health' }),
      status: 200,
    },
    {
      description: 'a 404',
      request: (app: FastifyInstance) => app.inject({ url: '/nope' }),
      status: 404,
    },
    {
      description: 'a 401',
      request: (app: FastifyInstance) => post(app, '/sign/hash', {}),
      status: 401,
    },
    {
      description: 'a 400',
      request: (app: FastifyInstance) => post(app, '/auth/login', { email: 'nope' }),
      status: 400,
    },
  ])('our replies carry the same set on $description', async ({ request, status }) => {
    t = await buildTestApp();
    const res = await request(t.app);
    expect(res.statusCode).toBe(status);
    expect(securityPart(res.headers)).toEqual(await helmetHeaders('/health'));
  });
});
