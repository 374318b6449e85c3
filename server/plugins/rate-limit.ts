/**
 * Per-route rate limits (@fastify/rate-limit, `global: false`): a route opts in with
 * `config: { rateLimit: RATE_LIMITS.x }`. Keys are the client IP as Fastify sees it, so
 * X-Forwarded-For counts only when `trustProxy` trusts the proxy; IPv6 clients are keyed on
 * their /64. Each route has its own counter
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
  // each call that gets through makes an upstream wallet: keep it as tight as sign-in
  walletCreate: { max: 5, timeWindow: 60_000 },
} as const;

type IncrCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

interface Window {
  count: number;
  startedAt: number;
}

/**
 * In-memory store with the semantics of @fastify/rate-limit's LocalStore, except that it hands
 * back a snapshot. LocalStore passes its live counter object, and the plugin reads it one
 * microtask later, after concurrent requests in the same tick have bumped it: a burst of 50
 * logins then sees 50 > 5 for every request and none passes. Bounded like LocalStore (LRU).
 */
export class SnapshotMemoryStore {
  private readonly windows = new Map<string, Window>();
  private readonly capacity: number;

  constructor(options: { cache?: number } = {}) {
    this.capacity = options.cache ?? 5000;
  }

  incr(key: string, callback: IncrCallback, timeWindow: number): void {
    const now = Date.now();
    let window = this.windows.get(key);
    if (window === undefined || window.startedAt + timeWindow <= now) window = { count: 0, startedAt: now };
    window.count += 1;
    // re-insert so Map order is least-recently-used first
    this.windows.delete(key);
    this.windows.set(key, window);
    if (this.windows.size > this.capacity) {
      const oldest = this.windows.keys().next().value;
      if (oldest !== undefined) this.windows.delete(oldest);
    }
    callback(null, { current: window.count, ttl: window.startedAt + timeWindow - now });
  }

  read(key: string, callback: IncrCallback, timeWindow: number): void {
    const now = Date.now();
    const window = this.windows.get(key);
    if (window === undefined || window.startedAt + timeWindow <= now) callback(null, { current: 0, ttl: 0 });
    else callback(null, { current: window.count, ttl: window.startedAt + timeWindow - now });
  }

  /** One counter space per route, as LocalStore does. */
  child(): SnapshotMemoryStore {
    return new SnapshotMemoryStore({ cache: this.capacity });
  }
}

export interface RateLimitPluginOptions {
  redis?: Redis | undefined;
}

const rateLimitPlugin: FastifyPluginAsync<RateLimitPluginOptions> = async (fastify, options) => {
  await fastify.register(rateLimit, {
    global: false,
    ...(options.redis === undefined ? { store: SnapshotMemoryStore } : { redis: options.redis, nameSpace: 'finance-tui-rl:' }),
    // Fail closed: if Redis is unreachable the limited routes answer 500 rather than lifting the
    // OTP brute-force limit. main.ts gives the client a short command timeout so this is quick.
    skipOnError: false,
    // The plugin's default key generator masks IPv6 clients to this prefix (one /64 is what a
    // single subscriber usually gets, so per-address keys would give one client ~2^64
    // allowances) and keys IPv4-mapped IPv6 on the IPv4 address. Stated here rather than left
    // to the default so a future default or a custom keyGenerator cannot undo it silently;
    // test/server-rate-limit.test.ts pins the behaviour.
    ipv6Subnet: 64,
    // Thrown from the hook, so our one error handler shapes the 429 like every other error;
    // Retry-After and x-ratelimit-* are already on the reply.
    errorResponseBuilder: (_request, context) =>
      new AppError(ErrorCode.RATE_LIMITED, `Too many requests, retry in ${context.after}`, { status: context.statusCode }),
  });
};

export default fp(rateLimitPlugin, { name: 'rate-limit', fastify: '5.x' });
