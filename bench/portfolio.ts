/**
 * `portfolio --json --fresh --sandbox` of the built bin for a wallet holding every registry token
 * (the mainnet registry has 7; a faucet wallet holds 6, a small trade adds USDC.e) and positions
 * (a stake, a supply, a borrow), with the latency knob of BOTH the aggregator emulator and the
 * chain emulator at 200 ms per request, so that chain rounds cost as much as aggregator rounds.
 * The positions' first round of chain reads runs beside the wallet's balances, then one round for
 * what is held, then every token and position line is priced in one parallel aggregator round
 * (docs/portfolio.md "Positions"): the command should cost its start-up plus one chain round trip
 * plus one aggregator round trip.
 *
 * Measured in the same run, one of each per round (medians over BENCH_RUNS, default 5):
 *  - start-up: `balance --json --sandbox` (the same process start, session and chain reads of the
 *    balances, at the same chain latency, without the aggregator);
 *  - one aggregator round trip: a single GET /route to the emulator from this process;
 *  - one chain round trip: a single `starknet_chainId` POST to the chain emulator's /rpc;
 *  - portfolio: `portfolio --json --fresh --sandbox` (--fresh: past the 20 s price cache).
 * Both commands run with the fetch probe (bench/fetch-probe.ts), which counts, from the order of
 * request events (no clock), the sequential round trips (`steps`: the longest chain of requests
 * each sent after the one before had answered) and those of the chain alone (`chainSteps`). The
 * bench prints portfolio's beyond balance's: chain rounds = the chainSteps difference, aggregator
 * rounds = the rest of the steps difference; and the chain requests (HTTP posts, and the calls
 * they carry: a JSON-RPC batch is one post) of each.
 * Prints portfolio / (start-up + one chain trip + one aggregator trip); the target is ≤ 1.3.
 * Exits 1 when it fails, or when portfolio takes more than one chain round or one aggregator
 * round beyond balance (medians of the counts).
 *
 * Run: npm run bench:portfolio   (builds nothing: run `npm run build` first). BENCH_BIN names
 * another built main.js (e.g. an older build, for a before/after in the same conditions).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { FETCH_PROBE, readProbe } from './fetch-probe.js';

const BIN = process.env.BENCH_BIN ?? fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const LATENCY_MS = 200;
const TARGET_RATIO = 1.3;
/** beyond balance's: the positions' round for what is held, and the pricing round */
const MAX_EXTRA_CHAIN_ROUNDS = 1;
const MAX_EXTRA_AGGREGATOR_ROUNDS = 1;
const home = mkdtempSync(join(tmpdir(), 'finance-tui-bench-portfolio-'));
const env: NodeJS.ProcessEnv = { ...process.env, FINANCE_TUI_HOME: home, NO_COLOR: '1' };
delete env.CI;

