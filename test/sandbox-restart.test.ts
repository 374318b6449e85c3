/**
 * Edge 1 of issue 14: signing after a restart. Signed in on a sandbox, the sandbox stops and a
 * new one starts on new ports with the same data folder: the saved session signs through the
 * server that runs now (its /sign/hash), never the old URL — for the headless `send --yes` (the
 * built bin) and for the app's services port alike. The sandboxes, the set-up here, are the bin's
 * `sandbox` command run in this worker (test/helpers/sandbox-in-process.ts); the clients talk to
 * them over loopback, the headless one from a process of its own.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../cli/ui/adapter.js';
import { cli, signIn } from './helpers/cli-sandbox.js';
import { cleanEnv, tempHome } from './helpers/process.js';
import { type InProcessSandbox, startSandboxInProcess } from './helpers/sandbox-in-process.js';

const RECIPIENT = `0x0${'5'.repeat(63)}`;

interface SandboxDoc {
  serverUrl: string;
  chainUrl: string;
  chainInstance: string;
}

describe('a sandbox restarted on new ports keeps signing', () => {
  const home = tempHome();
  const env = cleanEnv({ FINANCE_TUI_HOME: home.dir });
  let sandbox: InProcessSandbox | undefined;
  let address: string;
  let before: SandboxDoc;
  let after: SandboxDoc;

  const start = async (): Promise<SandboxDoc> => {
    sandbox = startSandboxInProcess(['sandbox', '--port', '0', '--json'], env);
    await sandbox.waitForLine((line) => line.includes('"ready"'), 25_000);
    return JSON.parse(readFileSync(join(home.dir, 'sandbox.json'), 'utf8')) as SandboxDoc;
  };

  beforeAll(async () => {
    before = await start();
    address = (await signIn(home.dir, 'carol@example.com')).address as string;
    sandbox?.kill();
    await sandbox?.exited;
    after = await start();
    // the new sandbox is a new, empty chain: fund the wallet there
    const funded = await fetch(`${after.chainUrl}/sandbox/chain/fund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address }),
    });
    expect(funded.status).toBe(200);
  }, 90_000);

  afterAll(async () => {
    sandbox?.kill();
    await sandbox?.exited;
    home.cleanup();
  }, 60_000);

  it('the new sandbox is on other ports, and is another chain', () => {
    expect(after.serverUrl).not.toBe(before.serverUrl);
    expect(after.chainInstance).not.toBe(before.chainInstance);
  }, 60_000);

  it('headless: `send … --yes` signs through the server that runs now', async () => {
    const r = await cli(home.dir, [
      'send',
      '0.5',
      'STRK',
      RECIPIENT,
      '--yes',
      '--sandbox',
      '--json',
    ]);
    expect(r.stderr).not.toContain('ECONNREFUSED');
    expect(r.code).toBe(0);
    expect((r.doc.transaction as { status: string }).status).toBe('SUCCEEDED');
  }, 60_000);

  it("the app's services port: the saved session plans and signs a send", async () => {
    const signal = new AbortController().signal;
    const services = createServices({ env, sandbox: true });
    try {
      await services.connect({ signal });
      const session = await services.currentSession();
      expect(session).not.toBeNull();
      if (session === null) return;
      const plan = await services.plan(
        {
          kind: 'send',
          slippageBps: 100,
          params: { token: 'STRK', amount: '0.25', to: RECIPIENT },
        },
        session,
        { signal },
      );
      const receipt = await services.execute(plan, session, { signal, onStep: () => undefined });
      expect(receipt.status).toBe('succeeded');
      expect(receipt.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    } finally {
      await services.close();
    }
  }, 60_000);
});
