/**
 * Ctrl+C and SIGTERM through whole processes: a cancelled command prints the CANCELLED document
 * and exits 2; children it started never outlive it, even when it is killed outright.
 * The tests run side by side, each with its own processes, data folder and (where it counts the
 * requests that reach one) aggregator emulator: most of their time is a child's start
 * (docs/decisions.md "A file's independent process tests run side by side").
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { getStarkKey, utils } from '@scure/starknet';
import { CLOSE_GRACE_MS as SANDBOX_GRACE_MS } from '../cli/commands/sandbox.js';
import { CLOSE_GRACE_MS as SERVE_GRACE_MS } from '../cli/commands/serve.js';
import { saveSession, type Session } from '../cli/core/session.js';
import { CHILD_STOP_GRACE_MS } from '../cli/platform/child.js';
import { HARD_STOP_AFTER_CUT_MS } from '../server/main.js';
import { buildAggregatorEmulator } from '../sandbox/aggregator/app.js';
import { argentAccountAddress } from '../shared/starknet.js';
import { cleanEnv, spawnBin, tempHome } from './helpers/process.js';

const SERVER_URL = 'http://127.0.0.1:9';

/** A saved session for `serverUrl` whose address is its key's account (as `verify` would save it). */
function sessionFor(serverUrl: string): Session {
  const publicKey = getStarkKey(utils.randomPrivateKey());
  return {
    email: 'alice@example.com',
    token: 'eyJhbGciOiJIUzI1NiJ9.signals-test.sig',
    expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    userId: 'did:privy:signals',
    walletId: 'wallet-signals',
    address: argentAccountAddress(publicKey),
    publicKey,
    serverUrl,
    network: 'mainnet',
    sandbox: false,
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.concurrent('cancelling a headless command', () => {
  const aggregators: FastifyInstance[] = [];
  const home = tempHome();

  afterAll(async () => {
    await Promise.all(aggregators.map((aggregator) => aggregator.close()));
    home.cleanup();
  });

  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    it(`${signal} during a request: one CANCELLED document, exit 2`, async ({ expect }) => {
      // its own slow aggregator: the request it waits for is its command's, no other test's
      const aggregator = await buildAggregatorEmulator({ faults: { latencyMs: 20_000 } });
      aggregators.push(aggregator);
      const aggregatorUrl = await aggregator.listen({ host: '127.0.0.1', port: 0 });
      const before = aggregator.faults.requests;
      const proc = spawnBin(
        ['quote', '100', 'USDC', 'ETH', '--json'],
        cleanEnv({ FINANCE_TUI_HOME: home.dir, FINANCE_TUI_AGGREGATOR_URL: aggregatorUrl }),
      );
      await vi.waitFor(() => expect(aggregator.faults.requests).toBeGreaterThan(before), {
        timeout: 10_000,
        interval: 20,
      });
      proc.kill(signal);
      const { code } = await proc.exited;
      expect(code).toBe(2);
      expect(JSON.parse(proc.stdout())).toEqual({
        error: { code: 'CANCELLED', message: 'cancelled' },
      });
    });
  }
});

describe.concurrent('sharing the signals with other libraries', () => {
  let aggregator: FastifyInstance;
  let aggregatorUrl: string;
  const home = tempHome();
  const preload = fileURLToPath(new URL('./fixtures/foreign-sigint.mjs', import.meta.url));

  beforeAll(async () => {
    aggregator = await buildAggregatorEmulator({ faults: { latencyMs: 20_000 } });
    aggregatorUrl = await aggregator.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    const closing = aggregator.close();
    aggregator.server.closeAllConnections();
    await closing;
    home.cleanup();
  });

  it("Ctrl+C cancels cleanly; another library's SIGINT listener runs and stays", async ({
    expect,
  }) => {
    // `balance` reads the session before it asks the RPC, here the slow emulator: a signed-in
    // session for the configured server first
    const env = cleanEnv({
      FINANCE_TUI_HOME: home.dir,
      FINANCE_TUI_SERVER_URL: SERVER_URL,
      FINANCE_TUI_RPC_URL: `${aggregatorUrl}/rpc`,
    });
    await saveSession(env, sessionFor(SERVER_URL));
    const before = aggregator.faults.requests;
    const proc = spawnBin(['balance', '--json'], env, undefined, {
      nodeArgs: ['--import', preload],
    });
    await proc.stderrIncludes('foreign listener added');
    await vi.waitFor(() => expect(aggregator.faults.requests).toBeGreaterThan(before), {
      timeout: 10_000,
      interval: 20,
    });
    proc.kill('SIGINT');
    const { code } = await proc.exited;
    expect(code).toBe(2);
    expect(JSON.parse(proc.stdout())).toEqual({
      error: { code: 'CANCELLED', message: 'cancelled' },
    });
    expect(proc.stderr().match(/foreign SIGINT listener ran/g)).toHaveLength(1);
    expect(proc.stderr()).toContain('at exit: foreign kept true');
  });
});

describe.concurrent('a sandbox started for a command', () => {
  // each test its own data folder: a sandbox.json one test left behind must not be the next
  // test's "sandbox is up" (it names a process that is gone)
  const homes: Array<ReturnType<typeof tempHome>> = [];
  afterAll(() => homes.forEach((home) => home.cleanup()));

  /** Start `quote --sandbox` against a slow sandbox and wait until its child is up. */
  async function startQuote(): Promise<{
    proc: ReturnType<typeof spawnBin>;
    childPid: number;
    file: string;
  }> {
    const home = tempHome();
    homes.push(home);
    const proc = spawnBin(
      ['quote', '100', 'USDC', 'ETH', '--sandbox', '--json'],
      cleanEnv({ FINANCE_TUI_HOME: home.dir, FINANCE_TUI_SANDBOX_LATENCY_MS: '20000' }),
    );
    const file = join(home.dir, 'sandbox.json');
    const info = await vi.waitFor(
      () => {
        expect(existsSync(file)).toBe(true);
        return JSON.parse(readFileSync(file, 'utf8')) as { pid: number };
      },
      { timeout: 20_000, interval: 50 },
    );
    return { proc, childPid: info.pid, file };
  }

  it('the command waits for the sandbox longer than the sandbox may take to stop itself', ({
    expect,
  }) => {
    // a kill before the sandbox's own bounded stop ends cuts a stop running to plan
    expect(CHILD_STOP_GRACE_MS).toBeGreaterThan(SANDBOX_GRACE_MS + HARD_STOP_AFTER_CUT_MS);
    expect(CHILD_STOP_GRACE_MS).toBeGreaterThan(SERVE_GRACE_MS + HARD_STOP_AFTER_CUT_MS);
  });

  it('is stopped when the command is cancelled (SIGTERM): exit 2, child gone, sandbox.json removed', async ({
    expect,
  }) => {
    const { proc, childPid, file } = await startQuote();
    expect(alive(childPid)).toBe(true);
    proc.kill('SIGTERM');
    // the command exits only after its child has exited and its file is gone
    expect((await proc.exited).code).toBe(2);
    expect(JSON.parse(proc.stdout())).toMatchObject({ error: { code: 'CANCELLED' } });
    expect(alive(childPid)).toBe(false);
    expect(existsSync(file)).toBe(false);
  });

  it('a sandbox that died (SIGKILL) leaves no sandbox.json once the command has ended', async ({
    expect,
  }) => {
    const { proc, childPid, file } = await startQuote();
    process.kill(childPid, 'SIGKILL');
    expect((await proc.exited).code).not.toBe(0);
    expect(alive(childPid)).toBe(false);
    expect(existsSync(file)).toBe(false);
  });

  it('stops itself when the command is killed outright (SIGKILL)', async ({ expect }) => {
    const { proc, childPid, file } = await startQuote();
    proc.kill('SIGKILL');
    await proc.exited;
    // the sandbox removes its file before it exits: wait for the exit, then look
    await vi.waitFor(() => expect(alive(childPid)).toBe(false), { timeout: 20_000, interval: 50 });
    expect(existsSync(file)).toBe(false);
  });
});
