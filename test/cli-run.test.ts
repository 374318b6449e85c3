/**
 * The program in-process: run(argv, io) with captured streams, for exit codes and JSON error
 * documents — usage mistakes, sessions refused for each reason, a corrupt session file, a
 * cancelled run — and the account commands against a stand-in auth server on loopback (for the
 * answers a real server should never give: a mismatched address, an expired token, a fresh
 * token from /wallet/create).
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { getStarkKey, utils } from '@scure/starknet';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { saveSession, type Session } from '../cli/core/session.js';
import { run } from '../cli/run.js';
import { argentAccountAddress } from '../shared/starknet.js';
import { cleanEnv, tempHome } from './helpers/process.js';

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
  json: { error?: { code: string; message: string; details?: Record<string, unknown> } } & Record<
    string,
    unknown
  >;
}

async function runIn(
  argv: string[],
  env: NodeJS.ProcessEnv,
  signal = new AbortController().signal,
): Promise<Outcome> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const code = await run(argv, {
    env,
    stdout,
    stderr,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    signal,
  });
  let json: Outcome['json'] = {};
  try {
    json = JSON.parse(out) as Outcome['json'];
  } catch {
    // human output
  }
  return { code, stdout: out, stderr: err, json };
}

function keyPair(): { publicKey: string; address: string } {
  const publicKey = getStarkKey(utils.randomPrivateKey());
  return { publicKey, address: argentAccountAddress(publicKey) };
}

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.test-token-payload-never-shown.sig';

function sessionFor(serverUrl: string, overrides: Partial<Session> = {}): Session {
  const { publicKey, address } = keyPair();
  return {
    email: 'alice@example.com',
    token: TOKEN,
    expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    userId: 'user-1',
    walletId: 'wallet-1',
    address,
    publicKey,
    serverUrl,
    network: 'mainnet',
    sandbox: false,
    ...overrides,
  };
}

let home: ReturnType<typeof tempHome>;
let env: NodeJS.ProcessEnv;
const CONFIGURED = 'http://127.0.0.1:9';

beforeAll(() => {
  home = tempHome();
  env = cleanEnv({
    FINANCE_TUI_HOME: home.dir,
    FINANCE_TUI_SERVER_URL: CONFIGURED,
    FINANCE_TUI_AGGREGATOR_URL: 'http://127.0.0.1:9',
  });
});
afterAll(() => home.cleanup());
afterEach(async () => {
  await runIn(['logout'], env);
});

describe('run(argv, io): usage', () => {
  it('--version and --help exit 0', async () => {
    expect((await runIn(['--version'], env)).code).toBe(0);
    const help = await runIn(['--help'], env);
    expect(help.code).toBe(0);
    for (const code of ['0 ', '1 ', '2 ', '4 ', '130', '143'])
      expect(help.stdout).toContain(`  ${code}`);
  });

  it('an unknown command: USAGE_ERROR, exit 1, with the closest command', async () => {
    const r = await runIn(['qoute', '1', 'ETH', 'USDC', '--json'], env);
    expect(r.code).toBe(1);
    expect(r.json.error).toMatchObject({
      code: 'USAGE_ERROR',
      message: expect.stringContaining('did you mean quote?'),
    });
  });

  it('a mistyped flag: USAGE_ERROR with the closest flag', async () => {
    const r = await runIn(['quote', '1', 'ETH', 'USDC', '--slipage', '2', '--json'], env);
    expect(r.code).toBe(1);
    expect(r.json.error?.message).toBe("Unknown option '--slipage'; did you mean --slippage?");
  });

  it('a run whose signal is already aborted ends CANCELLED, exit 2', async () => {
    const controller = new AbortController();
    controller.abort();
    const r = await runIn(['quote', '1', 'ETH', 'USDC', '--json'], env, controller.signal);
    expect(r.code).toBe(2);
    expect(r.json).toEqual({ error: { code: 'CANCELLED', message: 'cancelled' } });
  });

  it('login with something that is not an e-mail, verify with a malformed code: exit 1, the code not echoed', async () => {
    expect((await runIn(['login', 'not-an-email', '--json'], env)).json.error?.code).toBe(
      'USAGE_ERROR',
    );
    const r = await runIn(['verify', 'alice@example.com', '12345x', '--json'], env);
    expect(r.code).toBe(1);
    expect(r.json.error?.code).toBe('USAGE_ERROR');
    expect(r.stdout).not.toContain('12345x');
  });

  it('sandbox outbox with no sandbox running: SERVER_UNREACHABLE naming the way to start one, nothing started', async () => {
    const r = await runIn(['sandbox', 'outbox', 'alice@example.com', '--json'], env);
    expect(r.code).toBe(1);
    expect(r.json.error).toMatchObject({
      code: 'SERVER_UNREACHABLE',
      message: expect.stringContaining('finance-tui sandbox'),
    });
    expect(existsSync(join(home.dir, 'sandbox-child.log'))).toBe(false);
  });
});

describe('run(argv, io): the saved session', () => {
  it('no session: AUTH_REQUIRED, exit 4, saying how to sign in', async () => {
    const r = await runIn(['wallet', '--json'], env);
    expect(r.code).toBe(4);
    expect(r.json.error).toMatchObject({
      code: 'AUTH_REQUIRED',
      message: expect.stringContaining('finance-tui login <email>'),
    });
  });

  it('expired by expiresAt: SESSION_EXPIRED, exit 4, with the way back in', async () => {
    await saveSession(env, sessionFor(CONFIGURED, { expiresAt: '2020-01-01T00:00:00.000Z' }));
    const r = await runIn(['wallet', '--json'], env);
    expect(r.code).toBe(4);
    expect(r.json.error).toMatchObject({
      code: 'SESSION_EXPIRED',
      message: expect.stringContaining('finance-tui login alice@example.com'),
    });
  });

  it("an address that is not its key's account: ADDRESS_MISMATCH, exit 4", async () => {
    const other = keyPair();
    await saveSession(env, sessionFor(CONFIGURED, { address: other.address }));
    const r = await runIn(['wallet', '--json'], env);
    expect(r.code).toBe(4);
    expect(r.json.error).toMatchObject({
      code: 'ADDRESS_MISMATCH',
      message: expect.stringContaining('session.json'),
    });
  });

  it('a session of another server, or of the sandbox: AUTH_REQUIRED, exit 4', async () => {
    await saveSession(env, sessionFor('http://127.0.0.1:4000'));
    const r = await runIn(['wallet', '--json'], env);
    expect(r.code).toBe(4);
    expect(r.json.error).toMatchObject({
      code: 'AUTH_REQUIRED',
      message: expect.stringContaining('mainnet at http://127.0.0.1:4000'),
    });
    await saveSession(env, sessionFor('http://127.0.0.1:5000', { sandbox: true }));
    const s = await runIn(['wallet', '--json'], env);
    expect(s.json.error).toMatchObject({
      code: 'AUTH_REQUIRED',
      message: expect.stringContaining('is for the sandbox'),
    });
  });

  it('a corrupt session file: CONFIG_ERROR naming the file, quoting nothing from it; logout still clears it', async () => {
    const file = join(home.dir, 'session.json');
    writeFileSync(file, `{"session": {"token": "${TOKEN}", `, { mode: 0o600 });
    const r = await runIn(['wallet', '--json'], env);
    expect(r.code).toBe(1);
    expect(r.json.error).toMatchObject({
      code: 'CONFIG_ERROR',
      message: expect.stringContaining(file),
    });
    expect(r.stdout).not.toContain('test-token-payload');
    writeFileSync(file, JSON.stringify({ session: { email: 'a@b.co', token: 42 } }), {
      mode: 0o600,
    });
    const wrongShape = await runIn(['wallet', '--json'], env);
    expect(wrongShape.json.error).toMatchObject({
      code: 'CONFIG_ERROR',
      message: expect.stringContaining(file),
    });
    expect((await runIn(['logout', '--json'], env)).code).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it('logout: removes the session once, then says there was none', async () => {
    await saveSession(env, sessionFor(CONFIGURED));
    expect(statSync(join(home.dir, 'session.json')).mode & 0o777).toBe(0o600);
    // the configured server is not running: the file goes all the same, with a warning saying what it means
    const out = await runIn(['logout', '--json'], env);
    expect(out.code).toBe(0);
    expect(out.json).toEqual({
      loggedOut: true,
      email: 'alice@example.com',
      serverSignOut: 'not-reached',
      warning: expect.stringMatching(
        /^the server was not told \(NETWORK_ERROR: .*\): a copy of this session's token would keep working there until 20/,
      ),
    });
    expect(out.stdout).not.toContain(TOKEN);
    expect(existsSync(join(home.dir, 'session.json'))).toBe(false);
    expect((await runIn(['logout', '--json'], env)).json).toEqual({ loggedOut: false });
    await saveSession(
      env,
      sessionFor(CONFIGURED, { expiresAt: new Date(Date.now() - 1000).toISOString() }),
    );
    const human = await runIn(['logout'], env);
    expect(human.stdout).toBe(
      'Signed out alice@example.com: the saved session was removed. Its token had already ended.\n',
    );
  });
});

describe('run(argv, io) against a stand-in auth server', () => {
  let server: Server;
  let url: string;
  let localEnv: NodeJS.ProcessEnv;
  let reply: (path: string, body: Record<string, unknown>, response: ServerResponse) => void;
  const wallet = keyPair();
  const fresh = keyPair();

  const json = (response: ServerResponse, status: number, body: unknown): void => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };

  /** /auth/verify's answer for a wallet at `address` with key `publicKey` (a pair, or not). */
  const verifyAnswer =
    (address: string, publicKey: string) =>
    (_path: string, _body: unknown, response: ServerResponse) =>
      json(response, 200, {
        token: TOKEN,
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
        userId: 'u1',
        walletId: 'w1',
        walletAddress: address,
        walletPublicKey: publicKey,
        isExisting: true,
      });

  beforeAll(async () => {
    server = createServer((request, response) => {
      let raw = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (raw += chunk));
      request.on('end', () => {
        if (request.url === '/health') return json(response, 200, { status: 'ok' });
        if (request.url === '/')
          return json(response, 200, { name: 'stand-in', version: '9.9.9', status: 'ok' });
        reply(request.url ?? '', raw ? (JSON.parse(raw) as Record<string, unknown>) : {}, response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    localEnv = { ...env, FINANCE_TUI_SERVER_URL: url };
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('verify: a server pairing an address with another key is refused and nothing is saved', async () => {
    reply = verifyAnswer(fresh.address, wallet.publicKey);
    const r = await runIn(['verify', 'alice@example.com', '123456', '--json'], localEnv);
    expect(r.code).toBe(4);
    expect(r.json.error?.code).toBe('ADDRESS_MISMATCH');
    expect(existsSync(join(home.dir, 'session.json'))).toBe(false);
    expect(r.stdout).not.toContain('123456');
  });

  it('verify: a matching answer is saved (0600); the document carries no token', async () => {
    reply = verifyAnswer(wallet.address, wallet.publicKey);
    const r = await runIn(['verify', 'Alice@Example.com', '123456', '--json'], localEnv);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({
      email: 'alice@example.com',
      address: wallet.address,
      network: 'mainnet',
      sandbox: false,
      serverUrl: url,
    });
    expect(r.stdout).not.toContain(TOKEN);
    const file = join(home.dir, 'session.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      session: { token: TOKEN, walletId: 'w1' },
    });
  });

  it('a 401 TOKEN_EXPIRED from the server ends the session: SESSION_EXPIRED, exit 4', async () => {
    await saveSession(localEnv, sessionFor(url));
    reply = (_path, _body, response) =>
      json(response, 401, {
        error: { code: 'TOKEN_EXPIRED', message: 'Token expired, sign in again', requestId: 'r1' },
      });
    const r = await runIn(['wallet', '--json'], localEnv);
    expect(r.code).toBe(4);
    expect(r.json.error).toMatchObject({
      code: 'SESSION_EXPIRED',
      message: expect.stringContaining('finance-tui login alice@example.com'),
    });
  });

  it('wallet --create stores the fresh token and wallet it returns', async () => {
    await saveSession(localEnv, sessionFor(url));
    const seen: string[] = [];
    reply = (path, _body, response) => {
      seen.push(path);
      json(response, 200, {
        wallet: { id: 'w-new', address: fresh.address, publicKey: fresh.publicKey },
        token: 'eyJ.fresh-token.sig',
        expiresAt: new Date(Date.now() + 7_200_000).toISOString(),
      });
    };
    const r = await runIn(['wallet', '--create', '--json'], localEnv);
    expect(r.code).toBe(0);
    expect(seen).toEqual(['/wallet/create']);
    expect(r.json).toMatchObject({
      created: true,
      wallet: { id: 'w-new', address: fresh.address },
    });
    expect(JSON.parse(readFileSync(join(home.dir, 'session.json'), 'utf8'))).toMatchObject({
      session: {
        token: 'eyJ.fresh-token.sig',
        walletId: 'w-new',
        address: fresh.address,
        publicKey: fresh.publicKey,
      },
    });
  });

  it('429 on login: RATE_LIMITED with retryAfterSeconds in the document, exit 1', async () => {
    reply = (_path, _body, response) => {
      response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '37' });
      response.end(
        JSON.stringify({
          error: { code: 'RATE_LIMITED', message: 'Rate limit exceeded, retry in 37 seconds' },
        }),
      );
    };
    const r = await runIn(['login', 'alice@example.com', '--json'], localEnv);
    expect(r.code).toBe(1);
    expect(r.json.error).toMatchObject({
      code: 'RATE_LIMITED',
      details: { retryAfterSeconds: 37 },
    });
  });
});
