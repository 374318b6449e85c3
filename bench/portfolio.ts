/**
 * `portfolio --json --fresh --sandbox` of the built bin for a wallet holding every registry token
 * (the mainnet registry has 7; a faucet wallet holds 6, a small trade adds USDC.e), with the
 * aggregator emulator's latency knob at 200 ms per request, and positions (a stake, a supply, a
 * borrow). Every token and every position line is priced in one parallel round, the positions
 * read beside the balances, so the command should cost its own start-up plus about one round trip
 * (it prints that count: (portfolio − start-up) / one round trip, rounded).
 *
 * Measured in the same run, one of each per round (medians over BENCH_RUNS, default 5):
 *  - start-up: `balance --json --sandbox` (the same process start, session and chain reads,
 *    without the aggregator);
 *  - one round trip: a single GET /route to the emulator from this process (200 ms + overhead);
 *  - portfolio: `portfolio --json --fresh --sandbox` (--fresh: past the 20 s price cache).
 * Prints portfolio / (start-up + one round trip); the target is ≤ 1.3. Exits 1 when it fails.
 *
 * Run: npm run bench:portfolio   (builds nothing: run `npm run build` first)
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const LATENCY_MS = 200;
const TARGET_RATIO = 1.3;
const home = mkdtempSync(join(tmpdir(), 'finance-tui-bench-portfolio-'));
const env: NodeJS.ProcessEnv = { ...process.env, FINANCE_TUI_HOME: home, NO_COLOR: '1' };
delete env.CI;

const median = (values: number[]): number =>
  [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? Number.NaN;

function run(args: string[]): { wallMs: number; stdout: string } {
  const start = performance.now();
  const result = spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8' });
  const wallMs = performance.now() - start;
  if (result.status !== 0)
    throw new Error(
      `finance-tui ${args.join(' ')} exited ${result.status}: ${(result.stdout + result.stderr).slice(0, 800)}`,
    );
  return { wallMs, stdout: result.stdout };
}

async function startSandbox(): Promise<{ child: ChildProcess; aggregatorUrl: string }> {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--json'], {
    env,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  for await (const line of createInterface({ input: child.stdout! })) {
    const doc = JSON.parse(line) as { event?: string; aggregatorUrl?: string };
    if (doc.event === 'ready') {
      child.stdout!.resume();
      return { child, aggregatorUrl: doc.aggregatorUrl as string };
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

async function main(): Promise<void> {
  const { child, aggregatorUrl } = await startSandbox();
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
    const knob = await fetch(`${aggregatorUrl}/sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latencyMs: LATENCY_MS }),
    });
    if (!knob.ok) throw new Error(`the latency knob answered ${knob.status}`);
    const warm = JSON.parse(run(['portfolio', '--json', '--fresh', '--sandbox']).stdout) as {
      tokens: unknown[];
      positions?: unknown[];
    }; // warms the caches
    const held = warm.tokens.length;
    const positions = warm.positions?.length ?? 0;
    const startups: number[] = [];
    const trips: number[] = [];
    const portfolios: number[] = [];
    for (let round = 0; round < RUNS; round++) {
      startups.push(run(['balance', '--json', '--sandbox']).wallMs);
      trips.push(await roundTrip(aggregatorUrl));
      portfolios.push(run(['portfolio', '--json', '--fresh', '--sandbox']).wallMs);
    }
    const startup = median(startups);
    const trip = median(trips);
    const portfolio = median(portfolios);
    const ratio = portfolio / (startup + trip);
    failed = !(ratio <= TARGET_RATIO);
    console.log(
      [
        `held tokens priced                            ${String(held).padStart(5)}  (aggregator latency ${LATENCY_MS} ms per request)`,
        `position lines priced in the same round       ${String(positions).padStart(5)}  (staked, supplied, collateral, debt)`,
        `aggregator round trips in portfolio           ${(portfolio - startup > 0 ? Math.round((portfolio - startup) / trip) : 0).toString().padStart(5)}  (portfolio − start-up, in round trips)`,
        `start-up: balance --json --sandbox            ${startup.toFixed(0).padStart(5)} ms`,
        `one aggregator round trip (GET /route)        ${trip.toFixed(0).padStart(5)} ms`,
        `portfolio --json --fresh --sandbox            ${portfolio.toFixed(0).padStart(5)} ms`,
        `ratio portfolio / (start-up + round trip)     ${ratio.toFixed(2).padStart(5)}   (target ≤ ${TARGET_RATIO}${failed ? ' FAILED' : ''})`,
        `(medians of ${RUNS} runs)`,
      ].join('\n'),
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(home, { recursive: true, force: true });
  }
  if (failed) process.exitCode = 1;
}

await main();
