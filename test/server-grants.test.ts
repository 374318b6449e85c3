/**
 * Agent grants on the auth server (docs/server-api.md "Agent grants"): created with the person's
 * session, used with the grant's own token. Under a grant the server signs only an outside
 * execution (SNIP-9 v2) of calls it understands, charges each token's outflow to a rolling 24 h
 * ledger before signing, and refuses anything over it, to an unlisted recipient, to a contract
 * the product does not use, a raw hash, text, or after revocation or expiry (a fake clock). The
 * ledger is atomic under concurrent requests, in memory and in Redis (two app instances sharing
 * one redis-server; skipped only when redis-server is not installed).
 */
import { Redis } from 'ioredis';
import { typedData as snip12 } from 'starknet';
import { verifyStarkSignature } from '../shared/starknet.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SELECTOR } from '../shared/erc20.js';
import { ROUTER_ADDRESS } from '../shared/swap-calldata.js';
import { VTOKEN_SELECTOR } from '../shared/vesu.js';
import {
  createMemoryGrants,
  createRedisGrants,
  type Grant,
  type GrantStore,
} from '../server/grants.js';
import {
  buildTestApp,
  errorCodeOf,
  post,
  type SeededUser,
  type TestApp,
} from './helpers/build-test-app.js';
import { outsideExecution } from './helpers/typed-data.js';
import { mainnetVTokenProof } from './helpers/vtoken-proof.js';
import { type RedisServer, redisServerPath, startRedisServer } from './helpers/redis.js';

const USDC = '0x033068f6539f8e6e6b131e6b2b814e6c34a5224bc66947c47dab9dfee93b35fb';
const STRK = '0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d';
const BOB = `0x${'b0b'.padStart(64, '0')}`;
const MALLORY = `0x${'bad'.padStart(64, '0')}`;
const usdc = (whole: number): bigint => BigInt(whole) * 1_000_000n;
const hex = (value: bigint): string => `0x${value.toString(16)}`;
// the fake clock starts at the real time: the seeded sessions' tokens are issued by the real clock
const T0 = Date.now();

interface Call {
  To: string;
  Selector: string;
  Calldata: string[];
}
const transfer = (token: string, to: string, amount: bigint): Call => ({
  To: token,
  Selector: hex(SELECTOR.transfer),
  Calldata: [to, hex(amount), '0x0'],
});
const approve = (token: string, spender: string, amount: bigint): Call => ({
  To: token,
  Selector: hex(SELECTOR.approve),
  Calldata: [spender, hex(amount), '0x0'],
});
function execution(calls: Call[]) {
  const data = outsideExecution(1, 1);
  return { ...data, message: { ...data.message, Calls: calls } };
}

