/**
 * Rate limits (docs/architecture.md "Auth server contract"; docs/server-security.md "Rate
 * limits"): fixed windows counted per client and, on authenticated routes, per user (the token's
 * `sub`), so neither many addresses for one account nor many accounts behind one address lift a
 * limit. A route lists its rules in RATE_LIMITS and opts in with `onRequest:
 * fastify.rateLimit(rules)`; a handler that only knows what to count after parsing the body (the
 * paymaster's execute call, sponsored gas) calls `fastify.enforceLimits(request, reply, rules)`.
 *
 * Clients are keyed by client-key.ts (IPv4 address, IPv6 /64) on the address Fastify sees, so
 * X-Forwarded-For counts only when `trustProxy` trusts the proxy. Every rule is its own counter
 * space. User rules are counted first: a request over its user's limit is refused without opening
 * a window for its address, so on authenticated routes a new key costs an account's allowance.
 *
 * The limiter runs in onRequest, before the body is parsed: a flood of large or broken bodies
 * costs us nothing. On protected prefixes the JWT guard (a scoped onRequest hook) runs first, so
 * only authenticated calls count.
 *
 * Counters live in memory (MemoryCounterStore: bounded, see there) or, with a Redis client, in
 * Redis, shared by every instance. A Redis failure fails closed: the request is refused (503
 * DEPENDENCY_UNAVAILABLE) rather than let through unlimited.
 */
import { createHash } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { clientKey, networkKey } from '../client-key.js';
import { TOKEN_TTL_SECONDS } from '../jwt.js';
import { redisUnavailable } from '../redis-unavailable.js';

