/**
 * Multi-pair quotes should cost about one round trip, not one per pair. Starts the aggregator
 * emulator with 200 ms latency, measures one /route round trip (median), then quotes 3 pairs
 * with mixed outputs (parallel /route) and with one output (one /routeBatch), and prints each
 * wall time as a ratio of the round trip. Target ≤ 1.2. Exits 1 when any target fails (CI does
 * not run it; a person does, and a script around it can trust the exit code).
 *
 * Run: npx tsx bench/quote-batch.ts
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createAggregatorClient, type SwapPair } from '../cli/clients/aggregator.js';
import { resolveToken } from '../shared/tokens.js';
import { buildAggregatorEmulator } from '../sandbox/aggregator/app.js';

const LATENCY_MS = 200;
const RUNS = 5;
const TARGET = 1.2;

const a = (symbol: string): string => resolveToken('mainnet', symbol).address;

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function main(): Promise<void> {
  const app = await buildAggregatorEmulator({ latencyMs: LATENCY_MS });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const client = createAggregatorClient({ baseUrl, network: 'mainnet' });
  try {
    const single: SwapPair = { amount: 10n ** 18n, tokenIn: a('ETH'), tokenOut: a('USDC') };
    await client.getRoute(single); // warm the connection pool
    const rtts: number[] = [];
    for (let i = 0; i < RUNS; i++) rtts.push(await time(() => client.getRoute(single)));
    const rtt = median(rtts);

    const mixed: SwapPair[] = [
      { amount: 100_000_000n, tokenIn: a('USDC'), tokenOut: a('ETH') },
      { amount: 5000n * 10n ** 18n, tokenIn: a('STRK'), tokenOut: a('USDC') },
      { amount: 10_000_000n, tokenIn: a('WBTC'), tokenOut: a('DAI') },
    ];
    const sameOut: SwapPair[] = [
      { amount: 100_000_000n, tokenIn: a('USDC'), tokenOut: a('ETH') },
      { amount: 5000n * 10n ** 18n, tokenIn: a('STRK'), tokenOut: a('ETH') },
      { amount: 10_000_000n, tokenIn: a('WBTC'), tokenOut: a('ETH') },
    ];
    const results: Array<{ name: string; ms: number; requests: number }> = [];
    for (const [name, pairs] of [
      ['3 pairs, mixed outputs (parallel /route)', mixed],
      ['3 pairs, one output (one /routeBatch)', sameOut],
    ] as const) {
      const times: number[] = [];
      let requests = 0;
      for (let i = 0; i < RUNS; i++) {
        const before = app.faults.requests;
        times.push(await time(() => client.quoteMulti([...pairs])));
        requests = app.faults.requests - before;
      }
      results.push({ name, ms: median(times), requests });
    }

    console.log(
      `one round trip (median of ${RUNS}, ${LATENCY_MS} ms injected latency): ${rtt.toFixed(1)} ms`,
    );
    let failed = 0;
    for (const r of results) {
      const ratio = r.ms / rtt;
      const pass = ratio <= TARGET;
      if (!pass) failed += 1;
      console.log(
        `${pass ? 'PASS' : 'FAIL'}  ${r.name}: ${r.ms.toFixed(1)} ms = ${ratio.toFixed(2)} × round trip (target ≤ ${TARGET}), ${r.requests} request(s)`,
      );
    }
    if (failed > 0) {
      console.log(`${failed} of ${results.length} target(s) failed`);
      // exitCode, not exit(): the emulator still closes in finally and stdout drains
      process.exitCode = 1;
    }
  } finally {
    await app.close();
  }
}

await main();
