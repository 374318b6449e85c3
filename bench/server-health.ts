/**
 * The auth server under load, against baselines measured in the same run. Three figures:
 *
 * 1. Throughput: GET /health on our server exactly as `finance-tui serve` runs it (the built bin,
 *    every middleware, request logging to a file) against a bare node:http server answering the
 *    same JSON, each in its own process; autocannon, 10 connections, 8 s a round, the two
 *    alternating for 3 rounds (BENCH_THROUGHPUT_ROUNDS). Target: the median of the rounds' ratios
 *    ours / bare ≥ 0.75. Two more servers join the rounds, not the target: bare node:http sending
 *    our 16 response headers (server-children.ts `headers`: what the headers alone cost), and
 *    Fastify alone with our route's schema and the same headers (`fastify`), the floor of any
 *    server built on Fastify that sends them; their ratios are printed beside ours.
 * 2. Added latency: POST /sign/hash through our server at 100 requests/s for 20 s (open loop),
 *    p99, minus the p99 of the identity emulator's raw_sign called directly at the same rate, the
 *    two alternating second by second. Target: ≤ 2 ms. Our server for this phase runs serve's
 *    code with a counter store that counts but never refuses (bench/server-children.ts
 *    `unthrottled`): 2,000 signatures of one user would otherwise meet the 30/min/user limit.
 *    The calls come from 100 loopback addresses (127.0.2.1–100).
 * 3. Memory: resident set of a fresh server after 100 000 rate-limited requests (POST
 *    /auth/login) each from a different client address (127.10.x.y, one connection each), minus
 *    that of a fresh server after the same 100 000 requests from one address. Target: ≤ +50 MB.
 *
 * Exits 1 when a target is missed. Linux only (binds 127.x.y.z, reads /proc/<pid>/status).
 *
 * Run: npm run bench:server   (builds dist/ first); `npm run bench:server -- throughput` (or
 * `latency`, `memory`) runs only the phases named. BENCH_BEFORE_BIN=<another build's
 * dist/cli/main.js> adds that build to the throughput rounds (bare, ours, before, alternating)
 * and prints P1 for both.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  closeSync,
  createReadStream,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  truncateSync,
} from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { BENCH_APP_ID, BENCH_APP_SECRET } from './server-children.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// BENCH_SERVER_BIN measures another build of the bin (an older commit's dist/, say) the same way
const BIN = process.env.BENCH_SERVER_BIN ?? join(ROOT, 'dist', 'cli', 'main.js');
// BENCH_BEFORE_BIN: a second build (the commit before a change) joins the throughput rounds,
// alternating with ours and bare, so both P1 figures come from the same run
const BEFORE_BIN = process.env.BENCH_BEFORE_BIN;
const CHILDREN = join(ROOT, 'bench', 'server-children.ts');
const JWT_SECRET = 'j5s43GaQs9hCX8e3ma_LmHUzoYAxAM2b_peMgnYh9S0';

const THROUGHPUT = {
  connections: 10,
  durationS: 8,
  // BENCH_THROUGHPUT_ROUNDS: more alternating rounds where the machine is noisy
  rounds: Number(process.env.BENCH_THROUGHPUT_ROUNDS ?? 3),
  warmupS: 2,
  target: 0.75,
};
const LATENCY = { rate: 100, durationS: 20, warmupS: 2, addresses: 100, targetMs: 2 };
const MEMORY = { requests: 100_000, concurrency: 64, targetMb: 50 };

interface Proc {
  child: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

/** Stop: SIGTERM (our server drains and exits 0), SIGKILL if still there 5 s later. */
function track(child: ChildProcess): () => Promise<void> {
  const exited = once(child, 'exit');
  // however the bench ends, no server outlives it
  const orphanGuard = (): void => void child.kill('SIGKILL');
  process.once('exit', orphanGuard);
  void exited.then(() => process.off('exit', orphanGuard));
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await exited;
  };
}

