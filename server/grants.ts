/**
 * Agent grants (docs/server-api.md "Agent grants"; docs/server-security.md "Agent grants"): what
 * a person lets an agent spend from their wallet without them, held by the server so that no
 * file on the agent's machine decides it.
 *
 * A grant: its id, its owner (the person's user and wallet), per-token amounts per rolling 24 h
 * (base units), the recipients a transfer may pay, an expiry, and the hash of its token. The
 * token is opaque, `ftg1.<id>.<secret>`, 32 random bytes of secret; the store keeps only the
 * SHA-256 of the secret (docs/decisions.md "Agent grant tokens"), so a copy of the store signs
 * nothing.
 *
 * The ledger: each signing under a grant charges its outflows (token → amount) before the
 * signature is asked for, in one atomic step with the check against what the last 24 h already
 * hold — two requests at once cannot both pass on the same allowance. A charge whose signing then
 * fails is taken back; a signature handed out stays charged whether or not it is ever sent.
 *
 * In memory (one process: a restart forgets every grant, so their tokens stop working) or, with
 * REDIS_URL, in Redis (shared by every instance and kept across restarts), like the sign-outs
 * (server/revocations.ts). Redis keys: `<prefix>grant:<id>` (the grant as JSON and `revoked`),
 * `<prefix>user:<userId>` (a user's grant ids), `<prefix>ledger:<id>` (a sorted set of charges by
 * time); each expires a day after its grant. The Redis charge is one Lua script, its sums in
 * decimal strings (Lua's numbers are doubles; amounts are not).
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Redis } from 'ioredis';
import { AppError, ErrorCode } from '../shared/errors.js';
import { redisUnavailable } from './redis-unavailable.js';

const GRANT_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Bounds (docs/server-security.md "Agent grants"). */
export const GRANT_LIMITS = {
  /** live (neither expired nor revoked) grants per user */
  maxGrantsPerUser: 10,
  /** grants a user's list keeps (live or not: an ended one is dropped a day after its expiry) */
  maxGrantsListed: 50,
  /** tokens with a daily amount in one grant */
  maxTokens: 16,
  /** recipients one grant may pay */
  maxRecipients: 20,
  /** the longest a grant may last */
  maxLifetimeMs: 90 * 24 * 60 * 60 * 1000,
  /** the shortest */
  minLifetimeMs: 1_000,
  /** charges one grant's rolling window holds; past it, signing refuses until older ones leave */
  maxChargesPerWindow: 1_000,
  /** grants the in-memory store holds in all */
  maxGrantsInMemory: 100_000,
} as const;

