/**
 * Contract test: starkfi's CLI (the best-known client of this kind of server) works unchanged
 * against ours for login, verify, hash signing and wallet lookup. Replays the request shapes a
 * starkfi-style client sends (its API client posts JSON and, on a non-2xx answer, shows
 * `error.message`; its signer is starkzap's PrivySigner, which posts `{walletId, hash}` to
 * /sign/hash with the session's bearer token and splits the 128-hex r‖s answer) through a real
 * listening server and the identity-provider emulator.
 *
 * The hashes are what starknet.js hands a signer: `0x` + lower-case hex without leading zeros
 * (a transaction or SNIP-12 message hash). PrivySigner adds `0x` when it is missing, so bare hex
 * never arrives; we still refuse it (digits alone could be decimal). Zero-padded and upper-case
 * hex pass too. The 2^251 signing bound stays.
 */
import { Writable } from 'node:stream';
import { hash as starkHash, typedData } from 'starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxHandle, startSandbox } from '../sandbox/launcher.js';
import { MAX_SIGNABLE_HASH } from '../shared/felt.js';
import { splitSignature, verifyStarkSignature } from '../shared/starknet.js';
import { tempHome } from './helpers/process.js';
import { outsideExecution } from './helpers/typed-data.js';

const devNull = new Writable({ write: (_chunk, _enc, cb) => cb() });

/** starkfi's API client: POST JSON, optional bearer token; a non-2xx becomes an error with error.message. */
async function starkfiRequest<T>(
  base: string,
  path: string,
  body: Record<string, unknown>,
  token?: string,
): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  });
  if (!res.ok) {
    const errorBody = (await res.json().catch(() => ({ error: { message: res.statusText } }))) as {
      error?: { message?: string };
    };
    throw new Error(errorBody.error?.message ?? `API error (${res.status})`);
  }
  return (await res.json()) as T;
}

interface StarkfiVerifyResponse {
  userId: string;
  walletId: string;
  walletAddress: string;
  walletPublicKey: string;
  token: string;
  isExisting: boolean;
}

describe('starkfi-style client against a real server', () => {
  const home = tempHome();
  let sandbox: SandboxHandle;
  let server: string;
  // each test its own account where it signs in; `session` (the signer's) is made in beforeAll,
  // so no test depends on another having run first
  const email = 'starkfi.user@example.com';
  const signer = 'starkfi.signer@example.com';
  let session: StarkfiVerifyResponse;

  /** What starkfi does to sign in: login, the code from the mail, verify. */
  async function signIn(address: string): Promise<StarkfiVerifyResponse> {
    await starkfiRequest(server, '/auth/login', { email: address });
    const { code } = (await (
      await fetch(`${sandbox.info.identityUrl}/sandbox/outbox/${address}`)
    ).json()) as { code: string };
    return starkfiRequest<StarkfiVerifyResponse>(server, '/auth/verify', { email: address, code });
  }

  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      dataDir: home.dir,
      inMemory: true,
      logStream: devNull,
    });
    server = sandbox.info.serverUrl;
    session = await signIn(signer);
  });
  afterAll(async () => {
    await sandbox.close();
    home.cleanup();
  });

  it('login: {email} → {success, message}; verify: {email, code} → the six fields starkfi saves', async () => {
    const result = await starkfiRequest<{ success: boolean; message: string }>(
      server,
      '/auth/login',
      { email },
    );
    expect(result).toEqual({ success: true, message: expect.any(String) });
    const { code } = (await (
      await fetch(`${sandbox.info.identityUrl}/sandbox/outbox/${email}`)
    ).json()) as { code: string };
    const verified = await starkfiRequest<StarkfiVerifyResponse>(server, '/auth/verify', {
      email,
      code,
    });
    expect(verified).toMatchObject({
      userId: expect.any(String),
      walletId: expect.any(String),
      walletAddress: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      walletPublicKey: expect.stringMatching(/^0x[0-9a-f]{1,64}$/),
      token: expect.any(String),
      isExisting: false,
    });
  });

  it.each([
    {
      description: 'a SNIP-12 message hash as starknet.js returns it',
      hash: () => typedData.getMessageHash(outsideExecution() as never, session.walletAddress),
    },
    {
      description: 'a transaction-style hash (toHex, no leading zeros)',
      hash: () => starkHash.computePoseidonHashOnElements([1n, 2n, 3n]),
    },
    { description: 'a short hash', hash: () => '0x1a2b' },
    { description: 'a zero-padded hash', hash: () => `0x${'0'.repeat(60)}beef` },
    {
      description: 'upper-case hex digits',
      hash: () => `0x${(MAX_SIGNABLE_HASH - 12345n).toString(16).toUpperCase()}`,
    },
  ])(
    'sign/hash {walletId, hash}: $description → a signature PrivySigner splits into [r, s] that verifies',
    async ({ hash }) => {
      const value = hash();
      const { signature } = await starkfiRequest<{ signature: string }>(
        server,
        '/sign/hash',
        { walletId: session.walletId, hash: value },
        session.token,
      );
      // PrivySigner: strip 0x, expect exactly 128 hex digits, r = first 64, s = last 64
      const bare = signature.startsWith('0x') ? signature.slice(2) : signature;
      expect(bare).toMatch(/^[0-9a-fA-F]{128}$/);
      const [r, s] = splitSignature(signature);
      expect(`0x${bare.slice(0, 64)}`).toBe(r);
      expect(`0x${bare.slice(64)}`).toBe(s);
      expect(verifyStarkSignature(value.toLowerCase(), signature, session.walletPublicKey)).toBe(
        true,
      );
    },
  );

  it('sign/hash refusals reach starkfi as a readable error.message (a hash past 2^251)', async () => {
    await expect(
      starkfiRequest(
        server,
        '/sign/hash',
        { walletId: session.walletId, hash: `0x${(MAX_SIGNABLE_HASH + 1n).toString(16)}` },
        session.token,
      ),
    ).rejects.toThrow(/below 2\^251/);
  });

  it('wallet/find {email} → {wallet: {id, address}} for its own e-mail; another e-mail is refused', async () => {
    const found = await starkfiRequest<{ wallet: { id: string; address: string } | null }>(
      server,
      '/wallet/find',
      { email: signer },
      session.token,
    );
    expect(found.wallet).toMatchObject({ id: session.walletId, address: session.walletAddress });
    await expect(
      starkfiRequest(server, '/wallet/find', { email: 'someone.else@example.com' }, session.token),
    ).rejects.toThrow(/not the e-mail of this session/);
  });

  it('signing in again: isExisting true, the same wallet', async () => {
    const first = await signIn('starkfi.again@example.com');
    expect(first.isExisting).toBe(false);
    const again = await signIn('starkfi.again@example.com');
    expect(again).toMatchObject({
      isExisting: true,
      walletId: first.walletId,
      walletAddress: first.walletAddress,
    });
  });
});
