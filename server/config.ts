/**
 * Environment validation for the auth server: a pure function of an env object, so it is
 * testable without touching process.env. The variables, their rules and how each becomes a value
 * are one TypeBox schema (ENV_SCHEMA); every bad variable is named on its own line; values of
 * secret variables are never echoed.
 */
import { isIP } from 'node:net';
import * as Type from 'typebox';
import { Value } from 'typebox/value';
import { isHttpUrl, refusedUrl } from '../shared/url.js';

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

const DEFAULTS = {
  port: 3001,
  host: '127.0.0.1',
  paymasterUrl: 'https://starknet.paymaster.avnu.fi/v1',
  identityAuthUrl: 'https://auth.privy.io/api/v1',
  identityApiUrl: 'https://api.privy.io',
  upstreamTimeoutMs: 10_000,
  sponsoredDailyLimit: 10,
} as const;

/** Highest PAYMASTER_SPONSORED_DAILY_LIMIT accepted (the in-memory counter is exact to 1023). */
const MAX_SPONSORED_DAILY_LIMIT = 1_000;

export const JWT_ISSUER = 'finance-tui-auth';
export const JWT_AUDIENCE = 'finance-tui';
/** Sandbox tokens name their own audience: never accepted by a real server sharing the secret. */
export const JWT_SANDBOX_AUDIENCE = 'finance-tui-sandbox';

export function tokenAudience(config: { sandbox: boolean }): string {
  return config.sandbox ? JWT_SANDBOX_AUDIENCE : JWT_AUDIENCE;
}

/**
 * JWT_SECRET must be a generated secret (docs/server-security.md "JWT_SECRET"): at least 32
 * random bytes written as base64 or base64url (43+ characters) or hex (64+ digits). A person's
 * choice rarely has that form; when it has, the estimate below refuses what is plainly not
 * random in those alphabets. The estimate is the smaller of two: the Shannon entropy of its
 * character frequencies (length × bits per character), and the bits of the characters that no
 * simple pattern predicts (the third of a run that steps evenly by at most 3, `aaa`, `abc`,
 * `ace`, `cba`, also every other character, `a1b2c3`; the third of a walk along a keyboard row; a 3-character piece seen before; a
 * common word), at the bits of its alphabet each. It must reach MIN_SECRET_BITS, half of what 32 random bytes hold: a random
 * secret of the documented recipes estimates ~190–250 bits, and falls below 128 with a
 * probability under 1e-8 (server/config.test.ts draws thousands). The check refuses what is
 * plainly guessable; it cannot prove a secret random.
 */
const MIN_SECRET_BYTES = 32;
/** base64 of 32 bytes without padding: 43 characters; hex: 64 digits */
const MIN_BASE64_LENGTH = Math.ceil((MIN_SECRET_BYTES * 4) / 3);
const MIN_HEX_LENGTH = MIN_SECRET_BYTES * 2;
export const MIN_SECRET_BITS = 128;
const SECRET_ADVICE =
  "generate one with `openssl rand -base64 48` (or `node -e \"console.log(require('crypto').randomBytes(48).toString('base64url'))\"`)";

const HEX = /^[0-9a-fA-F]+$/;
/** base64 and base64url (either alphabet), padding at the end only */
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** The alphabet of a secret in a generated form and its size, or undefined when it has none. */
function generatedForm(secret: string): { alphabet: 'hex' | 'base64'; size: number } | undefined {
  // all hex digits is hex, however long (random base64 is all hex digits with odds of 1e-20)
  if (HEX.test(secret))
    return secret.length >= MIN_HEX_LENGTH ? { alphabet: 'hex', size: 16 } : undefined;
  if (BASE64.test(secret) && secret.replace(/=+$/, '').length >= MIN_BASE64_LENGTH)
    return { alphabet: 'base64', size: 64 };
  return undefined;
}

/** Estimated entropy of `secret` in bits: its length times the Shannon entropy of its character frequencies. */
function secretEntropyBits(secret: string): number {
  const counts = new Map<string, number>();
  for (const char of secret) counts.set(char, (counts.get(char) ?? 0) + 1);
  const length = [...secret].length;
  let bitsPerChar = 0;
  for (const count of counts.values()) bitsPerChar -= (count / length) * Math.log2(count / length);
  return bitsPerChar * length;
}

