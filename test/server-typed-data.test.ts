/**
 * One signed-in client must not freeze the server with SNIP-12 typed data that is costly to hash
 * (fanned-out types make starknet.js's encoder exponential; thousands of tiny elements each cost
 * a Poseidon permutation). Over real sockets: the attack is refused at once with 400 and /health
 * keeps answering while it arrives. Without the bounds, each depth-24 request blocks the event
 * loop ~10 s, so four of them outlast the test's timeout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type SeededUser, type TestApp } from './helpers/build-test-app.js';
import { fannedOutTypes, outsideExecution } from './helpers/typed-data.js';

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

async function signMessage(message: unknown): Promise<{ status: number; code: string | undefined; message: string | undefined }> {
  const res = await fetch(`${url}/sign/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
    body: JSON.stringify({ walletId: user.wallet.id, message }),
  });
  const body = (await res.json()) as { error?: { code: string; message: string } };
  return { status: res.status, code: body.error?.code, message: body.error?.message };
}

describe('costly typed data over real sockets', () => {
  it('fanned-out types 24 deep: every request is refused with 400 while /health keeps answering', async () => {
    const attack = fannedOutTypes(24);
    expect(JSON.stringify(attack).length).toBeLessThan(4_000);
    const attacks = Array.from({ length: 4 }, () => signMessage(attack));
    const health = fetch(`${url}/health`).then(async (res) => ({ status: res.status, body: await res.json() }));
    const [results, healthResult] = await Promise.all([Promise.all(attacks), health]);
    for (const result of results) {
      expect(result).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
      expect(result.message).toMatch(/nested deeper than 8 levels/);
    }
    expect(healthResult).toEqual({ status: 200, body: { status: 'ok' } });
    expect(t.identity.signed).toHaveLength(0);
  });

  it.each([
    { description: 'types fanned out 7 wide within the depth bound', message: fannedOutTypes(8, 7) },
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

  it('a legitimate OutsideExecution is still signed', async () => {
    const result = await signMessage(outsideExecution(4, 30));
    expect(result.status).toBe(200);
    expect(t.identity.signed).toHaveLength(1);
  });
});