const GRANT_TOKEN_PREFIX = 'ftg1.';
const TOKEN_PATTERN = /^ftg1\.([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/;

interface GrantDaily {
  /** 0x + 64 lower-case hex */
  token: string;
  /** base units, decimal */
  amount: bigint;
}

export interface Grant {
  id: string;
  userId: string;
  email: string;
  walletId: string;
  walletAddress: string;
  daily: GrantDaily[];
  /** 0x + 64 lower-case hex each */
  recipients: string[];
  /** epoch ms */
  createdAt: number;
  expiresAt: number;
  revoked: boolean;
  /** SHA-256 of the token's secret, hex */
  secretHash: string;
}

/** One signing's outflows: token address → amount (base units). */
type Outflows = ReadonlyMap<string, bigint>;

export type ChargeResult =
  | { ok: true; chargeId: string }
  | { ok: false; reason: 'revoked' | 'expired' | 'busy' }
  | { ok: false; reason: 'over'; token: string; spent: bigint; limit: bigint; amount: bigint };

export interface GrantStore {
  /** stores a new grant; GRANT_LIMIT_REACHED when its user holds maxGrantsPerUser live ones */
  create(grant: Grant): Promise<void>;
  get(id: string): Promise<Grant | undefined>;
  /** the user's grants, newest first */
  list(userId: string): Promise<Grant[]>;
  /** false when the user has no such grant */
  revoke(userId: string, id: string): Promise<boolean>;
  /** what the window holds per token at `now` */
  spent(id: string, now: number): Promise<Map<string, bigint>>;
  /**
   * checks `outflows` against what is left and records them, in one atomic step; `until` is when
   * the signature stops being sendable (its Execute Before): the charge is held 24 h past it
   */
  charge(grant: Grant, outflows: Outflows, now: number, until: number): Promise<ChargeResult>;
  /** takes back a charge whose signing failed */
  refund(id: string, chargeId: string): Promise<void>;
}

function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** A new grant's id and token; the token is shown once, to the person who made it. */
export function newGrantToken(): { id: string; token: string; secretHash: string } {
  const id = randomUUID();
  const secret = randomBytes(32).toString('base64url');
  return { id, token: `${GRANT_TOKEN_PREFIX}${id}.${secret}`, secretHash: hashSecret(secret) };
}

export function isGrantToken(token: string): boolean {
  return token.startsWith(GRANT_TOKEN_PREFIX);
}

/** The id and secret of a grant token, or undefined when it is not one's shape. */
export function parseGrantToken(token: string): { id: string; secret: string } | undefined {
  const match = TOKEN_PATTERN.exec(token);
  if (match === null) return undefined;
  return { id: match[1] as string, secret: match[2] as string };
}

/** Whether `secret` is the one whose hash the grant keeps (constant time). */
export function secretMatches(grant: Grant, secret: string): boolean {
  const expected = Buffer.from(grant.secretHash, 'hex');
  const presented = Buffer.from(hashSecret(secret), 'hex');
  return expected.length === presented.length && timingSafeEqual(expected, presented);
}

export function isLive(grant: Grant, now: number): boolean {
  return !grant.revoked && grant.expiresAt > now;
}

function limitOf(grant: Grant, token: string): bigint {
  return grant.daily.find((d) => d.token === token)?.amount ?? 0n;
}

interface Charge {
  id: string;
  at: number;
  token: string;
  amount: bigint;
}

export function createMemoryGrants(): GrantStore {
  const grants = new Map<string, Grant>();
  const byUser = new Map<string, string[]>();
  const ledgers = new Map<string, Charge[]>();

  /** drops grants ended more than a day ago (their ledgers no longer matter) */
  const sweep = (now: number): void => {
    for (const [id, grant] of grants) {
      if (grant.expiresAt + GRANT_WINDOW_MS > now) continue;
      grants.delete(id);
      ledgers.delete(id);
      const ids = byUser.get(grant.userId)?.filter((other) => other !== id) ?? [];
      if (ids.length === 0) byUser.delete(grant.userId);
      else byUser.set(grant.userId, ids);
    }
  };
  const windowOf = (id: string, now: number): Charge[] => {
    const kept = (ledgers.get(id) ?? []).filter((c) => c.at > now - GRANT_WINDOW_MS);
    ledgers.set(id, kept);
    return kept;
  };

  return {
    async create(grant) {
      if (grants.size >= GRANT_LIMITS.maxGrantsInMemory) sweep(grant.createdAt);
      if (grants.size >= GRANT_LIMITS.maxGrantsInMemory)
        throw new AppError(
          ErrorCode.DEPENDENCY_UNAVAILABLE,
          'The server cannot hold another grant now; try again later',
          { details: { dependency: 'grants' } },
        );
      const ids = byUser.get(grant.userId) ?? [];
      const mine = ids.map((id) => grants.get(id)).filter((g): g is Grant => g !== undefined);
      if (mine.filter((g) => isLive(g, grant.createdAt)).length >= GRANT_LIMITS.maxGrantsPerUser)
        throw tooMany();
      // the oldest ended grant makes room in the list
      const kept = mine
        .sort((a, b) => b.createdAt - a.createdAt)
        .filter(
          (g, index) => isLive(g, grant.createdAt) || index < GRANT_LIMITS.maxGrantsListed - 1,
        );
      for (const g of mine) if (!kept.includes(g)) grants.delete(g.id);
      grants.set(grant.id, {
        ...grant,
        daily: [...grant.daily],
        recipients: [...grant.recipients],
      });
      byUser.set(grant.userId, [grant.id, ...kept.map((g) => g.id)]);
    },
    async get(id) {
      const grant = grants.get(id);
      return grant === undefined ? undefined : { ...grant };
    },
    async list(userId) {
      return (byUser.get(userId) ?? [])
        .map((id) => grants.get(id))
        .filter((g): g is Grant => g !== undefined)
        .map((g) => ({ ...g }));
    },
    async revoke(userId, id) {
      const grant = grants.get(id);
      if (grant === undefined || grant.userId !== userId) return false;
      grant.revoked = true;
      return true;
    },
    async spent(id, now) {
      const sums = new Map<string, bigint>();
      for (const c of windowOf(id, now)) sums.set(c.token, (sums.get(c.token) ?? 0n) + c.amount);
      return sums;
    },
    async charge(grant, outflows, now, until) {
      // no await between the check and the record: one step for the event loop
      const stored = grants.get(grant.id);
      if (stored === undefined || stored.revoked) return { ok: false, reason: 'revoked' };
      if (stored.expiresAt <= now) return { ok: false, reason: 'expired' };
      const window = windowOf(grant.id, now);
      if (window.length + outflows.size > GRANT_LIMITS.maxChargesPerWindow)
        return { ok: false, reason: 'busy' };
      for (const [token, amount] of outflows) {
        const spent = window.filter((c) => c.token === token).reduce((s, c) => s + c.amount, 0n);
        const limit = limitOf(stored, token);
        if (spent + amount > limit)
          return { ok: false, reason: 'over', token, spent, limit, amount };
      }
      const chargeId = randomUUID();
      // dated when the signature stops being sendable: the window holds it 24 h past that
      const at = Math.max(now, until);
      for (const [token, amount] of outflows) window.push({ id: chargeId, at, token, amount });
      return { ok: true, chargeId };
    },
    async refund(id, chargeId) {
      const ledger = ledgers.get(id);
      if (ledger !== undefined)
        ledgers.set(
          id,
          ledger.filter((c) => c.id !== chargeId),
        );
    },
  };
}

function tooMany(): AppError {
  return new AppError(
    ErrorCode.GRANT_LIMIT_REACHED,
    `At most ${GRANT_LIMITS.maxGrantsPerUser} grants may be live at once; revoke one first`,
  );
}

/**
 * KEYS[1] the grant, KEYS[2] its ledger. ARGV: now, window start, charge id, max charges,
 * expire-at (seconds), the charge's date (ms: when its signature stops being sendable, at least
 * now), then token, amount, limit for each outflow (decimal strings). Returns
 * {'ok'}, {'revoked'}, {'expired'}, {'busy'} or {'over', token, spent}.
 */
const CHARGE = `
local function add(a, b)
  local out = {}
  local carry = 0
  local i, j = #a, #b
  while i > 0 or j > 0 or carry > 0 do
    local d = carry
    if i > 0 then d = d + tonumber(string.sub(a, i, i)); i = i - 1 end
    if j > 0 then d = d + tonumber(string.sub(b, j, j)); j = j - 1 end
    table.insert(out, 1, tostring(d % 10))
    carry = math.floor(d / 10)
  end
  local s = string.gsub(table.concat(out), '^0+', '')
  if s == '' then return '0' end
  return s
end
local function greater(a, b)
  if #a ~= #b then return #a > #b end
  return a > b
end
local revoked = redis.call('HGET', KEYS[1], 'revoked')
if revoked == false then return {'revoked'} end
if revoked == '1' then return {'revoked'} end
local expires = tonumber(redis.call('HGET', KEYS[1], 'expiresAt'))
if expires <= tonumber(ARGV[1]) then return {'expired'} end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])
local n = (#ARGV - 6) / 3
if redis.call('ZCARD', KEYS[2]) + n > tonumber(ARGV[4]) then return {'busy'} end
local entries = redis.call('ZRANGE', KEYS[2], 0, -1)
local sums = {}
for _, entry in ipairs(entries) do
  local _, token, amount = string.match(entry, '^([^|]+)|([^|]+)|([0-9]+)$')
  if token ~= nil then sums[token] = add(sums[token] or '0', amount) end
end
for k = 0, n - 1 do
  local token, amount, limit = ARGV[7 + 3 * k], ARGV[8 + 3 * k], ARGV[9 + 3 * k]
  local spent = sums[token] or '0'
  if greater(add(spent, amount), limit) then return {'over', token, spent} end
end
for k = 0, n - 1 do
  redis.call('ZADD', KEYS[2], ARGV[6], ARGV[3] .. '|' .. ARGV[7 + 3 * k] .. '|' .. ARGV[8 + 3 * k])
end
redis.call('EXPIREAT', KEYS[2], ARGV[5])
return {'ok'}
`;

/** KEYS[1] the user's set, KEYS[2] the new grant. ARGV: id, grant JSON, expiresAt ms, expire-at s, now ms, max live, the grant keys' prefix, max listed. */
const CREATE = `
local ids = redis.call('SMEMBERS', KEYS[1])
local live = 0
local kept = 0
local ended = {}
for _, id in ipairs(ids) do
  local fields = redis.call('HMGET', ARGV[7] .. id, 'revoked', 'expiresAt')
  if fields[2] == false then
    redis.call('SREM', KEYS[1], id)
  else
    kept = kept + 1
    if fields[1] ~= '1' and tonumber(fields[2]) > tonumber(ARGV[5]) then
      live = live + 1
    else
      table.insert(ended, id)
    end
  end
end
if live >= tonumber(ARGV[6]) then return 0 end
-- an ended grant makes room in the list (bounded whatever a person creates and revokes)
local k = 1
while kept >= tonumber(ARGV[8]) and k <= #ended do
  redis.call('DEL', ARGV[7] .. ended[k])
  redis.call('SREM', KEYS[1], ended[k])
  kept = kept - 1
  k = k + 1
end
redis.call('HSET', KEYS[2], 'data', ARGV[2], 'revoked', '0', 'expiresAt', ARGV[3])
redis.call('EXPIREAT', KEYS[2], ARGV[4])
redis.call('SADD', KEYS[1], ARGV[1])
local ttl = redis.call('TTL', KEYS[1])
if ttl < 0 or ttl < tonumber(ARGV[4]) - math.floor(tonumber(ARGV[5]) / 1000) then
  redis.call('EXPIREAT', KEYS[1], ARGV[4])
end
return 1
`;

type RedisWithGrants = Redis & {
  financeTuiGrantCharge(ledgerKey: string, grantKey: string, ...args: string[]): Promise<string[]>;
  financeTuiGrantCreate(userKey: string, grantKey: string, ...args: string[]): Promise<number>;
};

interface StoredGrant {
  id: string;
  userId: string;
  email: string;
  walletId: string;
  walletAddress: string;
  daily: Array<{ token: string; amount: string }>;
  recipients: string[];
  createdAt: number;
  expiresAt: number;
  secretHash: string;
}

function toStored(grant: Grant): StoredGrant {
  const { revoked: _revoked, daily, ...rest } = grant;
  return { ...rest, daily: daily.map((d) => ({ token: d.token, amount: d.amount.toString() })) };
}

function fromStored(stored: StoredGrant, revoked: boolean): Grant {
  return {
    ...stored,
    daily: stored.daily.map((d) => ({ token: d.token, amount: BigInt(d.amount) })),
    revoked,
  };
}

export function createRedisGrants(redis: Redis, options: { prefix?: string } = {}): GrantStore {
  const prefix = options.prefix ?? 'finance-tui:grants:';
  if (!('financeTuiGrantCharge' in redis)) {
    // KEYS: the grant, then its ledger (the script's order)
    redis.defineCommand('financeTuiGrantCharge', { numberOfKeys: 2, lua: CHARGE });
    redis.defineCommand('financeTuiGrantCreate', { numberOfKeys: 2, lua: CREATE });
  }
  const client = redis as RedisWithGrants;
  const grantKey = (id: string): string => `${prefix}grant:${id}`;
  const ledgerKey = (id: string): string => `${prefix}ledger:${id}`;
  const userKey = (userId: string): string => `${prefix}user:${userId}`;
  /** a day past the expiry: the ledger of the last day still matters to nobody after that */
  const keepUntil = (grant: Grant): number => Math.ceil((grant.expiresAt + GRANT_WINDOW_MS) / 1000);
  const guarded = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw redisUnavailable();
    }
  };
  const read = async (id: string): Promise<Grant | undefined> => {
    const [data, revoked] = await client.hmget(grantKey(id), 'data', 'revoked');
    if (data === null || data === undefined) return undefined;
    return fromStored(JSON.parse(data) as StoredGrant, revoked === '1');
  };

  return {
    create: (grant) =>
      guarded(async () => {
        const created = await client.financeTuiGrantCreate(
          userKey(grant.userId),
          grantKey(grant.id),
          grant.id,
          JSON.stringify(toStored(grant)),
          String(grant.expiresAt),
          String(keepUntil(grant)),
          String(grant.createdAt),
          String(GRANT_LIMITS.maxGrantsPerUser),
          `${prefix}grant:`,
          String(GRANT_LIMITS.maxGrantsListed),
        );
        if (created !== 1) throw tooMany();
      }),
    get: (id) => guarded(() => read(id)),
    list: (userId) =>
      guarded(async () => {
        const ids = await client.smembers(userKey(userId));
        const grants = (await Promise.all(ids.slice(0, 200).map(read))).filter(
          (g): g is Grant => g !== undefined && g.userId === userId,
        );
        return grants.sort((a, b) => b.createdAt - a.createdAt);
      }),
    revoke: (userId, id) =>
      guarded(async () => {
        const grant = await read(id);
        if (grant === undefined || grant.userId !== userId) return false;
        await client.hset(grantKey(id), 'revoked', '1');
        return true;
      }),
    spent: (id, now) =>
      guarded(async () => {
        const entries = await client.zrangebyscore(
          ledgerKey(id),
          `(${now - GRANT_WINDOW_MS}`,
          '+inf',
        );
        const sums = new Map<string, bigint>();
        for (const entry of entries) {
          const [, token, amount] = entry.split('|');
          if (token !== undefined && amount !== undefined && /^[0-9]+$/.test(amount))
            sums.set(token, (sums.get(token) ?? 0n) + BigInt(amount));
        }
        return sums;
      }),
    charge: (grant, outflows, now, until) =>
      guarded(async () => {
        const chargeId = randomUUID();
        const args = [
          String(now),
          String(now - GRANT_WINDOW_MS),
          chargeId,
          String(GRANT_LIMITS.maxChargesPerWindow),
          String(keepUntil(grant)),
          String(Math.max(now, until)),
        ];
        for (const [token, amount] of outflows)
          args.push(token, amount.toString(), limitOf(grant, token).toString());
        const reply = await client.financeTuiGrantCharge(
          grantKey(grant.id),
          ledgerKey(grant.id),
          ...args,
        );
        const [verdict, token, spent] = reply;
        if (verdict === 'ok') return { ok: true, chargeId };
        if (verdict === 'over' && token !== undefined && spent !== undefined)
          return {
            ok: false,
            reason: 'over',
            token,
            spent: BigInt(spent),
            limit: limitOf(grant, token),
            amount: outflows.get(token) ?? 0n,
          };
        if (verdict === 'expired' || verdict === 'busy') return { ok: false, reason: verdict };
        return { ok: false, reason: 'revoked' };
      }),
    refund: (id, chargeId) =>
      guarded(async () => {
        const entries = await client.zrange(ledgerKey(id), '0', '-1');
        const mine = entries.filter((e) => e.startsWith(`${chargeId}|`));
        if (mine.length > 0) await client.zrem(ledgerKey(id), ...mine);
      }),
  };
}