export interface LimitRule {
  /** the counter space: one per route (or call) and subject */
  name: string;
  /**
   * the client (client-key.ts), the token's user, the e-mail address a sign-in names (hashed:
   * emailKey), or that address from one source (`email-source`: the client's IPv4 address or
   * IPv6 /48, see sourceKey)
   */
  per: 'ip' | 'user' | 'email' | 'email-source';
  max: number;
  windowMs: number;
  /** in-memory store: most windows this space keeps open at once (see MemoryCounterStore) */
  capacity: number;
  /** the refusal when this rule is over (default 429 RATE_LIMITED "Too many requests") */
  exceeded?: { code: ErrorCode; message: string };
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/**
 * In-memory capacities. Spaces a client without an account can fill (login, verify) hold 100,000
 * windows; spaces behind a valid token 25,000; sponsored gas is counted per user per day, 100,000.
 * At ~100 bytes a window the whole store stays under ~50 MB even with every space full.
 */
const CAPACITY = { open: 100_000, authenticated: 25_000 } as const;

function rule(
  name: string,
  per: LimitRule['per'],
  max: number,
  capacity: number = CAPACITY.authenticated,
  windowMs = MINUTE,
): LimitRule {
  return { name, per, max, windowMs, capacity };
}

/**
 * Sign-in codes per e-mail address (docs/server-security.md "Sign-in codes per e-mail"): each
 * source (an IPv4 address or an IPv6 /48) has its own small allowance for an address, and the
 * address a ceiling over all sources, several times higher, so that a stranger from a few sources
 * cannot use up the person's allowance, while guesses stay bounded whatever the number of sources.
 */
export const EMAIL_SENDS = { perSource: 3, max: 30, windowMs: 15 * MINUTE } as const;
/** Tries of codes for one e-mail address: per source (a new code from it starts them again), and in all per window. */
export const EMAIL_GUESSES = { perSource: 5, max: 50, windowMs: 15 * MINUTE } as const;

const minutes = (ms: number): number => ms / MINUTE;

/** The limits of every route (docs/server-api.md "Routes"). */
export const RATE_LIMITS = {
  // a 6-digit code could be guessed at verify; a mailbox spammed through login
  login: [rule('login:ip', 'ip', 5, CAPACITY.open)],
  verify: [rule('verify:ip', 'ip', 5, CAPACITY.open)],
  // per e-mail, counted once the body is read (auth.ts): per source first, the ceiling only for
  // what a source may still send (a source over its own allowance costs the address nothing)
  loginEmail: [
    {
      ...rule(
        'login:email-source',
        'email-source',
        EMAIL_SENDS.perSource,
        CAPACITY.open,
        EMAIL_SENDS.windowMs,
      ),
      exceeded: {
        code: ErrorCode.RATE_LIMITED,
        message: `${EMAIL_SENDS.perSource} codes were sent to this e-mail address from your network in the last ${minutes(EMAIL_SENDS.windowMs)} minutes; use the newest one, or`,
      },
    },
    {
      ...rule('login:email', 'email', EMAIL_SENDS.max, CAPACITY.open, EMAIL_SENDS.windowMs),
      exceeded: {
        code: ErrorCode.RATE_LIMITED,
        message: `${EMAIL_SENDS.max} codes were sent to this e-mail address in the last ${minutes(EMAIL_SENDS.windowMs)} minutes; use the newest one, or`,
      },
    },
  ],
  verifyEmail: [
    {
      ...rule(
        'verify:email-source',
        'email-source',
        EMAIL_GUESSES.perSource,
        CAPACITY.open,
        EMAIL_GUESSES.windowMs,
      ),
      exceeded: {
        code: ErrorCode.RATE_LIMITED,
        message: `Too many codes were tried for this e-mail address from your network; ask for a new one (a new code gets ${EMAIL_GUESSES.perSource} tries), or`,
      },
    },
    {
      ...rule('verify:email', 'email', EMAIL_GUESSES.max, CAPACITY.open, EMAIL_GUESSES.windowMs),
      exceeded: {
        code: ErrorCode.RATE_LIMITED,
        message: `Too many codes (${EMAIL_GUESSES.max}) were tried for this e-mail address in the last ${minutes(EMAIL_GUESSES.windowMs)} minutes, from many networks: no code works here until the window closes;`,
      },
    },
  ],
  walletFind: [rule('wallet-find:user', 'user', 30), rule('wallet-find:ip', 'ip', 60)],
  // each call that gets through may make an upstream wallet: as tight as sign-in per address
  walletCreate: [rule('wallet-create:ip', 'ip', 5), rule('wallet-create:user', 'user', 10)],
  signHash: [rule('sign-hash:ip', 'ip', 30), rule('sign-hash:user', 'user', 30)],
  signMessage: [rule('sign-message:ip', 'ip', 30), rule('sign-message:user', 'user', 30)],
  paymaster: [rule('paymaster:user', 'user', 60), rule('paymaster:ip', 'ip', 120)],
  paymasterExecute: [rule('paymaster-execute:user', 'user', 10)],
  logout: [rule('logout:user', 'user', 10), rule('logout:ip', 'ip', 30)],
  // agent grants: creating and revoking change the store; reading is cheap but still bounded
  grantWrite: [rule('grant-write:user', 'user', 20), rule('grant-write:ip', 'ip', 60)],
  grantRead: [rule('grant-read:user', 'user', 60), rule('grant-read:ip', 'ip', 120)],
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

interface Hit {
  /** hits in the current window, this one included */
  count: number;
  /** ms until the window closes */
  resetMs: number;
  /**
   * the in-memory store refused this new key: full of windows it may not drop (`clients`), or
   * holding its network's share already (`network`, an IPv6 /48)
   */
  full?: 'clients' | 'network';
}

interface HitContext {
  /** a known-good client (signed in from this address lately, or an authenticated request within its user's limits) */
  known?: boolean;
}

export interface CounterStore {
  hit(rule: LimitRule, subject: string, context?: HitContext): Hit | Promise<Hit>;
  /** closes `subject`'s window now (a new sign-in code: its tries start again); absent: windows only expire */
  reset?(rule: LimitRule, subject: string): void | Promise<void>;
}

/** Counts up to 1023 are kept exactly; more only ever means "over the limit". */
const COUNT_RANGE = 1024;
const pack = (resetAt: number, count: number): number =>
  resetAt * COUNT_RANGE + Math.min(count, COUNT_RANGE - 1);
const countOf = (packed: number): number => packed % COUNT_RANGE;
const resetAtOf = (packed: number): number => Math.floor(packed / COUNT_RANGE);

/** expired windows dropped per hit (amortised sweep), and when the space is full */
const SWEEP_PER_HIT = 8;
const SWEEP_WHEN_FULL = 256;

/** Known-good clients' reserved windows: a tenth of a space's capacity on top of it. */
const RESERVE_SHARE = 0.1;
/** Windows one IPv6 /48 may hold in a space: a hundredth of its capacity (at least 16). */
const NETWORK_SHARE = 0.01;

interface Space {
  /** windows still under the limit, in window-start order (so oldest = closing first) */
  open: Map<string, number>;
  /** windows at or over the limit: never dropped before they close */
  exhausted: Map<string, number>;
  /** known-good clients' windows opened while the space was full: never dropped before they close */
  reserved: Map<string, number>;
  capacity: number;
  reserveCapacity: number;
  networkShare: number;
  /** windows per IPv6 /48 (client-key.ts networkKey) */
  networks: Map<string, number>;
}

/**
 * In-memory counters, one fixed window per key, bounded so that forgetting is never an attacker's
 * tool, and so that strangers' keys cannot lock everyone else out:
 * - a window is dropped when it closes (swept from the front of insertion order as hits arrive);
 * - at a space's capacity, the oldest window that is still *under* its limit makes room (its
 *   client regains at most the allowance any of the new keys filling the space has anyway);
 * - a window at or over its limit is never dropped before it closes: flooding the store with
 *   other addresses cannot hand an exhausted client fresh attempts;
 * - when a space holds only exhausted windows, a new stranger is refused (429, fail closed) until
 *   the oldest closes; a known-good client (HitContext.known) gets a window in a reserve of
 *   RESERVE_SHARE × capacity that strangers cannot use, refused only once that is full too;
 * - one IPv6 /48 may hold at most NETWORK_SHARE × capacity windows of a space (a /48 holds 65,536
 *   /64 keys): past it, a new stranger from that network is refused, the rest of the world is not.
 * Memory stays at most (capacity + reserve) × ~100 bytes per space. Values are packed numbers
 * (reset time × 1024 + count), not objects: about half the memory. It hands back plain numbers,
 * never a live counter (concurrent requests in one tick each see their own count).
 */
export class MemoryCounterStore implements CounterStore {
  private readonly spaces = new Map<string, Space>();
  private readonly capacity: number | undefined;

  /** `capacity` replaces every rule's own (tests) */
  constructor(options: { capacity?: number } = {}) {
    this.capacity = options.capacity;
  }

  hit(rule: LimitRule, subject: string, context: HitContext = {}): Hit {
    const now = Date.now();
    const space = this.space(rule);
    sweep(space, space.open, now, SWEEP_PER_HIT);
    sweep(space, space.exhausted, now, SWEEP_PER_HIT);
    sweep(space, space.reserved, now, SWEEP_PER_HIT);

    let where: Map<string, number> | undefined;
    let packed: number | undefined;
    for (const map of [space.open, space.exhausted, space.reserved]) {
      packed = map.get(subject);
      if (packed !== undefined) {
        where = map;
        break;
      }
    }
    if (where !== undefined && packed !== undefined && resetAtOf(packed) <= now) {
      forget(space, where, subject);
      where = undefined;
      packed = undefined;
    }

    if (where === undefined || packed === undefined) {
      const network = networkKey(subject);
      const inNetwork = network === undefined ? 0 : (space.networks.get(network) ?? 0);
      if (context.known !== true && inNetwork >= space.networkShare) {
        return { count: rule.max + 1, resetMs: rule.windowMs, full: 'network' };
      }
      where = makeRoom(space, now)
        ? space.open
        : context.known === true && roomInReserve(space, now)
          ? space.reserved
          : undefined;
      if (where === undefined) {
        const oldest = first(space.exhausted);
        const retry =
          oldest === undefined ? rule.windowMs : Math.max(1_000, resetAtOf(oldest) - now);
        return { count: rule.max + 1, resetMs: retry, full: 'clients' };
      }
      if (network !== undefined) space.networks.set(network, inNetwork + 1);
      where.set(subject, pack(now + rule.windowMs, 1));
      if (where === space.open && rule.max <= 1) move(space.open, space.exhausted, subject);
      return { count: 1, resetMs: rule.windowMs };
    }

    const count = countOf(packed) + 1;
    const resetAt = resetAtOf(packed);
    // an existing key keeps its place: Map.set on a present key does not reorder
    where.set(subject, pack(resetAt, count));
    if (where === space.open && count >= rule.max) move(space.open, space.exhausted, subject);
    return { count, resetMs: resetAt - now };
  }

  reset(rule: LimitRule, subject: string): void {
    const space = this.spaces.get(rule.name);
    if (space === undefined) return;
    for (const map of [space.open, space.exhausted, space.reserved])
      if (map.has(subject)) forget(space, map, subject);
  }

  /** Windows held (tests and the memory measurement). */
  size(): number {
    let total = 0;
    for (const space of this.spaces.values())
      total += space.open.size + space.exhausted.size + space.reserved.size;
    return total;
  }

  private space(rule: LimitRule): Space {
    let space = this.spaces.get(rule.name);
    if (space === undefined) {
      const capacity = this.capacity ?? rule.capacity;
      space = {
        open: new Map(),
        exhausted: new Map(),
        reserved: new Map(),
        capacity,
        reserveCapacity: Math.max(1, Math.ceil(capacity * RESERVE_SHARE)),
        networkShare: Math.max(16, Math.floor(capacity * NETWORK_SHARE)),
        networks: new Map(),
      };
      this.spaces.set(rule.name, space);
    }
    return space;
  }
}

function first(map: Map<string, number>): number | undefined {
  for (const value of map.values()) return value;
  return undefined;
}

function move(from: Map<string, number>, to: Map<string, number>, key: string): void {
  const value = from.get(key) as number;
  from.delete(key);
  to.set(key, value);
}

/** Drops a window, and its count in its network. */
function forget(space: Space, map: Map<string, number>, key: string): void {
  map.delete(key);
  const network = networkKey(key);
  if (network === undefined) return;
  const left = (space.networks.get(network) ?? 1) - 1;
  if (left <= 0) space.networks.delete(network);
  else space.networks.set(network, left);
}

/** Drops up to `limit` closed windows from the front of `map`. */
function sweep(space: Space, map: Map<string, number>, now: number, limit: number): void {
  let dropped = 0;
  for (const [key, value] of map) {
    if (dropped >= limit || resetAtOf(value) > now) return;
    forget(space, map, key);
    dropped += 1;
  }
}

/** True when a new window fits: below capacity, after a sweep, or by dropping the oldest window under its limit. */
function makeRoom(space: Space, now: number): boolean {
  if (space.open.size + space.exhausted.size < space.capacity) return true;
  sweep(space, space.open, now, SWEEP_WHEN_FULL);
  sweep(space, space.exhausted, now, SWEEP_WHEN_FULL);
  if (space.open.size + space.exhausted.size < space.capacity) return true;
  for (const key of space.open.keys()) {
    forget(space, space.open, key);
    return true;
  }
  return false;
}

function roomInReserve(space: Space, now: number): boolean {
  if (space.reserved.size < space.reserveCapacity) return true;
  sweep(space, space.reserved, now, SWEEP_WHEN_FULL);
  return space.reserved.size < space.reserveCapacity;
}

/**
 * Clients that signed in from their address lately (POST /auth/verify answered 200), kept for a
 * token's lifetime: the in-memory store gives them reserved windows when strangers have filled a
 * space. At most MAX_KNOWN_CLIENTS (the oldest is forgotten first: losing the privilege, never
 * gaining one); becoming known takes a real sign-in, so strangers cannot fill it cheaply.
 */
const MAX_KNOWN_CLIENTS = 100_000;

export class KnownClients {
  private readonly until = new Map<string, number>();
  private readonly max: number;
  constructor(max = MAX_KNOWN_CLIENTS) {
    this.max = max;
  }

  remember(client: string): void {
    this.until.delete(client);
    this.until.set(client, Date.now() + TOKEN_TTL_SECONDS * 1000);
    while (this.until.size > this.max) {
      for (const key of this.until.keys()) {
        this.until.delete(key);
        break;
      }
    }
  }

  has(client: string): boolean {
    const until = this.until.get(client);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.until.delete(client);
    return false;
  }
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

type RedisWithHit = Redis & {
  financeTuiHit(key: string, windowMs: number): Promise<[number, number]>;
};

/** Counters in Redis (INCR + PEXPIRE in one script): shared by every instance, expired by Redis. */
class RedisCounterStore implements CounterStore {
  private readonly redis: RedisWithHit;
  private readonly prefix: string;

  constructor(redis: Redis, prefix = 'finance-tui-rl:') {
    this.prefix = prefix;
    if (!('financeTuiHit' in redis))
      redis.defineCommand('financeTuiHit', { numberOfKeys: 1, lua: HIT_SCRIPT });
    this.redis = redis as RedisWithHit;
  }

  async hit(rule: LimitRule, subject: string): Promise<Hit> {
    let answer: [number, number];
    try {
      answer = await this.redis.financeTuiHit(
        `${this.prefix}${rule.name}:${subject}`,
        rule.windowMs,
      );
    } catch {
      // fail closed, and say what is down (never the error: it could quote the URL)
      throw redisUnavailable();
    }
    const [count, ttl] = answer;
    return { count, resetMs: ttl };
  }

  async reset(rule: LimitRule, subject: string): Promise<void> {
    try {
      await this.redis.del(`${this.prefix}${rule.name}:${subject}`);
    } catch {
      throw redisUnavailable();
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** an onRequest hook enforcing `rules` */
    rateLimit(
      rules: readonly LimitRule[],
    ): (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /**
     * counts one hit against each rule (user rules first); throws 429 RATE_LIMITED (Retry-After
     * set) when one is over. `email`: the address e-mail rules count (normalised and hashed here).
     */
    enforceLimits(
      request: FastifyRequest,
      reply: FastifyReply,
      rules: readonly LimitRule[],
      subjects?: { email?: string },
    ): Promise<void>;
    /**
     * closes the windows of `email` (and of `email` from the request's source) that `rules`
     * count: a new code's tries start again for its source; a sign-in ends them all
     */
    resetEmailLimits(
      request: FastifyRequest,
      rules: readonly LimitRule[],
      email: string,
    ): Promise<void>;
    /** marks the request's client known-good (it has just signed in) */
    rememberClient(request: FastifyRequest): void;
  }
}

/**
 * The counter key of an e-mail address: trimmed and lower-cased (as the identity provider reads
 * it), then hashed, so neither a counter key in Redis nor a dump of the store shows an address.
 */
export function emailKey(email: string): string {
  return createHash('sha256')
    .update(`finance-tui-email:${email.trim().toLowerCase()}`)
    .digest('base64url')
    .slice(0, 32);
}

/**
 * The source of a sign-in for the per-e-mail rules: an IPv4 address, or an IPv6 /48 (a site's
 * allocation: its 65,536 /64s are one source, or a stranger with one /48 would be 65,536).
 */
function sourceKey(client: string): string {
  return networkKey(client) ?? client;
}

function clientOf(request: FastifyRequest): string {
  const client = clientKey(request.ip);
  // an address we cannot read is no client: refused rather than counted under a shared key
  if (client === undefined)
    throw new AppError(
      ErrorCode.RATE_LIMITED,
      'The client address could not be read; retry in 60 s',
      {
        details: { retryAfter: 60 },
      },
    );
  return client;
}

function subjectOf(request: FastifyRequest, rule: LimitRule, email: string | undefined): string {
  if (rule.per === 'email' || rule.per === 'email-source') {
    // an e-mail rule counted without its address is a wiring bug
    if (email === undefined) throw new Error(`rate limit ${rule.name} needs an e-mail address`);
    return rule.per === 'email'
      ? emailKey(email)
      : `${emailKey(email)}@${sourceKey(clientOf(request))}`;
  }
  if (rule.per === 'ip') return clientOf(request);
  // user rules sit behind the JWT guard; reaching one without claims is a wiring bug
  if (request.auth === null)
    throw new Error(`rate limit ${rule.name} needs an authenticated request`);
  return request.auth.userId;
}

interface RateLimitPluginOptions {
  redis?: Redis | undefined;
  /** replaces both (tests) */
  store?: CounterStore;
}

/** The order rules are counted in; a stage is counted only when every earlier one is within its limits. */
const STAGES: ReadonlyArray<ReadonlyArray<LimitRule['per']>> = [
  ['user'],
  ['ip', 'email-source'],
  ['email'],
];

const rateLimitPlugin: FastifyPluginAsync<RateLimitPluginOptions> = async (fastify, options) => {
  const store =
    options.store ??
    (options.redis === undefined ? new MemoryCounterStore() : new RedisCounterStore(options.redis));
  const known = new KnownClients();

  type Counted = { limit: LimitRule; hit: Hit };
  const count = (
    request: FastifyRequest,
    rules: readonly LimitRule[],
    context: HitContext,
    email?: string,
  ): Promise<Counted[]> =>
    Promise.all(
      rules.map(async (limit) => ({
        limit,
        hit: await store.hit(limit, subjectOf(request, limit, email), context),
      })),
    );

  async function enforceLimits(
    request: FastifyRequest,
    reply: FastifyReply,
    rules: readonly LimitRule[],
    subjects: { email?: string } = {},
  ): Promise<void> {
    // known-good: an authenticated request (its user's rules are counted first), or a client that signed in lately
    const client = request.auth === null ? clientKey(request.ip) : undefined;
    const context = { known: request.auth !== null || (client !== undefined && known.has(client)) };
    // narrowest first: a request over its user's rules opens no window for its address, and one
    // over its source's share of an e-mail address costs that address's ceiling nothing
    let hits: Counted[] = [];
    for (const stage of STAGES) {
      const staged = rules.filter((limit) => stage.includes(limit.per));
      if (staged.length === 0) continue;
      hits = [...hits, ...(await count(request, staged, context, subjects.email))];
      if (hits.some((entry) => entry.hit.count > entry.limit.max)) break;
    }
    // the headers describe the tightest rule; Retry-After the longest wait among those over
    let tightest = hits[0];
    let over: (typeof hits)[number] | undefined;
    for (const entry of hits) {
      const remaining = entry.limit.max - entry.hit.count;
      if (tightest === undefined || remaining < tightest.limit.max - tightest.hit.count)
        tightest = entry;
      if (
        entry.hit.count > entry.limit.max &&
        (over === undefined || entry.hit.resetMs > over.hit.resetMs)
      )
        over = entry;
    }
    if (tightest === undefined) return;
    reply.header('x-ratelimit-limit', tightest.limit.max);
    reply.header('x-ratelimit-remaining', Math.max(0, tightest.limit.max - tightest.hit.count));
    reply.header('x-ratelimit-reset', Math.ceil(tightest.hit.resetMs / 1000));
    if (over === undefined) return;
    const retryAfter = Math.max(1, Math.ceil(over.hit.resetMs / 1000));
    reply.header('retry-after', retryAfter);
    const refusal =
      over.hit.full === 'clients'
        ? { code: ErrorCode.RATE_LIMITED, message: 'Too many clients at once;' }
        : over.hit.full === 'network'
          ? { code: ErrorCode.RATE_LIMITED, message: 'Too many clients from your network at once;' }
          : (over.limit.exceeded ?? {
              code: ErrorCode.RATE_LIMITED,
              message: 'Too many requests,',
            });
    throw new AppError(refusal.code, `${refusal.message} retry in ${retryAfter} s`, {
      details: { retryAfter },
    });
  }

  fastify.decorate('enforceLimits', enforceLimits);
  fastify.decorate(
    'resetEmailLimits',
    async (request: FastifyRequest, rules: readonly LimitRule[], email: string) => {
      for (const limit of rules)
        if (limit.per === 'email' || limit.per === 'email-source')
          await store.reset?.(limit, subjectOf(request, limit, email));
    },
  );
  fastify.decorate('rememberClient', (request: FastifyRequest) => {
    const client = clientKey(request.ip);
    if (client !== undefined) known.remember(client);
  });
  fastify.decorate(
    'rateLimit',
    (rules: readonly LimitRule[]) => async (request: FastifyRequest, reply: FastifyReply) => {
      await enforceLimits(request, reply, rules);
    },
  );
};

export default fp(rateLimitPlugin, { name: 'rate-limit', fastify: '5.x' });