const KEYBOARD_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
/** Words people build secrets from (3+ letters, lower case): passwords, fillers, the pangram's. */
const COMMON_WORDS = (
  'password passwd secret token key jwt admin root user login letmein welcome changeme default ' +
  'test demo example sample dev prod production staging local server auth finance wallet money ' +
  'starknet dragon monkey master shadow sunshine princess football baseball iloveyou trustno ' +
  'the and for are but not you all any can her was one our out day get has him his how man new ' +
  'now old see two way who boy did its let put say she too use this that with have from they ' +
  'will would there their what about which when make like time just know take people into year ' +
  'your good some could them other than then look only come over think also back after work ' +
  'first well even want because these give most very quick brown fox jumps jumped lazy dog ' +
  'sphinx black quartz judge vow pack box five dozen liquor jugs hello world abc xyz qwerty ' +
  'asdf zxcv'
).split(' ');

/**
 * Where each key of KEYBOARD_ROWS is: its row and its place on the row (the rows share no key).
 * Looked up once per character: the check runs over thousands of characters at a server's start
 * and in its tests (docs/benchmarks.md "Issue 36, seventh round: the unit project").
 */
const KEY_PLACES = new Map<string, { row: number; at: number }>(
  KEYBOARD_ROWS.flatMap((keys, row) => [...keys].map((key, at) => [key, { row, at }] as const)),
);

/** How many characters of `secret` a simple pattern predicts (see the comment above). */
function predictableChars(secret: string): number {
  const chars = [...secret];
  const predictable = new Array<boolean>(chars.length).fill(false);
  const code = (i: number): number => chars[i]?.codePointAt(0) ?? 0;
  // three keys in a row on one keyboard row, one apart, the same way (qwe, ewq, asd)
  const onRow = (a: string, b: string, c: string): boolean => {
    const [x, y, z] = [a, b, c].map((char) => KEY_PLACES.get(char.toLowerCase()));
    return (
      x !== undefined &&
      y !== undefined &&
      z !== undefined &&
      x.row === y.row &&
      y.row === z.row &&
      Math.abs(y.at - x.at) === 1 &&
      z.at - y.at === y.at - x.at
    );
  };
  // each rule needs three characters, so one chance pair in a random secret predicts nothing
  for (let i = 2; i < chars.length; i++) {
    const step = code(i) - code(i - 1);
    const stride2 = i >= 4 ? code(i) - code(i - 2) : Number.NaN;
    const run =
      (step === code(i - 1) - code(i - 2) && Math.abs(step) <= 3) ||
      (stride2 === code(i - 2) - code(i - 4) && Math.abs(stride2) <= 3);
    const keyboard = onRow(chars[i - 2] as string, chars[i - 1] as string, chars[i] as string);
    // the three seen before, ending before the character before them (code units, as sliced)
    const three = `${chars[i - 2]}${chars[i - 1]}${chars[i]}`;
    const first = secret.indexOf(three);
    const seen = first >= 0 && first + three.length <= i - 1;
    if (run || keyboard || seen) predictable[i] = true;
  }
  const lower = secret.toLowerCase();
  for (const word of COMMON_WORDS) {
    for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1))
      for (let i = at; i < at + word.length; i++) predictable[i] = true;
  }
  return predictable.filter(Boolean).length;
}

/** Estimated bits of a secret in a generated form: the smaller of the two estimates above. */
export function secretEstimateBits(secret: string): number {
  const size = generatedForm(secret)?.size ?? 64;
  const unpredicted = [...secret].length - predictableChars(secret);
  return Math.min(secretEntropyBits(secret), unpredicted * Math.log2(size));
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
    return `JWT_SECRET is required (at least ${MIN_SECRET_BYTES} random bytes as base64 or hex; ${SECRET_ADVICE})`;
  if (generatedForm(secret) === undefined) {
    const alphabet = HEX.test(secret)
      ? 'hex digits'
      : BASE64.test(secret)
        ? 'base64 characters'
        : 'characters, some outside base64 and hex';
    return `JWT_SECRET must be at least ${MIN_SECRET_BYTES} random bytes written as base64 or base64url (${MIN_BASE64_LENGTH}+ characters) or hex (${MIN_HEX_LENGTH}+ digits); got ${secret.length} ${alphabet}; ${SECRET_ADVICE}`;
  }
  if (repeatsPattern(secret) || secretEstimateBits(secret) < MIN_SECRET_BITS) {
    return `JWT_SECRET is too easy to guess (a pattern, a word or too few distinct characters for its length); ${SECRET_ADVICE}`;
  }
  return undefined;
}

type NodeEnv = 'development' | 'production' | 'test';

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
  return {
    problem: `TRUST_PROXY must be true, false, a hop count, or a comma list of proxy IPs/CIDRs (got "${shown(bad, 60)}", which is not an IP address or a CIDR with a valid prefix)`,
  };
}

