/**
 * Keyed mutual exclusion for wallet provisioning (docs/architecture.md "Abuse bounds": one wallet
 * per user even under concurrent calls, across instances through Redis when REDIS_URL is set).
 *
 * - In process: a promise chain per key; callers for one key run one after the other.
 * - With Redis: the same local chain (so one instance does not poll Redis against itself), then
 *   a Redis lock: `SET key token NX PX ttl`, kept alive while held (compare-and-PEXPIRE every
 *   ttl/3), released by compare-and-delete in Lua, so an instance only ever extends or releases
 *   the lock it holds, never one that expired and went to someone else. Waiters poll with jitter.
 *   A Redis failure is an error (the caller's request fails): never a lock assumed held.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { redisUnavailable } from './redis-unavailable.js';

export interface KeyedLock {
  /**
   * Runs `fn` holding the lock on `key`. Waits at most `waitMs` for it; then rejects with
   * `onTimeout()` without running `fn`.
   */
  withLock<T>(
    key: string,
    fn: () => Promise<T>,
    options: { waitMs: number; onTimeout: () => Error },
  ): Promise<T>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves true once `promise` settles, or false after `ms`. */
function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([promise.then(() => true), timeout]).finally(() => clearTimeout(timer));
}

export function createLocalLock(): KeyedLock {
  const tails = new Map<string, Promise<void>>();
  return {
    async withLock(key, fn, { waitMs, onTimeout }) {
      const previous = tails.get(key) ?? Promise.resolve();
      let release = (): void => undefined;
      const mine = new Promise<void>((resolve) => {
        release = resolve;
      });
      // the next caller waits for this one (and, through it, for every earlier one)
      const tail = previous.then(() => mine);
      tails.set(key, tail);
      try {
        if (!(await settlesWithin(previous, waitMs))) throw onTimeout();
        return await fn();
      } finally {
        release();
        if (tails.get(key) === tail) tails.delete(key);
      }
    },
  };
}

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const EXTEND = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;

type RedisWithLock = Redis & {
  financeTuiUnlock(key: string, token: string): Promise<number>;
  financeTuiExtend(key: string, token: string, ttlMs: number): Promise<number>;
};

interface RedisLockOptions {
  /** how long a lock outlives a holder that stopped refreshing it (crashed) */
  ttlMs?: number;
  prefix?: string;
}

export function createRedisLock(redis: Redis, options: RedisLockOptions = {}): KeyedLock {
  const ttlMs = options.ttlMs ?? 30_000;
  const prefix = options.prefix ?? 'finance-tui-lock:';
  if (!('financeTuiUnlock' in redis)) {
    redis.defineCommand('financeTuiUnlock', { numberOfKeys: 1, lua: RELEASE });
    redis.defineCommand('financeTuiExtend', { numberOfKeys: 1, lua: EXTEND });
  }
  const client = redis as RedisWithLock;
  const local = createLocalLock();

  return {
    withLock(key, fn, { waitMs, onTimeout }) {
      const started = Date.now();
      return local.withLock(
        key,
        async () => {
          const redisKey = `${prefix}${key}`;
          const token = randomUUID();
          for (;;) {
            let taken: string | null;
            try {
              taken = await client.set(redisKey, token, 'PX', ttlMs, 'NX');
            } catch {
              throw redisUnavailable();
            }
            if (taken === 'OK') break;
            if (Date.now() - started >= waitMs) throw onTimeout();
            await sleep(25 + Math.floor(Math.random() * 75));
          }
          // keep it ours while fn runs (fn is bounded by upstream timeouts, but may outlast one ttl)
          const keepAlive = setInterval(
            () => {
              client.financeTuiExtend(redisKey, token, ttlMs).catch(() => undefined);
            },
            Math.floor(ttlMs / 3),
          );
          keepAlive.unref();
          try {
            return await fn();
          } finally {
            clearInterval(keepAlive);
            // best effort: if Redis is gone the lock expires by itself after ttlMs
            await client.financeTuiUnlock(redisKey, token).catch(() => undefined);
          }
        },
        { waitMs, onTimeout },
      );
    },
  };
}
