/**
 * A pipelining flood against the auth server exactly as `finance-tui serve` runs it (the built
 * bin, production, its log to a file), measured from outside (docs/server-security.md
 * "Pipelining"):
 *
 * - the flood: FLOOD.connections connections (spread over FLOOD.addresses loopback addresses, at
 *   most the per-address cap each) write pipelined `GET /health`, FLOOD.perConnection at a time,
 *   as fast as the server takes them, and never read an answer; a connection the server closes
 *   is opened again at once, for FLOOD.durationS seconds;
 * - /health from another address every 100 ms throughout (each waits at most 2 s): answered,
 *   failed, and the latency's p50/p99/max;
 * - the server's resident set (/proc/<pid>/status VmRSS) before, its peak (VmHWM), and after the
 *   clients have gone (1 s, 5 s and 10 s later).
 *
 * Target: after the clients have gone, within 100 MB of the start; /health never fails. Exits 1
 * when missed. Linux only.
 *
 * Run: npm run build && npx tsx bench/pipelining-flood.ts   (BENCH_SERVER_BIN: another build)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = process.env.BENCH_SERVER_BIN ?? join(ROOT, 'dist', 'cli', 'main.js');
const FLOOD = {
  connections: Number(process.env.FLOOD_CONNECTIONS ?? 128),
  addresses: 4,
  perConnection: Number(process.env.FLOOD_REQUESTS ?? 50_000),
  durationS: Number(process.env.FLOOD_SECONDS ?? 10),
  targetMb: 100,
};
const HEALTH = 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n';

function rss(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const kb = new RegExp(`${field}:\\s+([0-9]+) kB`).exec(
    readFileSync(`/proc/${pid}/status`, 'utf8'),
  )?.[1];
  if (kb === undefined) throw new Error(`no ${field} for ${pid}`);
  return Math.round(Number(kb) / 1024);
}

async function startServer(home: string): Promise<{ child: ChildProcess; port: number }> {
  const logFile = join(home, 'server.log');
  const fd = openSync(logFile, 'a', 0o600);
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
    cwd: home,
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      FINANCE_TUI_HOME: home,
      NODE_ENV: 'production',
      IDENTITY_APP_ID: 'bench-app',
      IDENTITY_APP_SECRET: 'bench-secret-bench-secret-bench-secret',
      JWT_SECRET: 'j5s43GaQs9hCX8e3ma_LmHUzoYAxAM2b_peMgnYh9S0',
      // never asked: only /health is called
      IDENTITY_AUTH_URL: 'http://127.0.0.1:9/api/v1',
      IDENTITY_API_URL: 'http://127.0.0.1:9',
    },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  process.once('exit', () => child.kill('SIGKILL'));
  for (let waited = 0; waited < 15_000; waited += 50) {
    const port = /Server listening at http:\/\/127\.0\.0\.1:([0-9]+)/.exec(
      readFileSync(logFile, 'utf8'),
    )?.[1];
    if (port !== undefined) return { child, port: Number(port) };
    if (child.exitCode !== null) break;
    await sleep(50);
  }
  throw new Error(`the server did not start; see ${logFile}`);
}

/** GET /health on a fresh connection: ms to the whole answer, or undefined (failed, or over 2 s). */
function probe(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.2' });
    let data = '';
    const done = (value: number | undefined): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(value);
    };
    const timer = setTimeout(() => done(undefined), 2_000);
    socket.setEncoding('latin1');
    socket.on('connect', () => socket.write(`${HEALTH.slice(0, -2)}Connection: close\r\n\r\n`));
    socket.on('data', (chunk: string) => {
      data += chunk;
      if (data.includes('"status":"ok"')) done(performance.now() - started);
    });
    socket.on('error', () => done(undefined));
    socket.on('close', () =>
      done(data.includes('"status":"ok"') ? performance.now() - started : undefined),
    );
  });
}

const percentile = (sorted: number[], p: number): number =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number);

async function main(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'flood-'));
  const { child, port } = await startServer(home);
  const pid = child.pid as number;
  try {
    for (let i = 0; i < 50; i++) await probe(port);
    await sleep(1_000);
    const before = rss(pid, 'VmRSS');

    const payload = Buffer.from(HEALTH.repeat(FLOOD.perConnection), 'latin1');
    let stop = false;
    let opened = 0;
    const live = new Set<Socket>();
    const attack = (index: number): void => {
      if (stop) return;
      opened += 1;
      const socket = connect({
        port,
        host: '127.0.0.1',
        localAddress: `127.0.3.${(index % FLOOD.addresses) + 1}`,
      });
      live.add(socket);
      socket.on('error', () => undefined);
      // never read an answer; write on while the server takes it (a write after its close
      // fails, which is how a client that reads nothing learns it was closed)
      const push = (): void => {
        while (!socket.destroyed && socket.write(payload));
      };
      socket.on('connect', () => {
        socket.pause();
        push();
      });
      socket.on('drain', push);
      socket.on('close', () => {
        live.delete(socket);
        setImmediate(() => attack(index));
      });
    };
    const latencies: number[] = [];
    let failed = 0;
    let probing = true;
    const probes = (async () => {
      while (probing) {
        const ms = await probe(port);
        if (ms === undefined) failed += 1;
        else latencies.push(ms);
        await sleep(100);
      }
    })();
    for (let i = 0; i < FLOOD.connections; i++) attack(i);
    await sleep(FLOOD.durationS * 1_000);
    stop = true;
    for (const socket of live) socket.destroy();
    const during = { answered: latencies.length, failed };
    const after: Record<string, number> = {};
    for (const s of [1, 5, 10]) {
      await sleep((s - (s === 1 ? 0 : s === 5 ? 1 : 5)) * 1_000);
      after[`${s}s`] = rss(pid, 'VmRSS');
    }
    probing = false;
    await probes;
    const sorted = [...latencies].sort((a, b) => a - b);
    const result = {
      flood: { ...FLOOD, connectionsOpened: opened },
      rssMb: { before, peak: rss(pid, 'VmHWM'), after },
      health: {
        ...during,
        p50Ms: Math.round(percentile(sorted, 0.5)),
        p99Ms: Math.round(percentile(sorted, 0.99)),
        maxMs: Math.round(sorted.at(-1) ?? Number.NaN),
      },
    };
    console.log(JSON.stringify(result, null, 2));
    const ok = (after['10s'] as number) - before <= FLOOD.targetMb && failed === 0;
    console.log(ok ? 'PASS' : 'FAIL');
    process.exitCode = ok ? 0 : 1;
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
    rmSync(home, { recursive: true, force: true });
  }
}

await main();
