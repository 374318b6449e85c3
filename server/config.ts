/**
 * Environment validation for the auth server: a pure function of an env object, so it is
 * testable without touching process.env. Every bad variable is named on its own line; values of
 * secret variables are never echoed.
 */
import { isIP } from 'node:net';

/**
 * Bounds on what one connection may hold (docs/architecture.md "Abuse bounds"): every request has
 * a deadline for its headers and for the whole request (body included), an idle keep-alive
 * connection is closed, and the number of open connections is capped. With the 1 MB body limit
 * this caps what unauthenticated clients can make us buffer at maxConnections × 1 MB, each for at
 * most requestTimeoutMs.
 */
export const TRANSPORT_DEFAULTS = {
  maxConnections: 512,
  /** a quarter of maxConnections unless MAX_CONNECTIONS_PER_ADDRESS says otherwise */
  maxConnectionsPerAddress: 128,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
} as const;

export const DEFAULTS = {
  port: 3001,
  host: '127.0.0.1',
  paymasterUrl: 'https://starknet.paymaster.avnu.fi/v1',
  identityAuthUrl: 'https://auth.privy.io/api/v1',
  identityApiUrl: 'https://api.privy.io',
  upstreamTimeoutMs: 10_000,
  sponsoredDailyLimit: 10,
} as const;

/** Highest PAYMASTER_SPONSORED_DAILY_LIMIT accepted (the in-memory counter is exact to 1023). */
export const MAX_SPONSORED_DAILY_LIMIT = 1_000;

export const JWT_ISSUER = 'finance-tui-auth';
export const JWT_AUDIENCE = 'finance-tui';
/** Sandbox tokens name their own audience: never accepted by a real server sharing the secret. */
export const JWT_SANDBOX_AUDIENCE = 'finance-tui-sandbox';

export function tokenAudience(config: { sandbox: boolean }): string {
  return config.sandbox ? JWT_SANDBOX_AUDIENCE : JWT_AUDIENCE;
}

/**
 * JWT_SECRET must be hard to guess (docs/server-security.md "JWT_SECRET"): at least 32
 * characters, not a shorter pattern repeated, and at least MIN_SECRET_BITS of entropy as
 * estimated from how often each of its characters occurs (length × Shannon entropy per
 * character). A random secret of 32 base64 characters estimates ~140 bits, 64 hex digits ~235;
 * 32 × "a" estimates 0, "abcd" × 8 64. The check refuses what is plainly guessable; it cannot
 * prove a secret random.
 */
export const MIN_SECRET_LENGTH = 32;
export const MIN_SECRET_BITS = 96;
export const SECRET_ADVICE =
  "generate one with `openssl rand -base64 48` (or `node -e \"console.log(require('crypto').randomBytes(48).toString('base64url'))\"`)";

/** Estimated entropy of `secret` in bits: its length times the Shannon entropy of its character frequencies. */
export function secretEntropyBits(secret: string): number {
  const counts = new Map<string, number>();
  for (const char of secret) counts.set(char, (counts.get(char) ?? 0) + 1);
  const length = [...secret].length;
  let bitsPerChar = 0;
  for (const count of counts.values()) bitsPerChar -= (count / length) * Math.log2(count / length);
  return bitsPerChar * length;
}

/** `secret` is a shorter string repeated (its smallest period is at most half its length). */
function repeatsPattern(secret: string): boolean {
  for (let period = 1; period <= secret.length / 2; period++) {
    let repeats = true;
    for (let i = period; i < secret.length && repeats; i++)
      repeats = secret[i] === secret[i - period];
    if (repeats) return true;
  }
  return false;
}

