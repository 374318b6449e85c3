import { afterEach, describe, expect, it, vi } from 'vitest';
import { type LimitRule, MemoryCounterStore } from './rate-limit.js';

const rule = (overrides: Partial<LimitRule> = {}): LimitRule => ({ name: 'login:ip', per: 'ip', max: 5, windowMs: 60_000, capacity: 100, ...overrides });

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
    expect(refused).toMatchObject({ full: true, resetMs: 50_000 });
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
