/**
 * Whole-program tests of `quote` and `status`: the built bin (test/global-setup.ts builds dist),
 * a fresh FINANCE_TUI_HOME, and a real sandbox on loopback ports. A document, a table or a
 * refusal is the subject of most: the built program runs in this worker (runJson over
 * runInProcess); a sandbox started as the command's child, --help and the module traces spawn
 * the bin (runJsonSpawned; docs/decisions.md "Bin runs in-process where the result is the
 * subject"). The sandbox is the bin's `sandbox` command run in this worker too
 * (test/helpers/sandbox-in-process.ts).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from './helpers/in-process.js';
import { cleanEnv, runBin, runBinTracingModules, tempHome } from './helpers/process.js';
import { type InProcessSandbox, startSandboxInProcess } from './helpers/sandbox-in-process.js';

/** A clean environment with its own data folder. */
const envFor = (home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv =>
  cleanEnv({ FINANCE_TUI_HOME: home, ...extra });

/** stdout parsed when it is one JSON document. */
function withJson(r: { code: number | null; stdout: string; stderr: string }): {
  code: number | null;
  stdout: string;
  stderr: string;
  json: unknown;
} {
  let json: unknown;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    json = undefined;
  }
  return { ...r, json };
}

/** The built program in this worker, with `env`: a command whose result is the subject. */
const runJson = async (args: string[], env: NodeJS.ProcessEnv) =>
  withJson(await runInProcess(args, env));

/** The bin, spawned: a command that starts a child, or --help. */
const runJsonSpawned = async (args: string[], env: NodeJS.ProcessEnv) =>
  withJson(await runBin(args, env));

