/**
 * Rate limits (docs/architecture.md "Auth server contract" and "Abuse bounds"): fixed windows
 * counted per client IP and, on authenticated routes, per user (the token's `sub`), so neither
 * many addresses for one account nor many accounts behind one address lift a limit. A route lists
 * its rules in RATE_LIMITS and opts in with `onRequest: fastify.rateLimit(rules)`; a handler that
 * only knows what to count after parsing the body (the paymaster's execute call, sponsored gas)
 * calls `fastify.enforceLimits(request, reply, rules)`.
 *
 * Keys are the client IP as Fastify sees it, so X-Forwarded-For counts only when `trustProxy`
 * trusts the proxy; IPv6 clients are keyed on their /64 (one subscriber's usual allocation, so
 * per-address keys would give one client ~2^64 allowances) and IPv4-mapped IPv6 on the IPv4
 * address (@fastify/rate-limit's normalizeIP). Every rule is its own counter space.
 *
 * The limiter runs in onRequest, before the body is parsed: a flood of large or broken bodies
 * costs us nothing. On protected prefixes the JWT guard (a scoped onRequest hook) runs first, so
 * only authenticated calls count.
 *
 * Counters live in memory (MemoryCounterStore: bounded, see there) or, with a Redis client, in
 * Redis, shared by every instance. A Redis failure fails closed: the request is refused (500)
 * rather than let through unlimited.
 */
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { AppError, ErrorCode } from '../../shared/errors.js';

export interface LimitRule {
  /** the counter space: one per route (or call) and subject */
  name: string;
  per: 'ip' | 'user';
  max: number;
  windowMs: number;
  /** in-memory store: most windows this space keeps open at once (see MemoryCounterStore) */
  capacity: number;
  /** the refusal when this rule is over (default 429 RATE_LIMITED "Too many requests") */
  exceeded?: { code: ErrorCode; message: string };
}

const MINUTE = 60_000;
export const DAY = 24 * 60 * MINUTE;

/**
 * In-memory capacities. Spaces a client without an account can fill (login, verify) hold 100,000
 * windows; spaces behind a valid token 25,000; sponsored gas is counted per user per day, 100,000.
 * At ~100 bytes a window the whole store stays under ~50 MB even with every space full.
 */
const CAPACITY = { open: 100_000, authenticated: 25_000 } as const;

function rule(name: string, per: LimitRule['per'], max: number, capacity: number = CAPACITY.authenticated, windowMs = MINUTE): LimitRule {
  return { name, per, max, windowMs, capacity };
}

/** The limits of every route (README "Auth server API"). */
export const RATE_LIMITS = {
  // a 6-digit code could be guessed at verify; a mailbox spammed through login
  login: [rule('login:ip', 'ip', 5, CAPACITY.open)],
  verify: [rule('verify:ip', 'ip', 5, CAPACITY.open)],
  walletFind: [rule('wallet-find:user', 'user', 30), rule('wallet-find:ip', 'ip', 60)],
  // each call that gets through may make an upstream wallet: as tight as sign-in per address
  walletCreate: [rule('wallet-create:ip', 'ip', 5), rule('wallet-create:user', 'user', 10)],
  signHash: [rule('sign-hash:ip', 'ip', 30), rule('sign-hash:user', 'user', 30)],
  signMessage: [rule('sign-message:ip', 'ip', 30), rule('sign-message:user', 'user', 30)],
  paymaster: [rule('paymaster:user', 'user', 60), rule('paymaster:ip', 'ip', 120)],
  paymasterExecute: [rule('paymaster-execute:user', 'user', 10)],
  logout: [rule('logout:user', 'user', 10), rule('logout:ip', 'ip', 30)],
} as const satisfies Record<string, readonly LimitRule[]>;

/** Sponsored transactions a user may relay per day (PAYMASTER_SPONSORED_DAILY_LIMIT). */
export function sponsoredDailyRule(max: number): LimitRule {
  return {
    ...rule('paymaster-sponsored:user', 'user', max, CAPACITY.open, DAY),
    exceeded: {
      code: ErrorCode.SPONSORED_LIMIT_REACHED,
      message: `This account has used its ${max} sponsored transactions for the day; pay the gas in a token (fee_mode "default") or`,
    },
  };
}

export interface Hit {
  /** hits in the current window, this one included */
  count: number;
  /** ms until the window closes */
  resetMs: number;
  /** the in-memory store is full of windows it may not drop: this new key is refused */
  full?: true;
}

