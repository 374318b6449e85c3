/**
 * Per-route rate limits (@fastify/rate-limit, `global: false`): a route opts in with
 * `config: { rateLimit: RATE_LIMITS.x }`. Keys are the client IP as Fastify sees it, so
 * X-Forwarded-For counts only when `trustProxy` trusts the proxy. Each route has its own counter
 * (login and verify each allow 5 a minute). With a Redis client the counters live in Redis and
 * every instance shares them.
 *
 * The limiter runs in onRequest, before the body is parsed: a flood of large or broken bodies
 * costs us nothing. On protected prefixes the JWT guard (a scoped onRequest hook) runs first, so
 * only authenticated calls count against the signing limit.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { AppError, ErrorCode } from '../../shared/errors.js';

export const RATE_LIMITS = {
  auth: { max: 5, timeWindow: 60_000 },
  sign: { max: 30, timeWindow: 60_000 },
} as const;

export interface RateLimitPluginOptions {
  redis?: Redis | undefined;
}

const rateLimitPlugin: FastifyPluginAsync<RateLimitPluginOptions> = async (fastify, options) => {
  await fastify.register(rateLimit, {
    global: false,
    ...(options.redis === undefined ? {} : { redis: options.redis, nameSpace: 'finance-tui-rl:' }),
    // Fail closed: if Redis is unreachable the limited routes answer 500 rather than lifting the
    // OTP brute-force limit. main.ts gives the client a short command timeout so this is quick.
    skipOnError: false,
    // Thrown from the hook, so our one error handler shapes the 429 like every other error;
    // Retry-After and x-ratelimit-* are already on the reply.
    errorResponseBuilder: (_request, context) =>
      new AppError(ErrorCode.RATE_LIMITED, `Too many requests, retry in ${context.after}`, { status: context.statusCode }),
  });
};

export default fp(rateLimitPlugin, { name: 'rate-limit', fastify: '5.x' });
