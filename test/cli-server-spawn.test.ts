/**
 * Starting the auth server for a command (docs/architecture.md "Client behaviour"), through
 * whole processes: nothing answers at a loopback server URL → `finance-tui serve` is started as
 * a child with the user's environment, its health awaited, its logs kept in the data folder,
 * and it is stopped when the command exits. A bad environment is refused before any spawn,
 * naming the variables and the sandbox; a remote URL that does not answer is
 * SERVER_UNREACHABLE, never a spawn. No traffic leaves the machine, nor even the loopback
 * interface: the "remote" address is 0.0.0.0 (not loopback to the client's rule, yet a
 * connection to it is answered by this machine's own stack), on a port nothing listens on.
 * The tests run side by side, each with its own data folder and server URL: most of their time
 * is the auth server's start and stop (docs/decisions.md "A file's independent process tests run
 * side by side").
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { buildIdentityEmulator } from '../sandbox/identity/app.js';
import { cleanEnv, closedPort, quietPort, runBin, tempHome } from './helpers/process.js';

const APP_ID = 'spawn-test-app';
const APP_SECRET = 'spawn-test-app-secret-value';
const JWT_SECRET = '-yvs1O8Dd809QI3z3H3DS6sechPj2vWF2DAG3n5ypJY';

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}

/** Makes the bin believe stderr is a terminal, so its progress lines show. */
const TTY_STDERR = `data:text/javascript,${encodeURIComponent("Object.defineProperty(process.stderr, 'isTTY', { value: true });")}`;

describe.concurrent('the auth server, started for a command', () => {
  const homes: Array<ReturnType<typeof tempHome>> = [];
  let identity: FastifyInstance;
  let identityUrl: string;

  /** ports handed out here: two tests side by side must not be given the same one */
  const taken = new Set<number>();
  /**
   * A test's own data folder and loopback server URL. The port is below the ephemeral range: no
   * other process's listen(0) or connection can take it while the tests start and stop servers
   * there (one that did made a login fail under load).
   */
  const own = async (): Promise<{ home: string; serverUrl: string }> => {
    const home = tempHome();
    homes.push(home);
    for (;;) {
      const port = await quietPort('127.0.0.1');
      if (taken.has(port)) continue;
      taken.add(port);
      return { home: home.dir, serverUrl: `http://127.0.0.1:${port}` };
    }
  };

  const serveEnv = (
    { home, serverUrl }: { home: string; serverUrl: string },
    extra: Record<string, string> = {},
  ) =>
    cleanEnv({
      FINANCE_TUI_HOME: home,
      FINANCE_TUI_SERVER_URL: serverUrl,
      IDENTITY_APP_ID: APP_ID,
      IDENTITY_APP_SECRET: APP_SECRET,
      JWT_SECRET,
      IDENTITY_AUTH_URL: `${identityUrl}/api/v1`,
      IDENTITY_API_URL: identityUrl,
      NODE_ENV: 'test',
      ...extra,
    });

  beforeAll(async () => {
    identity = await buildIdentityEmulator({ appId: APP_ID, appSecret: APP_SECRET });
    identityUrl = await identity.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await identity.close();
    homes.forEach((home) => home.cleanup());
  });

  it('loopback URL, nothing listening: serve is spawned, answers, logs to a file, and is gone after the command', async ({
    expect,
  }) => {
    const mine = await own();
    const { home, serverUrl } = mine;
    expect(await answers(`${serverUrl}/health`)).toBe(false);
    const login = await runBin(['login', 'dave@example.com', '--json'], serveEnv(mine), home);
    expect(login.code, login.stdout + login.stderr).toBe(0);
    expect(JSON.parse(login.stdout)).toMatchObject({
      email: 'dave@example.com',
      sent: true,
      serverUrl,
      network: 'mainnet',
      sandbox: false,
    });
    // the login went through the spawned server to the identity provider
    const mail = (await (
      await fetch(`${identityUrl}/sandbox/outbox/dave%40example.com`)
    ).json()) as { code: string };
    expect(mail.code).toMatch(/^[0-9]{6}$/);
    // its logs went to the data folder, never to the terminal
    const log = readFileSync(join(home, 'serve-child.log'), 'utf8');
    expect(log).toContain('/auth/login');
    expect(log).not.toContain(mail.code);
    expect(login.stderr).toBe('');
    // stopped when the command ended
    expect(await answers(`${serverUrl}/health`)).toBe(false);

    // and again for verify: a session bound to that URL
    const verify = await runBin(
      ['verify', 'dave@example.com', mail.code, '--json'],
      serveEnv(mine),
      home,
    );
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    expect(JSON.parse(verify.stdout)).toMatchObject({
      email: 'dave@example.com',
      serverUrl,
      sandbox: false,
    });
    expect(await answers(`${serverUrl}/health`)).toBe(false);
  });

  it('reports the start as progress on a terminal', async ({ expect }) => {
    const mine = await own();
    const { serverUrl } = mine;
    const { spawnBin } = await import('./helpers/process.js');
    const proc = spawnBin(['login', 'erin@example.com', '--json'], serveEnv(mine), mine.home, {
      nodeArgs: ['--import', TTY_STDERR],
    });
    expect((await proc.exited).code, proc.stdout() + proc.stderr()).toBe(0);
    expect(proc.stderr()).toContain(`starting the auth server at ${serverUrl}`);
  });

  it('serve without its required variables: CONFIG_ERROR naming them and the sandbox, nothing spawned', async ({
    expect,
  }) => {
    const { serverUrl } = await own();
    const bare = tempHome();
    try {
      const r = await runBin(
        ['login', 'dave@example.com', '--json'],
        cleanEnv({ FINANCE_TUI_HOME: bare.dir, FINANCE_TUI_SERVER_URL: serverUrl }),
        bare.dir,
      );
      expect(r.code).toBe(1);
      const { error } = JSON.parse(r.stdout) as { error: { code: string; message: string } };
      expect(error.code).toBe('CONFIG_ERROR');
      for (const name of ['IDENTITY_APP_ID', 'IDENTITY_APP_SECRET', 'JWT_SECRET', '--sandbox'])
        expect(error.message).toContain(name);
      expect(existsSync(join(bare.dir, 'serve-child.log'))).toBe(false);
    } finally {
      bare.cleanup();
    }
  });

  it('a remote-looking URL that does not answer: SERVER_UNREACHABLE, never a spawn', async ({
    expect,
  }) => {
    const bare = tempHome();
    try {
      // https: plain http to a non-loopback address is refused before anything is sent
      const remote = `https://0.0.0.0:${await closedPort('0.0.0.0')}`;
      const r = await runBin(
        ['login', 'dave@example.com', '--json'],
        serveEnv(await own(), { FINANCE_TUI_HOME: bare.dir, FINANCE_TUI_SERVER_URL: remote }),
        bare.dir,
      );
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout)).toMatchObject({
        error: { code: 'SERVER_UNREACHABLE', message: expect.stringContaining(remote) },
      });
      expect(existsSync(join(bare.dir, 'serve-child.log'))).toBe(false);
    } finally {
      bare.cleanup();
    }
  });
});
