import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { trustProxyOption } from './app.js';
import { randomBytes } from 'node:crypto';
import {
  ConfigError,
  isHostForm,
  jwtSecretProblem,
  loadConfig,
  parseTrustProxy,
  MIN_SECRET_BITS,
  secretEstimateBits,
  TRANSPORT_DEFAULTS,
} from './config.js';
import { TEST_JWT_SECRET } from '../test/helpers/build-test-app.js';

const base = {
  IDENTITY_APP_ID: 'app',
  IDENTITY_APP_SECRET: 'secret',
  JWT_SECRET: '31XeCKK04vhnj0ni95OpMR2mZjvSh_d0hi84o3hjFzg',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ ...base, ...env });
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('HOST', () => {
  it.each(['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost', 'api.example.com', 'nonsense'])(
    '%s has the form of a host (whether it resolves, listening tells)',
    (host) => {
      expect(isHostForm(host)).toBe(true);
      expect(loadConfig({ ...base, HOST: host }).host).toBe(host);
    },
  );

  it.each(['bad_host', 'a..b', '-a.example.com', '[::1]', '127.0.0.1:3001', 'x'.repeat(64)])(
    '%s is refused by name',
    (host) => {
      expect(isHostForm(host)).toBe(false);
      expect(problemsOf({ HOST: host })).toEqual([
        expect.stringMatching(/^HOST must be an IP address or a host name/),
      ]);
    },
  );
});

describe('TRUST_PROXY', () => {
  it.each([
    ['true', true],
    ['false', false],
    ['0', false],
    ['2', 2],
    ['10.0.0.1', '10.0.0.1'],
    ['10.0.0.0/8', '10.0.0.0/8'],
    ['10.0.0.0/32', '10.0.0.0/32'],
    ['fd00::/8, 127.0.0.1', 'fd00::/8,127.0.0.1'],
    ['2001:db8::1/128', '2001:db8::1/128'],
    ['::ffff:10.0.0.1', '::ffff:10.0.0.1'],
    ['loopback,uniquelocal', 'loopback,uniquelocal'],
    ['fe80::1%eth0', 'fe80::1%eth0'],
  ])('%s is accepted as %j, and Fastify starts with it', async (raw, value) => {
    const parsed = parseTrustProxy(raw);
    expect(parsed).toEqual({ value });
    // what passes validation must not crash the server at start (the bug this guards against)
    const app = Fastify({ trustProxy: trustProxyOption(value) });
    await app.ready();
    await app.close();
  });

  it.each([
    'abc',
    '10.0.0.0/99',
    '10.0.0.0/33',
    '10.0.0.0/0',
    '::1/129',
    '10.0.0.256',
    '10.0.0.0/8/8',
    '10.0.0.0/',
    '10.0.0.1,,10.0.0.2',
    'yes',
    '1.2.3.4/-1',
    'deadbeef',
  ])('%s is refused in one line naming TRUST_PROXY and the bad entry', (raw) => {
    const problems = problemsOf({ TRUST_PROXY: raw });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^TRUST_PROXY must be true, false, a hop count, or a comma list of proxy IPs\/CIDRs/,
    );
    expect(problems[0]).not.toContain('\n');
  });
});