async function createGrant(
  t: TestApp,
  user: SeededUser,
  body: {
    daily: Array<{ token: string; amount: string }>;
    recipients: string[];
    expiresInSeconds: number;
  },
) {
  const res = await post(t.app, '/grants', body, { token: user.token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { grant: { id: string; daily: Array<{ left: string }> }; token: string };
}

const signUnder = (t: TestApp, token: string, user: SeededUser, message: unknown) =>
  post(t.app, '/sign/message', { walletId: user.wallet.id, message }, { token });

describe('agent grants on the auth server (in memory, fake clock)', () => {
  let t: TestApp;
  let now = T0;
  let alice: SeededUser;
  let grant: { id: string; token: string };

  beforeAll(async () => {
    t = await buildTestApp({ deps: { now: () => new Date(now) } });
    alice = await t.seedUser('alice-grants@example.com');
    const created = await createGrant(t, alice, {
      daily: [{ token: USDC, amount: usdc(50).toString() }],
      recipients: [BOB],
      expiresInSeconds: 2 * 24 * 3600,
    });
    grant = { id: created.grant.id, token: created.token };
    expect(created.grant.daily[0]?.left).toBe(usdc(50).toString());
  });
  afterAll(() => t.close());

  it('signs 30 USDC to a listed recipient (a signature of exactly that typed data), refuses the next 30 (GRANT_EXCEEDED), and lets it again 24 h later', async () => {
    // a grant of its own: the other tests charge the shared one, in any order
    const own = await createGrant(t, alice, {
      daily: [{ token: USDC, amount: usdc(50).toString() }],
      recipients: [BOB],
      expiresInSeconds: 2 * 24 * 3600,
    });
    const grant = { id: own.grant.id, token: own.token };
    const message = execution([transfer(USDC, BOB, usdc(30))]);
    const first = await signUnder(t, grant.token, alice, message);
    expect(first.statusCode, first.body).toBe(200);
    const { signature, messageHash } = first.json() as { signature: string; messageHash: string };
    expect(BigInt(messageHash)).toBe(BigInt(snip12.getMessageHash(message, alice.wallet.address)));
    expect(verifyStarkSignature(messageHash, signature, alice.wallet.publicKey)).toBe(true);
    const second = await signUnder(t, grant.token, alice, message);
    expect(second.statusCode).toBe(403);
    expect(errorCodeOf(second.json())).toBe('GRANT_EXCEEDED');
    expect(second.json().error.message).toContain('nothing was signed');
    // 20 are still left
    const twenty = await signUnder(
      t,
      grant.token,
      alice,
      execution([transfer(USDC, BOB, usdc(20))]),
    );
    expect(twenty.statusCode, twenty.body).toBe(200);
    const list = await t.app.inject({
      method: 'GET',
      url: '/grants',
      headers: { authorization: `Bearer ${alice.token}` },
    });
    const listed = (list.json() as { grants: Array<{ id: string; daily: unknown[] }> }).grants;
    expect(listed.find((g) => g.id === grant.id)?.daily[0]).toMatchObject({
      spent: usdc(50).toString(),
      left: '0',
    });
    now += 24 * 3600 * 1000 + 1;
    const later = await signUnder(t, grant.token, alice, message);
    expect(later.statusCode, later.body).toBe(200);
  });

  it('a signature is sendable for at most 65 minutes (a later Execute Before is refused), and its charge is held 24 h past its end', async () => {
    const own = await createGrant(t, alice, {
      daily: [{ token: USDC, amount: usdc(50).toString() }],
      recipients: [BOB],
      expiresInSeconds: 3 * 24 * 3600,
    });
    const sendableFor = (ms: number) => {
      const message = execution([transfer(USDC, BOB, usdc(50))]);
      return {
        ...message,
        message: {
          ...message.message,
          'Execute Before': hex(BigInt(Math.floor((now + ms) / 1000))),
        },
      };
    };
    const tooLong = await signUnder(t, own.token, alice, sendableFor(2 * 3600_000));
    expect(tooLong.statusCode).toBe(403);
    expect(errorCodeOf(tooLong.json())).toBe('GRANT_CALL_NOT_ALLOWED');
    expect(tooLong.json().error.message).toContain('at most 65 minutes');
    // a day's whole amount, sendable for the paymaster's hour
    const first = await signUnder(t, own.token, alice, sendableFor(3600_000));
    expect(first.statusCode, first.body).toBe(200);
    // the clock goes back after: the shared grant of the other tests (in any order) lives 2 days
    const started = now;
    try {
      // a day later the first signature can still be sent for an hour: its charge still counts
      now += 24 * 3600_000 + 60_000;
      const early = await signUnder(t, own.token, alice, sendableFor(3600_000));
      expect(early.statusCode).toBe(403);
      expect(errorCodeOf(early.json())).toBe('GRANT_EXCEEDED');
      now += 3600_000;
      const later = await signUnder(t, own.token, alice, sendableFor(3600_000));
      expect(later.statusCode, later.body).toBe(200);
    } finally {
      now = started;
    }
  });

  it('refuses an unlisted recipient, an unknown spender or contract, a token with no daily amount, text, other typed data and a raw hash', async () => {
    const refusals: Array<[unknown, string]> = [
      [execution([transfer(USDC, MALLORY, 1n)]), 'GRANT_RECIPIENT_NOT_ALLOWED'],
      [execution([approve(USDC, MALLORY, 1n)]), 'GRANT_CALL_NOT_ALLOWED'],
      [
        execution([
          { To: MALLORY, Selector: hex(SELECTOR.transfer), Calldata: [BOB, '0x1', '0x0'] },
        ]),
        'GRANT_CALL_NOT_ALLOWED',
      ],
      [
        execution([{ ...transfer(USDC, BOB, 1n), Selector: hex(SELECTOR.transfer_from) }]),
        'GRANT_CALL_NOT_ALLOWED',
      ],
      [execution([transfer(STRK, BOB, 1n)]), 'GRANT_EXCEEDED'],
      ['hello', 'GRANT_CALL_NOT_ALLOWED'],
      [
        {
          ...execution([transfer(USDC, BOB, 1n)]),
          domain: { name: 'other', version: '1', chainId: 'SN_MAIN', revision: '1' },
        },
        'GRANT_CALL_NOT_ALLOWED',
      ],
    ];
    for (const [message, code] of refusals) {
      const res = await signUnder(t, grant.token, alice, message);
      expect(errorCodeOf(res.json()), JSON.stringify(message).slice(0, 200)).toBe(code);
    }
    const raw = await post(
      t.app,
      '/sign/hash',
      { walletId: alice.wallet.id, hash: '0x1234' },
      { token: grant.token },
    );
    expect(raw.statusCode).toBe(403);
    expect(errorCodeOf(raw.json())).toBe('GRANT_FORBIDDEN');
    // nor can a grant make grants, sign out or read wallets
    for (const url of ['/grants', '/auth/logout', '/wallet/find']) {
      const res = await post(t.app, url, {}, { token: grant.token });
      expect(errorCodeOf(res.json()), url).toBe('GRANT_FORBIDDEN');
    }
    // the token never reaches the log
    expect(t.logs()).not.toContain(grant.token.split('.')[2]);
    // an approval of the router is an outflow, charged like a transfer
    const approved = await signUnder(
      t,
      grant.token,
      alice,
      execution([approve(USDC, ROUTER_ADDRESS, 1n)]),
    );
    expect(approved.statusCode, approved.body).toBe(200);
  });

  it("a supply to a mainnet vToken: signed with the vToken's deploy-address proof, refused without it or with a forged one", async () => {
    const own = await createGrant(t, alice, {
      daily: [{ token: USDC, amount: usdc(50).toString() }],
      recipients: [],
      expiresInSeconds: 3600,
    });
    const proof = mainnetVTokenProof('USDC');
    const supply = execution([
      approve(USDC, proof.vToken, usdc(4)),
      {
        To: proof.vToken,
        Selector: hex(VTOKEN_SELECTOR.deposit),
        Calldata: [hex(usdc(4)), '0x0', alice.wallet.address],
      },
    ]);
    const send = (vTokens?: unknown[]) =>
      post(
        t.app,
        '/sign/message',
        { walletId: alice.wallet.id, message: supply, ...(vTokens ? { vTokens } : {}) },
        { token: own.token },
      );
    // the server reads no chain: without the proof the vToken is no contract it knows
    const bare = await send();
    expect(errorCodeOf(bare.json()), bare.body).toBe('GRANT_CALL_NOT_ALLOWED');
    for (const forged of [
      { ...proof, classHash: '0x1234' },
      { ...proof, debtAsset: USDC },
      { ...mainnetVTokenProof('USDT') },
      { ...proof, name: Array.from({ length: 12 }, () => '0x1') },
      { ...proof, extra: '0x1' },
    ]) {
      const res = await send([forged]);
      expect([400, 403], res.body).toContain(res.statusCode);
      expect(['GRANT_CALL_NOT_ALLOWED', 'VALIDATION_ERROR']).toContain(errorCodeOf(res.json()));
    }
    const tooMany = await send(Array.from({ length: 6 }, () => proof));
    expect(errorCodeOf(tooMany.json())).toBe('VALIDATION_ERROR');
    // nothing was charged by the refusals
    const signed = await send([proof]);
    expect(signed.statusCode, signed.body).toBe(200);
    const { signature, messageHash } = signed.json() as { signature: string; messageHash: string };
    expect(BigInt(messageHash)).toBe(BigInt(snip12.getMessageHash(supply, alice.wallet.address)));
    expect(verifyStarkSignature(messageHash, signature, alice.wallet.publicKey)).toBe(true);
    const list = await t.app.inject({
      method: 'GET',
      url: '/grants',
      headers: { authorization: `Bearer ${alice.token}` },
    });
    const listed = (list.json() as { grants: Array<{ id: string; daily: unknown[] }> }).grants;
    expect(listed.find((g) => g.id === own.grant.id)?.daily[0]).toMatchObject({
      spent: usdc(4).toString(),
    });
    // a deposit for someone else is refused even with the proof
    const forBob = execution([
      {
        To: proof.vToken,
        Selector: hex(VTOKEN_SELECTOR.deposit),
        Calldata: [hex(usdc(1)), '0x0', BOB],
      },
    ]);
    const bob = await post(
      t.app,
      '/sign/message',
      { walletId: alice.wallet.id, message: forBob, vTokens: [proof] },
      { token: own.token },
    );
    expect(errorCodeOf(bob.json())).toBe('GRANT_CALL_NOT_ALLOWED');
  });

  it('a revoked grant signs nothing (GRANT_REVOKED); another user cannot revoke it; an expired one is GRANT_EXPIRED', async () => {
    const bob = await t.seedUser('bob-grants@example.com');
    const created = await createGrant(t, alice, {
      daily: [{ token: USDC, amount: usdc(5).toString() }],
      recipients: [BOB],
      expiresInSeconds: 3600,
    });
    const byBob = await post(t.app, `/grants/${created.grant.id}/revoke`, {}, { token: bob.token });
    expect(errorCodeOf(byBob.json())).toBe('GRANT_NOT_FOUND');
    const ok = await signUnder(t, created.token, alice, execution([transfer(USDC, BOB, 1n)]));
    expect(ok.statusCode, ok.body).toBe(200);
    const revoked = await post(
      t.app,
      `/grants/${created.grant.id}/revoke`,
      {},
      { token: alice.token },
    );
    expect(revoked.json().grant.status).toBe('revoked');
    const after = await signUnder(t, created.token, alice, execution([transfer(USDC, BOB, 1n)]));
    expect(after.statusCode).toBe(401);
    expect(errorCodeOf(after.json())).toBe('GRANT_REVOKED');

    const short = await createGrant(t, alice, {
      daily: [{ token: USDC, amount: usdc(5).toString() }],
      recipients: [BOB],
      expiresInSeconds: 60,
    });
    now += 60_000;
    const expired = await signUnder(t, short.token, alice, execution([transfer(USDC, BOB, 1n)]));
    expect(errorCodeOf(expired.json())).toBe('GRANT_EXPIRED');
    const paymaster = await post(
      t.app,
      '/paymaster',
      { jsonrpc: '2.0', id: 1, method: 'paymaster_isAvailable' },
      { token: short.token },
    );
    expect(errorCodeOf(paymaster.json())).toBe('GRANT_EXPIRED');
  });

  it('bounds: a grant of a token outside the registry, too many recipients, too many live grants', async () => {
    const bad = await post(
      t.app,
      '/grants',
      { daily: [{ token: MALLORY, amount: '1' }], recipients: [], expiresInSeconds: 60 },
      { token: alice.token },
    );
    expect(errorCodeOf(bad.json())).toBe('VALIDATION_ERROR');
    const many = await post(
      t.app,
      '/grants',
      {
        daily: [{ token: USDC, amount: '1' }],
        recipients: Array.from({ length: 21 }, (_, i) => hex(BigInt(i + 1))),
        expiresInSeconds: 60,
      },
      { token: alice.token },
    );
    expect(errorCodeOf(many.json())).toBe('VALIDATION_ERROR');
    const carol = await t.seedUser('carol-grants@example.com');
    const body = { daily: [{ token: USDC, amount: '1' }], recipients: [], expiresInSeconds: 3600 };
    for (let i = 0; i < 10; i++) await createGrant(t, carol, body);
    const eleventh = await post(t.app, '/grants', body, { token: carol.token });
    expect(errorCodeOf(eleventh.json())).toBe('GRANT_LIMIT_REACHED');
  });
});

/** Ten charges of 30 at once against 50: exactly one passes. */
async function chargeRace(store: GrantStore): Promise<number> {
  const grant: Grant = {
    id: crypto.randomUUID(),
    userId: 'u1',
    email: 'u1@example.com',
    walletId: 'w1',
    walletAddress: BOB,
    daily: [{ token: USDC, amount: usdc(50) }],
    recipients: [BOB],
    createdAt: T0,
    expiresAt: T0 + 3600_000,
    revoked: false,
    secretHash: '00',
  };
  await store.create(grant);
  const results = await Promise.all(
    Array.from({ length: 10 }, () =>
      store.charge(grant, new Map([[USDC, usdc(30)]]), T0 + 1, T0 + 1),
    ),
  );
  return results.filter((r) => r.ok).length;
}

/**
 * A charge whose signature stays sendable for an hour: what the store holds of it 24 h after the
 * signing (still held: the signature could be sent an hour later) and 24 h after its end.
 */
async function heldPastSendable(store: GrantStore, id: string): Promise<[bigint, bigint]> {
  const grant: Grant = {
    id,
    email: 'held@example.com',
    userId: 'u1',
    walletId: 'w1',
    walletAddress: BOB,
    daily: [{ token: USDC, amount: usdc(50) }],
    recipients: [BOB],
    createdAt: T0,
    expiresAt: T0 + 3 * 24 * 3600_000,
    revoked: false,
    secretHash: '00',
  };
  await store.create(grant);
  const charged = await store.charge(grant, new Map([[USDC, usdc(30)]]), T0, T0 + 3600_000);
  expect(charged.ok).toBe(true);
  const at = async (when: number) => (await store.spent(id, when)).get(USDC) ?? 0n;
  return [await at(T0 + 24 * 3600_000 + 1_000), await at(T0 + 25 * 3600_000 + 1_000)];
}

describe('the grant ledger is charged atomically', () => {
  it('in memory', async () => {
    expect(await chargeRace(createMemoryGrants())).toBe(1);
  });
  it('holds a charge until 24 h after its signature stops being sendable, in memory', async () => {
    expect(await heldPastSendable(createMemoryGrants(), 'held-memory')).toEqual([usdc(30), 0n]);
  });
});

describe.skipIf(redisServerPath === undefined)(
  'agent grants in Redis (needs redis-server on PATH; skipped when absent)',
  () => {
    let redis: RedisServer;
    const clients: Redis[] = [];
    const apps: TestApp[] = [];

    beforeAll(async () => {
      redis = await startRedisServer();
      for (let i = 0; i < 2; i++) {
        const client = new Redis({
          host: '127.0.0.1',
          port: redis.port,
          lazyConnect: true,
          maxRetriesPerRequest: 1,
        });
        await client.connect();
        clients.push(client);
        apps.push(await buildTestApp({ deps: { redis: client } }));
      }
    });
    afterAll(async () => {
      for (const app of apps) await app.close();
      for (const client of clients) client.disconnect();
      await redis?.stop();
    });

    it('ten charges of 30 at once against 50: exactly one passes', async () => {
      expect(await chargeRace(createRedisGrants(clients[0] as Redis, { prefix: 'race:' }))).toBe(1);
    });

    it('holds a charge until 24 h after its signature stops being sendable', async () => {
      const store = createRedisGrants(clients[0] as Redis, { prefix: 'held:' });
      expect(await heldPastSendable(store, 'held-redis')).toEqual([usdc(30), 0n]);
    });

    it('a grant made on one instance is spent across both: 30 on one, the next 30 refused on the other; revoked on one, refused on the other', async () => {
      const [a, b] = apps as [TestApp, TestApp];
      const user = await a.seedUser('redis-grants@example.com');
      const created = await createGrant(a, user, {
        daily: [{ token: USDC, amount: usdc(50).toString() }],
        recipients: [BOB],
        expiresInSeconds: 3600,
      });
      const first = await signUnder(
        a,
        created.token,
        user,
        execution([transfer(USDC, BOB, usdc(30))]),
      );
      expect(first.statusCode, first.body).toBe(200);
      const second = await signUnder(
        b,
        created.token,
        user,
        execution([transfer(USDC, BOB, usdc(30))]),
      );
      expect(errorCodeOf(second.json())).toBe('GRANT_EXCEEDED');
      const list = await b.app.inject({
        method: 'GET',
        url: '/grants/current',
        headers: { authorization: `Bearer ${created.token}` },
      });
      expect(list.json().grant.daily[0]).toMatchObject({
        spent: usdc(30).toString(),
        left: usdc(20).toString(),
      });
      const revoked = await post(
        a.app,
        `/grants/${created.grant.id}/revoke`,
        {},
        { token: user.token },
      );
      expect(revoked.statusCode, revoked.body).toBe(200);
      const after = await signUnder(b, created.token, user, execution([transfer(USDC, BOB, 1n)]));
      expect(errorCodeOf(after.json())).toBe('GRANT_REVOKED');
    });
  },
);
