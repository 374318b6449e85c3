/**
 * Start-up cost of the built bin, as ratios of `node -e 0` measured in the same run (medians):
 *  - `--version`, wall (target ≤ 1.3×), and `quote --help` (a headless command: ≤ 3×)
 *  - `status --sandbox --json`: the whole process's CPU time, user + system over all threads
 *    (GNU time's, so nothing is loaded into it), against `node -e 0`'s: target ≤ 3.5×
 *  - `status --sandbox --json` and `quote … --sandbox --json` against a running sandbox: the
 *    command's own overhead — its time minus the servers' time, measured as the same requests
 *    made from a bare `node -e` script minus the node baseline — target ≤ 3×
 *  - the TUI's first frame under a pseudo-terminal (`script`), target ≤ 250 ms
 * Peak RSS (GNU time) is printed for the headless commands. Exits 1 when a target fails.
 *
 * Run: npm run bench:startup   (builds nothing: run `npm run build` first)
 */
import {
  type ChildProcess,
  spawn,
  spawnSync,
  type SpawnSyncOptionsWithBufferEncoding,
} from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { resolveToken } from '../shared/tokens.js';

// BENCH_BIN: another build of the bin, to compare (e.g. tsc's output without the bundle)
const BIN = process.env.BENCH_BIN
  ? resolve(process.env.BENCH_BIN)
  : fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const home = mkdtempSync(join(tmpdir(), 'finance-tui-bench-'));
const env: NodeJS.ProcessEnv = { ...process.env, FINANCE_TUI_HOME: home, NO_COLOR: '1' };
delete env.CI;

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

// the child's CPU (user + system, all its threads) from its rusage, read by a parent that waits for
// it: nothing is loaded into the measured process. Python's getrusage(RUSAGE_CHILDREN) gives it in
// microseconds, and the child's wall time measured around its spawn alone (not Python's start);
// GNU time, the fallback, counts CPU in 10 ms steps, which moved the `status` ratio by ±1× between
// runs of one build (docs/benchmarks.md "Issue 35").
const PYTHON = ['/usr/bin/python3', '/usr/local/bin/python3'].find((path) => existsSync(path));
const GNU_TIME = existsSync('/usr/bin/time');
const RUSAGE_WRAPPER = [
  'import resource, subprocess, sys, time',
  't = time.perf_counter()',
  'r = subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL)',
  'w = (time.perf_counter() - t) * 1000',
  'u = resource.getrusage(resource.RUSAGE_CHILDREN)',
  "sys.stderr.write('BENCHTIME %.6f %.6f %.3f\\n' % (u.ru_utime, u.ru_stime, w))",
  'sys.exit(r.returncode)',
].join('\n');

interface Timing {
  wall: number;
  /** user + system CPU of the child, ms (NaN with neither Python nor GNU time) */
  cpu: number;
}

function spawnTimed(args: string[]) {
  const options: SpawnSyncOptionsWithBufferEncoding = { env, stdio: ['ignore', 'pipe', 'pipe'] };
  if (PYTHON !== undefined)
    return spawnSync(PYTHON, ['-c', RUSAGE_WRAPPER, process.execPath, ...args], options);
  if (GNU_TIME)
    return spawnSync(
      '/usr/bin/time',
      ['-f', 'BENCHTIME %U %S', process.execPath, ...args],
      options,
    );
  return spawnSync(process.execPath, args, options);
}

function timeOnce(args: string[]): Timing {
  const start = performance.now();
  const result = spawnTimed(args);
  const elapsed = performance.now() - start;
  if (result.status !== 0)
    throw new Error(
      `node ${args.join(' ')} exited ${result.status}: ${result.stderr.toString().slice(0, 500)}`,
    );
  const line = result.stderr
    .toString()
    .split('\n')
    .find((l) => l.startsWith('BENCHTIME '));
  const [user = Number.NaN, system = Number.NaN, wall = elapsed] = (
    line?.split(' ').slice(1) ?? []
  ).map(Number);
  return { wall, cpu: (user + system) * 1000 };
}

/**
 * Medians over RUNS rounds; each round times every command once, in turn, so a machine shared
 * with other work slows all of them alike rather than whichever ran during a busy spell.
 */