describe('connection bounds', () => {
  it('default to the documented values', () => {
    const config = loadConfig(base);
    expect(config).toMatchObject(TRANSPORT_DEFAULTS);
    expect(TRANSPORT_DEFAULTS).toEqual({
      maxConnections: 512,
      maxConnectionsPerAddress: 128,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
    });
  });

  it('are read from the environment', () => {
    const config = loadConfig({
      ...base,
      MAX_CONNECTIONS: '64',
      HEADERS_TIMEOUT_MS: '2000',
      REQUEST_TIMEOUT_MS: '4000',
      KEEP_ALIVE_TIMEOUT_MS: '61000',
    });
    expect(config).toMatchObject({
      maxConnections: 64,
      headersTimeoutMs: 2_000,
      requestTimeoutMs: 4_000,
      keepAliveTimeoutMs: 61_000,
    });
  });

  it.each([
    ['MAX_CONNECTIONS', '0'],
    ['MAX_CONNECTIONS', 'many'],
    ['HEADERS_TIMEOUT_MS', '50'],
    ['REQUEST_TIMEOUT_MS', '-1'],
    ['KEEP_ALIVE_TIMEOUT_MS', '1e4'],
    ['UPSTREAM_TIMEOUT_MS', '99'],
  ])('%s=%s is one line naming the variable', (name, value) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(name);
    expect(problems[0]).toContain(`"${value}"`);
  });

  it('connections per address: a quarter of MAX_CONNECTIONS unless set, never more than MAX_CONNECTIONS', () => {
    expect(loadConfig({ ...base, MAX_CONNECTIONS: '64' }).maxConnectionsPerAddress).toBe(16);
    expect(loadConfig({ ...base, MAX_CONNECTIONS: '3' }).maxConnectionsPerAddress).toBe(1);
    expect(loadConfig({ ...base, MAX_CONNECTIONS_PER_ADDRESS: '8' }).maxConnectionsPerAddress).toBe(
      8,
    );
    expect(problemsOf({ MAX_CONNECTIONS: '64', MAX_CONNECTIONS_PER_ADDRESS: '65' })).toEqual([
      'MAX_CONNECTIONS_PER_ADDRESS (65) must not exceed MAX_CONNECTIONS (64)',
    ]);
    expect(problemsOf({ MAX_CONNECTIONS_PER_ADDRESS: '0' })[0]).toMatch(
      /^MAX_CONNECTIONS_PER_ADDRESS must be an integer from 1/,
    );
  });

  it('a headers deadline longer than the request deadline is refused', () => {
    expect(problemsOf({ HEADERS_TIMEOUT_MS: '40000' })).toEqual([
      'HEADERS_TIMEOUT_MS (40000) must not exceed REQUEST_TIMEOUT_MS (30000)',
    ]);
  });
});

describe('sponsored gas settings', () => {
  it('off with a daily limit of 10 unless told otherwise', () => {
    expect(loadConfig(base)).toMatchObject({ paymasterSponsored: false, sponsoredDailyLimit: 10 });
  });

  it.each([
    ['1', true],
    ['true', true],
    ['0', false],
    ['false', false],
  ])('PAYMASTER_SPONSORED=%s → %s', (value, expected) => {
    expect(loadConfig({ ...base, PAYMASTER_SPONSORED: value }).paymasterSponsored).toBe(expected);
  });

  it('reads PAYMASTER_SPONSORED_DAILY_LIMIT', () => {
    expect(loadConfig({ ...base, PAYMASTER_SPONSORED_DAILY_LIMIT: '3' }).sponsoredDailyLimit).toBe(
      3,
    );
  });

  it.each([
    { env: { PAYMASTER_SPONSORED: 'yes' }, name: 'PAYMASTER_SPONSORED' },
    { env: { PAYMASTER_SPONSORED_DAILY_LIMIT: '0' }, name: 'PAYMASTER_SPONSORED_DAILY_LIMIT' },
    { env: { PAYMASTER_SPONSORED_DAILY_LIMIT: '1001' }, name: 'PAYMASTER_SPONSORED_DAILY_LIMIT' },
    { env: { PAYMASTER_SPONSORED_DAILY_LIMIT: 'ten' }, name: 'PAYMASTER_SPONSORED_DAILY_LIMIT' },
  ])('$env → one problem naming $name', ({ env, name }) => {
    let caught: unknown;
    try {
      loadConfig({ ...base, ...env });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).problems).toEqual([expect.stringContaining(name)]);
  });
});

