/**
 * Whole-program tests of `quote` and `status`: the built bin (test/global-setup.ts builds dist),
 * a fresh FINANCE_TUI_HOME, and a real sandbox on loopback ports.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  json: unknown;
}

function cleanEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, FINANCE_TUI_HOME: home, ...extra };
  return env;
}

function runBin(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? ((error as { code?: number }).code ?? 1) : 0;
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr, json });
    });
  });
}

describe('finance-tui quote / status (process level)', () => {
  let home: string;
  let sandbox: ChildProcess | undefined;

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'ftui-quote-'));
    // One long-lived sandbox for the file: later --sandbox commands find it through sandbox.json.
    const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--json'], { env: cleanEnv(home), stdio: ['ignore', 'pipe', 'pipe'] });
    sandbox = child;
    const lines = createInterface({ input: child.stdout });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('sandbox did not become ready')), 25_000);
      lines.on('line', (line) => {
        if (line.includes('"ready"')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => reject(new Error(`sandbox exited early with ${code}`)));
    });
  });

  afterAll(async () => {
    if (sandbox && sandbox.exitCode === null) {
      const exited = new Promise((resolve) => sandbox?.once('exit', resolve));
      sandbox.kill('SIGTERM');
      await exited;
    }
    rmSync(home, { recursive: true, force: true });
  });

  it('quote --sandbox --json: one document with net output, fee, minimum, impact, route, gas', async () => {
    const r = await runBin(['quote', '1.5', 'ETH', 'usdc', '--sandbox', '--json', '--slippage', '0.5'], cleanEnv(home));
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
    expect(doc).toMatchObject({ sandbox: true, network: 'mainnet', mode: 'single', slippage: { bps: 50 } });
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
    const batch = await runBin(['quote', '--pairs', '100 USDC>ETH, 5000 STRK>ETH', '--sandbox', '--json'], cleanEnv(home));
    expect(batch.code).toBe(0);
    expect(batch.json).toMatchObject({ mode: 'batch', quotes: [{ to: { symbol: 'ETH' } }, { to: { symbol: 'ETH' } }] });
    const mixed = await runBin(['quote', '--pairs', '100 USDC>ETH, 5000 STRK>USDC, 0.1 WBTC>DAI', '--sandbox', '--json'], cleanEnv(home));
    expect(mixed.code).toBe(0);
    expect(mixed.json).toMatchObject({ mode: 'parallel' });
    expect((mixed.json as { quotes: unknown[] }).quotes).toHaveLength(3);
  });

  it('human output is a readable table', async () => {
    const r = await runBin(['quote', '100', 'USDC', 'STRK', '--sandbox'], cleanEnv(home));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('SANDBOX');
    expect(r.stdout).toMatch(/Minimum received\s+[0-9.]+ STRK/);
  });

  it.each([
    { name: 'unknown token', args: ['quote', '1', 'DOGE', 'USDC'], code: 'UNKNOWN_TOKEN' },
    { name: 'too many decimals', args: ['quote', '1.0000001', 'USDC', 'ETH'], code: 'INVALID_AMOUNT' },
    { name: 'bad slippage', args: ['quote', '1', 'ETH', 'USDC', '--slippage', '80'], code: 'INVALID_SLIPPAGE' },
    { name: 'four pairs', args: ['quote', '--pairs', '1 ETH>USDC, 1 ETH>USDC, 1 ETH>USDC, 1 ETH>USDC'], code: 'BATCH_LIMIT_EXCEEDED' },
    { name: 'one pair', args: ['quote', '--pairs', '1 ETH>USDC'], code: 'USAGE_ERROR' },
    { name: 'sepolia', args: ['quote', '1', 'ETH', 'USDC', '--network', 'sepolia'], code: 'NETWORK_UNSUPPORTED' },
    { name: 'missing arguments', args: ['quote', '1', 'ETH'], code: 'USAGE_ERROR' },
  ])('$name → exit 1 with error code $code', async ({ args, code }) => {
    const r = await runBin([...args, '--json'], cleanEnv(home));
    expect(r.code).toBe(1);
    expect(r.json).toMatchObject({ error: { code } });
  });

  it('status --json reports services that are down and still exits 0', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'ftui-status-'));
    const r = await runBin(
      ['status', '--json'],
      cleanEnv(fresh, { FINANCE_TUI_AGGREGATOR_URL: 'http://127.0.0.1:9', FINANCE_TUI_SERVER_URL: 'http://127.0.0.1:9' }),
    );
    rmSync(fresh, { recursive: true, force: true });
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({
      sandbox: false,
      network: 'mainnet',
      aggregator: { url: 'http://127.0.0.1:9', reachable: false, error: expect.any(String) },
      server: { url: 'http://127.0.0.1:9', reachable: false },
    });
  });

  it('quote --sandbox with no sandbox running starts one as a child and stops it', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'ftui-child-'));
    const stateFile = join(fresh, 'sandbox.json');
    // The child's URLs are only in sandbox.json while it runs: watch for it during the command.
    let seen: { serverUrl: string; aggregatorUrl: string } | undefined;
    const watch = setInterval(() => {
      try {
        seen ??= JSON.parse(readFileSync(stateFile, 'utf8')) as { serverUrl: string; aggregatorUrl: string };
      } catch {
        // not written yet (or half written): look again
      }
    }, 5);
    try {
      const r = await runBin(['quote', '10', 'USDT', 'USDC.e', '--sandbox', '--json'], cleanEnv(fresh));
      clearInterval(watch);
      expect(r.code).toBe(0);
      expect(r.json).toMatchObject({ sandbox: true, quotes: [{ from: { symbol: 'USDT' }, to: { symbol: 'USDC.e' } }] });
      // stopped: its state file is gone and nothing answers at its URLs any more
      expect(seen?.serverUrl).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+$/);
      expect(existsSync(stateFile)).toBe(false);
      for (const url of [`${seen?.serverUrl}/health`, `${seen?.aggregatorUrl}/healthCheck`]) {
        await expect(fetch(url, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
      }
    } finally {
      clearInterval(watch);
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('status --sandbox when the sandbox cannot start: reported unavailable, the configured services never probed', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'ftui-nosandbox-'));
    // A file where the sandbox wants its data folder: the child cannot start.
    writeFileSync(join(fresh, 'sandbox'), 'not a folder');
    let hits = 0;
    const real = createServer((_request, response) => {
      hits += 1;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"status":"ok","staus":200}');
    });
    await new Promise<void>((resolve) => real.listen(0, '127.0.0.1', resolve));
    const realUrl = `http://127.0.0.1:${(real.address() as AddressInfo).port}`;
    try {
      const r = await runBin(['status', '--sandbox', '--json'], cleanEnv(fresh, { FINANCE_TUI_AGGREGATOR_URL: realUrl, FINANCE_TUI_SERVER_URL: realUrl }));
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
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it.each([['quote'], ['status']])('%s --help --json prints one {"usage": …} document', async (command) => {
    const r = await runBin([command, '--help', '--json'], cleanEnv(home));
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ usage: expect.stringContaining(`Usage: finance-tui ${command}`) });
  });

  it('quote -1 ETH USDC → INVALID_AMOUNT "must not be negative", not an unknown option', async () => {
    const r = await runBin(['quote', '-1', 'ETH', 'USDC', '--json'], cleanEnv(home));
    expect(r.code).toBe(1);
    expect(r.json).toMatchObject({ error: { code: 'INVALID_AMOUNT', message: expect.stringContaining('must not be negative') } });
  });

  it('status --sandbox --json reports both services up', async () => {
    const r = await runBin(['status', '--sandbox', '--json'], cleanEnv(home));
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ sandbox: true, swapsSupported: true, aggregator: { reachable: true, status: 200 }, server: { reachable: true } });
  });
});
