/**
 * The only file that listens and handles signals. `startServer` wires the real adapters into
 * buildApp and listens; `installShutdown` turns SIGTERM/SIGINT into a graceful stop.
 * Configuration comes in already validated (config.ts); nothing here reads process.env.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { packageVersion } from '../shared/version.js';
import { type AppDeps, buildApp } from './app.js';
import type { ServerConfig } from './config.js';
import { createIdentityProvider } from './providers/identity.js';
import { createPaymasterRelay } from './providers/paymaster.js';

export interface ServerHandle {
  app: FastifyInstance;
  /** http://host:port actually bound (port 0 resolved) */
  url: string;
  /** Stops accepting, waits for in-flight requests, then releases Redis. */
  close(): Promise<void>;
}

/** Builds the real adapters (unless given in `deps`), builds the app and listens on config.host:config.port. */
export async function startServer(config: ServerConfig, deps: Partial<AppDeps> = {}): Promise<ServerHandle> {
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
    deps.paymaster ?? createPaymasterRelay({ url: config.paymasterUrl, apiKey: config.paymasterApiKey, timeoutMs: config.upstreamTimeoutMs });

  let ownRedis: Redis | undefined;
  let redis = deps.redis;
  if (redis === undefined && config.redisUrl !== undefined) {
    // Short timeouts: the limiter fails closed, so a dead Redis must fail fast, not hang logins.
    ownRedis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 1_000, connectTimeout: 2_000, lazyConnect: false });
    // ioredis reports connection errors as events; without a listener they would crash the process.
    ownRedis.on('error', () => undefined);
    redis = ownRedis;
  }

  const app = await buildApp(config, { version: packageVersion(), ...deps, identity, paymaster, ...(redis === undefined ? {} : { redis }) });
  if (ownRedis !== undefined) {
    const client = ownRedis;
    // The code only: a message could one day quote the connection string and its password.
    client.on('error', (error: Error & { code?: string }) => app.log.warn({ redisError: error.code ?? error.name }, 'redis unavailable'));
    app.addHook('onClose', async () => {
      await client.quit().catch(() => client.disconnect());
    });
  }

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { app, url: `http://${host}:${address.port}`, close: () => app.close() };
}

/** How long after the forced cut a close that still hangs is given before exit(1). */
export const HARD_STOP_AFTER_CUT_MS = 1_000;

export interface ShutdownOptions {
  /** how long in-flight requests may take before connections are cut */
  graceMs?: number;
  log: (message: string) => void;
  /** seams for tests; default: the real process */
  signals?: readonly NodeJS.Signals[];
  target?: NodeJS.EventEmitter;
  exit?: (code: number) => void;
}

/**
 * On the first SIGTERM/SIGINT: stop accepting, let in-flight requests finish (app.close), exit 0.
 * After graceMs, or on a second signal, cut the remaining connections (a client that never
 * finishes its body must not hold the process) and exit once close completes. If close still
 * has not completed 1 s after the cut (an onClose hook hanging, a Redis quit that never
 * answers), exit 1 anyway: a stop that never ends is worse than an unclean one.
 */
export function installShutdown(handle: ServerHandle, options: ShutdownOptions): () => void {
  const graceMs = options.graceMs ?? 5_000;
  const signals = options.signals ?? (['SIGTERM', 'SIGINT'] as const);
  const target = options.target ?? process;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let closing = false;
  let exited = false;
  let timer: NodeJS.Timeout | undefined;
  let reaper: NodeJS.Timeout | undefined;
  let hardStop: NodeJS.Timeout | undefined;

  // once only: a close that settles after the hard stop must not exit a second time
  const finish = (code: number): void => {
    if (exited) return;
    exited = true;
    clearTimeout(timer);
    clearInterval(reaper);
    clearTimeout(hardStop);
    exit(code);
  };

  const forceClose = (): void => {
    options.log('shutdown: closing the remaining connections');
    handle.app.server.closeAllConnections();
  };

  const onSignal = (signal: NodeJS.Signals): void => {
    if (closing) {
      forceClose();
      return;
    }
    closing = true;
    options.log(`shutdown: ${signal} received, finishing in-flight requests (up to ${graceMs} ms)`);
    timer = setTimeout(forceClose, graceMs);
    timer.unref();
    // A keep-alive connection whose request was in flight at the signal becomes idle only after
    // its response; Node's close() reaps idle sockets once, at the start, so keep reaping.
    reaper = setInterval(() => handle.app.server.closeIdleConnections(), 100);
    reaper.unref();
    // unref'd like the others: if everything else has finished, the process may end on its own
    hardStop = setTimeout(() => {
      options.log(`shutdown: still not closed ${graceMs + HARD_STOP_AFTER_CUT_MS} ms after the signal, exiting`);
      finish(1);
    }, graceMs + HARD_STOP_AFTER_CUT_MS);
    hardStop.unref();
    handle.close().then(
      () => {
        if (exited) return;
        options.log('shutdown: done');
        finish(0);
      },
      (error: unknown) => {
        if (exited) return;
        options.log(`shutdown: close failed: ${error instanceof Error ? error.message : String(error)}`);
        finish(1);
      },
    );
  };

  for (const signal of signals) target.on(signal, onSignal);
  return () => {
    for (const signal of signals) target.off(signal, onSignal);
    clearTimeout(timer);
    clearInterval(reaper);
    clearTimeout(hardStop);
  };
}