function timeMedians(commands: ReadonlyArray<readonly string[]>): Timing[] {
  for (const args of commands) timeOnce([...args]); // warm the file cache (and the compile cache)
  const samples = commands.map(() => [] as Timing[]);
  for (let round = 0; round < RUNS; round++)
    commands.forEach((args, i) => samples[i]!.push(timeOnce([...args])));
  return samples.map((runs) => ({
    wall: median(runs.map((r) => r.wall)),
    cpu: median(runs.map((r) => r.cpu)),
  }));
}

function peakRssMb(args: string[]): number | undefined {
  if (!existsSync('/usr/bin/time')) return undefined;
  const result = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...args], {
    env,
    encoding: 'utf8',
  });
  const kb = Number(result.stderr.trim().split('\n').at(-1));
  return Number.isFinite(kb) ? Math.round(kb / 1024) : undefined;
}

async function startSandbox(): Promise<{
  child: ChildProcess;
  doc: { serverUrl: string; aggregatorUrl: string };
}> {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--json'], {
    env,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  for await (const line of createInterface({ input: child.stdout! })) {
    const doc = JSON.parse(line) as { event?: string; serverUrl: string; aggregatorUrl: string };
    if (doc.event === 'ready') {
      child.stdout!.resume();
      return { child, doc };
    }
  }
  throw new Error('the sandbox never said ready');
}

/**
 * Time to the TUI's first frame (its header) and to the sign-in screen, under a pseudo-terminal
 * (`script`), and the same pseudo-terminal's time to the first line of `node -e`: the TUI's own
 * time is the difference plus `node -e 0`.
 */
async function tuiFrames(): Promise<{ first: number; ready: number; pty: number } | undefined> {
  // BENCH_TUI=0 skips the pseudo-terminal rounds (the headless figures alone)
  if (process.env.BENCH_TUI === '0') return undefined;
  if (spawnSync('script', ['--version']).status !== 0) return undefined;
  const once = (
    command: string,
    firstText: string,
    readyText: string,
  ): Promise<{ first: number; ready: number }> =>
    new Promise((resolve, reject) => {
      const start = performance.now();
      const child = spawn('script', ['-qfec', command, '/dev/null'], {
        env: { ...env, TERM: 'xterm-256color' },
        stdio: ['pipe', 'pipe', 'ignore'],
        detached: true,
      });
      let out = '';
      let first: number | undefined;
      const timer = setTimeout(
        () => reject(new Error(`no sign-in screen within 20 s:\n${out}`)),
        20_000,
      );
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        if (first === undefined && out.includes(firstText)) first = performance.now() - start;
        if (first !== undefined && out.includes(readyText)) {
          const ready = performance.now() - start;
          const shown = first;
          clearTimeout(timer);
          child.once('exit', () => resolve({ first: shown, ready }));
          process.kill(-child.pid!, 'SIGTERM');
        }
      });
    });
  const tui = (): Promise<{ first: number; ready: number }> =>
    once(`'${process.execPath}' '${BIN}' --sandbox`, 'finance-tui', 'Sign in');
  const bare = (): Promise<{ first: number; ready: number }> =>
    once(`'${process.execPath}' -e "console.log('READY')"`, 'READY', 'READY');
  await tui();
  const runs: Array<{ first: number; ready: number; pty: number }> = [];
  for (let i = 0; i < RUNS; i++) runs.push({ ...(await tui()), pty: (await bare()).first });
  return {
    first: median(runs.map((r) => r.first)),
    ready: median(runs.map((r) => r.ready)),
    pty: median(runs.map((r) => r.pty)),
  };
}