describe('JWT_SECRET', () => {
  it.each([
    ['"Passw0rd!" × 4 + "x"', `${'Passw0rd!'.repeat(4)}x`],
    ['"0123456789abcdef" × 2 + "xy"', `${'0123456789abcdef'.repeat(2)}xy`],
    ['32 × "a"', 'a'.repeat(32)],
    ['a pangram', 'The quick brown fox jumps over the lazy dog'],
    ['base64 of 24 bytes (32 characters)', randomBytes(24).toString('base64')],
    ['hex of 31 bytes', randomBytes(31).toString('hex')],
  ])('%s is not a generated form: refused in one line, never quoting it', (_, secret) => {
    const problems = problemsOf({ JWT_SECRET: secret });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^JWT_SECRET must be at least 32 random bytes written as base64 or base64url \(43\+ characters\) or hex \(64\+ digits\); got \d+ /,
    );
    expect(problems[0]).toContain('openssl rand -base64 48');
    expect(problems[0]).not.toContain(secret);
  });

  it.each([
    ['43 × "s"', 's'.repeat(43)],
    ['two characters alternating', 'ab'.repeat(32)],
    ['a short pattern repeated', 'abcd'.repeat(16)],
    ['a word repeated', 'password1234'.repeat(4)],
    ['few distinct characters (hex)', `${'0'.repeat(40)}${'1'.repeat(24)}`],
    ['hex of a repeated pattern, one digit off', `${'0123456789abcdef'.repeat(4)}0`],
    ['hex of a pattern, not quite repeated', `${'deadbeefcafebabe0123456789abcdef'.repeat(2)}ff`],
    ['"0123456789abcdef" × 3 + "xy"', `${'0123456789abcdef'.repeat(3)}xy`],
    ['the alphabet', 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'],
    ['the alphabet backwards', 'zyxwvutsrqponmlkjihgfedcbaZYXWVUTSRQPONMLKJIHGFEDCBA9876543210'],
    ['every other letter', 'acegikmoqsuwy02468bdfhjlnprtvxz13579ACEGIKMOQS'],
    ['letters and digits interleaved', 'a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r8s9t0u1v2w3x4'],
    ['keyboard rows', 'qwertyuiopasdfghjklzxcvbnmQWERTYUIOPASDFGHJKLZXCVBNM1234567890'],
    ['a pangram without spaces', 'TheQuickBrownFoxJumpsOverTheLazyDog0123456789'],
    ['another pangram', 'SphinxOfBlackQuartzJudgeMyVow_PackMyBoxWithFiveDozenLiquorJugs'],
    ['words and a counter', 'my-jwt-secret-for-the-finance-server-0123456789'],
  ])('%s, in a generated form, is refused as too easy to guess, never quoting it', (_, secret) => {
    const problems = problemsOf({ JWT_SECRET: secret });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^JWT_SECRET is too easy to guess/);
    expect(problems[0]).toContain('openssl rand -base64 48');
    expect(problems[0]).not.toContain(secret);
  });

  it('missing says so', () => {
    expect(problemsOf({ JWT_SECRET: '' })[0]).toMatch(/^JWT_SECRET is required/);
  });

  it('random secrets of the documented recipes pass, every time (thousands each), far above the bar', () => {
    const recipes = [
      () => randomBytes(48).toString('base64'),
      () => randomBytes(32).toString('base64url'), // the sandbox's own
      () => randomBytes(32).toString('base64'), // `openssl rand -base64 32`
      () => randomBytes(32).toString('hex'),
      () => randomBytes(32).toString('hex').toUpperCase(),
    ];
    for (const recipe of recipes) {
      let lowest = Infinity;
      for (let i = 0; i < 2_000; i++) {
        const secret = recipe();
        // node:assert in a loop of thousands (docs/decisions.md "A property's thousands of runs
        // check with node:assert"); the message names the length, never the secret
        const problem = jwtSecretProblem(secret);
        if (problem !== undefined) assert.fail(`${secret.length} characters: ${problem}`);
        lowest = Math.min(lowest, secretEstimateBits(secret));
      }
      // 100,000 draws of each measured a lowest of 179 (base64 of 32 bytes) and 212 (hex)
      expect(lowest).toBeGreaterThan(MIN_SECRET_BITS + 32);
    }
  });

  it("the test fixtures' secrets pass", () => {
    for (const secret of [TEST_JWT_SECRET, base.JWT_SECRET]) {
      expect(jwtSecretProblem(secret)).toBeUndefined();
    }
  });
});