export interface CounterStore {
  hit(rule: LimitRule, subject: string): Hit | Promise<Hit>;
}

/** Counts up to 1023 are kept exactly; more only ever means "over the limit". */
const COUNT_RANGE = 1024;
const pack = (resetAt: number, count: number): number => resetAt * COUNT_RANGE + Math.min(count, COUNT_RANGE - 1);
const countOf = (packed: number): number => packed % COUNT_RANGE;
const resetAtOf = (packed: number): number => Math.floor(packed / COUNT_RANGE);

/** expired windows dropped per hit (amortised sweep), and when the space is full */
const SWEEP_PER_HIT = 8;
const SWEEP_WHEN_FULL = 256;

interface Space {
  /** windows still under the limit, in window-start order (so oldest = closing first) */
  open: Map<string, number>;
  /** windows at or over the limit: never dropped before they close */
  exhausted: Map<string, number>;
  capacity: number;
}

/**
 * In-memory counters, one fixed window per key, bounded so that forgetting is never an attacker's
 * tool:
 * - a window is dropped when it closes (swept from the front of insertion order as hits arrive);
 * - at a space's capacity, the oldest window that is still *under* its limit makes room (its
 *   client regains at most the allowance any of the new keys filling the space has anyway);
 * - a window at or over its limit is never dropped before it closes: flooding the store with
 *   other addresses cannot hand an exhausted client fresh attempts;
 * - when a space holds only exhausted windows, a new key is refused (429, fail closed) until the
 *   oldest closes. Memory stays at most capacity × ~100 bytes per space.
 * Values are packed numbers (reset time × 1024 + count), not objects: about half the memory.
 * It hands back plain numbers, never a live counter (concurrent requests in one tick each see
 * their own count).
 */
export class MemoryCounterStore implements CounterStore {
  private readonly spaces = new Map<string, Space>();
  private readonly capacity: number | undefined;

  /** `capacity` replaces every rule's own (tests) */
  constructor(options: { capacity?: number } = {}) {
    this.capacity = options.capacity;
  }

  hit(rule: LimitRule, subject: string): Hit {
    const now = Date.now();
    const space = this.space(rule);
    sweep(space.open, now, SWEEP_PER_HIT);
    sweep(space.exhausted, now, SWEEP_PER_HIT);

    let packed = space.open.get(subject);
    let exhausted = false;
    if (packed === undefined) {
      packed = space.exhausted.get(subject);
      exhausted = packed !== undefined;
    }
    if (packed !== undefined && resetAtOf(packed) <= now) {
      (exhausted ? space.exhausted : space.open).delete(subject);
      packed = undefined;
      exhausted = false;
    }

    let count: number;
    let resetAt: number;
    if (packed === undefined) {
      if (!makeRoom(space, now)) {
        const oldest = first(space.exhausted);
        const retry = oldest === undefined ? rule.windowMs : Math.max(1_000, resetAtOf(oldest) - now);
        return { count: rule.max + 1, resetMs: retry, full: true };
      }
      count = 1;
      resetAt = now + rule.windowMs;
    } else {
      count = countOf(packed) + 1;
      resetAt = resetAtOf(packed);
    }

    const value = pack(resetAt, count);
    if (count >= rule.max) {
      if (!exhausted) space.open.delete(subject);
      space.exhausted.set(subject, value);
    } else {
      // an existing key keeps its place: Map.set on a present key does not reorder
      space.open.set(subject, value);
    }
    return { count, resetMs: resetAt - now };
  }

  /** Windows held (tests and the memory measurement). */
  size(): number {
    let total = 0;
    for (const space of this.spaces.values()) total += space.open.size + space.exhausted.size;
    return total;
  }

  private space(rule: LimitRule): Space {
    let space = this.spaces.get(rule.name);
    if (space === undefined) {
      space = { open: new Map(), exhausted: new Map(), capacity: this.capacity ?? rule.capacity };
      this.spaces.set(rule.name, space);
    }
    return space;
  }
}

function first(map: Map<string, number>): number | undefined {
  for (const value of map.values()) return value;
  return undefined;
}

/** Drops up to `limit` closed windows from the front of `map`. */
function sweep(map: Map<string, number>, now: number, limit: number): void {
  let dropped = 0;
  for (const [key, value] of map) {
    if (dropped >= limit || resetAtOf(value) > now) return;
    map.delete(key);
    dropped += 1;
  }
}