async function main(): Promise<void> {
  const { child, doc } = await startSandbox();
  let failed = false;
  const rows: string[] = [];
  const report = (
    name: string,
    ms: number,
    ratio: number,
    target: number | undefined,
    extra = '',
  ): void => {
    const ok = target === undefined || ratio <= target;
    if (!ok) failed = true;
    rows.push(
      `${name.padEnd(44)} ${ms.toFixed(0).padStart(5)} ms  ${ratio.toFixed(2).padStart(5)}×${target === undefined ? '' : `  (target ≤ ${target}×${ok ? '' : ' FAILED'})`}${extra}`,
    );
  };
  try {
    const usdc = resolveToken('mainnet', 'USDC').address;
    const eth = resolveToken('mainnet', 'ETH').address;
    // the same requests the commands make, from a bare script: the servers' share of the time.
    // Both first find the sandbox (server /health, /, aggregator /healthCheck, in turn); then
    // status checks both services at once, quote asks for one route.
    const find = `await fetch('${doc.serverUrl}/health').then(r=>r.json()); await fetch('${doc.serverUrl}/').then(r=>r.json()); await fetch('${doc.aggregatorUrl}/healthCheck').then(r=>r.json());`;
    const fetches = {
      status: `${find} await Promise.all([fetch('${doc.serverUrl}/health').then(r=>r.json()).then(()=>fetch('${doc.serverUrl}/')).then(r=>r.json()), fetch('${doc.aggregatorUrl}/healthCheck').then(r=>r.json())])`,
      quote: `${find} await fetch('${doc.aggregatorUrl}/route?amount=100000000&tokenInAddress=${usdc}&tokenOutAddress=${eth}').then(r=>r.json())`,
    };
    const none: Timing = { wall: 0, cpu: 0 };
    const [
      baseT = none,
      versionT = none,
      helpT = none,
      statusT = none,
      statusServersT = none,
      quoteT = none,
      quoteServersT = none,
    ] = timeMedians([
      ['-e', '0'],
      [BIN, '--version'],
      [BIN, 'quote', '--help'],
      [BIN, 'status', '--sandbox', '--json'],
      ['--input-type=module', '-e', fetches.status],
      [BIN, 'quote', '100', 'USDC', 'ETH', '--sandbox', '--json'],
      ['--input-type=module', '-e', fetches.quote],
    ]);
    const [base, version, help, status, statusServers, quote, quoteServers] = [
      baseT,
      versionT,
      helpT,
      statusT,
      statusServersT,
      quoteT,
      quoteServersT,
    ].map((t) => t.wall) as [number, number, number, number, number, number, number];
    rows.push(
      `${'node -e 0 (baseline)'.padEnd(44)} ${base.toFixed(0).padStart(5)} ms  CPU ${baseT.cpu.toFixed(0)} ms`,
    );
    report('--version (wall)', version, version / base, 1.3);
    report('quote --help', help, help / base, 3);
    // CPU time, whole process (user + system): what a script running many commands pays
    report(
      'status --sandbox --json (CPU)',
      statusT.cpu,
      statusT.cpu / baseT.cpu,
      PYTHON !== undefined || GNU_TIME ? 3.5 : undefined,
      `  [wall ${status.toFixed(0)} ms = ${(status / base).toFixed(2)}×]`,
    );
    report(
      'quote 100 USDC ETH --sandbox --json (CPU)',
      quoteT.cpu,
      quoteT.cpu / baseT.cpu,
      undefined,
      `  [wall ${quote.toFixed(0)} ms = ${(quote / base).toFixed(2)}×]`,
    );
    for (const [name, args, ms, servers] of [
      ['status --sandbox --json', ['status', '--sandbox', '--json'], status, statusServers],
      [
        'quote 100 USDC ETH --sandbox --json',
        ['quote', '100', 'USDC', 'ETH', '--sandbox', '--json'],
        quote,
        quoteServers,
      ],
    ] as const) {
      const serverMs = Math.max(0, servers - base);
      const rss = peakRssMb([BIN, ...args]);
      report(
        `${name} (own overhead)`,
        ms - serverMs,
        (ms - serverMs) / base,
        3,
        `  [total ${ms.toFixed(0)} ms, servers ${serverMs.toFixed(0)} ms${rss === undefined ? '' : `, peak RSS ${rss} MB`}]`,
      );
    }
    const tui = await tuiFrames();
    if (tui === undefined)
      rows.push(
        'TUI first frame: skipped (BENCH_TUI=0, or no `script` command for a pseudo-terminal)',
      );
    else {
      const own = (ms: number): number => ms - tui.pty + base;
      const first = own(tui.first);
      const ok = first <= 250;
      if (!ok) failed = true;
      rows.push(
        `${'TUI first frame (finance-tui --sandbox)'.padEnd(44)} ${first.toFixed(0).padStart(5)} ms  ${(first / base).toFixed(2).padStart(5)}×  (target ≤ 250 ms${ok ? '' : ' FAILED'})  [sign-in screen at ${own(tui.ready).toFixed(0)} ms; under the pty ${tui.first.toFixed(0)} ms, pty + node -e ${tui.pty.toFixed(0)} ms]`,
      );
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(home, { recursive: true, force: true });
  }
  console.log(rows.join('\n'));
  if (failed) process.exitCode = 1;
}

await main();
