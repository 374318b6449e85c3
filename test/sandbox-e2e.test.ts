/**
 * The whole sandbox as a user runs it: `finance-tui sandbox --port 0 --json` in its own process,
 * then the curl walk-through of docs/server-api.md "Trying it with curl" over real HTTP.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as stark from '@scure/starknet';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanEnv, type Spawned, spawnBin, tempHome } from './helpers/process.js';

interface Ready {
  event: string;
  sandbox: boolean;
  serverUrl: string;
  identityUrl: string;
  aggregatorUrl: string;
  rpcUrl: string;
  paymasterUrl: string;
  chainId: string;
  logFile: string;
}

async function post(
  url: string,
  body: unknown,
  token?: string,
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown>,
    headers: res.headers,
  };
}

/** Stark ECDSA with an x-only public key: the signature must verify for one of the two points. */
function verifiesWithStarkKey(signature: string, hash: string, publicKey: string): boolean {
  const hex = signature.slice(2);
  const sig = new stark.Signature(BigInt(`0x${hex.slice(0, 64)}`), BigInt(`0x${hex.slice(64)}`));
  const x = BigInt(publicKey).toString(16).padStart(64, '0');
  return ['02', '03'].some((prefix) => {
    try {
      return stark.verify(sig, hash, `${prefix}${x}`);
    } catch {
      return false;
    }
  });
}

describe('finance-tui sandbox (whole process)', () => {
  const home = tempHome();
  let proc: Spawned;
  let ready: Ready;
  // the secrets of the sign-in test, checked against the log in that same test (no test reads
  // what another one left)
  const secrets: string[] = [];

  beforeAll(async () => {
    // spawned, not run in the worker (test/helpers/sandbox-in-process.ts): the sandbox process is
    // this file's subject — its ready line on its own stdout, its files, its log, its stop
    proc = spawnBin(['sandbox', '--port', '0', '--json'], cleanEnv({ FINANCE_TUI_HOME: home.dir }));
    ready = JSON.parse(await proc.waitForLine((line) => line.startsWith('{'))) as Ready;
  });

  afterAll(async () => {
    proc.kill('SIGKILL');
    await proc.exited;
    home.cleanup();
  });

  it('prints one ready line and writes the same URLs to sandbox.json (0600)', async () => {
    expect(ready).toMatchObject({
      event: 'ready',
      sandbox: true,
      chainId: '0x534e5f53414e44424f58',
    });
    for (const url of [ready.serverUrl, ready.identityUrl, ready.aggregatorUrl])
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/rpc$/);
    expect(ready.paymasterUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/paymaster$/);
    const chainId = (
      await post(ready.rpcUrl, { jsonrpc: '2.0', id: 1, method: 'starknet_chainId' })
    ).body as { result: string };
    expect(chainId.result).toBe(ready.chainId);
    const file = join(home.dir, 'sandbox.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      serverUrl: ready.serverUrl,
      aggregatorUrl: ready.aggregatorUrl,
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(home.dir, 'sandbox', 'secrets.json')).mode & 0o777).toBe(0o600);
    const root = (await (await fetch(`${ready.serverUrl}/`)).json()) as Record<string, unknown>;
    expect(root).toMatchObject({ name: expect.any(String), status: 'ok', sandbox: true });
  });

  it('login → code from the outbox → verify → sign: the signature verifies; no OTP code, JWT, Authorization header, app or JWT secret reaches the log', async () => {
    const email = 'alice@example.com';
    const login = await post(`${ready.serverUrl}/auth/login`, { email });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ success: true });

    const outbox = (await (
      await fetch(`${ready.identityUrl}/sandbox/outbox/${encodeURIComponent(email)}`)
    ).json()) as { code: string };
    expect(outbox.code).toMatch(/^\d{6}$/);
    secrets.push(outbox.code);

    const verify = await post(`${ready.serverUrl}/auth/verify`, { email, code: outbox.code });
    expect(verify.status).toBe(200);
    const session = verify.body as {
      token: string;
      walletId: string;
      walletAddress: string;
      walletPublicKey: string;
      isExisting: boolean;
    };
    expect(session.isExisting).toBe(false);
    expect(session.walletAddress).toMatch(/^0x[0-9a-f]{64}$/);
    secrets.push(session.token);

    const hash = '0x5d2e8f1c0e6a3b2d4c1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9';
    const signed = await post(
      `${ready.serverUrl}/sign/hash`,
      { walletId: session.walletId, hash },
      session.token,
    );
    expect(signed.status).toBe(200);
    const signature = signed.body.signature as string;
    expect(signature).toMatch(/^0x[0-9a-f]{128}$/);
    expect(verifiesWithStarkKey(signature, hash, session.walletPublicKey)).toBe(true);
    // and it is a signature of that hash, not of anything
    expect(verifiesWithStarkKey(signature, '0x1234', session.walletPublicKey)).toBe(false);

    const found = await post(`${ready.serverUrl}/wallet/find`, {}, session.token);
    expect(found.body).toEqual({
      wallet: {
        id: session.walletId,
        address: session.walletAddress,
        publicKey: session.walletPublicKey,
      },
    });

    // a second login finds the same wallet
    await post(`${ready.serverUrl}/auth/login`, { email });
    const code2 = (
      (await (
        await fetch(`${ready.identityUrl}/sandbox/outbox/${encodeURIComponent(email)}`)
      ).json()) as { code: string }
    ).code;
    secrets.push(code2);
    const again = await post(`${ready.serverUrl}/auth/verify`, { email, code: code2 });
    expect(again.body).toMatchObject({
      walletId: session.walletId,
      walletAddress: session.walletAddress,
      isExisting: true,
    });
    secrets.push(again.body.token as string);

    // and none of it reached the log
    expect(secrets.length).toBeGreaterThanOrEqual(4);
    const { appSecret, jwtSecret } = JSON.parse(
      readFileSync(join(home.dir, 'sandbox', 'secrets.json'), 'utf8'),
    ) as Record<string, string>;
    // the log leaves in batches (every 100 ms at the latest), in order: once the line of a request
    // sent after all the others is there, every earlier one is too
    await fetch(`${ready.serverUrl}/health`);
    await vi.waitFor(
      () => expect(readFileSync(ready.logFile, 'utf8')).toContain('"url":"/health"'),
      { timeout: 5_000 },
    );
    const logs = readFileSync(ready.logFile, 'utf8');
    expect(logs).toContain('/sign/hash'); // the requests were logged…
    for (const secret of [...secrets, appSecret as string, jwtSecret as string])
      expect(logs).not.toContain(secret); // …their secrets were not
    expect(logs.toLowerCase()).not.toContain('bearer ');
  });

  it('stops on SIGTERM: a stopped line, exit 0 and sandbox.json removed', async () => {
    // its own sandbox: stopping the shared one would take it from the other tests
    const own = tempHome();
    try {
      // spawned: its subject is the process's stop on a real SIGTERM and its exit code
      const stopping = spawnBin(
        ['sandbox', '--port', '0', '--json'],
        cleanEnv({ FINANCE_TUI_HOME: own.dir }),
      );
      await stopping.waitForLine((line) => line.startsWith('{'));
      expect(existsSync(join(own.dir, 'sandbox.json'))).toBe(true);
      stopping.kill('SIGTERM');
      const { code } = await stopping.exited;
      expect(code).toBe(0);
      expect(
        stopping
          .stdout()
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { event: string })
          .map((doc) => doc.event),
      ).toEqual(['ready', 'stopped']);
      expect(existsSync(join(own.dir, 'sandbox.json'))).toBe(false);
    } finally {
      own.cleanup();
    }
  });
});
