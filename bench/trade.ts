/**
 * A whole `trade 0.01 ETH USDC --yes --json --sandbox` of the built bin on a running sandbox
 * (signed in beforehand): quote → calldata → checks → paymaster build → simulation → signature →
 * execution → receipt. Medians over BENCH_RUNS (default 5) of:
 *  - wall time (target ≤ 2 s);
 *  - where it goes: waiting on servers (the union of the intervals with an HTTP request in
 *    flight, from a fetch wrapper preloaded into the process: fetch-probe.ts) and the rest — our
 *    client (start-up, checks, hashing) and the receipt poll's sleeps; and our CPU time
 *    (process.cpuUsage: user + system over all threads, so it can overlap the waits; target
 *    ≤ 250 ms, printed beside `node -e 0`'s under the same probe);
 *  - peak RSS (process.resourceUsage().maxRSS at exit);
 *  - sequential round trips of a trade and of a `send 0.01 STRK <address> --yes --json`
 *    (target ≤ 7 each): (fastest wall with the sandbox's latency knob at 100 ms − fastest wall at
 *    0) / 0.1 s (a busy machine only adds time), judged to the nearest whole trip, and the
 *    sequential steps the probe counts,
 *    the knob set on every emulator (POST /sandbox/faults) before each run, so both latencies
 *    share each round; beside it, the steps the probe counts from the order of the requests;
 * and, measured in the same run as the baseline, `node -e 0` and `quote 0.01 ETH USDC --sandbox
 * --json` (the trade's wall time is printed as a ratio of each). Exits 1 when a target fails.
 * Each (command, latency) runs as its own signed-in user: the server lets a user execute 10
 * transactions a minute.
 *
 * Run: npm run bench:trade   (builds nothing: run `npm run build` first; BENCH_BIN=<path to
 * dist/cli/main.js> measures another build)
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { FETCH_PROBE, type ProbeReport, readProbe } from './fetch-probe.js';

// BENCH_BIN: another build's bin (e.g. an earlier commit's, to compare on the same machine)
const BIN = process.env.BENCH_BIN ?? fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TARGET_MS = 2000;
const TARGET_ROUND_TRIPS = 7;
const TARGET_CPU_MS = 250;
const LATENCY_MS = 100;
const root = mkdtempSync(join(tmpdir(), 'finance-tui-bench-trade-'));

const envOf = (home: string): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, FINANCE_TUI_HOME: home, NO_COLOR: '1' };
  delete env.CI;
  delete env.FINANCE_TUI_SANDBOX_LATENCY_MS;
  return env;
};

interface Sample extends ProbeReport {
  wallMs: number;
}

interface SandboxInfo {
  identityUrl: string;
  aggregatorUrl: string;
  chainUrl: string;
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function run(
  home: string,
  args: string[],
  probe = false,
): { wallMs: number; stdout: string; stderr: string } {
  const start = performance.now();
  const result = spawnSync(
    process.execPath,
    [...(probe ? ['--import', FETCH_PROBE] : []), ...args],
    { env: envOf(home), encoding: 'utf8' },
  );
  const wallMs = performance.now() - start;
  if (result.status !== 0)
    throw new Error(
      `node ${args.join(' ')} exited ${result.status}: ${(result.stdout + result.stderr).slice(0, 800)}`,
    );
  return { wallMs, stdout: result.stdout, stderr: result.stderr };
}

/** One money command with the probe; it must have succeeded. */
function measured(home: string, args: string[]): Sample {
  const { wallMs, stdout, stderr } = run(home, [BIN, ...args], true);
  const doc = JSON.parse(stdout) as { transaction?: { status?: string } };
  if (doc.transaction?.status !== 'SUCCEEDED')
    throw new Error(`${args[0]} did not succeed: ${stdout.slice(0, 500)}`);
  return { wallMs, ...readProbe(stderr) };
}

