/**
 * Issue 27 item 7, over real sockets: message signing is bounded server-wide (server/routes/sign.ts
 * MAX_MESSAGE_SIGNINGS), whatever the users and addresses. The identity provider here holds every
 * raw_sign until the test releases it, so "in flight" is an observed state, not a timing: with the
 * slots taken, the next /sign/message is 429 RATE_LIMITED with Retry-After and is neither hashed
 * nor sent to the provider; a slot is given back when its signing ends, however it ends.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_MESSAGE_SIGNINGS } from '../server/routes/sign.js';
import {
  buildTestApp,
  FakeIdentity,
  type SeededUser,
  type TestApp,
} from './helpers/build-test-app.js';
import { fannedOutTypes } from './helpers/typed-data.js';

/** raw_sign waits for release(); `pending` counts the calls waiting, `waitFor` resolves at a count. */
class HeldIdentity extends FakeIdentity {
  private held: Array<() => void> = [];
  private watchers: Array<{ count: number; resolve: () => void }> = [];

  get pending(): number {
    return this.held.length;
  }

  waitFor(count: number): Promise<void> {
    if (this.held.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.watchers.push({ count, resolve }));
  }

  release(): void {
    const held = this.held;
    this.held = [];
    for (const go of held) go();
  }

  override async rawSign(walletId: string, hash: string): Promise<string> {
    await new Promise<void>((resolve) => {
      this.held.push(resolve);
      for (const watcher of this.watchers.filter((w) => this.held.length >= w.count))
        watcher.resolve();
    });
    return super.rawSign(walletId, hash);
  }
}

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function start(): Promise<{ identity: HeldIdentity; url: string; users: SeededUser[] }> {
  const identity = new HeldIdentity();
  t = await buildTestApp({ deps: { identity }, config: { trustProxy: true } });
  const users = await Promise.all(
    Array.from({ length: MAX_MESSAGE_SIGNINGS + 2 }, () => (t as TestApp).seedUser()),
  );
  const url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  return { identity, url, users };
}

function sign(url: string, user: SeededUser, message: unknown, from: string) {
  return fetch(`${url}/sign/message`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${user.token}`,
      'x-forwarded-for': from,
    },
    body: JSON.stringify({ walletId: user.wallet.id, message }),
  });
}

describe('message signing is bounded server-wide', () => {
  it(`with ${MAX_MESSAGE_SIGNINGS} signings in flight (other users, other addresses), the next is 429 with Retry-After, not hashed nor signed`, async () => {
    const { identity, url, users } = await start();
    const inFlight = users
      .slice(0, MAX_MESSAGE_SIGNINGS)
      .map((user, i) => sign(url, user, `message ${i}`, `198.51.100.${i + 1}`));
    await identity.waitFor(MAX_MESSAGE_SIGNINGS);

    const refused = await sign(
      url,
      users[MAX_MESSAGE_SIGNINGS] as SeededUser,
      'one more',
      '203.0.113.9',
    );
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('RATE_LIMITED');
    expect(body.error.message).toMatch(/signing too many messages at once/);
    // nothing more reached the provider: the refused one was never hashed nor signed
    expect(identity.pending).toBe(MAX_MESSAGE_SIGNINGS);
    expect(identity.signed).toHaveLength(0);

    identity.release();
    for (const response of await Promise.all(inFlight)) expect(response.status).toBe(200);
    expect(identity.signed).toHaveLength(MAX_MESSAGE_SIGNINGS);

    // the slots are back
    const again = sign(url, users[MAX_MESSAGE_SIGNINGS + 1] as SeededUser, 'later', '203.0.113.10');
    await identity.waitFor(1);
    identity.release();
    expect((await again).status).toBe(200);
  });

  it('a signing that fails (typed data refused, provider error) gives its slot back', async () => {
    const { identity, url, users } = await start();
    const user = users[0] as SeededUser;
    for (let i = 0; i < MAX_MESSAGE_SIGNINGS + 1; i++) {
      const refused = await sign(url, user, fannedOutTypes(8, 7), '198.51.100.1');
      expect(refused.status).toBe(400);
    }
    const failing = new Error('provider down');
    const original = identity.rawSign.bind(identity);
    let fail = true;
    identity.rawSign = async (walletId, hash) => {
      if (fail) throw failing;
      return original(walletId, hash);
    };
    for (let i = 0; i < MAX_MESSAGE_SIGNINGS + 1; i++)
      expect((await sign(url, user, `fails ${i}`, '198.51.100.1')).status).toBe(500);
    fail = false;
    const ok = sign(url, user, 'works', '198.51.100.1');
    await identity.waitFor(1);
    identity.release();
    expect((await ok).status).toBe(200);
  });
});
