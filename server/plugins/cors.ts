/**
 * CORS for the configured origins only. A request from any other origin gets no
 * Access-Control-Allow-Origin header at all (the browser then refuses to hand it the response);
 * non-browser clients never send Origin and are unaffected.
 */
import cors from '@fastify/cors';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

interface CorsPluginOptions {
  allowedOrigins: readonly string[];
}

const corsPlugin: FastifyPluginAsync<CorsPluginOptions> = async (fastify, options) => {
  const allowed = new Set(options.allowedOrigins);
  await fastify.register(cors, {
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
  });
};

export default fp(corsPlugin, { name: 'cors', fastify: '5.x' });
