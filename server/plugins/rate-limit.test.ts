import { afterEach, describe, expect, it, vi } from 'vitest';
import { emailKey, KnownClients, type LimitRule, MemoryCounterStore } from './rate-limit.js';

const rule = (overrides: Partial<LimitRule> = {}): LimitRule => ({
  name: 'login:ip',
  per: 'ip',
  max: 5,
  windowMs: 60_000,
  capacity: 100,
  ...overrides,
});

afterEach(() => {
  vi.useRealTimers();
});

describe('MemoryCounterStore', () => {
  it('hands back plain numbers, not a live counter (concurrent requests each see their own count)', () => {
    const store = new MemoryCounterStore();
    const first = store.hit(rule(), 'ip');
    store.hit(rule(), 'ip');
    store.hit(rule(), 'ip');
    expect(first.count).toBe(1);
  });

  it('counts per key and restarts the window when it has passed', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(0);
    const store = new MemoryCounterStore();
    expect(store.hit(rule(), 'a').count).toBe(1);
    expect(store.hit(rule(), 'b').count).toBe(1);
    vi.setSystemTime(59_999);
    expect(store.hit(rule(), 'a')).toEqual({ count: 2, resetMs: 1 });
    vi.setSystemTime(60_000);
    expect(store.hit(rule(), 'a')).toEqual({ count: 1, resetMs: 60_000 });
  });

  it('every rule is its own counter space (login and verify count separately)', () => {
    const store = new MemoryCounterStore();
    store.hit(rule({ name: 'login:ip' }), 'ip');
    expect(store.hit(rule({ name: 'verify:ip' }), 'ip').count).toBe(1);
  });

  it('an exhausted key stays exhausted however many other keys arrive (the old LRU forgot it after 5,000)', () => {
    const store = new MemoryCounterStore({ capacity: 1_000 });
    for (let i = 0; i < 6; i++) store.hit(rule(), 'attacker');
    // a flood of other addresses, far past the capacity
    for (let i = 0; i < 10_000; i++) store.hit(rule(), `10.0.${i >> 8}.${i & 255}`);
    expect(store.hit(rule(), 'attacker').count).toBeGreaterThan(5);
    expect(store.size()).toBeLessThanOrEqual(1_000);
  });

  it('at capacity the oldest window under its limit makes room; windows at the limit are never dropped', () => {
    const store = new MemoryCounterStore({ capacity: 3 });
    for (let i = 0; i < 5; i++) store.hit(rule(), 'exhausted');
    store.hit(rule(), 'old');
    store.hit(rule(), 'newer');
    store.hit(rule(), 'newer');
    // full: "old" (1 of 5, the oldest under its limit) goes
    expect(store.hit(rule(), 'newest').count).toBe(1);
    expect(store.hit(rule(), 'exhausted').count).toBe(6);
    expect(store.hit(rule(), 'newer').count).toBe(3);
    expect(store.hit(rule(), 'old').count).toBe(1);
    expect(store.size()).toBe(3);
  });

  it('when only exhausted windows are left, a new key is refused (fail closed) until the oldest closes', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(0);
    const store = new MemoryCounterStore({ capacity: 2 });
    for (let i = 0; i < 5; i++) store.hit(rule(), 'a');
    vi.setSystemTime(10_000);
    for (let i = 0; i < 5; i++) store.hit(rule(), 'b');
    const refused = store.hit(rule(), 'c');
    expect(refused).toMatchObject({ full: 'clients', resetMs: 50_000 });
    expect(refused.count).toBeGreaterThan(5);
    expect(store.size()).toBe(2);
    // a's window closes: the new key gets in
    vi.setSystemTime(60_000);
    expect(store.hit(rule(), 'c')).toEqual({ count: 1, resetMs: 60_000 });
    expect(store.hit(rule(), 'b').count).toBe(6);
  });

  it('closed windows are swept as hits arrive, so memory follows the live clients', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(0);
    const store = new MemoryCounterStore();
    for (let i = 0; i < 500; i++) store.hit(rule({ capacity: 100_000 }), `k${i}`);
    vi.setSystemTime(61_000);
    for (let i = 0; i < 100; i++) store.hit(rule({ capacity: 100_000 }), `fresh${i}`);
    expect(store.size()).toBe(100);
  });
});

