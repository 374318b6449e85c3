/**
 * Per-IP limits: 5/min on /auth/* and /wallet/create, 30/min on /sign/*; IPv6 clients count per
 * /64. Per e-mail: 3 codes sent and 5 tries per source (IPv4 address, IPv6 /48) and 30 and 50 from
 * all sources per 15 minutes. The window is moved with a faked Date (the in-memory store reads
 * Date.now()), never by sleeping.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  EMAIL_GUESSES,
  EMAIL_SENDS,
  MemoryCounterStore,
  RATE_LIMITS,
} from '../server/plugins/rate-limit.js';
import { buildTestApp, post, type TestApp } from './helpers/build-test-app.js';

let t: TestApp;
afterEach(async () => {
  vi.useRealTimers();
  await t?.close();
});

async function burst(n: number, send: (i: number) => ReturnType<typeof post>) {
  const responses = await Promise.all(Array.from({ length: n }, (_, i) => send(i)));
  return {
    ok: responses.filter((r) => r.statusCode === 200),
    limited: responses.filter((r) => r.statusCode === 429),
    all: responses,
  };
}

describe('login limit', () => {
  it('exactly 5 of 50 concurrent logins from one IP pass; the rest are 429 RATE_LIMITED with Retry-After', async () => {
    t = await buildTestApp();
    const { ok, limited } = await burst(50, (i) =>
      post(t.app, '/auth/login', { email: `u${i}@example.com` }, { remoteAddress: '203.0.113.7' }),
    );
    expect(ok).toHaveLength(5);
    expect(limited).toHaveLength(45);
    for (const res of limited) {
      expect(res.json().error.code).toBe('RATE_LIMITED');
      expect(typeof res.json().error.requestId).toBe('string');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(res.headers['x-ratelimit-limit']).toBe('5');
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
    }
    // an answered login's headers describe its tightest rule: codes to that e-mail from this source
    expect(ok[0]?.headers['x-ratelimit-limit']).toBe(String(EMAIL_SENDS.perSource));
    expect(t.identity.outbox.size).toBe(5);
  });

  it('another IP has its own allowance', async () => {
    t = await buildTestApp();
    await burst(6, (i) =>
      post(t.app, '/auth/login', { email: `u${i}@example.com` }, { remoteAddress: '203.0.113.7' }),
    );
    const { ok } = await burst(5, (i) =>
      post(t.app, '/auth/login', { email: `v${i}@example.com` }, { remoteAddress: '203.0.113.8' }),
    );
    expect(ok).toHaveLength(5);
  });

  it('verify has its own 5/min counter (the OTP guessing limit)', async () => {
    t = await buildTestApp();
    const { all } = await burst(8, () =>
      post(
        t.app,
        '/auth/verify',
        { email: 'a@example.com', code: '000000' },
        { remoteAddress: '203.0.113.9' },
      ),
    );
    expect(all.filter((r) => r.statusCode === 401)).toHaveLength(5);
    expect(all.filter((r) => r.statusCode === 429)).toHaveLength(3);
  });

  it('the window resets after a minute (fake clock)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    t = await buildTestApp();
    const send = (i: number) =>
      post(t.app, '/auth/login', { email: `u${i}@example.com` }, { remoteAddress: '198.51.100.1' });
    expect((await burst(6, send)).ok).toHaveLength(5);
    vi.setSystemTime(new Date('2030-01-01T00:00:59Z'));
    const stillLimited = await send(99);
    expect(stillLimited.statusCode).toBe(429);
    expect(stillLimited.headers['retry-after']).toBe('1');
    vi.setSystemTime(new Date('2030-01-01T00:01:00Z'));
    expect((await burst(6, send)).ok).toHaveLength(5);
  });
});

describe('signing limit', () => {
  it('exactly 30 of 40 concurrent signatures pass per IP', async () => {
    t = await buildTestApp();
    const { token, wallet } = await t.seedUser();
    const { ok, limited } = await burst(40, (i) =>
      post(
        t.app,
        '/sign/hash',
        { walletId: wallet.id, hash: `0x${(i + 1).toString(16)}` },
        { token, remoteAddress: '192.0.2.1' },
      ),
    );
    expect(ok).toHaveLength(30);
    expect(limited).toHaveLength(10);
    expect(limited[0]?.json().error.code).toBe('RATE_LIMITED');
    expect(limited[0]?.headers['retry-after']).toBeDefined();
    expect(t.identity.signed).toHaveLength(30);
  });

  it("a key costs an account's allowance: calls over the user's limit open no window for their address", async () => {
    const store = new MemoryCounterStore();
    t = await buildTestApp({ deps: { rateLimitStore: store } });
    const { token, wallet } = await t.seedUser();
    // one token from 100 addresses: 30 pass, and only their 30 addresses got a window
    const { ok } = await burst(100, (i) =>
      post(
        t.app,
        '/sign/hash',
        { walletId: wallet.id, hash: `0x${(i + 1).toString(16)}` },
        { token, remoteAddress: `192.0.2.${i + 1}` },
      ),
    );
    expect(ok).toHaveLength(30);
    expect(store.size()).toBe(1 + 30);
  });

  it('/sign/message has its own 30/min counter', async () => {
    t = await buildTestApp();
    const { token, wallet } = await t.seedUser();
    const { ok } = await burst(31, () =>
      post(
        t.app,
        '/sign/message',
        { walletId: wallet.id, message: 'hi' },
        { token, remoteAddress: '192.0.2.2' },
      ),
    );
    expect(ok).toHaveLength(30);
  });
});

describe('X-Forwarded-For', () => {
  const fromSpoofer = (app: TestApp['app'], i: number) =>
    post(
      app,
      '/auth/login',
      { email: `u${i}@example.com` },
      { remoteAddress: '203.0.113.50', headers: { 'x-forwarded-for': `10.9.${i}.1` } },
    );

  it('is ignored without TRUST_PROXY: a new forwarded address per request does not reset the count', async () => {
    t = await buildTestApp({ config: { trustProxy: false } });
    const { ok } = await burst(20, (i) => fromSpoofer(t.app, i));
    expect(ok).toHaveLength(5);
  });

  it('is ignored when the peer is not the trusted proxy', async () => {
    t = await buildTestApp({ config: { trustProxy: '127.0.0.1' } });
    const { ok } = await burst(20, (i) => fromSpoofer(t.app, i));
    expect(ok).toHaveLength(5);
  });

  it.each([
    { description: 'TRUST_PROXY=true', trustProxy: true as const },
    { description: 'TRUST_PROXY naming the peer', trustProxy: '203.0.113.50' },
    { description: 'TRUST_PROXY=1 (one hop)', trustProxy: 1 },
  ])('counts per forwarded client with $description', async ({ trustProxy }) => {
    t = await buildTestApp({ config: { trustProxy } });
    const { ok } = await burst(20, (i) => fromSpoofer(t.app, i));
    expect(ok).toHaveLength(20);
    // …and one forwarded client is still limited
    const same = await burst(8, (i) =>
      post(
        t.app,
        '/auth/login',
        { email: `x${i}@example.com` },
        { remoteAddress: '203.0.113.50', headers: { 'x-forwarded-for': '10.8.8.8' } },
      ),
    );
    expect(same.ok).toHaveLength(5);
  });
});

describe('IPv6 clients', () => {
  const login = (app: TestApp['app'], remoteAddress: string, i: number) =>
    post(app, '/auth/login', { email: `six${i}@example.com` }, { remoteAddress });

  it('count per /64: two addresses of one /64 share an allowance, another /64 has its own', async () => {
    t = await buildTestApp();
    const first = await burst(3, (i) => login(t.app, '2001:db8::1', i));
    expect(first.ok).toHaveLength(3);
    // same /64, written differently: 2 left, then 429
    const second = await burst(3, (i) => login(t.app, '2001:0DB8:0000:0000:ffff::2', 10 + i));
    expect(second.ok).toHaveLength(2);
    expect(second.limited).toHaveLength(1);
    // the next /64 over is another client
    const other = await burst(5, (i) => login(t.app, '2001:db8:0:1::1', 20 + i));
    expect(other.ok).toHaveLength(5);
  });

  it('IPv4 and IPv4-mapped IPv6 keep per-address counters', async () => {
    t = await buildTestApp();
    expect((await burst(5, (i) => login(t.app, '::ffff:192.0.2.10', i))).ok).toHaveLength(5);
    // a neighbouring mapped address is another client, not the same "/64"
    expect((await burst(5, (i) => login(t.app, '::ffff:192.0.2.11', 10 + i))).ok).toHaveLength(5);
    expect((await burst(5, (i) => login(t.app, '192.0.2.12', 20 + i))).ok).toHaveLength(5);
  });
});

describe('the in-memory store does not forget', () => {
  it('an exhausted IP stays limited after 6,000 other IPs (the old 5,000-key LRU handed it fresh attempts)', async () => {
    // the store the app counts in, with the production capacity
    const store = new MemoryCounterStore();
    t = await buildTestApp({ deps: { rateLimitStore: store } });
    const verify = (remoteAddress: string, email = 'victim@example.com') =>
      post(t.app, '/auth/verify', { email, code: '000000' }, { remoteAddress });
    const first = await burst(6, () => verify('203.0.113.66'));
    expect(first.limited).toHaveLength(1);
    const windows = store.size();
    // 6,000 other clients open their window in the route's own per-address space, as their
    // verifies do (the route's counting is the other tests' subject; here the store's keeping,
    // without 6,000 requests' CPU — the next test sends its strangers through the app)
    const [perAddress] = RATE_LIMITS.verify;
    for (let i = 0; i < 6_000; i++)
      store.hit(perAddress, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    expect(store.size()).toBe(windows + 6_000);
    // another e-mail address: no e-mail window can refuse it, only the address's own
    const again = await verify('203.0.113.66', 'someone-else@example.com');
    expect(again.statusCode).toBe(429);
    expect(again.json().error.code).toBe('RATE_LIMITED');
    expect(again.json().error.message).toMatch(/^Too many requests, retry in \d+ s/);
    expect(again.headers['x-ratelimit-limit']).toBe('5');
  });

  it('a store at its capacity makes room from the open windows, never the exhausted IP: more strangers than it holds, through the app', async () => {
    // the capacity lowered so that a few strangers overfill it (production: 100,000 a space)
    const store = new MemoryCounterStore({ capacity: 40 });
    t = await buildTestApp({ deps: { rateLimitStore: store } });
    const verify = (remoteAddress: string, email: string) =>
      post(t.app, '/auth/verify', { email, code: '000000' }, { remoteAddress });
    const first = await burst(6, () => verify('203.0.113.66', 'victim@example.com'));
    expect(first.limited).toHaveLength(1);
    // 60 strangers, one e-mail address each: every one is served (a wrong code), so room was
    // made for each new window once the 40 were taken
    const strangers = await burst(60, (i) =>
      verify(`10.0.${i >> 8}.${i & 255}`, `stranger${i}@example.com`),
    );
    expect(strangers.all.filter((r) => r.statusCode === 401)).toHaveLength(60);
    expect(store.size()).toBeLessThanOrEqual(3 * 40);
    const again = await verify('203.0.113.66', 'someone-else@example.com');
    expect(again.statusCode).toBe(429);
    expect(again.json().error.message).toMatch(/^Too many requests, retry in \d+ s/);
  });

  it('at capacity, with only exhausted windows left, a new client is refused (fail closed) with Retry-After', async () => {
    t = await buildTestApp({ deps: { rateLimitStore: new MemoryCounterStore({ capacity: 2 }) } });
    const login = (remoteAddress: string, i: number) =>
      post(t.app, '/auth/login', { email: `cap${i}@example.com` }, { remoteAddress });
    await burst(5, (i) => login('198.51.100.201', i));
    await burst(5, (i) => login('198.51.100.202', 10 + i));
    const refused = await login('198.51.100.203', 99);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/Too many clients at once/),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(t.identity.outbox.size).toBe(10);
  });
});

describe('strangers filling the limiter (issue 15: 100,000 forwarded addresses × 5 verifies locked every new client out)', () => {
  async function listening(
    capacity: number,
  ): Promise<
    (
      path: string,
      body: unknown,
      from: string,
    ) => Promise<{ status: number; message: string | undefined }>
  > {
    t = await buildTestApp({
      config: { trustProxy: 'loopback' },
      deps: { rateLimitStore: new MemoryCounterStore({ capacity }) },
    });
    const url = await t.app.listen({ host: '127.0.0.1', port: 0 });
    return async (path, body, from) => {
      const res = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
        body: JSON.stringify(body),
      });
      return {
        status: res.status,
        message: ((await res.json()) as { error?: { message: string } }).error?.message,
      };
    };
  }

  it('full of exhausted strangers: a client that signed in before is still served; new strangers are refused (fail closed)', async () => {
    const send = await listening(20);
    const signIn = async (from: string): Promise<number> => {
      const email = 'regular@example.com';
      expect((await send('/auth/login', { email }, from)).status).toBe(200);
      return (await send('/auth/verify', { email, code: t.identity.outbox.get(email) }, from))
        .status;
    };
    expect(await signIn('198.51.100.7')).toBe(200);
    // 25 strangers (more than the 20 windows a space holds here) × 5 logins and 5 verifies each
    for (let i = 0; i < 25; i++) {
      const from = `10.1.${i}.1`;
      await Promise.all(
        Array.from({ length: 5 }, () => send('/auth/login', { email: `s${i}@example.com` }, from)),
      );
      await Promise.all(
        Array.from({ length: 5 }, () =>
          send('/auth/verify', { email: `s${i}@example.com`, code: '000000' }, from),
        ),
      );
    }
    const stranger = await send(
      '/auth/verify',
      { email: 'new@example.com', code: '000000' },
      '10.2.0.1',
    );
    expect(stranger).toMatchObject({
      status: 429,
      message: expect.stringMatching(/Too many clients at once/),
    });
    expect((await send('/auth/login', { email: 'new@example.com' }, '10.2.0.1')).status).toBe(429);
    // the regular client signs in again, through both spaces
    expect(await signIn('198.51.100.7')).toBe(200);
    // and a stranger at its limit stays there
    expect(
      (await send('/auth/verify', { email: 's24@example.com', code: '000000' }, '10.1.24.1'))
        .status,
    ).toBe(429);
  });

  it('one IPv6 /48 takes at most its share of a space; other networks keep signing in', async () => {
    const send = await listening(1_600); // a share of 16 windows
    const answers = [];
    for (let i = 0; i < 40; i++)
      answers.push(
        await send(
          '/auth/login',
          { email: `six${i}@example.com` },
          `2001:db8:77:${i.toString(16)}::1`,
        ),
      );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(16);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(24);
    expect(refused[0]?.message).toMatch(/Too many clients from your network at once/);
    expect(
      (await send('/auth/login', { email: 'other@example.com' }, '2001:db8:78::1')).status,
    ).toBe(200);
    expect((await send('/auth/login', { email: 'four@example.com' }, '203.0.113.4')).status).toBe(
      200,
    );
  });
});

describe('sign-in codes per e-mail, per source and in all (issues 27, 33)', () => {
  const victim = 'victim@example.com';
  const from = (i: number) => `198.51.100.${(i % 250) + 1}`;
  const login = (email: string, remoteAddress: string) =>
    post(t.app, '/auth/login', { email }, { remoteAddress });
  const verify = (email: string, code: string, remoteAddress: string) =>
    post(t.app, '/auth/verify', { email, code }, { remoteAddress });
  const wrongFor = (code: string) => (i: number) =>
    String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');

  it('a burst of 40 logins for one address from 40 addresses mails 30 codes; the rest are 429', async () => {
    t = await buildTestApp();
    const sent = vi.spyOn(t.identity, 'sendOtp');
    // the address spelled as people type it: one mailbox, one counter
    const spellings = [victim, 'Victim@Example.com', 'VICTIM@EXAMPLE.COM'];
    const { ok, limited } = await burst(40, (i) => login(spellings[i % 3] as string, from(i)));
    expect(ok).toHaveLength(EMAIL_SENDS.max);
    expect(limited).toHaveLength(40 - EMAIL_SENDS.max);
    expect(sent).toHaveBeenCalledTimes(EMAIL_SENDS.max);
    const refusal = limited[0]?.json().error;
    expect(refusal.code).toBe('RATE_LIMITED');
    expect(refusal.message).toMatch(/30 codes were sent to this e-mail address.*retry in \d+ s/);
    expect(Number(limited[0]?.headers['retry-after'])).toBeGreaterThan(60);
    expect(Number(limited[0]?.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    // another address is not touched
    expect((await login('other@example.com', from(1))).statusCode).toBe(200);
    // the e-mail is never in a log line, raw or lower-cased
    expect(t.logs().toLowerCase()).not.toContain(victim);
  });

  it('one source mails 3 codes to an address; one IPv6 /48 is one source, whatever its /64s', async () => {
    t = await buildTestApp();
    const sent = vi.spyOn(t.identity, 'sendOtp');
    const fromOne = await burst(5, () => login(victim, '203.0.113.70'));
    expect(fromOne.ok).toHaveLength(EMAIL_SENDS.perSource);
    expect(fromOne.limited[0]?.json().error.message).toMatch(
      /3 codes were sent to this e-mail address from your network.*use the newest one/,
    );
    const fromSite = await burst(20, (i) => login(victim, `2001:db8:33:${i.toString(16)}::1`));
    expect(fromSite.ok).toHaveLength(EMAIL_SENDS.perSource);
    // what a source may not send costs the address's ceiling nothing
    expect(sent).toHaveBeenCalledTimes(2 * EMAIL_SENDS.perSource);
  });

  it('a stranger sending 20 logins and 20 wrong codes for the address from other sources: the person still signs in', async () => {
    t = await buildTestApp();
    const person = '192.0.2.200';
    const checked = vi.spyOn(t.identity, 'verifyOtp');
    // the stranger first, from 20 IPv4 addresses and the /64s of one /48
    await burst(20, (i) => login(victim, from(i)));
    await burst(20, (i) => login(victim, `2001:db8:66:${i.toString(16)}::1`));
    const stolen = t.identity.outbox.get(victim) as string;
    const wrong = wrongFor(stolen);
    const guesses = await burst(20, (i) => verify(victim, wrong(i), from(i % 4)));
    expect(guesses.all.filter((r) => r.statusCode === 401)).toHaveLength(20);
    // the person asks for a code and signs in with it
    expect((await login(victim, person)).statusCode).toBe(200);
    const code = t.identity.outbox.get(victim) as string;
    const signedIn = await verify(victim, code, person);
    expect(signedIn.statusCode).toBe(200);
    expect(checked).toHaveBeenCalledTimes(21);
  });

  it('a source has 5 tries of codes for an address; a new code from it starts them again', async () => {
    t = await buildTestApp();
    const here = '192.0.2.30';
    expect((await login(victim, here)).statusCode).toBe(200);
    const wrong = wrongFor(t.identity.outbox.get(victim) as string);
    const tries = [];
    // the per-client verify limit is 5 a minute: the fake clock moves a minute between rounds
    for (let i = 0; i < EMAIL_GUESSES.perSource + 1; i++) {
      tries.push((await verify(victim, wrong(i), here)).statusCode);
      if (i === 3) {
        vi.useFakeTimers({ toFake: ['Date'] });
        vi.setSystemTime(Date.now() + 60_000);
      }
    }
    expect(tries).toEqual([401, 401, 401, 401, 401, 429]);
    // another source still has its tries (the address's ceiling is far)
    expect((await verify(victim, wrong(9), '192.0.2.31')).statusCode).toBe(401);
    expect((await login(victim, here)).statusCode).toBe(200);
    expect((await verify(victim, t.identity.outbox.get(victim) as string, here)).statusCode).toBe(
      200,
    );
  });

  it('guesses from 60 addresses: 50 reach the provider, then no code works here until the window closes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    t = await buildTestApp();
    expect((await login(victim, '192.0.2.10')).statusCode).toBe(200);
    const code = t.identity.outbox.get(victim) as string;
    const wrong = wrongFor(code);
    const checked = vi.spyOn(t.identity, 'verifyOtp');
    const { all } = await burst(60, (i) => verify(victim, wrong(i), from(i)));
    expect(all.filter((r) => r.statusCode === 401)).toHaveLength(EMAIL_GUESSES.max);
    const limited = all.filter((r) => r.statusCode === 429);
    expect(limited).toHaveLength(60 - EMAIL_GUESSES.max);
    expect(limited[0]?.json().error.message).toMatch(/no code works here until the window closes/);
    expect(checked).toHaveBeenCalledTimes(EMAIL_GUESSES.max);
    // the right code, now: refused without reaching the provider; a new code does not reopen it
    expect((await verify(victim, code, '192.0.2.11')).statusCode).toBe(429);
    expect((await login(victim, '192.0.2.12')).statusCode).toBe(200);
    const fresh = t.identity.outbox.get(victim) as string;
    expect((await verify(victim, fresh, '192.0.2.12')).statusCode).toBe(429);
    expect(checked).toHaveBeenCalledTimes(EMAIL_GUESSES.max);
    // the window closes: the newest code signs in, and the count starts again
    vi.setSystemTime(new Date('2030-01-01T00:15:00Z'));
    expect((await verify(victim.toUpperCase(), fresh, '192.0.2.12')).statusCode).toBe(200);
  });

  it('the windows close after 15 minutes (fake clock)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    t = await buildTestApp();
    const here = '198.51.100.9';
    expect((await burst(4, () => login(victim, here))).ok).toHaveLength(EMAIL_SENDS.perSource);
    vi.setSystemTime(new Date('2030-01-01T00:14:59Z'));
    expect((await login(victim, here)).statusCode).toBe(429);
    vi.setSystemTime(new Date('2030-01-01T00:15:00Z'));
    expect((await login(victim, here)).statusCode).toBe(200);
  });
});
