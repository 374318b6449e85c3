import { afterEach, describe, expect, it, vi } from 'vitest';
import { SnapshotMemoryStore } from './rate-limit.js';

function incr(store: SnapshotMemoryStore, key: string, windowMs = 60_000): { current: number; ttl: number } {
  let out: { current: number; ttl: number } | undefined;
  store.incr(key, (_error, result) => {
    out = result;
  }, windowMs);
  return out as { current: number; ttl: number };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('SnapshotMemoryStore', () => {
  it('hands back snapshots, not its live counter (the concurrency bug it exists for)', () => {
    const store = new SnapshotMemoryStore();
    const first = incr(store, 'ip');
    incr(store, 'ip');
    incr(store, 'ip');
    expect(first.current).toBe(1);
  });

  it('counts per key and restarts the window when it has passed', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(0);
    const store = new SnapshotMemoryStore();
    expect(incr(store, 'a').current).toBe(1);
    expect(incr(store, 'b').current).toBe(1);
    vi.setSystemTime(59_999);
    expect(incr(store, 'a')).toEqual({ current: 2, ttl: 1 });
    vi.setSystemTime(60_000);
    expect(incr(store, 'a')).toEqual({ current: 1, ttl: 60_000 });
  });

  it('read does not count', () => {
    const store = new SnapshotMemoryStore();
    incr(store, 'a');
    store.read('a', (_error, result) => expect(result?.current).toBe(1), 60_000);
    store.read('a', (_error, result) => expect(result?.current).toBe(1), 60_000);
    store.read('nobody', (_error, result) => expect(result).toEqual({ current: 0, ttl: 0 }), 60_000);
  });

  it('stays bounded, evicting the least recently used key', () => {
    const store = new SnapshotMemoryStore({ cache: 2 });
    incr(store, 'a');
    incr(store, 'b');
    incr(store, 'a');
    incr(store, 'c'); // evicts b, the least recently used
    expect(incr(store, 'a').current).toBe(3);
    expect(incr(store, 'b').current).toBe(1);
  });

  it('child stores are separate counter spaces (one per route)', () => {
    const parent = new SnapshotMemoryStore();
    const login = parent.child();
    const verify = parent.child();
    incr(login, 'ip');
    expect(incr(verify, 'ip').current).toBe(1);
  });
});