describe('MemoryCounterStore full of strangers (issue 15)', () => {
  it('a known-good client gets a reserved window when only exhausted windows are left; strangers stay refused', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(0);
    const store = new MemoryCounterStore({ capacity: 20 });
    for (let i = 0; i < 20; i++) for (let n = 0; n < 5; n++) store.hit(rule(), `10.0.0.${i}`);
    expect(store.hit(rule(), 'stranger')).toMatchObject({ full: 'clients' });
    // the reserve: a tenth of the capacity (2), for known clients only
    expect(store.hit(rule(), 'known-1', { known: true })).toEqual({ count: 1, resetMs: 60_000 });
    expect(store.hit(rule(), 'known-2', { known: true })).toEqual({ count: 1, resetMs: 60_000 });
    expect(store.hit(rule(), 'known-3', { known: true })).toMatchObject({ full: 'clients' });
    // a reserved window counts like any other, and is never dropped before it closes
    for (let n = 0; n < 5; n++) store.hit(rule(), 'known-1', { known: true });
    expect(store.hit(rule(), 'known-1', { known: true }).count).toBe(7);
    // an exhausted client is refused whatever it is known as (its own window says so)
    expect(store.hit(rule(), '10.0.0.3', { known: true }).count).toBe(6);
    expect(store.size()).toBe(22);
    // the windows close: everyone is a new client again
    vi.setSystemTime(60_000);
    expect(store.hit(rule(), 'stranger')).toEqual({ count: 1, resetMs: 60_000 });
  });

  it('one IPv6 /48 holds at most a hundredth of a space (at least 16 windows); other networks are not affected', () => {
    const store = new MemoryCounterStore({ capacity: 3_200 });
    const results = Array.from({ length: 40 }, (_, i) =>
      store.hit(rule(), `2001:db8:1:${i.toString(16)}::`),
    );
    expect(results.filter((hit) => hit.full === undefined)).toHaveLength(32);
    expect(results.filter((hit) => hit.full === 'network')).toHaveLength(8);
    expect(store.hit(rule(), '2001:db8:2::').full).toBeUndefined();
    // IPv4 addresses are not grouped
    for (let i = 0; i < 100; i++) expect(store.hit(rule(), `198.51.100.${i}`).full).toBeUndefined();
    // a known client of that network still gets a window
    expect(store.hit(rule(), '2001:db8:1:ff::', { known: true }).full).toBeUndefined();
  });

  it("a network's count follows its windows: closed ones make room again", () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(0);
    const store = new MemoryCounterStore({ capacity: 100 });
    for (let i = 0; i < 16; i++) store.hit(rule(), `2001:db8:1:${i}::`);
    expect(store.hit(rule(), '2001:db8:1:99::').full).toBe('network');
    vi.setSystemTime(60_000);
    for (let i = 0; i < 16; i++)
      expect(store.hit(rule(), `2001:db8:1:${100 + i}::`).full).toBeUndefined();
  });
});

describe('KnownClients', () => {
  it('remembers a client for a token lifetime, at most `max` of them (the oldest forgotten first)', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(0);
    const known = new KnownClients(2);
    known.remember('a');
    known.remember('b');
    known.remember('c');
    expect([known.has('a'), known.has('b'), known.has('c')]).toEqual([false, true, true]);
    vi.setSystemTime(7 * 24 * 3600 * 1000);
    expect(known.has('b')).toBe(false);
  });
});

describe('per e-mail counters', () => {
  it('key an address trimmed and lower-cased, hashed: the key never shows it', () => {
    const key = emailKey('Victim@Example.com');
    expect(emailKey(' victim@example.com ')).toBe(key);
    expect(emailKey('victim2@example.com')).not.toBe(key);
    expect(key).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(key.toLowerCase()).not.toContain('victim');
  });

  it('reset closes a window, exhausted or not (a new code: its tries start again)', () => {
    const store = new MemoryCounterStore();
    const guesses = rule({ name: 'verify:email', per: 'email', max: 2 });
    const key = emailKey('a@example.com');
    for (let i = 0; i < 3; i++) store.hit(guesses, key);
    expect(store.hit(guesses, key).count).toBe(4);
    store.reset(guesses, key);
    expect(store.hit(guesses, key).count).toBe(1);
    expect(store.size()).toBe(1);
    store.reset(rule({ name: 'never-used' }), key);
  });
});