/**
 * HOST's form: an IP address, or a host name (letters, digits and hyphens in dot-separated labels
 * of at most 63, 253 in all). Whether a name resolves, and to an address of this machine, only
 * listening tells (main.ts hostRefusal names HOST then too).
 */
export function isHostForm(raw: string): boolean {
  if (isIP(raw) !== 0) return true;
  if (raw.length > 253) return false;
  return raw
    .replace(/\.$/, '')
    .split('.')
    .every((label) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i.test(label));
}

/** A value as a problem line quotes it: bounded, so one bad variable stays one readable line. */
function shown(value: string, max: number): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}

/** ALLOWED_ORIGINS' entries, and which of them are not origins (scheme, host, port: nothing else). */
function splitOrigins(raw: string): { origins: string[]; bad: string[] } {
  const origins: string[] = [];
  const bad: string[] = [];
  for (const origin of raw
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean)) {
    if (isHttpUrl(origin) && new URL(origin).origin === origin.replace(/\/$/, ''))
      origins.push(new URL(origin).origin);
    else bad.push(origin);
  }
  return { origins, bad };
}

/**
 * The ALLOWED_ORIGINS line: every entry that is not an origin, quoted (origins are no secret),
 * except one with a user, password or query ("@", "?"), named by its scheme only (refusedUrl).
 */
function badOrigins(bad: string[]): string {
  const quoted = bad
    .map((origin) => (/[@?]/.test(origin) ? refusedUrl(origin) : `"${shown(origin, 100)}"`))
    .join(', ');
  const verb = bad.length === 1 ? 'is not an origin' : 'are not origins';
  return `ALLOWED_ORIGINS has ${quoted}, which ${verb} like https://app.example.com`;
}

/**
 * A variable: a string that passes `check`, else the problem line `problem` says (naming the
 * variable, and quoting the value only where it is no secret), and the value it decodes to.
 */
function variable<T>(
  check: (raw: string) => boolean,
  problem: (raw: string) => string,
  decode: (raw: string) => T,
) {
  return Type.Decode(Type.Refine(Type.String(), check, problem), decode);
}

/** A whole number within bounds, written in plain digits. */
function integer(name: string, min: number, max: number, digits = 9) {
  const pattern = new RegExp(`^[0-9]{1,${digits}}$`);
  return variable(
    (raw) => pattern.test(raw) && Number(raw) >= min && Number(raw) <= max,
    (raw) => `${name} must be an integer from ${min} to ${max} (got "${shown(raw, 20)}")`,
    Number,
  );
}

/** One of a few words. */
function oneOf<const W extends string>(name: string, words: readonly W[], said: string) {
  return variable(
    (raw) => (words as readonly string[]).includes(raw),
    (raw) => `${name} must be ${said} (got "${shown(raw, 20)}")`,
    (raw) => raw as W,
  );
}

/** An http(s) URL, kept without its trailing slashes. */
function url(name: string) {
  return variable(
    isHttpUrl,
    // never quoted: a URL may carry a password or a key (userinfo, query)
    (raw) => `${name} must be an http(s) URL (got ${refusedUrl(raw)})`,
    (raw) => raw.replace(/\/+$/, ''),
  );
}

/** A variable nothing checks but its presence. */
const text = Type.String();

/**
 * Every variable the server reads, with its rule. Values arrive trimmed, and a blank one counts as
 * absent (readEnv), except JWT_SECRET, taken as it is. A required variable's `description` says
 * what it is, for the "is required" line.
 */
