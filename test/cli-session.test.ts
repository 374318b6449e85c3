/**
 * Signing in from the client, through whole processes on loopback: a sandbox (the bin's `sandbox`
 * command, the set-up here, run in this worker: test/helpers/sandbox-in-process.ts),
 * then the built bin for login → code from the outbox (`sandbox outbox`) → verify → wallet →
 * logout → wallet (exit 4). Then the ways a saved session is refused: expired by its date,
 * expired as the server sees it, a mismatched address — and what plain mode does when the
 * configured URL is taken by a sandbox. The later tests' own sign-ins, their set-up, ask and
 * read the code with the same program in this worker (docs/decisions.md "Bin runs in-process
 * where the result is the subject"); what they test is the bin's.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getStarkKey, utils } from '@scure/starknet';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { JWT_SANDBOX_AUDIENCE } from '../server/config.js';
import { createTokenService } from '../server/jwt.js';
import { argentAccountAddress, padHash } from '../shared/starknet.js';
import { runInProcess } from './helpers/in-process.js';
import { cleanEnv, runBin, tempHome } from './helpers/process.js';
import { type InProcessSandbox, startSandboxInProcess } from './helpers/sandbox-in-process.js';

interface Ready {
  serverUrl: string;
  identityUrl: string;
  logFile: string;
}

type Doc = Record<string, unknown> & { error?: { code: string; message: string } };

describe('sessions through the sandbox (whole processes)', () => {
  const home = tempHome();
  const env = cleanEnv({ FINANCE_TUI_HOME: home.dir });
  const email = 'carol@example.com';
  let sandbox: InProcessSandbox;
  let ready: Ready;
  /** every stdout and stderr of every command, to prove no secret reached them */
  let transcript = '';
  const secrets: string[] = [];
  const sessionPath = join(home.dir, 'session.json');

  /**
   * The bin, spawned (`inWorker`: the same program in this worker, for a set-up's sign-in whose
   * commands the first test runs through the bin); every output joins the transcript.
   */
  async function cli(
    args: string[],
    extraEnv: NodeJS.ProcessEnv = {},
    inWorker = false,
  ): Promise<{ code: number | null; doc: Doc; stdout: string; stderr: string }> {
    const r = await (inWorker ? runInProcess : runBin)(args, { ...env, ...extraEnv });
    transcript += r.stdout + r.stderr;
    let doc: Doc = {};
    try {
      doc = JSON.parse(r.stdout) as Doc;
    } catch {
      // human output
    }
    return { code: r.code, doc, stdout: r.stdout, stderr: r.stderr };
  }

  const savedSession = () =>
    (JSON.parse(readFileSync(sessionPath, 'utf8')) as { session: Record<string, unknown> }).session;
  const rewriteSession = (change: Record<string, unknown>) =>
    writeFileSync(sessionPath, JSON.stringify({ session: { ...savedSession(), ...change } }), {
      mode: 0o600,
    });

  /**
   * A test's set-up: signed in, outputs kept. The code asked and read in this worker; `verify`
   * spawned: a new process remembers the key's account in accounts.json, which a test reads, and
   * one in this worker may find it already known (the sandbox here computed it when it made the
   * wallet) and write nothing.
   */
  async function signIn(): Promise<Doc> {
    expect((await cli(['login', email, '--sandbox', '--json'], {}, true)).code).toBe(0);
    const outbox = await cli(['sandbox', 'outbox', email, '--json'], {}, true);
    const code = outbox.doc.code as string;
    secrets.push(code);
    const verified = await cli(['verify', email, code, '--sandbox', '--json']);
    expect(verified.code).toBe(0);
    secrets.push(savedSession().token as string);
    return verified.doc;
  }

  beforeAll(async () => {
    sandbox = startSandboxInProcess(['sandbox', '--port', '0', '--json'], env);
    ready = JSON.parse(
      await sandbox.waitForLine((line) => line.includes('"ready"'), 25_000),
    ) as Ready;
  });
  afterAll(async () => {
    sandbox.kill();
    await sandbox.exited;
    home.cleanup();
  });

  it('login → sandbox outbox → verify → wallet → logout → wallet exits 4 AUTH_REQUIRED', async () => {
    // a first sign-in (isExisting false) whatever the other tests signed in before it
    const email = 'newcomer@example.com';
    const login = await cli(['login', email, '--sandbox']);
    expect(login.code).toBe(0);
    expect(login.stdout).toContain('SANDBOX');
    expect(login.stdout).toContain(`finance-tui sandbox outbox ${email}`);
    expect(login.stdout).toContain(`${ready.identityUrl}/sandbox/outbox/`);
    const loginJson = await cli(['login', email, '--sandbox', '--json']);
    expect(loginJson.doc).toMatchObject({
      email,
      sent: true,
      network: 'sandbox',
      sandbox: true,
      outbox: { command: `finance-tui sandbox outbox ${email}` },
    });

    const outbox = await cli(['sandbox', 'outbox', email]);
    expect(outbox.code).toBe(0);
    const code = outbox.stdout.trim();
    expect(code).toMatch(/^[0-9]{6}$/);
    secrets.push(code);

    const verify = await cli(['verify', email, code, '--sandbox', '--json']);
    expect(verify.code).toBe(0);
    expect(verify.doc).toMatchObject({
      email,
      network: 'sandbox',
      sandbox: true,
      serverUrl: ready.serverUrl,
      isExisting: false,
    });
    expect(verify.doc).not.toHaveProperty('token');
    expect(statSync(sessionPath).mode & 0o777).toBe(0o600);
    const session = savedSession();
    secrets.push(session.token as string);
    expect(session).toMatchObject({
      email,
      address: verify.doc.address,
      publicKey: verify.doc.publicKey,
      sandbox: true,
      network: 'mainnet',
    });

    const wallet = await cli(['wallet', '--sandbox', '--json']);
    expect(wallet.code).toBe(0);
    expect(wallet.doc).toMatchObject({
      email,
      created: false,
      wallet: { id: verify.doc.walletId, address: verify.doc.address },
    });

    // the account's wallet is usable: --create refuses to replace it
    const create = await cli(['wallet', '--create', '--sandbox', '--json']);
    expect(create.code).toBe(1);
    expect(create.doc.error?.code).toBe('WALLET_EXISTS');

    expect((await cli(['logout', '--json'])).doc).toEqual({
      loggedOut: true,
      email,
      serverSignOut: 'revoked',
    });
    // the server ended the token: a copy of it is refused (real sandbox server, real socket)
    const copied = await fetch(`${ready.serverUrl}/wallet/find`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${session.token as string}`,
      },
      body: '{}',
    });
    expect(copied.status).toBe(401);
    expect(((await copied.json()) as { error: { code: string } }).error.code).toBe('TOKEN_REVOKED');
    const after = await cli(['wallet', '--sandbox', '--json']);
    expect(after.code).toBe(4);
    expect(after.doc.error).toMatchObject({
      code: 'AUTH_REQUIRED',
      message: expect.stringContaining('finance-tui login <email> --sandbox'),
    });
  });

  it('a session past its expiresAt: exit 4 SESSION_EXPIRED, the way back in the message', async () => {
    await signIn();
    rewriteSession({ expiresAt: new Date(Date.now() - 60_000).toISOString() });
    const r = await cli(['wallet', '--sandbox', '--json']);
    expect(r.code).toBe(4);
    expect(r.doc.error).toMatchObject({
      code: 'SESSION_EXPIRED',
      message: expect.stringContaining(`finance-tui login ${email} --sandbox`),
    });
    const human = await cli(['wallet', '--sandbox']);
    expect(human.stderr).toMatch(
      /^error: .*sign in again: finance-tui login carol@example.com --sandbox \(SESSION_EXPIRED\)$/m,
    );
  });

  it('a token the server says has expired, or was signed out elsewhere: exit 4 SESSION_EXPIRED', async () => {
    await signIn();
    const { jwtSecret } = JSON.parse(
      readFileSync(join(home.dir, 'sandbox', 'secrets.json'), 'utf8'),
    ) as { jwtSecret: string };
    const session = savedSession();
    const eightDaysAgo = () => new Date(Date.now() - 8 * 24 * 3_600_000);
    const stale = await createTokenService({
      secret: jwtSecret,
      audience: JWT_SANDBOX_AUDIENCE,
      now: eightDaysAgo,
    }).issue({
      userId: session.userId as string,
      email,
      walletId: session.walletId as string,
      walletAddress: session.address as string,
    });
    secrets.push(stale.token);
    // the file still says it is valid: only the server knows better
    rewriteSession({ token: stale.token });
    const r = await cli(['wallet', '--sandbox', '--json']);
    expect(r.code).toBe(4);
    expect(r.doc.error).toMatchObject({
      code: 'SESSION_EXPIRED',
      message: expect.stringContaining('TOKEN_EXPIRED'),
    });

    // a token signed out elsewhere (a copy of it was): exit 4 naming TOKEN_REVOKED
    const fresh = await createTokenService({
      secret: jwtSecret,
      audience: JWT_SANDBOX_AUDIENCE,
    }).issue({
      userId: session.userId as string,
      email,
      walletId: session.walletId as string,
      walletAddress: session.address as string,
    });
    secrets.push(fresh.token);
    rewriteSession({ token: fresh.token, expiresAt: fresh.expiresAt });
    expect((await cli(['wallet', '--sandbox', '--json'])).code).toBe(0);
    const out = await fetch(`${ready.serverUrl}/auth/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${fresh.token}` },
      body: '{}',
    });
    expect(out.status).toBe(200);
    const revoked = await cli(['wallet', '--sandbox', '--json']);
    expect(revoked.code).toBe(4);
    expect(revoked.doc.error).toMatchObject({
      code: 'SESSION_EXPIRED',
      message: expect.stringContaining('TOKEN_REVOKED'),
    });
    // logging out locally afterwards: nothing left to end on the server, the file goes
    expect((await cli(['logout', '--json'])).doc).toEqual({
      loggedOut: true,
      email,
      serverSignOut: 'already-ended',
    });
  });

  it("a session file whose address is not its key's account is refused: exit 4 ADDRESS_MISMATCH", async () => {
    await signIn();
    // sign-in remembered the key's account (cli/core/address-memo.ts): the check reads it there
    const { address, publicKey } = savedSession() as { address: string; publicKey: string };
    const memo = join(home.dir, 'accounts.json');
    const remembered = JSON.parse(readFileSync(memo, 'utf8')) as {
      addresses: Record<string, string>;
    };
    expect(remembered.addresses[padHash(publicKey)]).toBe(padHash(address));
    expect(statSync(memo).mode & 0o777).toBe(0o600);
    const stranger = argentAccountAddress(getStarkKey(utils.randomPrivateKey()));
    rewriteSession({ address: stranger });
    const r = await cli(['wallet', '--sandbox', '--json']);
    expect(r.code).toBe(4);
    expect(r.doc.error).toMatchObject({
      code: 'ADDRESS_MISMATCH',
      message: expect.stringContaining('sign in again'),
    });
  });

  it('plain mode with a sandbox on the configured URL: status says it is not usable, login refuses', async () => {
    const plain = {
      FINANCE_TUI_SERVER_URL: ready.serverUrl,
      FINANCE_TUI_AGGREGATOR_URL: 'http://127.0.0.1:9',
    };
    const status = await cli(['status', '--json'], plain);
    expect(status.code).toBe(0);
    expect(status.doc).toMatchObject({
      sandbox: false,
      network: 'mainnet',
      server: { url: ready.serverUrl, reachable: true, sandbox: true, usable: false },
    });
    const human = await cli(['status'], plain);
    expect(human.stdout).toMatch(/Auth server\s+\S+\s+NOT USABLE — a sandbox answers at this URL/);
    const login = await cli(['login', email, '--json'], plain);
    expect(login.code).toBe(1);
    expect(login.doc.error).toMatchObject({
      code: 'CONFIG_ERROR',
      message: expect.stringContaining('is a sandbox'),
    });
  });

  // After every test, whichever ran and in whatever order: no code, token or secret it saw
  // reached any output or the sandbox log.
  afterEach(async () => {
    if (secrets.length === 0) return;
    // the log leaves in batches, in order: once a /health sent now (or any later) is logged,
    // every request of the test before it is too
    const healthLines = () => readFileSync(ready.logFile, 'utf8').split('"url":"/health"').length;
    const before = healthLines();
    await fetch(`${ready.serverUrl}/health`);
    await vi.waitFor(() => expect(healthLines()).toBeGreaterThan(before), { timeout: 10_000 });
    const logs = readFileSync(ready.logFile, 'utf8');
    for (const secret of secrets) {
      // a code is printed by `sandbox outbox` (that is its job) and nowhere else
      const outboxPrints =
        transcript.split(`${secret}\n`).length -
        1 +
        (transcript.split(`"code":"${secret}"`).length - 1);
      expect(transcript.split(secret).length - 1 - outboxPrints).toBe(0);
      // as a value of its own: a 6-digit code may stand by chance inside a timestamp or a duration
      const alone = new RegExp(
        `(?<![0-9.])${secret.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![0-9])`,
      );
      expect(logs).not.toMatch(alone);
    }
  });
});