const median = (values: number[]): number =>
  [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? Number.NaN;

interface Ran {
  wallMs: number;
  stdout: string;
  steps: number;
  chainSteps: number;
  cpuMs: number;
  requests: string[];
}

function run(args: string[], probe = false): Ran {
  const start = performance.now();
  const result = spawnSync(
    process.execPath,
    [...(probe ? ['--import', FETCH_PROBE] : []), BIN, ...args],
    { env, encoding: 'utf8' },
  );
  const wallMs = performance.now() - start;
  if (result.status !== 0)
    throw new Error(
      `finance-tui ${args.join(' ')} exited ${result.status}: ${(result.stdout + result.stderr).slice(0, 800)}`,
    );
  if (!probe)
    return { wallMs, stdout: result.stdout, steps: 0, chainSteps: 0, cpuMs: 0, requests: [] };
  const report = readProbe(result.stderr);
  return {
    wallMs,
    stdout: result.stdout,
    steps: report.steps,
    chainSteps: report.chainSteps,
    cpuMs: report.cpuMs,
    requests: report.requests,
  };
}

async function startSandbox(): Promise<{
  child: ChildProcess;
  aggregatorUrl: string;
  chainUrl: string;
}> {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--json'], {
    env,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  for await (const line of createInterface({ input: child.stdout! })) {
    const doc = JSON.parse(line) as { event?: string; aggregatorUrl?: string; chainUrl?: string };
    if (doc.event === 'ready') {
      child.stdout!.resume();
      return {
        child,
        aggregatorUrl: doc.aggregatorUrl as string,
        chainUrl: doc.chainUrl as string,
      };
    }
  }
  throw new Error('the sandbox never said ready');
}

async function roundTrip(aggregatorUrl: string): Promise<number> {
  const query = new URLSearchParams({
    amount: '1000000000000000000',
    tokenInAddress: '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7',
    tokenOutAddress: '0x033068f6539f8e6e6b131e6b2b814e6c34a5224bc66947c47dab9dfee93b35fb',
  });
  const start = performance.now();
  const response = await fetch(`${aggregatorUrl}/route?${query}`);
  await response.json();
  return performance.now() - start;
}

async function chainTrip(chainUrl: string): Promise<number> {
  const start = performance.now();
  const response = await fetch(`${chainUrl}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'starknet_chainId' }),
  });
  await response.json();
  return performance.now() - start;
}

async function main(): Promise<void> {
  const { child, aggregatorUrl, chainUrl } = await startSandbox();
  let failed: boolean;
  try {
    run(['login', 'bench@example.com', '--sandbox', '--json']);
    const { code } = JSON.parse(
      run(['sandbox', 'outbox', 'bench@example.com', '--json']).stdout,
    ) as { code: string };
    run(['verify', 'bench@example.com', code, '--sandbox', '--json']);
    run(['trade', '10', 'USDC', 'USDC.e', '--yes', '--sandbox', '--json']); // the 7th registry token
    // positions: a stake, a supply, a borrow (collateral + debt), read beside the balances
    run(['stake', '100', '--validator', 'Sandbox Alpha', '--yes', '--sandbox', '--json']);
    run(['supply', '100', 'USDC', '--yes', '--sandbox', '--json']);
    run(['borrow', '100', 'USDT', '--collateral', '1 ETH', '--yes', '--sandbox', '--json']);
    for (const url of [aggregatorUrl, chainUrl]) {
      const knob = await fetch(`${url}/sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ latencyMs: LATENCY_MS }),
      });
      if (!knob.ok) throw new Error(`the latency knob of ${url} answered ${knob.status}`);
    }
    const warm = JSON.parse(run(['portfolio', '--json', '--fresh', '--sandbox']).stdout) as {
      tokens: unknown[];
      positions?: unknown[];
    }; // warms the caches
    const held = warm.tokens.length;
    const positions = warm.positions?.length ?? 0;
    const startups: number[] = [];
    const aggregatorTrips: number[] = [];
    const chainTrips: number[] = [];
    const portfolios: number[] = [];
    const extraChain: number[] = [];
    const extraAggregator: number[] = [];
    const cpu: { balance: number[]; portfolio: number[] } = { balance: [], portfolio: [] };
    let last: { balance: Ran; portfolio: Ran } | undefined;
    for (let round = 0; round < RUNS; round++) {
      const balance = run(['balance', '--json', '--sandbox'], true);
      startups.push(balance.wallMs);
      aggregatorTrips.push(await roundTrip(aggregatorUrl));
      chainTrips.push(await chainTrip(chainUrl));
      const portfolio = run(['portfolio', '--json', '--fresh', '--sandbox'], true);
      portfolios.push(portfolio.wallMs);
      // the critical path beyond balance's, and how many of its steps are chain rounds
      const chainExtra = portfolio.chainSteps - balance.chainSteps;
      extraChain.push(chainExtra);
      extraAggregator.push(portfolio.steps - balance.steps - chainExtra);
      cpu.balance.push(balance.cpuMs);
      cpu.portfolio.push(portfolio.cpuMs);
      last = { balance, portfolio };
    }
    const startup = median(startups);
    const aggregatorTrip = median(aggregatorTrips);
    const chainTripMs = median(chainTrips);
    const portfolio = median(portfolios);
    const chainRounds = median(extraChain);
    const aggregatorRounds = median(extraAggregator);
    const ratio = portfolio / (startup + chainTripMs + aggregatorTrip);
    const ratioFailed = !(ratio <= TARGET_RATIO);
    const roundsFailed =
      chainRounds > MAX_EXTRA_CHAIN_ROUNDS || aggregatorRounds > MAX_EXTRA_AGGREGATOR_ROUNDS;
    failed = ratioFailed || roundsFailed;
    const chainRequests = (r: Ran): number => r.requests.filter((q) => q.includes(' /rpc')).length;
    const chainCalls = (r: Ran): number =>
      r.requests
        .filter((q) => q.includes(' /rpc'))
        .reduce((n, q) => n + (q.split(' ')[2]?.split('+').length ?? 1), 0);
    console.log(
      [
        `held tokens priced                            ${String(held).padStart(5)}  (latency ${LATENCY_MS} ms per request, aggregator and chain)`,
        `position lines priced in the same round       ${String(positions).padStart(5)}  (staked, supplied, collateral, debt)`,
        `chain rounds of portfolio beyond balance      ${String(chainRounds).padStart(5)}  (target ≤ ${MAX_EXTRA_CHAIN_ROUNDS}; counted by the fetch probe)`,
        `aggregator rounds of portfolio beyond balance ${String(aggregatorRounds).padStart(5)}  (target ≤ ${MAX_EXTRA_AGGREGATOR_ROUNDS}${roundsFailed ? '; FAILED' : ''})`,
        `chain requests (calls) balance / portfolio    ${last === undefined ? '' : `${chainRequests(last.balance)} (${chainCalls(last.balance)}) / ${chainRequests(last.portfolio)} (${chainCalls(last.portfolio)})`}`,
        `round trips in portfolio − start-up, by time  ${(portfolio - startup > 0 ? (portfolio - startup) / aggregatorTrip : 0).toFixed(1).padStart(5)}  (in ${LATENCY_MS} ms trips)`,
        `process CPU balance / portfolio               ${median(cpu.balance).toFixed(0)} / ${median(cpu.portfolio).toFixed(0)} ms`,
        `start-up: balance --json --sandbox            ${startup.toFixed(0).padStart(5)} ms`,
        `one aggregator round trip (GET /route)        ${aggregatorTrip.toFixed(0).padStart(5)} ms`,
        `one chain round trip (starknet_chainId)       ${chainTripMs.toFixed(0).padStart(5)} ms`,
        `portfolio --json --fresh --sandbox            ${portfolio.toFixed(0).padStart(5)} ms`,
        `ratio portfolio / (start-up + both trips)     ${ratio.toFixed(2).padStart(5)}   (target ≤ ${TARGET_RATIO}${ratioFailed ? ' FAILED' : ''})`,
        `(medians of ${RUNS} runs)`,
      ].join('\n'),
    );
    if (process.env.BENCH_VERBOSE === '1' && last !== undefined)
      console.log(['requests of the last portfolio:', ...last.portfolio.requests].join('\n  '));
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(home, { recursive: true, force: true });
  }
  if (failed) process.exitCode = 1;
}

await main();
