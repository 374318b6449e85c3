/**
 * Environment validation for the auth server: a pure function of an env object, so it is
 * testable without touching process.env. Every bad variable is named on its own line; values of
 * secret variables are never echoed.
 */
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
  upstreamTimeoutMs: number;
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

function parseTrustProxy(raw: string | undefined): boolean | number | string | null {
  if (raw === undefined || raw === 'false' || raw === '0') return false;
  if (raw === 'true') return true;
  if (/^[0-9]+$/.test(raw)) return Number(raw);
  const parts = raw.split(',').map((p) => p.trim());
  // addresses or CIDRs (v4 or v6), or the proxy-addr keywords
  const ok = parts.every((p) => /^(loopback|linklocal|uniquelocal|[0-9a-fA-F:.]+(\/[0-9]{1,3})?)$/.test(p));
  return ok ? parts.join(',') : null;
}

export function loadConfig(env: Env): ServerConfig {
  const problems: string[] = [];

  const identityAppId = present(env, 'IDENTITY_APP_ID');
  if (identityAppId === undefined) problems.push('IDENTITY_APP_ID is required (the identity provider app id)');
  const identityAppSecret = present(env, 'IDENTITY_APP_SECRET');
  if (identityAppSecret === undefined) problems.push('IDENTITY_APP_SECRET is required (the identity provider app secret)');
  const jwtSecret = env.JWT_SECRET ?? '';
  if (jwtSecret.length === 0) problems.push('JWT_SECRET is required (at least 32 characters)');
  else if (jwtSecret.length < 32) problems.push(`JWT_SECRET must be at least 32 characters (got ${jwtSecret.length})`);

  let port: number = DEFAULTS.port;
  const rawPort = present(env, 'PORT');
  if (rawPort !== undefined) {
    if (!/^[0-9]{1,5}$/.test(rawPort) || Number(rawPort) > 65535) problems.push(`PORT must be an integer from 0 to 65535 (got "${rawPort}")`);
    else port = Number(rawPort);
  }

  const host = present(env, 'HOST') ?? DEFAULTS.host;

  // production unless told otherwise: development and test put internal error text in 500
  // responses, which a server started without NODE_ENV (a plain `finance-tui serve`) must not do.
  let nodeEnv: NodeEnv = 'production';
  const rawNodeEnv = present(env, 'NODE_ENV');
  if (rawNodeEnv !== undefined) {
    if (rawNodeEnv === 'development' || rawNodeEnv === 'production' || rawNodeEnv === 'test') nodeEnv = rawNodeEnv;
    else problems.push(`NODE_ENV must be development, production or test (got "${rawNodeEnv}")`);
  }

  const allowedOrigins: string[] = [];
  const rawOrigins = present(env, 'ALLOWED_ORIGINS');
  if (rawOrigins !== undefined) {
    for (const origin of rawOrigins.split(',').map((o) => o.trim()).filter(Boolean)) {
      if (!httpUrl(origin) || new URL(origin).origin !== origin.replace(/\/$/, '')) {
        problems.push(`ALLOWED_ORIGINS has "${origin}", which is not an origin like https://app.example.com`);
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
  const identityAuthUrl = urlVar('IDENTITY_AUTH_URL', DEFAULTS.identityAuthUrl) ?? DEFAULTS.identityAuthUrl;
  const identityApiUrl = urlVar('IDENTITY_API_URL', DEFAULTS.identityApiUrl) ?? DEFAULTS.identityApiUrl;

  const trustProxy = parseTrustProxy(present(env, 'TRUST_PROXY'));
  if (trustProxy === null) {
    problems.push('TRUST_PROXY must be true, false, a hop count, or a comma list of proxy addresses/CIDRs');
  }

  const redisUrl = present(env, 'REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) problems.push('REDIS_URL must start with redis:// or rediss://');

  let upstreamTimeoutMs: number = DEFAULTS.upstreamTimeoutMs;
  const rawTimeout = present(env, 'UPSTREAM_TIMEOUT_MS');
  if (rawTimeout !== undefined) {
    if (!/^[0-9]{1,6}$/.test(rawTimeout) || Number(rawTimeout) < 100) problems.push(`UPSTREAM_TIMEOUT_MS must be an integer >= 100 (got "${rawTimeout}")`);
    else upstreamTimeoutMs = Number(rawTimeout);
  }

  let paymasterSponsored = false;
  const rawSponsored = present(env, 'PAYMASTER_SPONSORED');
  if (rawSponsored !== undefined) {
    if (rawSponsored === '1' || rawSponsored === 'true') paymasterSponsored = true;
    else if (rawSponsored !== '0' && rawSponsored !== 'false') problems.push(`PAYMASTER_SPONSORED must be 1 or 0 (got "${rawSponsored}")`);
  }

  let sponsoredDailyLimit: number = DEFAULTS.sponsoredDailyLimit;
  const rawDaily = present(env, 'PAYMASTER_SPONSORED_DAILY_LIMIT');
  if (rawDaily !== undefined) {
    if (!/^[0-9]{1,4}$/.test(rawDaily) || Number(rawDaily) < 1 || Number(rawDaily) > MAX_SPONSORED_DAILY_LIMIT) {
      problems.push(`PAYMASTER_SPONSORED_DAILY_LIMIT must be an integer from 1 to ${MAX_SPONSORED_DAILY_LIMIT} (got "${rawDaily}")`);
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
    trustProxy: trustProxy as boolean | number | string,
    redisUrl,
    upstreamTimeoutMs,
    sandbox: false,
  };
}
