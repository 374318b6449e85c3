/**
 * Property: no JSON body, on any POST route, with or without a valid token, makes the server
 * answer 5xx; it still serves /health afterwards. The identity fake and paymaster answer
 * normally, so a 5xx could only come from our own code.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type SeededUser, type TestApp } from './helpers/build-test-app.js';

const ROUTES = [
  '/auth/login',
  '/auth/verify',
  '/wallet/find',
  '/wallet/create',
  '/sign/hash',
  '/sign/message',
  '/paymaster',
] as const;

let t: TestApp;
let user: SeededUser;
beforeAll(async () => {
  // a trusted proxy lets every run come from its own address, so the limits do not turn the
  // property into "429 for everything after the fifth call"
  t = await buildTestApp({ config: { trustProxy: true } });
  user = await t.seedUser();
});
afterAll(async () => {
  await t.close();
});

/** Bodies: arbitrary JSON, and near-misses of the real shapes (right keys, wrong values). */
const body = fc.oneof(
  fc.jsonValue(),
  fc.anything({
    withNullPrototype: false,
    withBigInt: false,
    withDate: true,
    withMap: false,
    withSet: false,
    withTypedArray: false,
  }),
  fc.record(
    {
      email: fc.oneof(fc.emailAddress(), fc.string(), fc.jsonValue()),
      code: fc.oneof(fc.stringMatching(/^[0-9]{6}$/), fc.jsonValue()),
      walletId: fc.oneof(fc.constant('WALLET'), fc.string(), fc.jsonValue()),
      hash: fc.oneof(
        fc.bigInt({ min: 0n, max: 2n ** 260n }).map((n) => `0x${n.toString(16)}`),
        fc.string(),
        fc.jsonValue(),
      ),
      message: fc.oneof(
        fc.string(),
        fc.record(
          {
            types: fc.jsonValue(),
            primaryType: fc.string(),
            domain: fc.jsonValue(),
            message: fc.jsonValue(),
          },
          { requiredKeys: [] },
        ),
        fc.jsonValue(),
      ),
      jsonrpc: fc.oneof(fc.constant('2.0'), fc.jsonValue()),
      id: fc.jsonValue(),
      method: fc.oneof(
        fc.constantFrom('paymaster_isAvailable', 'paymaster_buildTransaction', 'starknet_call'),
        fc.string(),
      ),
      params: fc.jsonValue(),
    },
    { requiredKeys: [] },
  ),
);

/** SNIP-12-shaped data that passes the schema and reaches the hashing code. */
const FIELD_TYPES = [
  'felt',
  'string',
  'shortstring',
  'u128',
  'i128',
  'bool',
  'ContractAddress',
  'selector',
  'timestamp',
  'merkletree',
  'enum',
  'Msg',
  'Msg*',
  'felt*',
  'Nope',
];
const typedDataish = fc.record({
  walletId: fc.constant('WALLET'),
  message: fc.record({
    types: fc.record({
      StarknetDomain: fc.constant([
        { name: 'name', type: 'shortstring' },
        { name: 'version', type: 'shortstring' },
        { name: 'chainId', type: 'shortstring' },
        { name: 'revision', type: 'shortstring' },
      ]),
      Msg: fc.array(
        fc.record({ name: fc.constantFrom('a', 'b', 'c'), type: fc.constantFrom(...FIELD_TYPES) }),
        { maxLength: 3 },
      ),
    }),
    primaryType: fc.constantFrom('Msg', 'StarknetDomain', 'Other'),
    domain: fc.record(
      {
        name: fc.string(),
        version: fc.oneof(fc.string(), fc.integer()),
        chainId: fc.oneof(fc.constant('SN_MAIN'), fc.string(), fc.integer()),
        revision: fc.constantFrom('1', 1, '0', '2'),
      },
      { requiredKeys: [] },
    ),
    message: fc.record(
      { a: fc.jsonValue(), b: fc.jsonValue(), c: fc.jsonValue() },
      { requiredKeys: [] },
    ),
  }),
});

describe('random bodies', () => {
  it('never produce a 5xx on any POST route, with or without a token', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.tuple(fc.constantFrom(...ROUTES), body),
          fc.tuple(fc.constant('/sign/message' as const), typedDataish),
        ),
        fc.boolean(),
        async ([url, value], withToken) => {
          run += 1;
          const payload =
            JSON.stringify(value, (_key, v: unknown) => (v === 'WALLET' ? user.wallet.id : v)) ??
            'null';
          const res = await t.app.inject({
            method: 'POST',
            url,
            headers: {
              'content-type': 'application/json',
              'x-forwarded-for': `10.${(run >> 16) & 255}.${(run >> 8) & 255}.${run & 255}`,
              ...(withToken ? { authorization: `Bearer ${user.token}` } : {}),
            },
            payload,
          });
          expect(res.statusCode, `${url} ${payload.slice(0, 300)} → ${res.body}`).toBeLessThan(500);
          const parsed = JSON.parse(res.body) as Record<string, unknown>;
          if (res.statusCode >= 400 && url === '/paymaster') {
            // the relay refuses in JSON-RPC, with the stable code in data
            expect(parsed).toMatchObject({
              jsonrpc: '2.0',
              error: {
                code: expect.any(Number),
                message: expect.any(String),
                data: { code: expect.any(String) },
              },
            });
          } else if (res.statusCode >= 400)
            expect(parsed.error).toMatchObject({
              code: expect.any(String),
              message: expect.any(String),
            });
        },
      ),
      { numRuns: 800 },
    );
    const health = await t.app.inject({ url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
  });
});
