/**
 * One signed-in client must not freeze the server with SNIP-12 typed data that is costly to hash
 * (fanned-out types make starknet.js's encoder exponential; thousands of tiny elements each cost
 * a Poseidon permutation). Over real sockets: the attack is refused with 400 by the bound (its
 * reason in the message: hashing never started) and /health keeps answering while it arrives.
 * Without the bounds, each depth-24 request blocks the event loop ~10 s, so four of them outlast
 * the test's timeout. The shapes of issue 15 went round the old bound: a revision it did not
 * recognise (null), a merkletree* the hasher reads as raw leaves, values nested 5,000 deep (a
 * 500 from a stack overflow in the bound itself).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type SeededUser, type TestApp } from './helpers/build-test-app.js';
import { fannedOutTypes, outsideExecution } from './helpers/typed-data.js';

const REFUSED_BY_THE_BOUND = /^typed data refused before hashing: /;

let t: TestApp;
let user: SeededUser;
let url: string;

beforeAll(async () => {
  t = await buildTestApp();
  user = await t.seedUser();
  url = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await t.close();
});
// what each test signed, whichever ran before it
beforeEach(() => {
  t.identity.signed.length = 0;
});

/** `message` as a value, or as its JSON text (values too deep for JSON.stringify) */
async function signMessage(
  message: unknown,
): Promise<{ status: number; code: string | undefined; message: string | undefined }> {
  const json = message instanceof JsonText ? message.text : JSON.stringify(message);
  const res = await fetch(`${url}/sign/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
    body: `{"walletId":${JSON.stringify(user.wallet.id)},"message":${json}}`,
  });
  const body = (await res.json()) as { error?: { code: string; message: string } };
  return { status: res.status, code: body.error?.code, message: body.error?.message };
}

class JsonText {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

describe('costly typed data over real sockets', () => {
  it('fanned-out types 24 deep: every request is refused with 400 while /health keeps answering', async () => {
    const attack = fannedOutTypes(24);
    expect(JSON.stringify(attack).length).toBeLessThan(4_000);
    const attacks = Array.from({ length: 4 }, () => signMessage(attack));
    const health = fetch(`${url}/health`).then(async (res) => ({
      status: res.status,
      body: await res.json(),
    }));
    const [results, healthResult] = await Promise.all([Promise.all(attacks), health]);
    for (const result of results) {
      expect(result).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
      expect(result.message).toMatch(/nested deeper than 8 levels/);
    }
    expect(healthResult).toEqual({ status: 200, body: { status: 'ok' } });
    expect(t.identity.signed).toHaveLength(0);
  });

  it.each([
    {
      description: 'types fanned out 7 wide within the depth bound',
      message: fannedOutTypes(8, 7),
    },
    {
      description: '2,000 one-digit calldata felts (16 kB, each a Poseidon element)',
      message: (() => {
        const data = outsideExecution(1, 0);
        data.message.Calls[0]!.Calldata = Array.from({ length: 2_000 }, () => '1');
        return data;
      })(),
    },
  ])('$description: refused for too much work, nothing signed', async ({ message }) => {
    const result = await signMessage(message);
    expect(result).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(result.message).toMatch(/too much work/);
    expect(t.identity.signed).toHaveLength(0);
  });

  // as JSON text: the test's own JSON.stringify would overflow the stack on it
  const nested = (depth: number): string =>
    '[{"a":'.repeat(depth / 2) + '"0x1"' + '}]'.repeat(depth / 2);
  const legacyDomain = { StarkNetDomain: [{ name: 'name', type: 'felt' }] };

  it.each([
    {
      description:
        'revision null (which the hasher takes as revision 0) and types fanned out 26 deep',
      message: (() => {
        const { StarknetDomain: _, ...types } = fannedOutTypes(26).types;
        return {
          ...fannedOutTypes(26),
          types: { ...types, ...legacyDomain },
          domain: { name: 'x', revision: null },
        };
      })(),
      reason: /nested deeper than 8 levels/,
    },
    {
      description:
        'a merkletree* of 20,000 felt leaves (revision 0: hashed as raw leaves, a Pedersen pair each)',
      message: {
        types: {
          ...legacyDomain,
          Root: [{ name: 'roots', type: 'merkletree*', contains: 'felt' }],
        },
        primaryType: 'Root',
        domain: { name: 'x' },
        message: { roots: [Array.from({ length: 20_000 }, () => '1')] },
      },
      reason: /can only be the type of a struct field/,
    },
    {
      description: 'values nested 5,000 deep in the message',
      message: new JsonText(
        `{"types":${JSON.stringify({ ...legacyDomain, Note: [{ name: 'n', type: 'felt' }] })},"primaryType":"Note","domain":{"name":"x"},"message":{"n":${nested(5_000)}}}`,
      ),
      reason: /nested deeper than 64 levels/,
    },
    {
      description: 'values nested 5,000 deep in the domain',
      message: new JsonText(
        `{"types":${JSON.stringify({ ...legacyDomain, Note: [{ name: 'n', type: 'felt' }] })},"primaryType":"Note","domain":{"name":${nested(5_000)}},"message":{"n":"0x1"}}`,
      ),
      reason: /nested deeper than 64 levels/,
    },
  ])(
    '$description: refused by the bound (400) while /health keeps answering',
    async ({ message, reason }) => {
      const attacks = Array.from({ length: 2 }, () => signMessage(message));
      const health = fetch(`${url}/health`).then(async (res) => ({
        status: res.status,
        body: await res.json(),
      }));
      const [results, healthResult] = await Promise.all([Promise.all(attacks), health]);
      for (const result of results) {
        expect(result).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
        expect(result.message).toMatch(REFUSED_BY_THE_BOUND);
        expect(result.message).toMatch(reason);
      }
      expect(healthResult).toEqual({ status: 200, body: { status: 'ok' } });
      expect(t.identity.signed).toHaveLength(0);
    },
  );

  it('a legitimate OutsideExecution is still signed', async () => {
    const result = await signMessage(outsideExecution(4, 30));
    expect(result.status).toBe(200);
    expect(t.identity.signed).toHaveLength(1);
  });
});
