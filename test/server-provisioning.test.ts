/**
 * One wallet per user, whatever the timing: concurrent first sign-ins and concurrent
 * /wallet/create calls against one listening server provision exactly one wallet and every
 * caller ends up with it (the second caller finds the first one's wallet inside the lock).
 * Also the verify path's other ways to unlink a wallet: a lookup that cannot find the user that
 * just authenticated never leads to a metadata write, and a write the provider does not keep is
 * an error. (Across two server processes sharing Redis: test/server-redis.test.ts.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { IdentityUser, IdentityWallet, MetadataValue } from '../server/providers/types.js';
import { buildTestApp, FakeIdentity, type TestApp } from './helpers/build-test-app.js';

const CODE = '424242';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A provider where every code is CODE (several sign-ins can race) and each call takes a moment. */
class RacingIdentity extends FakeIdentity {
  metadataWrites = 0;

  override async verifyOtp(
    email: string,
    code: string,
  ): Promise<{ user: IdentityUser; isNewUser: boolean }> {
    await pause(5);
    this.outbox.set(email.toLowerCase(), code === CODE ? CODE : `not-${code}`);
    return super.verifyOtp(email, code);
  }

  override async getUserByEmail(email: string): Promise<IdentityUser | null> {
    await pause(10);
    const user = await super.getUserByEmail(email);
    // a copy, as an HTTP answer would be: later writes must not show through it
    return user === null ? null : { ...user, customMetadata: { ...user.customMetadata } };
  }

  override async createWallet(): Promise<IdentityWallet> {
    await pause(10);
    return super.createWallet();
  }

  override async setCustomMetadata(
    userId: string,
    metadata: Record<string, MetadataValue>,
  ): Promise<IdentityUser> {
    await pause(10);
    this.metadataWrites += 1;
    const user = await super.setCustomMetadata(userId, metadata);
    return { ...user, customMetadata: { ...user.customMetadata } };
  }
}

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

async function listening(identity: FakeIdentity): Promise<string> {
  t = await buildTestApp({ deps: { identity } });
  return t.app.listen({ host: '127.0.0.1', port: 0 });
}

async function postJson(
  url: string,
  body: unknown,
  token?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('concurrent provisioning on one server', () => {
  it('five concurrent first sign-ins: one wallet, linked, handed to all five', async () => {
    const identity = new RacingIdentity();
    const url = await listening(identity);
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        postJson(`${url}/auth/verify`, { email: 'racer@example.com', code: CODE }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(identity.wallets.size).toBe(1);
    const [wallet] = [...identity.wallets.keys()];
    expect(new Set(results.map((r) => r.body.walletId))).toEqual(new Set([wallet]));
    expect(results.filter((r) => r.body.isExisting === false)).toHaveLength(1);
    expect(identity.users.get('racer@example.com')?.customMetadata).toEqual({
      server_wallet_id: wallet,
    });
    expect(identity.metadataWrites).toBe(1);
  });

  it('five concurrent /wallet/create for a user whose wallet is gone: one new wallet, four 409 WALLET_EXISTS', async () => {
    const identity = new RacingIdentity();
    const url = await listening(identity);
    const { token, wallet: gone, user } = await t.seedUser('recreate@example.com');
    identity.wallets.delete(gone.id);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => postJson(`${url}/wallet/create`, {}, token)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(
      results
        .filter((r) => r.status === 409)
        .every((r) => (r.body.error as { code: string }).code === 'WALLET_EXISTS'),
    ).toBe(true);
    expect(identity.wallets.size).toBe(1);
    const created = (results.find((r) => r.status === 200)!.body.wallet as { id: string }).id;
    expect(user.customMetadata).toEqual({ server_wallet_id: created });
  });
});

describe('the verify path never unlinks a wallet', () => {
  /** A provider whose e-mail lookup cannot see users (404) while authenticate still answers. */
  class BlindLookup extends FakeIdentity {
    writes = 0;
    override async getUserByEmail(): Promise<IdentityUser | null> {
      return null;
    }
    override async setCustomMetadata(
      userId: string,
      metadata: Record<string, MetadataValue>,
    ): Promise<IdentityUser> {
      this.writes += 1;
      return super.setCustomMetadata(userId, metadata);
    }
  }

  async function signInCode(identity: FakeIdentity, email: string): Promise<string> {
    await identity.sendOtp(email);
    return identity.outbox.get(email) as string;
  }

  it('lookup 404 after authenticate, a usable wallet linked in the authenticate answer: that wallet, nothing written', async () => {
    const identity = new BlindLookup();
    const url = await listening(identity);
    const { wallet } = await t.seedUser('blind@example.com');
    identity.writes = 0;
    const res = await postJson(`${url}/auth/verify`, {
      email: 'blind@example.com',
      code: await signInCode(identity, 'blind@example.com'),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ walletId: wallet.id, isExisting: true });
    expect(identity.writes).toBe(0);
    expect(identity.wallets.size).toBe(1);
  });

  it('lookup 404 after authenticate and nothing usable linked: 502, no wallet made, metadata untouched', async () => {
    const identity = new BlindLookup();
    const url = await listening(identity);
    const user = identity.addUser('partial@example.com');
    user.customMetadata = { server_wallet_id: 'wallet-the-lookup-would-show', plan: 'pro' };
    const res = await postJson(`${url}/auth/verify`, {
      email: 'partial@example.com',
      code: await signInCode(identity, 'partial@example.com'),
    });
    expect(res.status).toBe(502);
    expect(res.body.error).toMatchObject({
      code: 'IDENTITY_PROVIDER_ERROR',
      message: expect.stringMatching(/cannot find it/),
    });
    expect(identity.writes).toBe(0);
    expect(identity.wallets.size).toBe(0);
    expect(user.customMetadata).toEqual({
      server_wallet_id: 'wallet-the-lookup-would-show',
      plan: 'pro',
    });
  });

  it('the authenticate answer links a usable wallet the lookup does not show: reused, nothing created', async () => {
    class StaleLookup extends FakeIdentity {
      override async getUserByEmail(email: string): Promise<IdentityUser | null> {
        const user = await super.getUserByEmail(email);
        return user === null ? null : { ...user, customMetadata: {} };
      }
    }
    const identity = new StaleLookup();
    const url = await listening(identity);
    const { wallet } = await t.seedUser('stale@example.com');
    const res = await postJson(`${url}/auth/verify`, {
      email: 'stale@example.com',
      code: await signInCode(identity, 'stale@example.com'),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ walletId: wallet.id, isExisting: true });
    expect(identity.wallets.size).toBe(1);
  });

  it('a metadata write the provider answers without our link: 502, no token, the old link kept', async () => {
    class ForgetfulWrite extends FakeIdentity {
      override async setCustomMetadata(userId: string): Promise<IdentityUser> {
        const user = [...this.users.values()].find((u) => u.id === userId) as IdentityUser;
        return { ...user, customMetadata: { ...user.customMetadata } };
      }
    }
    const identity = new ForgetfulWrite();
    const url = await listening(identity);
    const res = await postJson(`${url}/auth/verify`, {
      email: 'lost@example.com',
      code: await signInCode(identity, 'lost@example.com'),
    });
    expect(res.status).toBe(502);
    expect(res.body.error).toMatchObject({
      code: 'IDENTITY_PROVIDER_ERROR',
      message: expect.stringMatching(/did not record the new wallet/),
    });
    expect(JSON.stringify(res.body)).not.toContain('token');
  });
});