/** What is wrong with a JWT_SECRET, in one line that never quotes it; undefined when it will do. */
export function jwtSecretProblem(secret: string): string | undefined {
  if (secret.length === 0)
    return `JWT_SECRET is required (at least ${MIN_SECRET_LENGTH} random characters; ${SECRET_ADVICE})`;
  if (secret.length < MIN_SECRET_LENGTH)
    return `JWT_SECRET must be at least ${MIN_SECRET_LENGTH} characters (got ${secret.length}); ${SECRET_ADVICE}`;
  if (repeatsPattern(secret) || secretEntropyBits(secret) < MIN_SECRET_BITS) {
    return `JWT_SECRET is too easy to guess (a repeated pattern, or too few distinct characters for its length); ${SECRET_ADVICE}`;
  }
  return undefined;
}

export type NodeEnv = 'development' | 'production' | 'test';

export interface ServerConfig {
  identityAppId: string;
  identityAppSecret: string;
  jwtSecret: string;
  port: number;
  host: string;
  nodeEnv: NodeEnv;
  allowedOrigins: string[];
  /** Origin sent to the identity provider on OTP calls; also how we describe ourselves. */
  publicUrl: string | undefined;
  paymasterUrl: string;
  paymasterApiKey: string | undefined;
  /** relay `fee_mode: sponsored` (the operator pays the gas); off unless PAYMASTER_SPONSORED=1 */
  paymasterSponsored: boolean;
  /** sponsored transactions per user per day (24 h from the first) */
  sponsoredDailyLimit: number;
  identityAuthUrl: string;
  identityApiUrl: string;
  /** Fastify's trustProxy: false, true, a hop count, or a comma list of addresses/CIDRs. */
  trustProxy: boolean | number | string;
  redisUrl: string | undefined;
  /** with REDIS_URL: refuse to start on a Redis that may forget sign-outs (`required`), or only warn (server/redis-persistence.ts) */
  redisPersistence: 'required' | 'warn';
  upstreamTimeoutMs: number;
  /** open connections at most; the next one is closed as soon as it is accepted */
  maxConnections: number;
  /** open connections of one client address (IPv4, or IPv6 /64) at most; trusted proxies are bounded by maxConnections only */
  maxConnectionsPerAddress: number;
  /** time from a connection's first byte (or the end of the previous request) to the end of the headers */
  headersTimeoutMs: number;
  /** time to receive a whole request, body included; past it the client gets 408 and the connection is closed */
  requestTimeoutMs: number;
  /** an idle keep-alive connection is closed after this long */
  keepAliveTimeoutMs: number;
  /** Set by the sandbox launcher only: marks responses and logs as sandbox. */
  sandbox: boolean;
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

type Env = Record<string, string | undefined>;

function present(env: Env, name: string): string | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function httpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** proxy-addr's names for address ranges, which Fastify's trustProxy accepts in a list */
const TRUST_PROXY_KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address or CIDR as proxy-addr would take it, checked here so a typo fails at start, by name. */
function isProxyAddress(entry: string): boolean {
  if (TRUST_PROXY_KEYWORDS.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  // proxy-addr refuses /0 (TRUST_PROXY=true says the same)
  return (
    /^[0-9]{1,3}$/.test(prefix) &&
    Number(prefix) >= 1 &&
    Number(prefix) <= (family === 4 ? 32 : 128)
  );
}

/** TRUST_PROXY: true, false, a hop count, or a comma list of addresses/CIDRs; a problem line when bad. */
export function parseTrustProxy(
  raw: string | undefined,
): { value: boolean | number | string } | { problem: string } {
  if (raw === undefined || raw === 'false' || raw === '0') return { value: false };
  if (raw === 'true') return { value: true };
  if (/^[0-9]{1,3}$/.test(raw)) return { value: Number(raw) };
  const parts = raw.split(',').map((p) => p.trim());
  const bad = parts.find((p) => !isProxyAddress(p));
  if (bad === undefined) return { value: parts.join(',') };
  const shown = bad.length > 60 ? `${bad.slice(0, 60)}…` : bad;
  return {
    problem: `TRUST_PROXY must be true, false, a hop count, or a comma list of proxy IPs/CIDRs (got "${shown}", which is not an IP address or a CIDR with a valid prefix)`,
  };
}

export function loadConfig(env: Env): ServerConfig {
  const problems: string[] = [];

  const identityAppId = present(env, 'IDENTITY_APP_ID');
  if (identityAppId === undefined)
    problems.push('IDENTITY_APP_ID is required (the identity provider app id)');
  const identityAppSecret = present(env, 'IDENTITY_APP_SECRET');
  if (identityAppSecret === undefined)
    problems.push('IDENTITY_APP_SECRET is required (the identity provider app secret)');
  const jwtSecret = env.JWT_SECRET ?? '';
  const secretProblem = jwtSecretProblem(jwtSecret);
  if (secretProblem !== undefined) problems.push(secretProblem);

  let port: number = DEFAULTS.port;
  const rawPort = present(env, 'PORT');
  if (rawPort !== undefined) {
    if (!/^[0-9]{1,5}$/.test(rawPort) || Number(rawPort) > 65535)
      problems.push(`PORT must be an integer from 0 to 65535 (got "${rawPort}")`);
    else port = Number(rawPort);
  }

  const host = present(env, 'HOST') ?? DEFAULTS.host;

  // production unless told otherwise: development and test put internal error text in 500
  // responses, which a server started without NODE_ENV (a plain `finance-tui serve`) must not do.
  let nodeEnv: NodeEnv = 'production';
  const rawNodeEnv = present(env, 'NODE_ENV');
  if (rawNodeEnv !== undefined) {
    if (rawNodeEnv === 'development' || rawNodeEnv === 'production' || rawNodeEnv === 'test')
      nodeEnv = rawNodeEnv;
    else problems.push(`NODE_ENV must be development, production or test (got "${rawNodeEnv}")`);
  }

  const allowedOrigins: string[] = [];
  const rawOrigins = present(env, 'ALLOWED_ORIGINS');
  if (rawOrigins !== undefined) {
    for (const origin of rawOrigins
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean)) {
      if (!httpUrl(origin) || new URL(origin).origin !== origin.replace(/\/$/, '')) {
        problems.push(
          `ALLOWED_ORIGINS has "${origin}", which is not an origin like https://app.example.com`,
        );
      } else allowedOrigins.push(new URL(origin).origin);
    }
  }

  const urlVar = (name: string, fallback: string | undefined): string | undefined => {
    const value = present(env, name);
    if (value === undefined) return fallback;
    if (!httpUrl(value)) {
      problems.push(`${name} must be an http(s) URL (got "${value}")`);
      return fallback;
    }
    return value.replace(/\/+$/, '');
  };
  const publicUrl = urlVar('PUBLIC_URL', undefined);
  const paymasterUrl = urlVar('PAYMASTER_URL', DEFAULTS.paymasterUrl) ?? DEFAULTS.paymasterUrl;
  const identityAuthUrl =
    urlVar('IDENTITY_AUTH_URL', DEFAULTS.identityAuthUrl) ?? DEFAULTS.identityAuthUrl;
  const identityApiUrl =
    urlVar('IDENTITY_API_URL', DEFAULTS.identityApiUrl) ?? DEFAULTS.identityApiUrl;

  const parsedTrustProxy = parseTrustProxy(present(env, 'TRUST_PROXY'));
  if ('problem' in parsedTrustProxy) problems.push(parsedTrustProxy.problem);
  const trustProxy = 'value' in parsedTrustProxy ? parsedTrustProxy.value : false;

  const redisUrl = present(env, 'REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl))
    problems.push('REDIS_URL must start with redis:// or rediss://');

  let redisPersistence: 'required' | 'warn' = 'required';
  const rawPersistence = present(env, 'REDIS_PERSISTENCE');
  if (rawPersistence !== undefined) {
    if (rawPersistence === 'required' || rawPersistence === 'warn')
      redisPersistence = rawPersistence;
    else
      problems.push(
        `REDIS_PERSISTENCE must be required or warn (got "${rawPersistence.length > 20 ? `${rawPersistence.slice(0, 20)}…` : rawPersistence}")`,
      );
  }

  const integerVar = (name: string, fallback: number, min: number, max: number): number => {
    const raw = present(env, name);
    if (raw === undefined) return fallback;
    if (!/^[0-9]{1,9}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      problems.push(
        `${name} must be an integer from ${min} to ${max} (got "${raw.length > 20 ? `${raw.slice(0, 20)}…` : raw}")`,
      );
      return fallback;
    }
    return Number(raw);
  };
  const upstreamTimeoutMs = integerVar(
    'UPSTREAM_TIMEOUT_MS',
    DEFAULTS.upstreamTimeoutMs,
    100,
    999_999,
  );
  const maxConnections = integerVar(
    'MAX_CONNECTIONS',
    TRANSPORT_DEFAULTS.maxConnections,
    1,
    1_000_000,
  );
  const maxConnectionsPerAddress = integerVar(
    'MAX_CONNECTIONS_PER_ADDRESS',
    Math.max(1, Math.floor(maxConnections / 4)),
    1,
    1_000_000,
  );
  if (maxConnectionsPerAddress > maxConnections) {
    problems.push(
      `MAX_CONNECTIONS_PER_ADDRESS (${maxConnectionsPerAddress}) must not exceed MAX_CONNECTIONS (${maxConnections})`,
    );
  }
  const headersTimeoutMs = integerVar(
    'HEADERS_TIMEOUT_MS',
    TRANSPORT_DEFAULTS.headersTimeoutMs,
    100,
    600_000,
  );
  const requestTimeoutMs = integerVar(
    'REQUEST_TIMEOUT_MS',
    TRANSPORT_DEFAULTS.requestTimeoutMs,
    100,
    600_000,
  );
  const keepAliveTimeoutMs = integerVar(
    'KEEP_ALIVE_TIMEOUT_MS',
    TRANSPORT_DEFAULTS.keepAliveTimeoutMs,
    100,
    600_000,
  );
  // Node refuses a headers deadline past the whole-request one
  if (headersTimeoutMs > requestTimeoutMs)
    problems.push(
      `HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs})`,
    );

  let paymasterSponsored = false;
  const rawSponsored = present(env, 'PAYMASTER_SPONSORED');
  if (rawSponsored !== undefined) {
    if (rawSponsored === '1' || rawSponsored === 'true') paymasterSponsored = true;
    else if (rawSponsored !== '0' && rawSponsored !== 'false')
      problems.push(`PAYMASTER_SPONSORED must be 1 or 0 (got "${rawSponsored}")`);
  }

  let sponsoredDailyLimit: number = DEFAULTS.sponsoredDailyLimit;
  const rawDaily = present(env, 'PAYMASTER_SPONSORED_DAILY_LIMIT');
  if (rawDaily !== undefined) {
    if (
      !/^[0-9]{1,4}$/.test(rawDaily) ||
      Number(rawDaily) < 1 ||
      Number(rawDaily) > MAX_SPONSORED_DAILY_LIMIT
    ) {
      problems.push(
        `PAYMASTER_SPONSORED_DAILY_LIMIT must be an integer from 1 to ${MAX_SPONSORED_DAILY_LIMIT} (got "${rawDaily}")`,
      );
    } else sponsoredDailyLimit = Number(rawDaily);
  }

  if (problems.length > 0) throw new ConfigError(problems);

  return {
    identityAppId: identityAppId as string,
    identityAppSecret: identityAppSecret as string,
    jwtSecret,
    port,
    host,
    nodeEnv,
    allowedOrigins,
    publicUrl,
    paymasterUrl,
    paymasterApiKey: present(env, 'PAYMASTER_API_KEY'),
    paymasterSponsored,
    sponsoredDailyLimit,
    identityAuthUrl,
    identityApiUrl,
    trustProxy,
    redisUrl,
    redisPersistence,
    upstreamTimeoutMs,
    maxConnections,
    maxConnectionsPerAddress,
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs,
    sandbox: false,
  };
}