/** A bench/server-children.ts process; resolves with the port it prints. */
async function startChild(mode: 'bare' | 'headers' | 'fastify' | 'identity'): Promise<Proc> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILDREN, mode], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = track(child);
  for await (const line of createInterface({ input: child.stdout as NodeJS.ReadableStream })) {
    const port = (JSON.parse(line) as { port?: number }).port;
    if (typeof port === 'number') {
      child.stdout?.resume();
      return { child, port, stop };
    }
  }
  throw new Error(`${mode} child exited before listening`);
}

/**
 * `finance-tui serve --port 0` with its stdout (the pino log) going to logFile, as `serve > file`
 * does; `unthrottled`: the same server with limits that count but never refuse (server-children.ts).
 */
async function startOurs(
  identityPort: number,
  home: string,
  logFile: string,
  unthrottled = false,
  bin = BIN,
): Promise<Proc> {
  const fd = openSync(logFile, 'a', 0o600);
  const identityUrl = `http://127.0.0.1:${identityPort}`;
  const args = unthrottled
    ? ['--import', 'tsx', CHILDREN, 'unthrottled']
    : [bin, 'serve', '--port', '0'];
  const child = spawn(process.execPath, args, {
    cwd: unthrottled ? ROOT : home,
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      // e.g. --cpu-prof --cpu-prof-dir=/tmp/prof to profile our server under the bench's load
      ...(process.env.BENCH_SERVER_NODE_OPTIONS === undefined
        ? {}
        : { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS }),
      FINANCE_TUI_HOME: home,
      NODE_ENV: 'production',
      IDENTITY_APP_ID: BENCH_APP_ID,
      IDENTITY_APP_SECRET: BENCH_APP_SECRET,
      JWT_SECRET,
      IDENTITY_AUTH_URL: `${identityUrl}/api/v1`,
      IDENTITY_API_URL: identityUrl,
    },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const stop = track(child);
  for (let waited = 0; waited < 15_000; waited += 50) {
    const port = /Server listening at http:\/\/127\.0\.0\.1:([0-9]+)/.exec(
      readFileSync(logFile, 'utf8'),
    )?.[1];
    if (port !== undefined) return { child, port: Number(port), stop };
    if (child.exitCode !== null) break;
    await sleep(50);
  }
  await stop();
  throw new Error(`our server did not start; see ${logFile}`);
}

/** CPU time (user + system) a process has used so far, in ms (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the fields after the command name (which may hold spaces) in parentheses
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function rssMb(pid: number): number {
  const kb = /VmRSS:\s+([0-9]+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for ${pid}`);
  return Number(kb) / 1024;
}

async function countLines(file: string, needle: string): Promise<number> {
  let count = 0;
  for await (const line of createInterface({ input: createReadStream(file) }))
    if (line.includes(needle)) count += 1;
  return count;
}

interface Reply {
  status: number;
  body: string;
}

function send(options: {
  port: number;
  path: string;
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  agent?: Agent | false;
  localAddress?: string;
}): Promise<Reply> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: options.port,
        path: options.path,
        method: options.method ?? (payload === undefined ? 'GET' : 'POST'),
        agent: options.agent ?? false,
        ...(options.localAddress === undefined ? {} : { localAddress: options.localAddress }),
        headers: {
          ...(payload === undefined
            ? {}
            : {
                'content-type': 'application/json',
                'content-length': String(Buffer.byteLength(payload)),
              }),
          ...(options.agent === false || options.agent === undefined
            ? { connection: 'close' }
            : {}),
          ...options.headers,
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function throughput(url: string, durationS: number): Promise<autocannon.Result> {
  const result = await autocannon({
    url,
    connections: THROUGHPUT.connections,
    duration: durationS,
  });
  if (result.errors > 0 || result.non2xx > 0)
    throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx responses`);
  return result;
}

/** Open loop: one request every 1000/rate ms whatever the previous ones are doing; latencies in ms. */
async function openLoop(
  rate: number,
  durationS: number,
  call: (i: number) => Promise<void>,
): Promise<number[]> {
  const latencies: number[] = [];
  const pending: Array<Promise<void>> = [];
  let failure: unknown;
  const start = performance.now();
  const total = rate * durationS;
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    const sent = performance.now();
    pending.push(
      call(i).then(
        () => void latencies.push(performance.now() - sent),
        (error: unknown) => void (failure ??= error),
      ),
    );
    if (failure !== undefined) break;
  }
  await Promise.all(pending);
  if (failure !== undefined) throw failure;
  return latencies;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
  );
}

