/**
 * Signing routes: hashes in the Stark field only; messages hashed exactly as starknet.js does
 * (SNIP-12), strings wrapped in our fixed text type and never signed as a raw hash.
 */
import { ec, typedData } from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textMessageTypedData } from '../shared/api.js';
import { MAX_SIGNABLE_HASH, STARK_PRIME } from '../shared/felt.js';
import { buildTestApp, post, type SeededUser, type TestApp } from './helpers/build-test-app.js';
import {
  everyRevision1Type,
  LEGACY_TYPES,
  legacyMail,
  outsideExecution,
  STARKNET_DOMAIN,
} from './helpers/typed-data.js';

let t: TestApp;
let user: SeededUser;
beforeAll(async () => {
  t = await buildTestApp();
  user = await t.seedUser();
});
afterAll(async () => {
  await t.close();
});

function verifies(signature: string, hash: string, walletId: string): boolean {
  const privateKey = t.identity.wallets.get(walletId)?.privateKey as string;
  const r = BigInt(`0x${signature.slice(2, 66)}`);
  const s = BigInt(`0x${signature.slice(66)}`);
  return ec.starkCurve.verify(
    new ec.starkCurve.Signature(r, s),
    hash,
    ec.starkCurve.getPublicKey(privateKey),
  );
}

