/**
 * The only file that listens and stops servers. `startServer` wires the real adapters into
 * buildApp and listens; `closeGracefully` is the one stop path (serve and the sandbox call it
 * when the bin's signal aborts them: the bin owns SIGINT/SIGTERM).
 * Configuration comes in already validated (config.ts); nothing here reads process.env.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { AppError, ErrorCode } from '../shared/errors.js';
import { packageVersion } from '../shared/version.js';
import { type AppDeps, asyncLog, buildApp, flushLog } from './app.js';
import type { ServerConfig } from './config.js';
import { createIdentityProvider } from './providers/identity.js';
import { createPaymasterRelay } from './providers/paymaster.js';
import { checkRedisPersistence } from './redis-persistence.js';

export interface ServerHandle {
  app: FastifyInstance;
  /** http://host:port actually bound (port 0 resolved) */
  url: string;
  /** Stops accepting, waits for in-flight requests, then releases Redis. */
  close(): Promise<void>;
  /**
   * Writes out the log asynchronously (at most LOG_FLUSH_WAIT_MS): called after the last line, so
   * a reader that went away is found before the process exits (app.ts asyncLog). A no-op when
   * the caller gave its own logStream.
   */
  flushLog(): Promise<void>;
}

/** Builds the real adapters (unless given in `deps`), builds the app and listens on config.host:config.port. */
export async function startServer(
  config: ServerConfig,
  deps: Partial<AppDeps> = {},
): Promise<ServerHandle> {
  const identity =
    deps.identity ??
    createIdentityProvider({
      authUrl: config.identityAuthUrl,
      apiUrl: config.identityApiUrl,
      appId: config.identityAppId,
      appSecret: config.identityAppSecret,
      origin: config.publicUrl ?? `http://localhost:${config.port}`,
      timeoutMs: config.upstreamTimeoutMs,
    });
  const paymaster =
    deps.paymaster ??
    createPaymasterRelay({
      url: config.paymasterUrl,
      apiKey: config.paymasterApiKey,
      timeoutMs: config.upstreamTimeoutMs,
    });

  let ownRedis: Redis | undefined;
  let redis = deps.redis;
  if (redis === undefined && config.redisUrl !== undefined) {
    // Short timeouts: the limiter fails closed, so a dead Redis must fail fast, not hang logins.
    ownRedis = new Redis(config.redisUrl, {
      maxRetriesPerRequest: 1,
      commandTimeout: 1_000,
      connectTimeout: 2_000,
      lazyConnect: false,
    });
    // ioredis reports connection errors as events; without a listener they would crash the process.
    ownRedis.on('error', () => undefined);
    redis = ownRedis;
  }

  // stdout unless the caller gave a destination; flushed on close (and by flushLog)
  const ownLog = deps.logStream === undefined ? asyncLog() : undefined;
  const app = await buildApp(config, {
    version: packageVersion(),
    ...deps,
    ...(ownLog === undefined ? {} : { logStream: ownLog }),
    identity,
    paymaster,
    ...(redis === undefined ? {} : { redis }),
  });
  const writeOutLog = (): Promise<void> =>
    ownLog === undefined ? Promise.resolve() : flushLog(ownLog);
  app.addHook('onClose', writeOutLog);
  if (ownRedis !== undefined) {
    const client = ownRedis;
    // The code only: a message could one day quote the connection string and its password.
    client.on('error', (error: Error & { code?: string }) =>
      app.log.warn({ redisError: error.code ?? error.name }, 'redis unavailable'),
    );
    app.addHook('onClose', async () => {
      await client.quit().catch(() => client.disconnect());
    });
  }

  if (ownRedis !== undefined) {
    // sign-outs live in Redis: one that may forget them is refused at start (or, with
    // REDIS_PERSISTENCE=warn, logged) — docs/server-security.md "Redis"
    const { verdict, problem } = await checkRedisPersistence(ownRedis);
    if (problem !== undefined) {
      if (verdict === 'snapshots' || config.redisPersistence === 'warn')
        app.log.warn({ redisPersistence: verdict }, `REDIS_URL: ${problem}`);
      else {
        await app.close();
        throw new AppError(
          ErrorCode.CONFIG_ERROR,
          `REDIS_URL: ${problem} (or set REDIS_PERSISTENCE=warn to start anyway)`,
        );
      }
    }
  }

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await app.close();
    throw hostRefusal(error, config.host) ?? error;
  }
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    app,
    url: `http://${host}:${address.port}`,
    close: () => app.close(),
    flushLog: writeOutLog,
  };
}