const ENV_SCHEMA = Type.Object({
  IDENTITY_APP_ID: Type.String({ description: 'the identity provider app id' }),
  IDENTITY_APP_SECRET: Type.String({ description: 'the identity provider app secret' }),
  // never quoted: jwtSecretProblem says what is wrong without the value
  JWT_SECRET: variable(
    (raw) => jwtSecretProblem(raw) === undefined,
    (raw) => jwtSecretProblem(raw) ?? '',
    (raw) => raw,
  ),
  PORT: Type.Optional(integer('PORT', 0, 65_535, 5)),
  HOST: Type.Optional(
    variable(
      isHostForm,
      (raw) =>
        `HOST must be an IP address or a host name, like 127.0.0.1 or 0.0.0.0 (got "${shown(raw, 60)}")`,
      (raw) => raw,
    ),
  ),
  // production unless told otherwise: development and test put internal error text in 500
  // responses, which a server started without NODE_ENV (a plain `finance-tui serve`) must not do.
  NODE_ENV: Type.Optional(
    oneOf('NODE_ENV', ['development', 'production', 'test'], 'development, production or test'),
  ),
  ALLOWED_ORIGINS: Type.Optional(
    variable(
      (raw) => splitOrigins(raw).bad.length === 0,
      (raw) => badOrigins(splitOrigins(raw).bad),
      (raw) => splitOrigins(raw).origins,
    ),
  ),
  PUBLIC_URL: Type.Optional(url('PUBLIC_URL')),
  PAYMASTER_URL: Type.Optional(url('PAYMASTER_URL')),
  PAYMASTER_API_KEY: Type.Optional(text),
  PAYMASTER_SPONSORED: Type.Optional(
    variable(
      (raw) => ['1', 'true', '0', 'false'].includes(raw),
      (raw) => `PAYMASTER_SPONSORED must be 1 or 0 (got "${shown(raw, 20)}")`,
      (raw) => raw === '1' || raw === 'true',
    ),
  ),
  PAYMASTER_SPONSORED_DAILY_LIMIT: Type.Optional(
    integer('PAYMASTER_SPONSORED_DAILY_LIMIT', 1, MAX_SPONSORED_DAILY_LIMIT, 4),
  ),
  IDENTITY_AUTH_URL: Type.Optional(url('IDENTITY_AUTH_URL')),
  IDENTITY_API_URL: Type.Optional(url('IDENTITY_API_URL')),
  TRUST_PROXY: Type.Optional(
    variable(
      (raw) => 'value' in parseTrustProxy(raw),
      (raw) => {
        const parsed = parseTrustProxy(raw);
        return 'problem' in parsed ? parsed.problem : '';
      },
      (raw) => {
        const parsed = parseTrustProxy(raw);
        return 'value' in parsed ? parsed.value : false;
      },
    ),
  ),
  // never quoted: a Redis URL may carry its password
  REDIS_URL: Type.Optional(
    variable(
      (raw) => /^rediss?:\/\//.test(raw),
      () => 'REDIS_URL must start with redis:// or rediss://',
      (raw) => raw,
    ),
  ),
  REDIS_PERSISTENCE: Type.Optional(
    oneOf('REDIS_PERSISTENCE', ['required', 'warn'], 'required or warn'),
  ),
  UPSTREAM_TIMEOUT_MS: Type.Optional(integer('UPSTREAM_TIMEOUT_MS', 100, 999_999)),
  MAX_CONNECTIONS: Type.Optional(integer('MAX_CONNECTIONS', 1, 1_000_000)),
  MAX_CONNECTIONS_PER_ADDRESS: Type.Optional(integer('MAX_CONNECTIONS_PER_ADDRESS', 1, 1_000_000)),
  HEADERS_TIMEOUT_MS: Type.Optional(integer('HEADERS_TIMEOUT_MS', 100, 600_000)),
  REQUEST_TIMEOUT_MS: Type.Optional(integer('REQUEST_TIMEOUT_MS', 100, 600_000)),
  KEEP_ALIVE_TIMEOUT_MS: Type.Optional(integer('KEEP_ALIVE_TIMEOUT_MS', 100, 600_000)),
});

type EnvName = keyof typeof ENV_SCHEMA.properties;
type EnvValues = Type.StaticDecode<typeof ENV_SCHEMA>;
const ENV_NAMES = Object.keys(ENV_SCHEMA.properties) as EnvName[];

/**
 * Rules between variables, over the values in force (a bad variable's default in its place, so a
 * conflict is reported along with it): each a line of its own.
 */
const CONNECTION_RULES = Type.Refine(
  Type.Refine(
    Type.Object({
      maxConnections: Type.Integer(),
      maxConnectionsPerAddress: Type.Integer(),
      headersTimeoutMs: Type.Integer(),
      requestTimeoutMs: Type.Integer(),
    }),
    (bounds) => bounds.maxConnectionsPerAddress <= bounds.maxConnections,
    (bounds) =>
      `MAX_CONNECTIONS_PER_ADDRESS (${bounds.maxConnectionsPerAddress}) must not exceed MAX_CONNECTIONS (${bounds.maxConnections})`,
  ),
  // Node refuses a headers deadline past the whole-request one
  (bounds) => bounds.headersTimeoutMs <= bounds.requestTimeoutMs,
  (bounds) =>
    `HEADERS_TIMEOUT_MS (${bounds.headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${bounds.requestTimeoutMs})`,
);

