/** The in-memory sign-out record: what a sign-out ends, what it leaves, and its bounds (fake clock). */
import { describe, expect, it } from 'vitest';
import { TOKEN_TTL_SECONDS } from './jwt.js';
import { createMemoryRevocations, MAX_IDS_PER_SECOND } from './revocations.js';

const T0 = Date.UTC(2026, 10, 22, 8, 0, 0);
const token = (userId: string, jti: string, atMs: number) => ({
  userId,
  jti,
  issuedAt: new Date(atMs),
});

describe('createMemoryRevocations', () => {
  it('ends the token and every earlier token of its user; a later one, another user and a same-second sibling stay valid', async () => {
    const store = createMemoryRevocations({ now: () => T0 + 60_000 });
    await store.revoke(token('u1', 'b', T0));
    expect(store.isRevoked(token('u1', 'b', T0))).toBe(true);
    expect(store.isRevoked(token('u1', 'a', T0 - 1000))).toBe(true);
    expect(store.isRevoked(token('u1', 'c', T0 + 1000))).toBe(false);
    expect(store.isRevoked(token('u1', 'sibling', T0 + 400))).toBe(false);
    expect(store.isRevoked(token('u2', 'b', T0 - 5000))).toBe(false);
  });

  it('signing out an older token changes nothing; a newer one moves the line', async () => {
    const store = createMemoryRevocations({ now: () => T0 });
    await store.revoke(token('u1', 'new', T0));
    await store.revoke(token('u1', 'old', T0 - 10_000));
    expect(store.isRevoked(token('u1', 'new', T0))).toBe(true);
    await store.revoke(token('u1', 'newer', T0 + 5000));
    expect(store.isRevoked(token('u1', 'between', T0 + 2000))).toBe(true);
    expect(store.isRevoked(token('u1', 'newest', T0 + 6000))).toBe(false);
  });

  it(`more than ${MAX_IDS_PER_SECOND} sign-outs in one second end that whole second (bounded, never less revoked)`, async () => {
    const store = createMemoryRevocations({ now: () => T0 });
    for (let i = 0; i <= MAX_IDS_PER_SECOND; i++) await store.revoke(token('u1', `j${i}`, T0));
    expect(store.isRevoked(token('u1', 'never-signed-out', T0))).toBe(true);
    expect(store.isRevoked(token('u1', 'next-second', T0 + 1000))).toBe(false);
  });

  it('a record is dropped once every token it ends has expired', async () => {
    let now = T0;
    const store = createMemoryRevocations({ now: () => now, maxUsers: 1 });
    await store.revoke(token('u1', 'a', T0));
    now = T0 + TOKEN_TTL_SECONDS * 1000 - 1;
    expect(store.isRevoked(token('u1', 'a', T0))).toBe(true);
    // full: a sign-out that would need a new record is refused, never made by forgetting one
    await expect(store.revoke(token('u2', 'x', T0))).rejects.toMatchObject({
      code: 'REVOCATION_UNAVAILABLE',
    });
    now = T0 + TOKEN_TTL_SECONDS * 1000;
    await store.revoke(token('u2', 'x', T0 + 1000));
    expect(store.isRevoked(token('u2', 'x', T0 + 1000))).toBe(true);
  });
});
