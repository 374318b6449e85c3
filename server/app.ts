/**
 * The auth server as a Fastify app factory: builds, registers everything in a fixed order and
 * returns without listening (main.ts listens; tests use app.inject).
 *
 * Order: request id (constructor) → logger (ours, not Fastify's) → connection bounds (constructor:
 * deadlines, cap, parser errors) → the request log line (its hook first, so every request has
 * one) → the id and security headers on the reply → no-body guard → body limit (constructor) →
 * CORS → rate limit → our plugins (auth guard, error + not-found handlers) → routes.
 */
import { type TypeBoxTypeProvider, TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import { hostname } from 'node:os';
import Fastify, {
  type FastifyInstance,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { Redis } from 'ioredis';
import pino from 'pino';
import { type ServerConfig, tokenAudience } from './config.js';
import { createTokenService } from './jwt.js';
import { createLocalLock, createRedisLock, type KeyedLock } from './locks.js';
import authPlugin from './plugins/auth.js';
import corsPlugin from './plugins/cors.js';
import errorsPlugin from './plugins/errors.js';
import rateLimitPlugin, { type CounterStore } from './plugins/rate-limit.js';
import { createRequestIdGenerator } from './plugins/request-id.js';
import requestLogPlugin, {
  lazyChildLoggers,
  RequestLineController,
} from './plugins/request-log.js';
import securityPlugin from './plugins/security.js';
import transportPlugin, { clientErrorHandler } from './plugins/transport.js';
import type { IdentityProvider, PaymasterRelay } from './providers/types.js';
import { knownContracts } from '../shared/known-contracts.js';
import { createMemoryGrants, createRedisGrants, type GrantStore } from './grants.js';
import authRoutes from './routes/auth.js';
import grantRoutes from './routes/grants.js';
import paymasterRoutes from './routes/paymaster.js';
import rootRoutes from './routes/root.js';
import signRoutes from './routes/sign.js';
import walletRoutes from './routes/wallet.js';
import {
  createMemoryRevocations,
  createRedisRevocations,
  type RevocationStore,
} from './revocations.js';

export const BODY_LIMIT_BYTES = 1_048_576;

export interface AppDeps {
  identity: IdentityProvider;
  paymaster: PaymasterRelay;
  /** Shared rate-limit counters and provisioning locks across instances; in-memory per instance when absent. */
  redis?: Redis;
  /** serialises wallet provisioning per user; from `redis` (or in process) when absent */
  locks?: KeyedLock;
  /** replaces the rate-limit counters (tests: a small in-memory store) */
  rateLimitStore?: CounterStore;
  /** pino destination; stdout (asyncLog) when absent */
  logStream?: NodeJS.WritableStream | pino.DestinationStream;
  logLevel?: string;
  version?: string;
  /** chainId of the SNIP-12 domain wrapped around plain-text messages; SN_SANDBOX in the sandbox, else SN_MAIN */
  messageChainId?: string;
  /** clock for token issue/verify (tests) */
  now?: () => Date;
  /** signed-out tokens; from `redis` (or in process) when absent */
  revocations?: RevocationStore;
  /** agent grants and their ledgers; from `redis` (or in process) when absent */
  grants?: GrantStore;
  /**
   * Fastify's schema compilers; its defaults when absent. Tests that build many apps pass one that
   * keeps what it compiled (docs/decisions.md "Apps built by one test file compile each schema once").
   */
  schemaController?: FastifyServerOptions['schemaController'];
}

/**
 * Redaction is a second line of defence: we never log bodies or headers, but a future
 * `log.info({ req })` or an error object carrying a request must not leak credentials either.
 */
const SECRET_FIELDS = [
  'code',
  'token',
  'secret',
  'password',
  'otp',
  'apiKey',
  'jwtSecret',
  'identityAppSecret',
  'paymasterApiKey',
];
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-paymaster-api-key"]',
  'headers.authorization',
  'headers.cookie',
  'res.headers["set-cookie"]',
  '*.authorization',
  ...SECRET_FIELDS.flatMap((field) => [
    `body.${field}`,
    `req.body.${field}`,
    `request.body.${field}`,
    `*.body.${field}`,
  ]),
  ...SECRET_FIELDS,
  // `*.code` would hide err.code (FST_… and AppError codes), which the logs need
  ...SECRET_FIELDS.filter((field) => field !== 'code').map((field) => `*.${field}`),
];

function requestLogFields(request: FastifyRequest): Record<string, unknown> {
  // The path only: a query string could carry a token someone pasted into a URL.
  return { method: request.method, url: request.url.split('?')[0], remoteAddress: request.ip };
}

/** A reply in a log line: its status only (what Fastify's own logger gave `res`). */
function replyLogFields(reply: { statusCode: number }): Record<string, unknown> {
  return { statusCode: reply.statusCode };
}

/**
 * TRUST_PROXY as a hop count means "the nearest n proxies are ours" (Express semantics). Fastify
 * 5.12 treats a bare number as trust-nothing, so it becomes a function of the hop index here.
 */
export function trustProxyOption(
  value: boolean | number | string,
): boolean | string | ((address: string, hop: number) => boolean) {
  if (typeof value !== 'number') return value;
  return (_address, hop) => hop < value;
}

/** asyncLog's destination: pino writes to it; the sandbox also listens for its errors. */
interface AsyncLog extends pino.DestinationStream {
  write(line: string): boolean;
  /** write out what is pending, asynchronously */
  flush(callback?: (error?: Error) => unknown): void;
  on(event: 'error', listener: (error: Error) => void): AsyncLog;
  on(event: 'close', listener: () => void): AsyncLog;
  /** write out what is pending, then close the file descriptor */
  end(): void;
}

/** Characters of lines gathered before they are handed to the file's writer as one batch. */
const LOG_BATCH_CHARS = 32_768;
/** How long a line may wait: gathered lines are handed over and written out this often. */
const LOG_WAIT_MS = 100;

/**
 * Log lines to a file descriptor (stdout by default), asynchronously and in batches: a line waits
 * until 32 KB have gathered or 100 ms have passed, so under load one write(2) carries a hundred
 * lines or more instead of one each (a write per line was a fifth of the server's time per
 * request; 32 KB rather than 8 KB saved another µs of ~17), and a slow reader never blocks a
 * request. At most 16 MB wait: past that, batches are dropped rather than letting a stuck pipe
 * grow the heap.
 *
 * Lines are gathered here as one string and handed to the sonic-boom behind it as bytes, a batch
 * at a time: a Buffer per line cost more than building the line (docs/benchmarks.md "Issue 35,
 * seventh round: the server's per-request path"), and sonic-boom's text mode measures the UTF-8
 * length of its whole pending batch again at every line. pino writes strings, so what pino gets
 * is a destination of our own (pino's documented custom-destination interface: an object with
 * `write`); the sonic-boom itself is left as pino.destination made it, but for its periodic
 * flush, which is ours (the batch first, then sonic-boom's flush). Every way out hands the batch
 * over first: flush, end, and the process's exit (prepended, so it runs before pino's exit
 * handlers write sonic-boom out).
 *
 * A reader that went away (`serve | head -1`): pino's exit handler flushes what is pending with
 * sonic-boom's flushSync, which retries a write that failed with EPIPE every 100 ms, forever,
 * on the main thread, so no signal handler ever ran again and only SIGKILL stopped the server.
 * pino turns flushSync into a no-op once an asynchronous write has failed with EPIPE, so the
 * server (main.ts startServer) flushes asynchronously when it closes and again after its last
 * line (flushLog): a broken pipe is found before the process exits, never inside its exit handler.
 */
export function asyncLog(fd = 1): AsyncLog {
  const sonic = pino.destination({
    dest: fd,
    sync: false,
    minLength: 32_768,
    maxWrite: 65_536,
    maxLength: 16 * 1_048_576,
    contentMode: 'buffer',
  });
  // sonic-boom's types declare write(string) only; in buffer mode it takes bytes. Looked up at
  // each batch, not bound once: on EPIPE (the reader is gone: `serve | head -1`) pino replaces
  // the stream's write and flushSync with no-ops, and batches must stop piling up from then on.
  const sonicWrite = sonic as unknown as { write(bytes: Buffer): boolean };
  let batch = '';
  const handOver = (): boolean => {
    if (batch === '') return true;
    const bytes = Buffer.from(batch);
    batch = '';
    return sonicWrite.write(bytes);
  };
  const ticker = setInterval(() => {
    handOver();
    // sonic-boom's own periodic flush (`flush(null)`), after the batch; none once it is closed
    if (!(sonic as unknown as { destroyed: boolean }).destroyed) sonic.flush();
  }, LOG_WAIT_MS);
  ticker.unref();
  // before pino's own handlers (on-exit-leak-free's): on beforeExit it flushes asynchronously;
  // on exit it writes what sonic-boom holds synchronously, so no asynchronous write may start
  // then (one in flight at exit may never land)
  const beforeExit = (): void => void handOver();
  const onExit = (): void => {
    (sonic as unknown as { minLength: number }).minLength = Number.POSITIVE_INFINITY;
    handOver();
  };
  process.prependListener('beforeExit', beforeExit);
  process.prependListener('exit', onExit);
  sonic.on('close', () => {
    clearInterval(ticker);
    process.off('beforeExit', beforeExit);
    process.off('exit', onExit);
  });
  const log: AsyncLog = {
    write: (line) => {
      batch += line;
      return batch.length < LOG_BATCH_CHARS || handOver();
    },
    flush: (callback) => {
      handOver();
      sonic.flush(callback);
    },
    on: (event, listener) => {
      sonic.on(event, listener);
      return log;
    },
    end: () => {
      handOver();
      clearInterval(ticker);
      sonic.end();
    },
  };
  return log;
}

/**
 * How often Node looks for requests past their deadline (its default is every 30 s, which would
 * let a slow client overstay a 10 s deadline threefold): a quarter of the shortest deadline, at
 * most once a second.
 */
function deadlineCheckIntervalMs(
  config: Pick<ServerConfig, 'headersTimeoutMs' | 'requestTimeoutMs'>,
): number {
  return Math.max(
    10,
    Math.min(1_000, Math.floor(Math.min(config.headersTimeoutMs, config.requestTimeoutMs) / 4)),
  );
}

/** How long a flush of the log is waited for (a reader that stopped reading). */
const LOG_FLUSH_WAIT_MS = 1_000;

/**
 * Writes out what the log holds, asynchronously (asyncLog: a broken pipe is found here, and pino
 * stops writing to it, rather than in the exit handler's flushSync); resolves when written, when
 * the write failed, or after LOG_FLUSH_WAIT_MS.
 */
export function flushLog(log: Pick<AsyncLog, 'flush'>): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, LOG_FLUSH_WAIT_MS);
    timer.unref();
    log.flush(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export async function buildApp(config: ServerConfig, deps: AppDeps): Promise<FastifyInstance> {
  const logStream = deps.logStream ?? asyncLog();
  const logOptions: { level: string; base: Record<string, string | number | boolean> } = {
    level: deps.logLevel ?? 'info',
    // pino's default base, or the sandbox's mark in place of the host name
    base: config.sandbox
      ? { pid: process.pid, sandbox: true }
      : { pid: process.pid, hostname: hostname() },
  };
  // The request line has its own logger, without redaction: every field of it is ours (method,
  // route pattern or a sanitised path, status, time, address, code), and redaction's wildcard
  // paths, applied to each field of each line, were a quarter of the server's time per request.
  const logController = new RequestLineController({ ...logOptions, destination: logStream });
  // Everything else logs through this one, redacting, with the serializers Fastify's own logger
  // had (`req` ours, `res` the status, `err` pino's).
  const logger = pino(
    {
      ...logOptions,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { req: requestLogFields, res: replyLogFields, err: pino.stdSerializers.err },
    },
    logStream,
  );
  const app = Fastify({
    // Fastify would take any incoming x-request-id; our generator checks it (plugins/request-id.ts).
    requestIdHeader: false,
    genReqId: createRequestIdGenerator(),
    // No `logger`: Fastify's own logger would make and check a child logger for every request and
    // add two listeners and two clock reads to every response to call the controller; with it off
    // the request line comes from the request-log plugin's one listener, and app.log (set below)
    // is ours (docs/decisions.md "The request line without Fastify's logger").
    logController,
    // request.log: a child of ours, made only when used (plugins/request-log.ts)
    childLoggerFactory: lazyChildLoggers(logger),
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: BODY_LIMIT_BYTES,
    // deadlines (docs/architecture.md "Abuse bounds"); requestTimeout covers receiving the whole
    // request, not the time our handler takes to answer
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: deadlineCheckIntervalMs(config),
    },
    clientErrorHandler,
    // During shutdown a request that still arrives on a kept-alive connection is served (with
    // Connection: close) rather than answered by Fastify's own 503 body, which is not our error
    // shape; the listening socket is already closed and main.ts bounds the drain to 5 s.
    return503OnClosing: false,
    ...(deps.schemaController === undefined ? {} : { schemaController: deps.schemaController }),
  }).withTypeProvider<TypeBoxTypeProvider>();
  // the instance's logger (app.log, fastify.log in every plugin, Fastify's "Server listening" and
  // the parser refusals' lines): ours, in place of the null logger Fastify keeps when it has none
  app.log = logger;
  // one over ours: the transport plugin takes the newcomer past the cap and closes the connection
  // idle the longest in its place (plugins/transport.ts; docs/server-security.md "Connections")
  app.server.maxConnections = config.maxConnections + 1;
  // TypeBox's own checker instead of Fastify's Ajv defaults (coerceTypes, removeAdditional): a
  // wrong type or an unknown property is a 400, never quietly rewritten input.
  app.setValidatorCompiler(TypeBoxValidatorCompiler);
  // JSON only: Fastify also parses text/plain by default, which would turn a wrong content type
  // into a confusing schema error instead of 415.
  app.removeContentTypeParser('text/plain');

  const tokens = createTokenService({
    secret: config.jwtSecret,
    audience: tokenAudience(config),
    ...(deps.now === undefined ? {} : { now: deps.now }),
  });

  // one line per request, when its response closes: registered first, so its onRequest hook runs
  // for every request, one that a later hook refuses too (plugins/request-log.ts)
  await app.register(requestLogPlugin, { controller: logController });
  // the request id and the security headers, one hook (plugins/security.ts)
  await app.register(securityPlugin);
  // after the headers every reply carries: its refusals skip the onRequest hooks after it
  await app.register(transportPlugin, {
    maxConnections: config.maxConnections,
    maxConnectionsPerAddress: config.maxConnectionsPerAddress,
    trustProxy: config.trustProxy,
  });
  await app.register(corsPlugin, { allowedOrigins: config.allowedOrigins });
  await app.register(rateLimitPlugin, {
    redis: deps.redis,
    ...(deps.rateLimitStore === undefined ? {} : { store: deps.rateLimitStore }),
  });
  const revocations =
    deps.revocations ??
    (deps.redis === undefined
      ? createMemoryRevocations(
          deps.now === undefined ? {} : { now: () => (deps.now as () => Date)().getTime() },
        )
      : createRedisRevocations(deps.redis));
  const grants =
    deps.grants ??
    (deps.redis === undefined ? createMemoryGrants() : createRedisGrants(deps.redis));
  const nowMs = deps.now === undefined ? Date.now : () => (deps.now as () => Date)().getTime();
  await app.register(authPlugin, { tokens, revocations, grants, now: nowMs });
  // internals only where someone asked for them by name; any other value keeps 500s opaque
  await app.register(errorsPlugin, {
    exposeInternals: config.nodeEnv === 'development' || config.nodeEnv === 'test',
  });

  const redis = deps.redis;
  await app.register(rootRoutes, {
    version: deps.version ?? '0.0.0',
    sandbox: config.sandbox,
    // ioredis's state ('ready' once connected; 'connecting', 'reconnecting', 'end' while not)
    unavailable: () => (redis === undefined || redis.status === 'ready' ? [] : ['redis']),
  });
  const provisioning = {
    identity: deps.identity,
    lock:
      deps.locks ?? (deps.redis === undefined ? createLocalLock() : createRedisLock(deps.redis)),
    // a provisioning makes up to four upstream calls, each bounded by the upstream timeout
    waitMs: 4 * config.upstreamTimeoutMs + 2_000,
  };
  await app.register(authRoutes, { prefix: '/auth', provisioning, tokens, revocations });
  await app.register(walletRoutes, { prefix: '/wallet', provisioning, tokens });
  // the contracts a grant may call, from the shared tables (docs/server-api.md "Agent grants")
  const known = knownContracts({ sandbox: config.sandbox });
  const feeRecipients = new Set<string>();
  await app.register(grantRoutes, { prefix: '/grants', grants, known, now: nowMs });
  await app.register(signRoutes, {
    prefix: '/sign',
    identity: deps.identity,
    messageChainId: deps.messageChainId ?? (config.sandbox ? 'SN_SANDBOX' : 'SN_MAIN'),
    grants,
    known,
    feeRecipients,
    now: nowMs,
  });
  await app.register(paymasterRoutes, {
    prefix: '/paymaster',
    paymaster: deps.paymaster,
    feeRecipients,
    sponsored: config.paymasterSponsored,
    sponsoredDailyLimit: config.sponsoredDailyLimit,
  });

  return app;
}
