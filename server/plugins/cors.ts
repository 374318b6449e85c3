/**
 * CORS for the configured origins only. A request from any other origin gets no
 * Access-Control-Allow-Origin header at all (the browser then refuses to hand it the response);
 * non-browser clients never send Origin and are unaffected.
 *
 * @fastify/cors answers every request. For one without an Origin header its whole answer is
 * `Vary: Origin` (no origin is allowed, so nothing else is added and a preflight falls through to
 * a 404), yet it builds the route's options twice, copies its own options and makes two closures
 * to get there, on every request. So the hook it adds is kept here and run only for requests that
 * carry an Origin (or a reply that already has a Vary header); the others get `Vary: Origin`
 * directly. test/server-cors.test.ts holds the two to the same answers.
 */
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyPluginAsync, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';

interface CorsPluginOptions {
  allowedOrigins: readonly string[];
}

/** What @fastify/cors is given for `allowedOrigins` (test/server-cors.test.ts runs it alone with them). */
export function corsOptions(allowedOrigins: readonly string[]): FastifyCorsOptions {
  const allowed = new Set(allowedOrigins);
  return {
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'POST'],
    allowedHeaders: ['content-type', 'authorization', 'x-request-id'],
    exposedHeaders: [
      'x-request-id',
      'retry-after',
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
    ],
    // Bearer tokens, not cookies: browsers need no credentials mode.
    credentials: false,
    maxAge: 600,
  };
}

const corsPlugin: FastifyPluginAsync<CorsPluginOptions> = async (fastify, options) => {
  // @fastify/cors adds one onRequest hook (its options route and decorator go through as usual):
  // taken while it registers, and added below behind the Origin check
  let corsHook: onRequestHookHandler | undefined;
  const addHook = fastify.addHook;
  const capture = function (this: typeof fastify, name: string, hook: unknown) {
    if (name === 'onRequest' && corsHook === undefined) {
      corsHook = hook as onRequestHookHandler;
      return this;
    }
    return (addHook as (name: string, hook: unknown) => typeof fastify).call(this, name, hook);
  };
  fastify.addHook = capture as typeof fastify.addHook;
  try {
    await fastify.register(cors, corsOptions(options.allowedOrigins));
  } finally {
    fastify.addHook = addHook;
  }
  const handleCors = corsHook;
  if (handleCors === undefined) throw new Error('@fastify/cors added no onRequest hook');
  fastify.addHook('onRequest', function (request, reply, done) {
    if (request.headers.origin === undefined && !reply.hasHeader('vary')) {
      reply.header('vary', 'Origin');
      done();
      return;
    }
    handleCors.call(this, request, reply, done);
  });
};

export default fp(corsPlugin, { name: 'cors', fastify: '5.x' });