/** True when a new window fits: below capacity, after a sweep, or by dropping the oldest window under its limit. */
function makeRoom(space: Space, now: number): boolean {
  if (space.open.size + space.exhausted.size < space.capacity) return true;
  sweep(space.open, now, SWEEP_WHEN_FULL);
  sweep(space.exhausted, now, SWEEP_WHEN_FULL);
  if (space.open.size + space.exhausted.size < space.capacity) return true;
  for (const key of space.open.keys()) {
    space.open.delete(key);
    return true;
  }
  return false;
}

const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

type RedisWithHit = Redis & { financeTuiHit(key: string, windowMs: number): Promise<[number, number]> };

/** Counters in Redis (INCR + PEXPIRE in one script): shared by every instance, expired by Redis. */
export class RedisCounterStore implements CounterStore {
  private readonly redis: RedisWithHit;
  private readonly prefix: string;

  constructor(redis: Redis, prefix = 'finance-tui-rl:') {
    this.prefix = prefix;
    if (!('financeTuiHit' in redis)) redis.defineCommand('financeTuiHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis = redis as RedisWithHit;
  }

  async hit(rule: LimitRule, subject: string): Promise<Hit> {
    const [count, ttl] = await this.redis.financeTuiHit(`${this.prefix}${rule.name}:${subject}`, rule.windowMs);
    return { count, resetMs: ttl };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** an onRequest hook enforcing `rules` */
    rateLimit(rules: readonly LimitRule[]): (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** counts one hit against each rule; throws 429 RATE_LIMITED (Retry-After set) when one is over */
    enforceLimits(request: FastifyRequest, reply: FastifyReply, rules: readonly LimitRule[]): Promise<void>;
  }
}

function subjectOf(request: FastifyRequest, rule: LimitRule): string {
  if (rule.per === 'ip') return normalizeIP(request.ip, 64);
  // user rules sit behind the JWT guard; reaching one without claims is a wiring bug
  if (request.auth === null) throw new Error(`rate limit ${rule.name} needs an authenticated request`);
  return request.auth.userId;
}

export interface RateLimitPluginOptions {
  redis?: Redis | undefined;
  /** replaces both (tests) */
  store?: CounterStore;
}

const rateLimitPlugin: FastifyPluginAsync<RateLimitPluginOptions> = async (fastify, options) => {
  const store = options.store ?? (options.redis === undefined ? new MemoryCounterStore() : new RedisCounterStore(options.redis));

  async function enforceLimits(request: FastifyRequest, reply: FastifyReply, rules: readonly LimitRule[]): Promise<void> {
    const hits = await Promise.all(rules.map(async (limit) => ({ limit, hit: await store.hit(limit, subjectOf(request, limit)) })));
    // the headers describe the tightest rule; Retry-After the longest wait among those over
    let tightest = hits[0];
    let over: (typeof hits)[number] | undefined;
    for (const entry of hits) {
      const remaining = entry.limit.max - entry.hit.count;
      if (tightest === undefined || remaining < tightest.limit.max - tightest.hit.count) tightest = entry;
      if (entry.hit.count > entry.limit.max && (over === undefined || entry.hit.resetMs > over.hit.resetMs)) over = entry;
    }
    if (tightest === undefined) return;
    reply.header('x-ratelimit-limit', tightest.limit.max);
    reply.header('x-ratelimit-remaining', Math.max(0, tightest.limit.max - tightest.hit.count));
    reply.header('x-ratelimit-reset', Math.ceil(tightest.hit.resetMs / 1000));
    if (over === undefined) return;
    const retryAfter = Math.max(1, Math.ceil(over.hit.resetMs / 1000));
    reply.header('retry-after', retryAfter);
    const refusal =
      over.hit.full === true
        ? { code: ErrorCode.RATE_LIMITED, message: 'Too many clients at once;' }
        : (over.limit.exceeded ?? { code: ErrorCode.RATE_LIMITED, message: 'Too many requests,' });
    throw new AppError(refusal.code, `${refusal.message} retry in ${retryAfter} s`, { status: 429, details: { retryAfter } });
  }

  fastify.decorate('enforceLimits', enforceLimits);
  fastify.decorate('rateLimit', (rules: readonly LimitRule[]) => async (request: FastifyRequest, reply: FastifyReply) => {
    await enforceLimits(request, reply, rules);
  });
};

export default fp(rateLimitPlugin, { name: 'rate-limit', fastify: '5.x' });