const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
const randomHash = (): string =>
  `0x${Array.from({ length: 62 }, () => Math.floor(Math.random() * 16).toString(16)).join('')}`;

/** 127.10.0.1 onwards: a different client address for each i (hosts .1–.250 of each /24). */
function clientAddress(i: number): string {
  const block = Math.floor(i / 250);
  return `127.${10 + Math.floor(block / 256)}.${block % 256}.${(i % 250) + 1}`;
}

async function loginThroughOurs(
  ours: Proc,
  identity: Proc,
): Promise<{ token: string; walletId: string }> {
  const email = 'bench@example.com';
  const login = await send({ port: ours.port, path: '/auth/login', body: { email } });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${login.body}`);
  const mail = await send({
    port: identity.port,
    path: `/sandbox/outbox/${encodeURIComponent(email)}`,
  });
  const { code } = JSON.parse(mail.body) as { code: string };
  const verify = await send({ port: ours.port, path: '/auth/verify', body: { email, code } });
  if (verify.status !== 200) throw new Error(`verify: ${verify.status} ${verify.body}`);
  return JSON.parse(verify.body) as { token: string; walletId: string };
}

async function latencyPhase(
  ours: Proc,
  identity: Proc,
  logFile: string,
): Promise<{ ours: number; direct: number }> {
  const session = await loginThroughOurs(ours, identity);
  const addresses = Array.from({ length: LATENCY.addresses }, (_, i) => `127.0.2.${i + 1}`);
  const agentsFor = () => addresses.map(() => new Agent({ keepAlive: true, maxSockets: 4 }));
  const basic = `Basic ${Buffer.from(`${BENCH_APP_ID}:${BENCH_APP_SECRET}`).toString('base64')}`;

  const directAgents = agentsFor();
  const direct = async (i: number): Promise<void> => {
    const reply = await send({
      port: identity.port,
      path: `/v1/wallets/${encodeURIComponent(session.walletId)}/raw_sign`,
      body: { params: { hash: randomHash() } },
      headers: { authorization: basic, 'privy-app-id': BENCH_APP_ID },
      agent: directAgents[i % addresses.length] as Agent,
      localAddress: addresses[i % addresses.length] as string,
    });
    if (reply.status !== 200) throw new Error(`raw_sign: ${reply.status} ${reply.body}`);
  };
  const oursAgents = agentsFor();
  const throughOurs = async (i: number): Promise<void> => {
    const reply = await send({
      port: ours.port,
      path: '/sign/hash',
      body: { walletId: session.walletId, hash: randomHash() },
      headers: { authorization: `Bearer ${session.token}` },
      agent: oursAgents[i % addresses.length] as Agent,
      localAddress: addresses[i % addresses.length] as string,
    });
    if (reply.status === 429)
      throw new Error('/sign/hash was rate-limited: the bench would measure 429s, not signing');
    if (reply.status !== 200) throw new Error(`/sign/hash: ${reply.status} ${reply.body}`);
  };

  await openLoop(LATENCY.rate, LATENCY.warmupS, direct);
  await openLoop(LATENCY.rate, LATENCY.warmupS, throughOurs);
  // one-second slices, alternating: a burst of load from elsewhere on the machine then lands on
  // both sides alike instead of on whichever happened to run at that moment
  const directLatencies: number[] = [];
  const oursLatencies: number[] = [];
  for (let slice = 0; slice < LATENCY.durationS; slice++) {
    directLatencies.push(...(await openLoop(LATENCY.rate, 1, direct)));
    oursLatencies.push(...(await openLoop(LATENCY.rate, 1, throughOurs)));
  }
  for (const agent of [...directAgents, ...oursAgents]) agent.destroy();
  for (const [name, latencies] of [
    ['raw_sign direct', directLatencies],
    ['/sign/hash ours', oursLatencies],
  ] as const) {
    const at = (p: number): string => percentile(latencies, p).toFixed(2);
    console.log(
      `${name.padEnd(22)} p50 ${at(50)} ms  p90 ${at(90)} ms  p99 ${at(99)} ms  max ${at(100)} ms`,
    );
  }
  // what our server itself reports (its request line's responseTime, upstream call included)
  await sleep(300);
  const inside: number[] = [];
  for await (const line of createInterface({ input: createReadStream(logFile) })) {
    if (line.includes('"url":"/sign/hash"') && line.includes('"msg":"request"'))
      inside.push((JSON.parse(line) as { responseTime: number }).responseTime);
  }
  const at = (p: number): string => percentile(inside.slice(-oursLatencies.length), p).toFixed(2);
  console.log(
    `${'  (as logged by ours)'.padEnd(22)} p50 ${at(50)} ms  p90 ${at(90)} ms  p99 ${at(99)} ms  max ${at(100)} ms`,
  );
  return { ours: percentile(oursLatencies, 99), direct: percentile(directLatencies, 99) };
}

/** `count` POST /auth/login {} (counted by the limiter, then refused by the schema), one connection each. */
async function loginFlood(
  port: number,
  count: number,
  addressOf: (i: number) => string,
): Promise<void> {
  let next = 0;
  const statuses = new Map<number, number>();
  const worker = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      const reply = await send({ port, path: '/auth/login', body: {}, localAddress: addressOf(i) });
      statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: MEMORY.concurrency }, worker));
  const unexpected = [...statuses.keys()].filter((status) => status !== 400 && status !== 429);
  if (unexpected.length > 0)
    throw new Error(
      `login flood: unexpected statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
}