/** The latency knob of every emulator (the auth server's relays reach them too). */
async function setLatency(info: SandboxInfo, latencyMs: number): Promise<void> {
  for (const url of [info.identityUrl, info.aggregatorUrl, info.chainUrl]) {
    const response = await fetch(`${url}/sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latencyMs }),
    });
    if (!response.ok)
      throw new Error(`could not set the latency at ${url}: HTTP ${response.status}`);
  }
}

async function startSandbox(home: string): Promise<{ child: ChildProcess; info: SandboxInfo }> {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--json'], {
    env: envOf(home),
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  for await (const line of createInterface({ input: child.stdout! })) {
    const doc = JSON.parse(line) as SandboxInfo & { event?: string };
    if (doc.event === 'ready') {
      child.stdout!.resume();
      return { child, info: doc };
    }
  }
  throw new Error('the sandbox never said ready');
}

/** A user of the running sandbox (the sandbox's data folder names it): its own data folder, signed in. */
function signIn(sandboxHome: string, name: string): { home: string; address: string } {
  const home = join(root, name);
  const email = `${name}@example.com`;
  if (home !== sandboxHome) {
    mkdirSync(home, { recursive: true });
    copyFileSync(join(sandboxHome, 'sandbox.json'), join(home, 'sandbox.json'));
  }
  run(home, [BIN, 'login', email, '--sandbox', '--json']);
  const { code } = JSON.parse(run(home, [BIN, 'sandbox', 'outbox', email, '--json']).stdout) as {
    code: string;
  };
  const { address } = JSON.parse(
    run(home, [BIN, 'verify', email, code, '--sandbox', '--json']).stdout,
  ) as { address: string };
  return { home, address };
}

interface Lane {
  command: 'trade' | 'send';
  latencyMs: number;
  home: string;
  args: string[];
  samples: Sample[];
}

const ms = (value: number): string => `${value.toFixed(0).padStart(5)} ms`;

async function main(): Promise<void> {
  const sandboxHome = join(root, 'trade-0');
  mkdirSync(sandboxHome, { recursive: true });
  const { child: sandbox, info } = await startSandbox(sandboxHome);
  let failed = false;
  try {
    await setLatency(info, 0);
    const lanes: Lane[] = [];
    let recipient: string | undefined;
    for (const command of ['trade', 'send'] as const) {
      for (const latencyMs of [0, LATENCY_MS]) {
        const user = signIn(sandboxHome, `${command}-${latencyMs}`);
        // a send pays the first trade user: any account that is not a token contract will do
        recipient ??= user.address;
        const args =
          command === 'trade'
            ? ['trade', '0.01', 'ETH', 'USDC', '--yes', '--json', '--sandbox']
            : ['send', '0.01', 'STRK', recipient, '--yes', '--json', '--sandbox'];
        measured(user.home, args); // warm the file and compile caches; the first transaction also deploys the account
        lanes.push({ command, latencyMs, home: user.home, args, samples: [] });
      }
    }
    const baseline: number[] = [];
    const baselineCpu: number[] = [];
    const quotes: number[] = [];
    // one of each per round, so a busy spell on a shared machine slows all of them alike
    for (let round = 0; round < RUNS; round++) {
      const bare = run(sandboxHome, ['--import', FETCH_PROBE, '-e', '0'], false);
      baseline.push(bare.wallMs);
      baselineCpu.push(readProbe(bare.stderr).cpuMs);
      quotes.push(
        run(sandboxHome, [BIN, 'quote', '0.01', 'ETH', 'USDC', '--sandbox', '--json']).wallMs,
      );
      for (const lane of lanes) {
        await setLatency(info, lane.latencyMs);
        lane.samples.push(measured(lane.home, lane.args));
      }
      await setLatency(info, 0);
    }
    const lane = (command: Lane['command'], latencyMs: number): Lane =>
      lanes.find((l) => l.command === command && l.latencyMs === latencyMs) as Lane;
    const samples = lane('trade', 0).samples;
    const wall = median(samples.map((s) => s.wallMs));
    const cpu = median(samples.map((s) => s.cpuMs));
    const wait = median(samples.map((s) => s.waitMs));
    const rest = wall - wait;
    const base = median(baseline);
    const quote = median(quotes);
    const pct = (value: number): string => `${((100 * value) / wall).toFixed(0)} %`;
    const ok = wall <= TARGET_MS;
    if (!ok) failed = true;
    const baseCpu = median(baselineCpu);
    const cpuOk = cpu <= TARGET_CPU_MS;
    if (!cpuOk) failed = true;
    const lines = [
      `node -e 0 (baseline)                          ${ms(base)}`,
      `quote 0.01 ETH USDC --sandbox --json          ${ms(quote)}  ${(quote / base).toFixed(2)}× node`,
      `trade 0.01 ETH USDC --yes --json --sandbox    ${ms(wall)}  ${(wall / base).toFixed(2)}× node, ${(wall / quote).toFixed(2)}× quote  (target ≤ ${TARGET_MS} ms${ok ? '' : ' FAILED'})`,
      `  waiting on servers (a request in flight)    ${ms(wait)}  ${pct(wait)}`,
      `  the rest: our client, receipt poll sleeps   ${ms(rest)}  ${pct(rest)}`,
      `  our CPU time (all threads)                  ${ms(cpu)}  ${(cpu / baseCpu).toFixed(2)}× node -e 0's ${baseCpu.toFixed(0)} ms  (target ≤ ${TARGET_CPU_MS} ms${cpuOk ? '' : ' FAILED'})`,
      `  peak RSS                                    ${(median(samples.map((s) => s.rssKb)) / 1024).toFixed(0).padStart(5)} MB`,
      `sequential round trips (emulator latency 0 vs ${LATENCY_MS} ms, same run; target ≤ ${TARGET_ROUND_TRIPS}):`,
    ];
    for (const command of ['trade', 'send'] as const) {
      // the fastest run of each: a busy machine only ever adds time, and the difference of two
      // minimums is what the latency cost (medians are printed too)
      const at0 = Math.min(...lane(command, 0).samples.map((s) => s.wallMs));
      const at100 = Math.min(...lane(command, LATENCY_MS).samples.map((s) => s.wallMs));
      const med0 = median(lane(command, 0).samples.map((s) => s.wallMs));
      const med100 = median(lane(command, LATENCY_MS).samples.map((s) => s.wallMs));
      const trips = (at100 - at0) / LATENCY_MS;
      const steps = median(lane(command, LATENCY_MS).samples.map((s) => s.steps));
      // judged to the nearest whole trip: each 100 ms sleep overshoots by a millisecond or so
      // (timers, the relay's hop), so 7 real trips read 7.1 on a quiet machine; an eighth reads 8.1.
      // The steps the probe counts are held to the target too.
      const good = Math.round(trips) <= TARGET_ROUND_TRIPS && steps <= TARGET_ROUND_TRIPS;
      if (!good) failed = true;
      lines.push(
        `  ${command.padEnd(6)} fastest wall ${ms(at0)} at 0, ${ms(at100)} at ${LATENCY_MS}  → ${trips.toFixed(1).padStart(4)} round trips${good ? '' : ' FAILED'}` +
          `  (${steps} sequential steps counted by the probe; median walls ${med0.toFixed(0)} / ${med100.toFixed(0)} ms)`,
      );
    }
    lines.push(`(medians of ${RUNS} runs)`);
    console.log(lines.join('\n'));
  } finally {
    sandbox.kill('SIGTERM');
    await new Promise((resolve) => sandbox.once('exit', resolve));
    rmSync(root, { recursive: true, force: true });
  }
  if (failed) process.exitCode = 1;
}

await main();