describe('REDIS_PERSISTENCE', () => {
  it('is required unless set to warn; anything else is one line naming it', () => {
    expect(loadConfig(base).redisPersistence).toBe('required');
    expect(loadConfig({ ...base, REDIS_PERSISTENCE: 'warn' }).redisPersistence).toBe('warn');
    expect(problemsOf({ REDIS_PERSISTENCE: 'off' })).toEqual([
      'REDIS_PERSISTENCE must be required or warn (got "off")',
    ]);
  });
});

describe('the environment schema', () => {
  it('defaults: every variable left out takes its documented value', () => {
    expect(loadConfig(base)).toEqual({
      identityAppId: 'app',
      identityAppSecret: 'secret',
      jwtSecret: base.JWT_SECRET,
      port: 3001,
      host: '127.0.0.1',
      nodeEnv: 'production',
      allowedOrigins: [],
      publicUrl: undefined,
      paymasterUrl: 'https://starknet.paymaster.avnu.fi/v1',
      paymasterApiKey: undefined,
      paymasterSponsored: false,
      sponsoredDailyLimit: 10,
      identityAuthUrl: 'https://auth.privy.io/api/v1',
      identityApiUrl: 'https://api.privy.io',
      trustProxy: false,
      redisUrl: undefined,
      redisPersistence: 'required',
      upstreamTimeoutMs: 10_000,
      ...TRANSPORT_DEFAULTS,
      sandbox: false,
    });
  });

  it('values are trimmed, a blank one is absent, URLs lose their trailing slashes', () => {
    const config = loadConfig({
      ...base,
      PORT: ' 8080 ',
      HOST: '  ',
      NODE_ENV: 'test',
      PUBLIC_URL: 'https://app.example.com//',
      ALLOWED_ORIGINS: 'https://a.example.com/, http://localhost:5173',
      PAYMASTER_API_KEY: ' pm-key ',
      REDIS_URL: 'redis://127.0.0.1:6379',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      nodeEnv: 'test',
      publicUrl: 'https://app.example.com',
      allowedOrigins: ['https://a.example.com', 'http://localhost:5173'],
      paymasterApiKey: 'pm-key',
      redisUrl: 'redis://127.0.0.1:6379',
    });
  });

  it.each([
    ['PORT', '65536'],
    ['HOST', 'bad host!'],
    ['HOST', 'http://example.com'],
    ['NODE_ENV', 'staging'],
    ['ALLOWED_ORIGINS', 'https://a.example.com/path'],
    ['PUBLIC_URL', 'ftp://example.com'],
    ['PAYMASTER_URL', 'not a url'],
    ['IDENTITY_AUTH_URL', 'example.com'],
    ['IDENTITY_API_URL', 'file:///etc/passwd'],
    ['PAYMASTER_SPONSORED', 'on'],
    ['PAYMASTER_SPONSORED_DAILY_LIMIT', '10000'],
    ['TRUST_PROXY', 'everyone'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['REDIS_PERSISTENCE', 'maybe'],
    ['UPSTREAM_TIMEOUT_MS', '1000000'],
    ['MAX_CONNECTIONS', '1000001'],
    ['MAX_CONNECTIONS_PER_ADDRESS', 'x'],
    ['HEADERS_TIMEOUT_MS', '600001'],
    ['REQUEST_TIMEOUT_MS', '99'],
    ['KEEP_ALIVE_TIMEOUT_MS', '5s'],
  ])('%s=%j is one line that starts with the variable', (name, value) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]?.startsWith(name)).toBe(true);
    expect(problems[0]).not.toContain('\n');
  });

  it('every bad variable at once: one line each, a missing one says so, a conflict too', () => {
    let caught: unknown;
    try {
      loadConfig({
        IDENTITY_APP_SECRET: ' ',
        JWT_SECRET: 'short',
        PORT: 'http',
        NODE_ENV: 'prod',
        REDIS_PERSISTENCE: 'off',
        HEADERS_TIMEOUT_MS: '40000',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems;
    expect(problems).toEqual([
      'IDENTITY_APP_ID is required (the identity provider app id)',
      'IDENTITY_APP_SECRET is required (the identity provider app secret)',
      expect.stringMatching(
        /^JWT_SECRET must be at least 32 random bytes .*; got 5 base64 characters;/,
      ),
      'PORT must be an integer from 0 to 65535 (got "http")',
      'NODE_ENV must be development, production or test (got "prod")',
      'REDIS_PERSISTENCE must be required or warn (got "off")',
      'HEADERS_TIMEOUT_MS (40000) must not exceed REQUEST_TIMEOUT_MS (30000)',
    ]);
    // the message lists the same lines, one each
    expect((caught as ConfigError).message.split('\n')).toHaveLength(problems.length + 1);
  });

  it('two bad origins are one ALLOWED_ORIGINS line naming both', () => {
    expect(
      problemsOf({ ALLOWED_ORIGINS: 'https://ok.example.com,x,https://b.example.com/p' }),
    ).toEqual([
      'ALLOWED_ORIGINS has "x", "https://b.example.com/p", which are not origins like https://app.example.com',
    ]);
  });

  it('a bad origin with a user, password or query is named by its scheme only', () => {
    expect(
      problemsOf({
        ALLOWED_ORIGINS: 'https://user:pw-123@app.example.com,https://b.example.com/?key=k-9',
      }),
    ).toEqual([
      'ALLOWED_ORIGINS has a https: URL, a https: URL, which are not origins like https://app.example.com',
    ]);
  });

  it('secrets are never echoed: a bad JWT_SECRET, a Redis URL with a password', () => {
    const secrets = ['hunter2-hunter2', 'hunter2'.repeat(6), 'x'.repeat(40)];
    for (const secret of secrets) {
      let caught: unknown;
      try {
        loadConfig({ ...base, JWT_SECRET: secret, REDIS_URL: 'http://user:s3cr3t-pw@redis:6379' });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ConfigError);
      const { problems, message } = caught as ConfigError;
      expect(problems).toHaveLength(2);
      expect(problems[0]).toMatch(/^JWT_SECRET /);
      expect(problems[1]).toBe('REDIS_URL must start with redis:// or rediss://');
      expect(message).not.toContain(secret);
      expect(message).not.toContain('hunter2');
      expect(message).not.toContain('s3cr3t-pw');
    }
  });

  it('a bad service URL is named by its scheme only (a key may ride in its userinfo or query)', () => {
    expect(
      problemsOf({
        PAYMASTER_URL: 'ftp://user:pm-key-123@paymaster.example/v1?api_key=sk-456',
        IDENTITY_API_URL: 'sk-789 pasted here',
      }),
    ).toEqual([
      'PAYMASTER_URL must be an http(s) URL (got a ftp: URL)',
      'IDENTITY_API_URL must be an http(s) URL (got something that is not a URL)',
    ]);
  });

  it('JWT_SECRET is taken as it is, not trimmed (so spaces around it are refused); a blank IDENTITY_APP_SECRET is missing, not quoted', () => {
    const padded = ` ${base.JWT_SECRET} `;
    expect(problemsOf({ JWT_SECRET: padded })).toEqual([
      expect.stringMatching(
        /^JWT_SECRET must be at least 32 random bytes .*; got 45 characters, some outside base64 and hex;/,
      ),
    ]);
    expect(problemsOf({ IDENTITY_APP_SECRET: '   ' })).toEqual([
      'IDENTITY_APP_SECRET is required (the identity provider app secret)',
    ]);
  });

  it('a bad variable is replaced by its default for the rules between variables', () => {
    // MAX_CONNECTIONS is bad: the per-address bound is checked against the default 512, not 0
    expect(problemsOf({ MAX_CONNECTIONS: '0', MAX_CONNECTIONS_PER_ADDRESS: '200' })).toEqual([
      'MAX_CONNECTIONS must be an integer from 1 to 1000000 (got "0")',
    ]);
    expect(problemsOf({ MAX_CONNECTIONS: '0', MAX_CONNECTIONS_PER_ADDRESS: '600' })).toEqual([
      'MAX_CONNECTIONS must be an integer from 1 to 1000000 (got "0")',
      'MAX_CONNECTIONS_PER_ADDRESS (600) must not exceed MAX_CONNECTIONS (512)',
    ]);
  });
});