/** The schema's variables from `env`: trimmed, a blank one absent, JWT_SECRET as it is ('' when unset). */
function readEnv(env: Env): Record<string, string> {
  const picked: Record<string, string> = { JWT_SECRET: env.JWT_SECRET ?? '' };
  for (const name of ENV_NAMES) {
    if (name === 'JWT_SECRET') continue;
    const value = env[name]?.trim();
    if (value !== undefined && value !== '') picked[name] = value;
  }
  return picked;
}

/** The variable a schema error is about, and its line. Only our own lines: never TypeBox's text, which might quote a value. */
function problemOf(error: {
  keyword: string;
  instancePath: string;
  params: unknown;
}): Array<{ name: string; line: string }> {
  if (error.keyword === 'required') {
    const names = (error.params as { requiredProperties?: string[] }).requiredProperties ?? [];
    return names.map((name) => ({
      name,
      line: `${name} is required (${(ENV_SCHEMA.properties[name as EnvName] as { description?: string } | undefined)?.description ?? 'it has no default'})`,
    }));
  }
  const name = error.instancePath.slice(1);
  const line =
    error.keyword === '~refine'
      ? (error.params as { message?: string }).message
      : `${name} is not valid`;
  return [{ name, line: line ?? `${name} is not valid` }];
}

export function loadConfig(env: Env): ServerConfig {
  const raw = readEnv(env);
  // one line per bad variable, in the schema's order
  const bad = new Map<string, string>();
  for (const error of Value.Errors(ENV_SCHEMA, raw))
    for (const { name, line } of problemOf(error)) if (!bad.has(name)) bad.set(name, line);
  const problems = ENV_NAMES.flatMap((name) => {
    const line = bad.get(name);
    return line === undefined ? [] : [line];
  });

  // every good variable's value; a bad or absent one is left out, and its default stands in
  const values: Partial<EnvValues> = {};
  for (const name of ENV_NAMES) {
    const value = raw[name];
    if (value !== undefined && !bad.has(name))
      (values as Record<string, unknown>)[name] = Value.Decode(ENV_SCHEMA.properties[name], value);
  }
  const maxConnections = values.MAX_CONNECTIONS ?? TRANSPORT_DEFAULTS.maxConnections;
  const bounds = {
    maxConnections,
    // a quarter of maxConnections unless set
    maxConnectionsPerAddress:
      values.MAX_CONNECTIONS_PER_ADDRESS ?? Math.max(1, Math.floor(maxConnections / 4)),
    headersTimeoutMs: values.HEADERS_TIMEOUT_MS ?? TRANSPORT_DEFAULTS.headersTimeoutMs,
    requestTimeoutMs: values.REQUEST_TIMEOUT_MS ?? TRANSPORT_DEFAULTS.requestTimeoutMs,
  };
  for (const error of Value.Errors(CONNECTION_RULES, bounds))
    problems.push((error.params as { message?: string }).message ?? 'connection bounds conflict');

  if (problems.length > 0) throw new ConfigError(problems);

  return {
    identityAppId: values.IDENTITY_APP_ID as string,
    identityAppSecret: values.IDENTITY_APP_SECRET as string,
    jwtSecret: values.JWT_SECRET as string,
    port: values.PORT ?? DEFAULTS.port,
    host: values.HOST ?? DEFAULTS.host,
    nodeEnv: values.NODE_ENV ?? 'production',
    allowedOrigins: values.ALLOWED_ORIGINS ?? [],
    publicUrl: values.PUBLIC_URL,
    paymasterUrl: values.PAYMASTER_URL ?? DEFAULTS.paymasterUrl,
    paymasterApiKey: values.PAYMASTER_API_KEY,
    paymasterSponsored: values.PAYMASTER_SPONSORED ?? false,
    sponsoredDailyLimit: values.PAYMASTER_SPONSORED_DAILY_LIMIT ?? DEFAULTS.sponsoredDailyLimit,
    identityAuthUrl: values.IDENTITY_AUTH_URL ?? DEFAULTS.identityAuthUrl,
    identityApiUrl: values.IDENTITY_API_URL ?? DEFAULTS.identityApiUrl,
    trustProxy: values.TRUST_PROXY ?? false,
    redisUrl: values.REDIS_URL,
    redisPersistence: values.REDIS_PERSISTENCE ?? 'required',
    upstreamTimeoutMs: values.UPSTREAM_TIMEOUT_MS ?? DEFAULTS.upstreamTimeoutMs,
    ...bounds,
    keepAliveTimeoutMs: values.KEEP_ALIVE_TIMEOUT_MS ?? TRANSPORT_DEFAULTS.keepAliveTimeoutMs,
    sandbox: false,
  };
}
