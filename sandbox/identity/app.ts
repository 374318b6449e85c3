/**
 * Identity-provider emulator (docs/contracts.md part A): e-mail OTP, users with custom metadata, and
 * app-managed Starknet wallets with real Stark keys and real signatures. One server carries both
 * of the provider's hosts, so our adapter's base URLs are `<url>/api/v1` (auth) and `<url>` (API).
 *
 * Secrets (the app secret, OTP codes, tokens, private keys) never reach a log line: the logger is
 * off unless a stream is given, and even then only method, URL and status are logged — never
 * headers or bodies.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { type FaultSettings, faults } from '../faults.js';
import { OtpBook } from './otp.js';
import { apiRoutes, authHostRoutes, type IdentityRouteDeps, sandboxRoutes } from './routes.js';
import { IdentityStore, type StoredWallet } from './store.js';
import { isHttpUrl } from '../../shared/url.js';

export interface IdentityEmulatorOptions {
  appId: string;
  appSecret: string;
  /** JSON state file (0600, written atomically); undefined keeps everything in memory */
  dataFile?: string;
  /** OTP lifetime, default 10 minutes */
  otpTtlMs?: number;
  /** wrong guesses that kill a code, default 5 */
  maxOtpAttempts?: number;
  /** clock in ms, for tests */
  now?: () => number;
  faults?: FaultSettings;
  /** origins allowed on OTP calls; undefined = any origin (but one must be sent) */
  allowedOrigins?: string[];
  /** request lines (method, URL, status — no headers, no bodies) go here; default: no logging */
  logStream?: NodeJS.WritableStream;
  /** called after each wallet is created (the sandbox launcher funds it on the chain emulator) */
  onWalletCreated?: (wallet: StoredWallet) => void;
  /**
   * Fastify's schema compilers; its defaults when absent (tests that build many emulators pass one
   * that keeps what it compiled: docs/decisions.md "Apps built by one test file compile each schema
   * once")
   */
  schemaController?: FastifyServerOptions['schemaController'];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** every wallet of the emulated provider, keys excluded */
    identityWallets(): StoredWallet[];
  }
}

const DEFAULT_OTP_TTL_MS = 10 * 60 * 1000;
const DEFAULT_MAX_OTP_ATTEMPTS = 5;

const sha256 = (value: string): Buffer => createHash('sha256').update(value).digest();

/** One answer for every credential problem: the caller learns nothing about which part was wrong. */
const UNAUTHORIZED = {
  error: 'Invalid app ID or app secret',
  code: 'invalid_credentials',
} as const;

function credentialCheck(appId: string, appSecret: string) {
  const expectedId = sha256(appId);
  const expectedAuth = sha256(`Basic ${Buffer.from(`${appId}:${appSecret}`).toString('base64')}`);
  return async (
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<FastifyReply | undefined> => {
    const id = request.headers['privy-app-id'];
    const auth = request.headers.authorization;
    // evaluate both comparisons every time, so timing does not tell which one failed
    const idOk = timingSafeEqual(sha256(typeof id === 'string' ? id : ''), expectedId);
    const authOk = timingSafeEqual(sha256(typeof auth === 'string' ? auth : ''), expectedAuth);
    if (!(idOk && authOk)) return reply.code(401).send(UNAUTHORIZED);
    return undefined;
  };
}

function originCheck(allowedOrigins: string[] | undefined) {
  const allowed =
    allowedOrigins === undefined
      ? undefined
      : new Set(allowedOrigins.map(originOf).filter((o) => o !== undefined));
  return async (
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<FastifyReply | undefined> => {
    const header = request.headers.origin;
    const origin = typeof header === 'string' ? originOf(header) : undefined;
    if (origin === undefined)
      return reply
        .code(403)
        .send({ error: 'A valid Origin header is required', code: 'invalid_origin' });
    if (allowed !== undefined && !allowed.has(origin)) {
      return reply
        .code(403)
        .send({ error: 'Origin not allowed for this app', code: 'invalid_origin' });
    }
    return undefined;
  };
}

function originOf(value: string): string | undefined {
  return isHttpUrl(value) ? new URL(value).origin : undefined;
}

export async function buildIdentityEmulator(
  options: IdentityEmulatorOptions,
): Promise<FastifyInstance> {
  if (options.appId === '' || options.appSecret === '')
    throw new Error('identity emulator: appId and appSecret are required');
  const now = options.now ?? Date.now;
  const deps: IdentityRouteDeps = {
    store: IdentityStore.open(options.dataFile),
    otp: new OtpBook({
      ttlMs: options.otpTtlMs ?? DEFAULT_OTP_TTL_MS,
      maxAttempts: options.maxOtpAttempts ?? DEFAULT_MAX_OTP_ATTEMPTS,
      now,
    }),
    now,
    ...(options.onWalletCreated === undefined ? {} : { onWalletCreated: options.onWalletCreated }),
  };

  const app = Fastify({
    ...(options.schemaController === undefined
      ? {}
      : { schemaController: options.schemaController }),
    logger:
      options.logStream === undefined
        ? false
        : {
            stream: options.logStream,
            serializers: {
              req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url }),
              res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
            },
          },
  });

  await app.register(faults, { initial: options.faults });
  app.decorate('identityWallets', () => deps.store.wallets());

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation !== undefined)
      return reply
        .code(400)
        .send({ error: `Invalid request: ${error.message}`, code: 'invalid_data' });
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500)
      return reply.code(status).send({ error: error.message, code: 'invalid_data' });
    request.log.error({ code: error.code }, 'identity emulator: internal error');
    return reply.code(500).send({ error: 'Internal server error' });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'Not found' }));

  const requireCredentials = credentialCheck(options.appId, options.appSecret);
  const requireOrigin = originCheck(options.allowedOrigins);

  await app.register(
    async (auth) => {
      auth.addHook('onRequest', requireCredentials);
      auth.addHook('onRequest', requireOrigin);
      authHostRoutes(auth, deps);
    },
    { prefix: '/api/v1' },
  );
  await app.register(
    async (api) => {
      api.addHook('onRequest', requireCredentials);
      apiRoutes(api, deps);
    },
    { prefix: '/v1' },
  );
  sandboxRoutes(app, deps);

  return app;
}