describe('finance-tui quote / status (process level)', () => {
  let home: ReturnType<typeof tempHome>;
  let sandbox: InProcessSandbox | undefined;

  beforeAll(async () => {
    home = tempHome();
    // One long-lived sandbox for the file: later --sandbox commands find it through sandbox.json.
    sandbox = startSandboxInProcess(['sandbox', '--port', '0', '--json'], envFor(home.dir));
    await sandbox.waitForLine((line) => line.includes('"ready"'), 25_000);
  });

  afterAll(async () => {
    if (sandbox) {
      sandbox.kill();
      await sandbox.exited;
    }
    home.cleanup();
  });

  it('quote --sandbox --json: one document with net output, fee, minimum, impact, route, gas', async () => {
    const r = await runJson(
      ['quote', '1.5', 'ETH', 'usdc', '--sandbox', '--json', '--slippage', '0.5'],
      envFor(home.dir),
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const doc = r.json as {
      sandbox: boolean;
      network: string;
      mode: string;
      slippage: { bps: number };
      quotes: Array<{
        amountIn: { baseUnits: string };
        expectedOutput: { baseUnits: string; symbol: string };
        grossOutput: { baseUnits: string };
        fee: { bps: number; amount: { baseUnits: string } };
        minimumReceived: { baseUnits: string };
        priceImpact: { bps: number } | null;
        route: Array<{ percent: string; hops: unknown[] }>;
        gas: { estimatedGasUsed: string | null };
      }>;
    };
    expect(doc).toMatchObject({
      sandbox: true,
      network: 'sandbox',
      mode: 'single',
      slippage: { bps: 50 },
    });
    const q = doc.quotes[0];
    if (q === undefined) throw new Error('no quote');
    expect(q.amountIn.baseUnits).toBe('1500000000000000000');
    expect(q.expectedOutput.symbol).toBe('USDC');
    const net = BigInt(q.expectedOutput.baseUnits);
    expect(net + BigInt(q.fee.amount.baseUnits)).toBe(BigInt(q.grossOutput.baseUnits));
    // the smaller of floor(net × (1 − s)) and the router minimum less its fee (both ≤ net)
    const min = BigInt(q.minimumReceived.baseUnits);
    expect(min <= (net * 9950n) / 10000n).toBe(true);
    expect((net * 9950n) / 10000n - min <= 2n).toBe(true);
    expect(q.priceImpact).not.toBeNull();
    expect(q.route.length).toBeGreaterThan(0);
    expect(q.gas.estimatedGasUsed).toMatch(/^[0-9]+$/);
  });

  it('quote --pairs: same output → batch, mixed outputs → parallel', async () => {
    const batch = await runJson(
      ['quote', '--pairs', '100 USDC>ETH, 5000 STRK>ETH', '--sandbox', '--json'],
      envFor(home.dir),
    );
    expect(batch.code).toBe(0);
    expect(batch.json).toMatchObject({
      mode: 'batch',
      quotes: [{ to: { symbol: 'ETH' } }, { to: { symbol: 'ETH' } }],
    });
    const mixed = await runJson(
      ['quote', '--pairs', '100 USDC>ETH, 5000 STRK>USDC, 0.1 WBTC>DAI', '--sandbox', '--json'],
      envFor(home.dir),
    );
    expect(mixed.code).toBe(0);
    expect(mixed.json).toMatchObject({ mode: 'parallel' });
    expect((mixed.json as { quotes: unknown[] }).quotes).toHaveLength(3);
  });

  it('human output is a readable table, and calls the sandbox the sandbox, never mainnet', async () => {
    const r = await runJson(['quote', '100', 'USDC', 'STRK', '--sandbox'], envFor(home.dir));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('SANDBOX');
    expect(r.stdout).toContain('Quote in the sandbox');
    expect(r.stdout).not.toMatch(/on mainnet/);
    expect(r.stdout).toMatch(/Minimum received\s+[0-9.]+ STRK/);
    expect(r.stdout).not.toMatch(/HIGH|warning/);
  });

  it.each([
    { amount: '100', warning: null, human: null },
    { amount: '1000000', warning: 'high', human: /^warning: high price impact \([0-9.]+%\)/m },
    { amount: '10000000', warning: 'very-high', human: /^!! VERY HIGH PRICE IMPACT: [0-9.]+%/m },
  ])('price impact of $amount USDC → ETH: warning $warning', async ({ amount, warning, human }) => {
    const doc = await runJson(
      ['quote', amount, 'USDC', 'ETH', '--sandbox', '--json'],
      envFor(home.dir),
    );
    expect(doc.code).toBe(0);
    const q = (
      doc.json as {
        quotes: Array<{ priceImpact: { bps: number }; priceImpactWarning: string | null }>;
      }
    ).quotes[0];
    expect(q?.priceImpactWarning).toBe(warning);
    const bps = q?.priceImpact.bps ?? 0;
    expect(
      warning === null ? bps <= 500 : warning === 'high' ? bps > 500 && bps <= 1500 : bps > 1500,
    ).toBe(true);
    const text = await runJson(['quote', amount, 'USDC', 'ETH', '--sandbox'], envFor(home.dir));
    if (human === null) expect(text.stdout).not.toMatch(/HIGH|warning/i);
    else expect(text.stdout).toMatch(human);
  });

  it.each([
    { name: 'unknown token', args: ['quote', '1', 'DOGE', 'USDC'], code: 'UNKNOWN_TOKEN' },
    {
      name: 'too many decimals',
      args: ['quote', '1.0000001', 'USDC', 'ETH'],
      code: 'INVALID_AMOUNT',
    },
    {
      name: 'bad slippage',
      args: ['quote', '1', 'ETH', 'USDC', '--slippage', '80'],
      code: 'INVALID_SLIPPAGE',
    },
    {
      name: 'four pairs',
      args: ['quote', '--pairs', '1 ETH>USDC, 1 ETH>USDC, 1 ETH>USDC, 1 ETH>USDC'],
      code: 'BATCH_LIMIT_EXCEEDED',
    },
    { name: 'one pair', args: ['quote', '--pairs', '1 ETH>USDC'], code: 'USAGE_ERROR' },
    {
      name: 'sepolia',
      args: ['quote', '1', 'ETH', 'USDC', '--network', 'sepolia'],
      code: 'NETWORK_UNSUPPORTED',
    },
    { name: 'missing arguments', args: ['quote', '1', 'ETH'], code: 'USAGE_ERROR' },
  ])('$name → exit 1 with error code $code', async ({ args, code }) => {
    const r = await runJson([...args, '--json'], envFor(home.dir));
    expect(r.code).toBe(1);
    expect(r.json).toMatchObject({ error: { code } });
  });

  it('status --json reports services that are down and still exits 0', async () => {
    const fresh = tempHome();
    const r = await runJson(
      ['status', '--json'],
      envFor(fresh.dir, {
        FINANCE_TUI_AGGREGATOR_URL: 'http://127.0.0.1:9',
        FINANCE_TUI_SERVER_URL: 'http://127.0.0.1:9',
      }),
    );
    fresh.cleanup();
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({
      sandbox: false,
      network: 'mainnet',
      aggregator: { url: 'http://127.0.0.1:9', reachable: false, error: expect.any(String) },
      server: { url: 'http://127.0.0.1:9', reachable: false },
    });
  });

  it('quote --sandbox with no sandbox running starts one as a child and stops it', async () => {
    const fresh = tempHome();
    const stateFile = join(fresh.dir, 'sandbox.json');
    // The child's URLs are only in sandbox.json while it runs: watch for it during the command.
    let seen: { serverUrl: string; aggregatorUrl: string } | undefined;
    const watch = setInterval(() => {
      try {
        seen ??= JSON.parse(readFileSync(stateFile, 'utf8')) as {
          serverUrl: string;
          aggregatorUrl: string;
        };
      } catch {
        // not written yet (or half written): look again
      }
    }, 5);
    try {
      const r = await runJsonSpawned(
        ['quote', '10', 'USDT', 'USDC.e', '--sandbox', '--json'],
        envFor(fresh.dir),
      );
      clearInterval(watch);
      expect(r.code).toBe(0);
      expect(r.json).toMatchObject({
        sandbox: true,
        quotes: [{ from: { symbol: 'USDT' }, to: { symbol: 'USDC.e' } }],
      });
      // stopped: its state file is gone and nothing answers at its URLs any more
      expect(seen?.serverUrl).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+$/);
      expect(existsSync(stateFile)).toBe(false);
      for (const url of [`${seen?.serverUrl}/health`, `${seen?.aggregatorUrl}/healthCheck`]) {
        await expect(fetch(url, { signal: AbortSignal.timeout(2000) })).rejects.toMatchObject({
          cause: { code: 'ECONNREFUSED' },
        });
      }
      // said on stderr (not a terminal here) and in the document: a new, empty chain (issue 32 item 7)
      expect(r.stderr).toMatch(
        /no sandbox was running; a new one was started for this command only/,
      );
      expect(r.json).toMatchObject({ sandboxStarted: { previousChain: null } });
      // a sandbox.json left by one that is gone: the next command names the chain it replaces
      const gone = seen as unknown as { chainInstance: string };
      writeFileSync(stateFile, JSON.stringify(seen), { mode: 0o600 });
      const again = await runJsonSpawned(
        ['quote', '10', 'USDT', 'USDC.e', '--sandbox', '--json'],
        envFor(fresh.dir),
      );
      expect(again.code).toBe(0);
      expect(again.stderr).toContain(
        `the sandbox that ran here before (sandbox:${gone.chainInstance}) is gone`,
      );
      expect(again.json).toMatchObject({ sandboxStarted: { previousChain: gone.chainInstance } });
    } finally {
      clearInterval(watch);
      fresh.cleanup();
    }
  });

  it('status --sandbox when the sandbox cannot start: reported unavailable, the configured services never probed', async () => {
    const fresh = tempHome();
    // A file where the sandbox wants its data folder: the child cannot start.
    writeFileSync(join(fresh.dir, 'sandbox'), 'not a folder');
    let hits = 0;
    const real = createServer((_request, response) => {
      hits += 1;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"status":"ok","staus":200}');
    });
    await new Promise<void>((resolve) => real.listen(0, '127.0.0.1', resolve));
    const realUrl = `http://127.0.0.1:${(real.address() as AddressInfo).port}`;
    try {
      const r = await runJsonSpawned(
        ['status', '--sandbox', '--json'],
        envFor(fresh.dir, { FINANCE_TUI_AGGREGATOR_URL: realUrl, FINANCE_TUI_SERVER_URL: realUrl }),
      );
      expect(r.code).toBe(0);
      expect(r.json).toMatchObject({
        sandbox: true,
        sandboxError: expect.any(String),
        aggregator: { url: null, reachable: false },
        server: { url: null, reachable: false },
      });
      expect(hits).toBe(0);
    } finally {
      await new Promise((resolve) => real.close(resolve));
      fresh.cleanup();
    }
  });

  it.each([['quote'], ['status']])(
    '%s --help --json prints one {"usage": …} document',
    async (command) => {
      const r = await runJsonSpawned([command, '--help', '--json'], envFor(home.dir));
      expect(r.code).toBe(0);
      expect(r.json).toEqual({ usage: expect.stringContaining(`Usage: finance-tui ${command}`) });
    },
  );

  it.each([
    ['quote --help', ['quote', '--help']],
    ['status --help', ['status', '--help']],
    ['a quote usage error', ['quote', '1', 'ETH', '--json']],
  ])('%s loads none of the heavy modules (TypeBox, ky, conf, starknet.js)', async (_name, args) => {
    const r = await runBinTracingModules(args, envFor(home.dir));
    expect(r.stdout).toMatch(/Usage: finance-tui|USAGE_ERROR/);
    // the hook saw the command module itself
    expect(r.modules).toEqual(
      expect.arrayContaining([expect.stringMatching(/dist\/cli\/commands\/(quote|status)\.js$/)]),
    );
    expect(
      r.modules.filter((url) =>
        /node_modules\/(typebox|ky|conf|ajv|starknet|@scure\/starknet)\//.test(url),
      ),
    ).toEqual([]);
  });

  it('quote -1 ETH USDC → INVALID_AMOUNT "must not be negative", not an unknown option', async () => {
    const r = await runJson(['quote', '-1', 'ETH', 'USDC', '--json'], envFor(home.dir));
    expect(r.code).toBe(1);
    expect(r.json).toMatchObject({
      error: { code: 'INVALID_AMOUNT', message: expect.stringContaining('must not be negative') },
    });
  });

  it('status --sandbox --json reports both services up', async () => {
    const r = await runJson(['status', '--sandbox', '--json'], envFor(home.dir));
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({
      sandbox: true,
      swapsSupported: true,
      aggregator: { reachable: true, status: 200 },
      server: { reachable: true },
    });
  });
});
