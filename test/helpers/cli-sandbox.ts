/**
 * A sandbox (the bin's `sandbox` command, run in this worker: test/helpers/sandbox-in-process.ts)
 * and two users signed in through the built program (login → the outbox's code → verify), each
 * with their own data folder pointing at that same sandbox: what the whole-program tests of the
 * money commands start from. The commands under test reach it over HTTP on loopback, as they reach
 * a sandbox in a process of its own.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runInProcess } from './in-process.js';
import { cleanEnv, runBin, tempHome } from './process.js';
import { startSandboxInProcess } from './sandbox-in-process.js';

export type Doc = Record<string, unknown> & {
  error?: { code: string; message: string; details?: Record<string, unknown> };
};

interface CliResult {
  code: number | null;
  doc: Doc;
  stdout: string;
  stderr: string;
}

/** `doc` is stdout parsed when it is JSON, else {}. */
function withDoc(r: { code: number | null; stdout: string; stderr: string }): CliResult {
  let doc: Doc = {};
  try {
    doc = JSON.parse(r.stdout) as Doc;
  } catch {
    // human output
  }
  return { code: r.code, doc, stdout: r.stdout, stderr: r.stderr };
}

/** The bin, spawned, with `home` as its data folder: for tests whose subject is the process. */
export async function cli(home: string, args: string[]): Promise<CliResult> {
  return withDoc(await runBin(args, cleanEnv({ FINANCE_TUI_HOME: home })));
}

/**
 * The same program and environment as `cli`, run in this worker (test/helpers/in-process.ts): for
 * tests whose subject is the command's result — what it moved, planned, refused or recorded
 * (docs/decisions.md "Bin runs in-process where the result is the subject").
 */
export async function cliInProcess(home: string, args: string[]): Promise<CliResult> {
  return withDoc(await runInProcess(args, cleanEnv({ FINANCE_TUI_HOME: home })));
}

/**
 * `sandbox price <token> <usd> [--only <feed>]` on the sandbox `home` names, in this worker, which
 * must succeed: a test's set-up moving the emulated oracle. Returns its JSON document.
 */
export async function setSandboxPrice(
  home: string,
  token: string,
  usd: string,
  only?: string,
): Promise<Doc> {
  const priced = await cliInProcess(home, [
    'sandbox',
    'price',
    token,
    usd,
    ...(only === undefined ? [] : ['--only', only]),
    '--json',
  ]);
  expect(priced.code, priced.stderr).toBe(0);
  return priced.doc;
}

/**
 * Signs `email` in on the sandbox `home`'s sandbox.json names: the code asked for and read over
 * HTTP (the server's `/auth/login`, the identity emulator's outbox: what the `login` and `sandbox
 * outbox` commands send, tested through the bin in cli-session.test.ts), then the built program's
 * `verify`, in this worker (cliInProcess; the bin's own `verify` is tested in cli-session), which
 * checks the wallet and saves the session as a person's would be (docs/benchmarks.md "Issue 36").
 */
export async function signIn(home: string, email: string): Promise<Doc> {
  const { serverUrl, identityUrl } = JSON.parse(
    readFileSync(join(home, 'sandbox.json'), 'utf8'),
  ) as { serverUrl: string; identityUrl: string };
  const login = await fetch(`${serverUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  expect(login.status, await login.text()).toBe(200);
  const outbox = await fetch(`${identityUrl}/sandbox/outbox/${encodeURIComponent(email)}`);
  expect(outbox.status).toBe(200);
  const { code } = (await outbox.json()) as { code: string };
  const verified = await cliInProcess(home, ['verify', email, code, '--sandbox', '--json']);
  expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  return verified.doc;
}

export interface TwoUsers {
  aliceHome: string;
  bobHome: string;
  bobAddress: string;
  /** the running sandbox's URLs, from its sandbox.json */
  urls: { aggregatorUrl: string; chainUrl: string; rpcUrl: string; serverUrl: string };
  close(): Promise<void>;
}

/**
 * Starts the sandbox in this worker (alice's data folder; shaped like `options.network`, mainnet
 * by default), copies its sandbox.json to bob's, signs both in. The sandbox is the set-up here,
 * not the subject (docs/decisions.md "Sandboxes in the worker where they are the set-up").
 */
export async function startTwoUsers(
  options: { network?: 'mainnet' | 'sepolia' } = {},
): Promise<TwoUsers> {
  const alice = tempHome();
  const bob = tempHome();
  const network = options.network === undefined ? [] : ['--network', options.network];
  const sandbox = startSandboxInProcess(
    ['sandbox', '--port', '0', '--json', ...network],
    cleanEnv({ FINANCE_TUI_HOME: alice.dir }),
  );
  const close = async (): Promise<void> => {
    sandbox.kill();
    await sandbox.exited;
    alice.cleanup();
    bob.cleanup();
  };
  try {
    // no deadline of its own: a loaded machine may take longer than any fixed one, and the
    // caller's hook timeout bounds the wait (a sandbox whose run ends first fails it at once)
    await sandbox.waitForLine((line) => line.includes('"ready"'), Infinity);
    // bob's data folder finds the same running sandbox
    copyFileSync(join(alice.dir, 'sandbox.json'), join(bob.dir, 'sandbox.json'));
    // one after the other: side by side, on a loaded machine, the sandbox busy making one
    // wallet missed the other bin's 1.5 s probe of it (SERVER_UNREACHABLE)
    await signIn(alice.dir, 'alice@example.com');
    const bobAddress = (await signIn(bob.dir, 'bob@example.com')).address as string;
    const urls = JSON.parse(
      readFileSync(join(alice.dir, 'sandbox.json'), 'utf8'),
    ) as TwoUsers['urls'];
    return { aliceHome: alice.dir, bobHome: bob.dir, bobAddress, urls, close };
  } catch (error) {
    await close();
    throw error;
  }
}
