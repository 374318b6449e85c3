/**
 * Signed-out tokens (POST /auth/logout; docs/architecture.md "Auth server contract"). A JWT
 * cannot be taken back, so the server remembers what a sign-out ended until those tokens would
 * have expired anyway (7 days after issue).
 *
 * What a sign-out ends: the presented token and every earlier token of the same user (issued in
 * an earlier second, or in the same second and signed out by its id). Tokens issued after it — a
 * later sign-in, here or on another device — stay valid. This keeps the record per user, not per
 * token: one `through` second and the ids signed out in that very second, so the memory a user
 * can make us hold is bounded whatever they do (MAX_IDS_PER_SECOND, then the whole second is
 * ended — more is revoked, never less).
 *
 * In memory (one process; a restart forgets, so tokens signed out before it work again until
 * they expire) or, with REDIS_URL, in Redis: shared by every instance and kept across restarts.
 * The in-memory store holds at most MAX_USERS records; when full of unexpired records a sign-out
 * is refused (503 REVOCATION_UNAVAILABLE, the client says the token could not be ended) rather
 * than forget an earlier one. A Redis failure fails closed on check (503 DEPENDENCY_UNAVAILABLE)
 * as the rate limiter does.
 */
import type { Redis } from 'ioredis';
import { AppError, ErrorCode } from '../shared/errors.js';
import { TOKEN_TTL_SECONDS } from './jwt.js';
import { redisUnavailable } from './redis-unavailable.js';

/** The claims a revocation needs: who, which token, when it was issued. */
interface RevocableToken {
  userId: string;
  jti: string;
  issuedAt: Date;
}

export interface RevocationStore {
  /** ends `token` and every earlier token of its user */
  revoke(token: RevocableToken): Promise<void>;
  /** whether a sign-out has ended `token` */
  isRevoked(token: RevocableToken): boolean | Promise<boolean>;
}

export const MAX_IDS_PER_SECOND = 16;
const MAX_USERS = 100_000;

const seconds = (date: Date): number => Math.floor(date.getTime() / 1000);

interface RevocationRecord {
  /** tokens issued before this second are ended */
  through: number;
  /** ended tokens issued in the `through` second itself */
  ids: Set<string>;
  /** ms epoch: every token this record ends has expired by then */
  until: number;
}

export function createMemoryRevocations(
  options: { now?: () => number; maxUsers?: number } = {},
): RevocationStore {
  const now = options.now ?? Date.now;
  const maxUsers = options.maxUsers ?? MAX_USERS;
  const records = new Map<string, RevocationRecord>();

  const sweep = (): void => {
    const at = now();
    for (const [user, record] of records) if (record.until <= at) records.delete(user);
  };

  return {
    async revoke(token) {
      const iat = seconds(token.issuedAt);
      let record = records.get(token.userId);
      if (record !== undefined && record.until <= now()) {
        records.delete(token.userId);
        record = undefined;
      }
      if (record === undefined) {
        if (records.size >= maxUsers) sweep();
        if (records.size >= maxUsers) {
          throw new AppError(
            ErrorCode.REVOCATION_UNAVAILABLE,
            'The sign-out could not be recorded now; try again later',
          );
        }
        records.set(token.userId, {
          through: iat,
          ids: new Set([token.jti]),
          until: (iat + TOKEN_TTL_SECONDS) * 1000,
        });
        return;
      }
      if (iat < record.through) return; // already ended
      if (iat > record.through) {
        record.through = iat;
        record.ids = new Set([token.jti]);
        record.until = (iat + TOKEN_TTL_SECONDS) * 1000;
        return;
      }
      record.ids.add(token.jti);
      if (record.ids.size > MAX_IDS_PER_SECOND) {
        // end the whole second: bounded, and on the safe side
        record.through = iat + 1;
        record.ids = new Set();
        record.until = (iat + 1 + TOKEN_TTL_SECONDS) * 1000;
      }
    },

    isRevoked(token) {
      const record = records.get(token.userId);
      if (record === undefined || record.until <= now()) return false;
      const iat = seconds(token.issuedAt);
      return iat < record.through || (iat === record.through && record.ids.has(token.jti));
    },
  };
}

/** KEYS[1] the user's hash; ARGV: iat, jti, ttl seconds, max ids. Same rules as the memory store. */
const REVOKE = `
local through = tonumber(redis.call('HGET', KEYS[1], 'through') or '-1')
local iat = tonumber(ARGV[1])
if iat < through then return 0 end
if iat > through then
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[1], 'through', iat, 'j:' .. ARGV[2], 1)
else
  redis.call('HSET', KEYS[1], 'j:' .. ARGV[2], 1)
  if redis.call('HLEN', KEYS[1]) - 1 > tonumber(ARGV[4]) then
    iat = iat + 1
    redis.call('DEL', KEYS[1])
    redis.call('HSET', KEYS[1], 'through', iat)
  end
end
redis.call('EXPIREAT', KEYS[1], iat + tonumber(ARGV[3]))
return 1
`;

type RedisWithRevoke = Redis & {
  financeTuiRevoke(
    key: string,
    iat: number,
    jti: string,
    ttl: number,
    maxIds: number,
  ): Promise<number>;
};

export function createRedisRevocations(
  redis: Redis,
  options: { prefix?: string } = {},
): RevocationStore {
  const prefix = options.prefix ?? 'finance-tui:revoked:';
  if (!('financeTuiRevoke' in redis))
    redis.defineCommand('financeTuiRevoke', { numberOfKeys: 1, lua: REVOKE });
  const client = redis as RedisWithRevoke;

  return {
    async revoke(token) {
      try {
        await client.financeTuiRevoke(
          `${prefix}${token.userId}`,
          seconds(token.issuedAt),
          token.jti,
          TOKEN_TTL_SECONDS,
          MAX_IDS_PER_SECOND,
        );
      } catch {
        throw new AppError(
          ErrorCode.REVOCATION_UNAVAILABLE,
          'The sign-out could not be recorded now; try again later',
        );
      }
    },

    async isRevoked(token) {
      let fields: Array<string | null>;
      try {
        fields = await client.hmget(`${prefix}${token.userId}`, 'through', `j:${token.jti}`);
      } catch {
        throw redisUnavailable();
      }
      const [through, id] = fields;
      if (through === null || through === undefined) return false;
      const iat = seconds(token.issuedAt);
      return iat < Number(through) || (iat === Number(through) && id !== null && id !== undefined);
    },
  };
}