/** getaddrinfo's answers for a name that does not resolve (now, or at all) */
const UNRESOLVED = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA']);

/**
 * A listen error that is HOST's fault, as a CONFIG_ERROR naming HOST (config.ts checks only its
 * form: whether a name resolves, and to an address of this machine, only listening can tell);
 * undefined for any other error (EADDRINUSE is the caller's to word).
 */
function hostRefusal(error: unknown, host: string): AppError | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRNOTAVAIL')
    return new AppError(
      ErrorCode.CONFIG_ERROR,
      `HOST ${host} is not an address of this machine (${code}); use 127.0.0.1, 0.0.0.0 (every interface) or one of this machine's addresses`,
    );
  if (code !== undefined && UNRESOLVED.has(code))
    return new AppError(
      ErrorCode.CONFIG_ERROR,
      `HOST ${host} does not resolve to an address (${code}); use an IP address such as 127.0.0.1 or 0.0.0.0, or a host name this machine resolves`,
    );
  return undefined;
}

/** How long after the forced cut a close that still hangs is given before giving up on it. */
export const HARD_STOP_AFTER_CUT_MS = 1_000;

/** Something that stops accepting and drains on close(), over the HTTP servers whose connections it owns. */
export interface Drainable {
  close(): Promise<void>;
  servers: ReadonlyArray<{ closeIdleConnections(): void; closeAllConnections(): void }>;
}

interface CloseOptions {
  /** how long in-flight requests may take before the remaining connections are cut */
  graceMs?: number;
  log: (message: string) => void;
  /** aborting it cuts the remaining connections at once (a second signal) */
  cutNow?: AbortSignal;
}

/** How a graceful close ended: every request finished, or lingering connections were cut. */
type CloseOutcome = 'drained' | 'cut';

/**
 * The one stop path of a server (`serve`, and the sandbox's three): stop accepting and let
 * in-flight requests finish (close), reaping keep-alive connections as they go idle; after
 * graceMs (or on cutNow), cut whatever is still open — a client that never finishes its body
 * must not hold the process — and resolve once closed. If close still has not completed
 * HARD_STOP_AFTER_CUT_MS after the cut (an onClose hook hanging, a Redis quit that never
 * answers), reject with SHUTDOWN_TIMEOUT: a stop that never ends is worse than an unclean one.
 */
export function closeGracefully(target: Drainable, options: CloseOptions): Promise<CloseOutcome> {
  const graceMs = options.graceMs ?? 5_000;
  let cut = false;
  let grace: NodeJS.Timeout | undefined;
  let hardStop: NodeJS.Timeout | undefined;
  // A keep-alive connection whose request was in flight at the signal becomes idle only after
  // its response; Node's close() reaps idle sockets once, at the start, so keep reaping.
  const reaper = setInterval(
    () => target.servers.forEach((server) => server.closeIdleConnections()),
    100,
  );
  reaper.unref();

  return new Promise<CloseOutcome>((resolve, reject) => {
    let settled = false;
    const finish = (settle: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(grace);
      clearTimeout(hardStop);
      clearInterval(reaper);
      options.cutNow?.removeEventListener('abort', forceClose);
      settle();
    };
    function forceClose(): void {
      if (cut || settled) return;
      cut = true;
      clearTimeout(grace);
      options.log('shutdown: closing the remaining connections');
      target.servers.forEach((server) => server.closeAllConnections());
      hardStop = setTimeout(() => {
        const waited = graceMs + HARD_STOP_AFTER_CUT_MS;
        options.log(`shutdown: still not closed ${waited} ms after the signal, giving up`);
        finish(() =>
          reject(
            new AppError(
              ErrorCode.SHUTDOWN_TIMEOUT,
              `the server did not close within ${waited} ms of the stop signal`,
            ),
          ),
        );
      }, HARD_STOP_AFTER_CUT_MS);
      hardStop.unref();
    }
    grace = setTimeout(forceClose, graceMs);
    grace.unref();
    if (options.cutNow?.aborted) forceClose();
    else options.cutNow?.addEventListener('abort', forceClose, { once: true });
    target.close().then(
      () =>
        finish(() => {
          options.log('shutdown: done');
          resolve(cut ? 'cut' : 'drained');
        }),
      (error: unknown) =>
        finish(() => {
          options.log(
            `shutdown: close failed: ${error instanceof Error ? error.message : String(error)}`,
          );
          reject(error);
        }),
    );
  });
}
