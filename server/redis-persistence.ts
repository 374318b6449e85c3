/**
 * What Redis must keep for sign-outs to survive a restart (docs/server-security.md "Redis"),
 * checked when the server starts with REDIS_URL. A sign-out is a Redis key that ends tokens until
 * they expire; a Redis that comes back empty (no persistence) or drops keys when full (an
 * eviction policy) makes signed-out tokens work again.
 *
 * The verdicts, from CONFIG GET appendonly / save / maxmemory-policy:
 * - durable: appendonly yes (an append-only file) and maxmemory-policy noeviction: start;
 * - snapshots: no append-only file but RDB snapshots (`save` set): start with a warning, since
 *   sign-outs since the last snapshot are lost if Redis crashes;
 * - none (neither), evicts (another policy), unknown (CONFIG refused — managed Redis often
 *   disables it — or Redis did not answer): with REDIS_PERSISTENCE=required (the default) the
 *   server refuses to start, in one line saying what to change; with REDIS_PERSISTENCE=warn it
 *   starts and logs the warning. A check that cannot classify Redis refuses, like every guard.
 */
import type { Redis } from 'ioredis';

interface PersistenceVerdict {
  verdict: 'durable' | 'snapshots' | 'none' | 'evicts' | 'unknown';
  /** what is wrong and what to change (undefined when durable); never holds the URL */
  problem: string | undefined;
}

const CHECK_TIMEOUT_MS = 5_000;

/** The verdict on Redis's own settings (the values of CONFIG GET). */
function judgePersistence(settings: {
  appendonly: string;
  save: string;
  maxmemoryPolicy: string;
}): PersistenceVerdict {
  if (settings.maxmemoryPolicy !== 'noeviction') {
    return {
      verdict: 'evicts',
      problem: `Redis may evict keys when full (maxmemory-policy ${settings.maxmemoryPolicy}), sign-outs included; set maxmemory-policy noeviction`,
    };
  }
  if (settings.appendonly === 'yes') return { verdict: 'durable', problem: undefined };
  if (settings.save.trim() !== '') {
    return {
      verdict: 'snapshots',
      problem:
        'Redis keeps RDB snapshots only: sign-outs since the last snapshot are lost if it crashes; set appendonly yes',
    };
  }
  return {
    verdict: 'none',
    problem:
      'Redis has no persistence (appendonly no, save ""): a restart forgets every sign-out; set appendonly yes',
  };
}

function settingOf(reply: unknown, name: string): string {
  // CONFIG GET answers [name, value] (RESP2) or {name: value} (RESP3)
  if (Array.isArray(reply) && reply.length >= 2 && typeof reply[1] === 'string') return reply[1];
  if (
    typeof reply === 'object' &&
    reply !== null &&
    typeof (reply as Record<string, unknown>)[name] === 'string'
  )
    return (reply as Record<string, string>)[name] as string;
  throw new Error(`no ${name} in the CONFIG GET reply`);
}

/** Reads the settings and judges them; `unknown` when Redis does not say (no answer within 5 s, CONFIG refused, an odd reply). */
export async function checkRedisPersistence(redis: Redis): Promise<PersistenceVerdict> {
  const read = async (name: string): Promise<string> =>
    settingOf(await redis.call('CONFIG', 'GET', name), name);
  let timer: NodeJS.Timeout | undefined;
  try {
    const settings = await Promise.race([
      Promise.all([read('appendonly'), read('save'), read('maxmemory-policy')]),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
      }),
    ]);
    const [appendonly, save, maxmemoryPolicy] = settings;
    return judgePersistence({ appendonly, save, maxmemoryPolicy });
  } catch (error) {
    // the reason only (a Redis error code, "timeout"): a message could quote the URL
    const reason =
      error instanceof Error && /^[A-Z]+\b/.test(error.message)
        ? (/^[A-Z]+/.exec(error.message)?.[0] ?? 'error')
        : 'no answer';
    return {
      verdict: 'unknown',
      problem: `could not read Redis's persistence settings (CONFIG GET: ${reason}); it must keep an append-only file (appendonly yes) and never evict (maxmemory-policy noeviction)`,
    };
  } finally {
    clearTimeout(timer);
  }
}