async function memoryRun(
  identity: Proc,
  home: string,
  addressOf: (i: number) => string,
): Promise<{ before: number; after: number }> {
  const logFile = join(home, `memory-${Date.now()}.log`);
  const ours = await startOurs(identity.port, home, logFile);
  try {
    await loginFlood(ours.port, 2_000, () => '127.0.0.1'); // warm up (JIT, pools) before the first reading
    await sleep(500);
    const before = rssMb(ours.child.pid as number);
    await loginFlood(ours.port, MEMORY.requests, addressOf);
    await sleep(1_000);
    return { before, after: rssMb(ours.child.pid as number) };
  } finally {
    await ours.stop();
    rmSync(logFile, { force: true });
  }
}

async function main(): Promise<void> {
  const named = process.argv.slice(2);
  const phase = (name: string): boolean => named.length === 0 || named.includes(name);
  const home = mkdtempSync(join(tmpdir(), 'finance-tui-bench-'));
  const procs: Proc[] = [];
  const results: Results = [];
  try {
    const bare = await startChild('bare');
    procs.push(bare);
    const identity = await startChild('identity');
    procs.push(identity);
    const logFile = join(home, 'server.log');
    const ours = await startOurs(identity.port, home, logFile);
    procs.push(ours);

    // 1. throughput
    if (phase('throughput')) {
      const before =
        BEFORE_BIN === undefined
          ? undefined
          : await startOurs(identity.port, home, join(home, 'before.log'), false, BEFORE_BIN);
      if (before !== undefined) procs.push(before);
      const headers = await startChild('headers');
      procs.push(headers);
      const floor = await startChild('fastify');
      procs.push(floor);
      await throughputPhase(bare, headers, floor, ours, logFile, results, before);
      for (const proc of [headers, floor]) {
        await proc.stop();
        procs.splice(procs.indexOf(proc), 1);
      }
      if (before !== undefined) {
        await before.stop();
        procs.splice(procs.indexOf(before), 1);
      }
    }

    await ours.stop();
    procs.splice(procs.indexOf(ours), 1);

    // 2. added latency on /sign/hash
    if (phase('latency')) {
      const latencyLog = join(home, 'server-latency.log');
      const unthrottled = await startOurs(identity.port, home, latencyLog, true);
      procs.push(unthrottled);
      const latency = await latencyPhase(unthrottled, identity, latencyLog);
      const added = latency.ours - latency.direct;
      results.push({
        pass: added <= LATENCY.targetMs,
        line: `/sign/hash p99 at ${LATENCY.rate}/s for ${LATENCY.durationS} s: ours ${latency.ours.toFixed(2)} ms, raw_sign direct ${latency.direct.toFixed(2)} ms, added ${added.toFixed(2)} ms (target ≤ ${LATENCY.targetMs} ms)`,
      });
    }

    // 3. memory: many client addresses versus one
    if (phase('memory')) {
      const many = await memoryRun(identity, home, clientAddress);
      const one = await memoryRun(identity, home, () => '127.0.0.1');
      const delta = many.after - one.after;
      results.push({
        pass: delta <= MEMORY.targetMb,
        line:
          `RSS after ${MEMORY.requests} requests: from ${MEMORY.requests} addresses ${many.after.toFixed(1)} MB (was ${many.before.toFixed(1)}), ` +
          `from one address ${one.after.toFixed(1)} MB (was ${one.before.toFixed(1)}), difference ${delta >= 0 ? '+' : ''}${delta.toFixed(1)} MB (target ≤ +${MEMORY.targetMb} MB)`,
      });
    }
  } finally {
    for (const proc of procs) await proc.stop();
    rmSync(home, { recursive: true, force: true });
  }
  console.log('');
  for (const result of results) console.log(`${result.pass ? 'PASS' : 'FAIL'}  ${result.line}`);
  const failed = results.filter((result) => !result.pass).length;
  if (failed > 0) {
    console.log(`${failed} of ${results.length} target(s) missed`);
    process.exitCode = 1;
  }
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

type Results = Array<{ pass: boolean; line: string }>;

async function throughputPhase(
  bare: Proc,
  headers: Proc,
  floor: Proc,
  ours: Proc,
  logFile: string,
  results: Results,
  before?: Proc,
): Promise<void> {
  /** A server measured in the rounds: its requests per second and CPU per request, each round. */
  const measured = (name: string, proc: Proc) => ({
    name,
    url: `http://127.0.0.1:${proc.port}/health`,
    pid: proc.child.pid as number,
    rps: [] as number[],
    cpuPerRequest: [] as number[],
    total: 0,
  });
  const targets = [
    measured('bare node:http', bare),
    measured('+ our headers', headers),
    measured('Fastify floor', floor),
    measured('ours (serve)', ours),
    ...(before === undefined ? [] : [measured('before (serve)', before)]),
  ];
  for (const target of targets)
    target.total += (await throughput(target.url, THROUGHPUT.warmupS)).requests.total;
  for (let round = 1; round <= THROUGHPUT.rounds; round++) {
    for (const target of targets) {
      const cpuBefore = cpuMs(target.pid);
      const result = await throughput(target.url, THROUGHPUT.durationS);
      const cpuPerRequest = ((cpuMs(target.pid) - cpuBefore) * 1000) / result.requests.total;
      target.rps.push(result.requests.average);
      target.cpuPerRequest.push(cpuPerRequest);
      target.total += result.requests.total;
      console.log(
        `round ${round}  ${target.name.padEnd(15)} ${Math.round(result.requests.average).toString().padStart(7)} req/s  p99 ${result.latency.p99} ms  server CPU ${cpuPerRequest.toFixed(1)} µs/request`,
      );
    }
  }
  const [bareT, headersT, floorT, oursT, beforeT] = targets as [
    (typeof targets)[0],
    (typeof targets)[0],
    (typeof targets)[0],
    (typeof targets)[0],
    (typeof targets)[0] | undefined,
  ];
  // the median of the rounds' own ratios (each against the bare server of its round)
  const ratio = medianOf(oursT.rps.map((value, i) => value / (bareT.rps[i] as number)));
  // the same ratio from the servers' own CPU per request (bare's / ours'): what the throughput
  // ratio would be if each server had a core to itself, and less moved by other work on the machine
  const cpuRatio = (target: (typeof targets)[0]) =>
    medianOf(target.cpuPerRequest.map((value, i) => (bareT.cpuPerRequest[i] as number) / value));
  console.log(
    `server CPU per request, bare's / ours' (median of the rounds): ${cpuRatio(oursT).toFixed(2)}${beforeT === undefined ? '' : `; before: ${cpuRatio(beforeT).toFixed(2)}`}`,
  );
  // what the headers alone cost node:http: no server sending them can pass this line
  console.log(
    `node:http with our headers (no framework) × bare, median of the rounds: req/s ${medianOf(headersT.rps.map((value, i) => value / (bareT.rps[i] as number))).toFixed(2)}, CPU per request ${cpuRatio(headersT).toFixed(2)}; ours × it: req/s ${medianOf(oursT.rps.map((value, i) => value / (headersT.rps[i] as number))).toFixed(2)}, CPU per request ${medianOf(oursT.cpuPerRequest.map((value, i) => (headersT.cpuPerRequest[i] as number) / value)).toFixed(2)}`,
  );
  // the floor: how near bare any Fastify server sending our headers comes, in the same rounds
  const floorRatio = medianOf(floorT.rps.map((value, i) => value / (bareT.rps[i] as number)));
  console.log(
    `Fastify floor (our headers, nothing else) × bare, median of the rounds: req/s ${floorRatio.toFixed(2)}, CPU per request ${cpuRatio(floorT).toFixed(2)}; ours × the floor: req/s ${medianOf(oursT.rps.map((value, i) => value / (floorT.rps[i] as number))).toFixed(2)}, CPU per request ${medianOf(oursT.cpuPerRequest.map((value, i) => (floorT.cpuPerRequest[i] as number) / value)).toFixed(2)}`,
  );
  if (beforeT !== undefined) {
    // P1 per round (each against the bare server of its own round), then their means
    const perRound = (rps: number[]) => rps.map((value, i) => value / (bareT.rps[i] as number));
    const p1Ours = mean(perRound(oursT.rps));
    const p1Before = mean(perRound(beforeT.rps));
    const median = (values: number[]) =>
      [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
    console.log(
      `P1 (ours / bare, mean of ${THROUGHPUT.rounds} rounds): before ${p1Before.toFixed(3)}, after ${p1Ours.toFixed(3)}, difference ${(p1Ours - p1Before).toFixed(3)}; medians ${median(perRound(beforeT.rps)).toFixed(3)} and ${median(perRound(oursT.rps)).toFixed(3)}; after / before, mean of rounds ${mean(oursT.rps.map((v, i) => v / (beforeT.rps[i] as number))).toFixed(3)}`,
    );
  }
  results.push({
    pass: ratio >= THROUGHPUT.target,
    line: `throughput /health: ours ${Math.round(mean(oursT.rps))} req/s, bare ${Math.round(mean(bareT.rps))} req/s (means); median of the rounds' ratios ${ratio.toFixed(2)} × bare (target ≥ ${THROUGHPUT.target})`,
  });
  // the log really has a line per request (what makes the comparison honest)
  await sleep(500);
  const logged = await countLines(logFile, '"url":"/health"');
  results.push({
    pass: logged >= oursT.total,
    line: `request log: ${logged} lines for ${oursT.total} /health responses counted by the client (target: one each)`,
  });
  truncateSync(logFile);
}

await main();