describe('POST /sign/hash', () => {
  it.each([
    { description: 'short hash', hash: '0x1' },
    { description: 'upper-case hex', hash: '0xABCDEF' },
    {
      description: 'largest signable hash (2^251 - 1)',
      hash: `0x${MAX_SIGNABLE_HASH.toString(16)}`,
    },
    { description: '64 hex digits with leading zeros', hash: `0x${'0'.repeat(60)}beef` },
  ])('signs a $description with the wallet key', async ({ hash }) => {
    const res = await post(
      t.app,
      '/sign/hash',
      { walletId: user.wallet.id, hash },
      { token: user.token },
    );
    expect(res.statusCode, res.body).toBe(200);
    const { signature } = res.json() as { signature: string };
    expect(signature).toMatch(/^0x[0-9a-f]{128}$/);
    expect(verifies(signature, hash, user.wallet.id)).toBe(true);
  });

  it.each([
    {
      description: '2^251 (a field element, but outside the Stark signature range)',
      hash: `0x${(MAX_SIGNABLE_HASH + 1n).toString(16)}`,
    },
    { description: 'the field prime itself', hash: `0x${STARK_PRIME.toString(16)}` },
    { description: '2^252', hash: `0x1${'0'.repeat(63)}` },
    { description: 'all f', hash: `0x${'f'.repeat(64)}` },
    { description: 'no 0x', hash: 'abcdef' },
    { description: 'not hex', hash: '0xxyz' },
    { description: '65 digits', hash: `0x${'1'.repeat(65)}` },
    { description: 'empty digits', hash: '0x' },
  ])('refuses $description with 400', async ({ hash }) => {
    const res = await post(
      t.app,
      '/sign/hash',
      { walletId: user.wallet.id, hash },
      { token: user.token },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
  });
});

describe('POST /sign/message', () => {
  it('a string is wrapped in the fixed SNIP-12 text type; messageHash equals starknet.js', async () => {
    const text = 'Sign in to finance-tui: a line longer than one 31-byte short string. '.repeat(5);
    const res = await post(
      t.app,
      '/sign/message',
      { walletId: user.wallet.id, message: text },
      { token: user.token },
    );
    expect(res.statusCode, res.body).toBe(200);
    const { signature, messageHash } = res.json() as { signature: string; messageHash: string };
    const expected = typedData.getMessageHash(
      textMessageTypedData(text, 'SN_MAIN'),
      user.wallet.address,
    );
    expect(BigInt(messageHash)).toBe(BigInt(expected));
    expect(verifies(signature, messageHash, user.wallet.id)).toBe(true);
  });

  it.each(['ünïcödé', 'emoji 🙂', 'nul \u0000 byte', 'two\nlines'])(
    'a non-ASCII or control-character string (%s) → 400, nothing signed',
    async (text) => {
      const before = t.identity.signed.length;
      const res = await post(
        t.app,
        '/sign/message',
        { walletId: user.wallet.id, message: text },
        { token: user.token },
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(t.identity.signed.length).toBe(before);
    },
  );

  it('a string that looks like a hash is still wrapped, never signed raw', async () => {
    const raw = '0x1234';
    const res = await post(
      t.app,
      '/sign/message',
      { walletId: user.wallet.id, message: raw },
      { token: user.token },
    );
    expect(res.statusCode).toBe(200);
    expect(BigInt(res.json().messageHash)).not.toBe(BigInt(raw));
    expect(t.identity.signed.at(-1)?.hash).toBe(res.json().messageHash);
  });

  it('the sandbox wraps strings with chainId SN_SANDBOX', async () => {
    const sandbox = await buildTestApp({ config: { sandbox: true } });
    try {
      const seeded = await sandbox.seedUser();
      const res = await post(
        sandbox.app,
        '/sign/message',
        { walletId: seeded.wallet.id, message: 'hi' },
        { token: seeded.token },
      );
      expect(BigInt(res.json().messageHash)).toBe(
        BigInt(
          typedData.getMessageHash(textMessageTypedData('hi', 'SN_SANDBOX'), seeded.wallet.address),
        ),
      );
    } finally {
      await sandbox.close();
    }
  });

  const revision1 = {
    types: {
      StarknetDomain: STARKNET_DOMAIN,
      Transfer: [
        { name: 'to', type: 'ContractAddress' },
        { name: 'amount', type: 'u128' },
        { name: 'memo', type: 'string' },
      ],
    },
    primaryType: 'Transfer',
    domain: { name: 'dapp', version: '1', chainId: 'SN_MAIN', revision: '1' },
    message: { to: '0x123', amount: '1000', memo: 'lunch' },
  };
  const revision0 = {
    types: LEGACY_TYPES,
    primaryType: 'Person',
    domain: { name: 'StarkNet Mail', version: '1', chainId: 1 },
    message: { name: 'Bob', wallet: '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb' },
  };

  it.each([
    { description: 'revision 1 typed data', data: revision1 },
    { description: 'revision 0 typed data', data: revision0 },
    // the shapes the typed-data bounds must keep working (server/typed-data-bounds.ts)
    { description: "the paymaster's OutsideExecution", data: outsideExecution() },
    {
      description: 'revision 1 with presets, enums, a merkletree, long strings and arrays',
      data: everyRevision1Type(),
    },
    { description: 'revision 0 Mail with nested structs', data: legacyMail() },
  ])(
    '$description: messageHash equals starknet.js getMessageHash for the wallet address',
    async ({ data }) => {
      const res = await post(
        t.app,
        '/sign/message',
        { walletId: user.wallet.id, message: data },
        { token: user.token },
      );
      expect(res.statusCode, res.body).toBe(200);
      const { signature, messageHash } = res.json() as { signature: string; messageHash: string };
      expect(BigInt(messageHash)).toBe(BigInt(typedData.getMessageHash(data, user.wallet.address)));
      expect(verifies(signature, messageHash, user.wallet.id)).toBe(true);
    },
  );

  it.each([
    { description: 'primaryType not among types', data: { ...revision1, primaryType: 'Nope' } },
    {
      description: 'field of an unknown type',
      data: {
        ...revision1,
        types: { ...revision1.types, Transfer: [{ name: 'to', type: 'Mystery' }] },
      },
    },
    {
      description: 'u128 that is not a number',
      data: { ...revision1, message: { ...revision1.message, amount: 'lots' } },
    },
    {
      description: 'no domain type',
      data: { ...revision1, types: { Transfer: revision1.types.Transfer } },
    },
  ])('invalid typed data ($description) → 400', async ({ data }) => {
    const before = t.identity.signed.length;
    const res = await post(
      t.app,
      '/sign/message',
      { walletId: user.wallet.id, message: data },
      { token: user.token },
    );
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
    expect(t.identity.signed.length).toBe(before);
  });
});
