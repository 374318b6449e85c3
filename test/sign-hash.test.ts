/**
 * The hash signer the chain library's Signer calls (createSignHash, cli/core/session.ts), over
 * the core's own sign-in against a sandbox started in this process: a real signature comes back
 * as {r, s} and verifies on the Stark curve; a server answering another key's signature is
 * refused; a 401 ends the session; an abort cancels.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import * as stark from '@scure/starknet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOutbox, login, verify } from '../cli/core/account.js';
import { resolveEndpoints } from '../cli/core/endpoints.js';
import { createSignHash, requireSession, type Session } from '../cli/core/session.js';
import { type SandboxHandle, startSandbox } from '../sandbox/launcher.js';
import { writeFileAtomic } from '../shared/fs.js';
import { signStarkHash } from '../shared/starknet.js';
import { cleanEnv, tempHome } from './helpers/process.js';

const devNull = new Writable({ write: (_chunk, _encoding, callback) => callback() });
const HASH = '0x4d2c6b1ef6e5e0f1a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f6071';

function verifies(r: string, s: string, hash: string, publicKey: string): boolean {
  const x = BigInt(publicKey).toString(16).padStart(64, '0');
  return ['02', '03'].some((prefix) => {
    try {
      return stark.verify(new stark.Signature(BigInt(r), BigInt(s)), hash, `${prefix}${x}`);
    } catch {
      return false;
    }
  });
}

describe('createSignHash', () => {
  const home = tempHome();
  const env = cleanEnv({ FINANCE_TUI_HOME: home.dir });
  let sandbox: SandboxHandle;
  let session: Session;
  let rpcUrl: string | undefined;

  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      dataDir: home.dir,
      inMemory: true,
      logStream: devNull,
    });
    // as the chain branch's sandbox writes it: its JSON-RPC and paymaster URLs beside the others
    writeFileAtomic(
      `${home.dir}/sandbox.json`,
      JSON.stringify({ ...sandbox.info, rpcUrl: `${sandbox.info.serverUrl}/rpc-stand-in` }),
    );
    const endpoints = await resolveEndpoints(env, { sandbox: true, runningSandboxOnly: true });
    rpcUrl = endpoints.rpcUrl;
    await login(endpoints, 'frank@example.com');
    const { code } = await readOutbox(endpoints, 'frank@example.com');
    await verify(endpoints, 'frank@example.com', code);
    session = requireSession(endpoints);
  });
  afterAll(async () => {
    await sandbox.close();
    home.cleanup();
  });

  it('sandbox endpoints read the JSON-RPC URL from sandbox.json, not from settings', () => {
    expect(rpcUrl).toBe(`${sandbox.info.serverUrl}/rpc-stand-in`);
  });

  it('returns r and s of a signature that verifies against the session key', async () => {
    const { r, s } = await createSignHash(session, { serverUrl: session.serverUrl })(
      HASH,
      new AbortController().signal,
    );
    expect(r).toMatch(/^0x[0-9a-f]{64}$/);
    expect(s).toMatch(/^0x[0-9a-f]{64}$/);
    expect(verifies(r, s, HASH, session.publicKey)).toBe(true);
  });

  it('an aborted call is CANCELLED', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      createSignHash(session, { serverUrl: session.serverUrl })(HASH, controller.signal),
    ).rejects.toMatchObject({ code: 'CANCELLED' });
  });

  describe('against a server that lies', () => {
    let liar: Server;
    let url: string;
    let answer: { status: number; body: unknown };

    beforeAll(async () => {
      liar = createServer((request, response) => {
        request.resume();
        request.on('end', () => {
          response.writeHead(answer.status, { 'content-type': 'application/json' });
          response.end(JSON.stringify(answer.body));
        });
      });
      await new Promise<void>((resolve) => liar.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(liar.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      liar.closeAllConnections();
      await new Promise((resolve) => liar.close(resolve));
    });

    it("another key's signature of the same hash is refused: INVALID_RESPONSE", async () => {
      answer = { status: 200, body: { signature: signStarkHash(HASH, `0x${'1'.repeat(63)}`) } };
      await expect(
        createSignHash(session, { serverUrl: url })(HASH, new AbortController().signal),
      ).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
    });

    it('a 401 ends the session: SESSION_EXPIRED with the way back', async () => {
      answer = {
        status: 401,
        body: { error: { code: 'UNAUTHORIZED', message: 'Invalid or missing token' } },
      };
      await expect(
        createSignHash(session, { serverUrl: url })(HASH, new AbortController().signal),
      ).rejects.toMatchObject({
        code: 'SESSION_EXPIRED',
        // the way back as data: each face words it (core/remedy.ts)
        details: { remedy: ['sign-in'], signIn: { email: 'frank@example.com', sandbox: true } },
      });
    });

    it('429: RATE_LIMITED with retryAfterSeconds, not retried', async () => {
      answer = { status: 429, body: { error: { code: 'RATE_LIMITED', message: 'slow down' } } };
      await expect(
        createSignHash(session, { serverUrl: url })(HASH, new AbortController().signal),
      ).rejects.toMatchObject({ code: 'RATE_LIMITED' });
    });
  });
});
