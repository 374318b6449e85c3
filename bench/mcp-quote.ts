/**
 * What the tool server adds to a quote (issue 18: target ≤ 20 ms). In one run, against one
 * sandbox: the same single-pair quote (1) through the core's `quote` as the headless command
 * calls it, in this process, and (2) as `get_quote` through a running `finance-tui mcp --sandbox`
 * over stdio with the MCP SDK's own client. Interleaved runs, medians, ratio and difference
 * printed; exits 1 when the difference is over the target. Process start-up is left out of both
 * (a tool server starts once per session; the headless command's start-up is bench/startup.ts).
 *
 * Run: npm run bench:mcp (builds first: the server is the built bin)
 */
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { resolveEndpoints } from '../cli/core/endpoints.js';
import { quote, quoteDeps } from '../cli/core/quote.js';
import { BIN, cleanEnv, spawnBin, tempHome } from '../test/helpers/process.js';

const RUNS = 40;
const TARGET_MS = 20;

const median = (values: number[]): number =>
  [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? Number.NaN;

async function main(): Promise<void> {
  const home = tempHome();
  const env = cleanEnv({ FINANCE_TUI_HOME: home.dir });
  const sandbox = spawnBin(['sandbox', '--port', '0', '--json'], env);
  let client: Client | undefined;
  try {
    await sandbox.waitForLine((line) => line.includes('"ready"'), 30_000);
    const endpoints = await resolveEndpoints(env, { sandbox: true });
    const deps = quoteDeps(endpoints);
    const request = { pairs: [{ amount: '1', from: 'ETH', to: 'USDC' }], multi: false };
    client = new Client({ name: 'bench', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp', '--sandbox'],
        env: env as Record<string, string>,
        stderr: 'ignore',
      }),
    );
    const viaMcp = async (): Promise<void> => {
      const r = (await (client as Client).callTool({
        name: 'get_quote',
        arguments: { pairs: request.pairs },
      })) as { isError?: boolean };
      if (r.isError) throw new Error('get_quote failed');
    };
    const direct = async (): Promise<void> => {
      await quote(request, deps);
    };
    for (let i = 0; i < 5; i++) await Promise.all([viaMcp(), direct()]); // warm both
    const headless: number[] = [];
    const mcp: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      let t = performance.now();
      await direct();
      headless.push(performance.now() - t);
      t = performance.now();
      await viaMcp();
      mcp.push(performance.now() - t);
    }
    const h = median(headless);
    const m = median(mcp);
    const diff = m - h;
    console.log(`quote 1 ETH>USDC, ${RUNS} interleaved runs, medians`);
    console.log(`  headless core quote     ${h.toFixed(2)} ms`);
    console.log(`  get_quote over MCP      ${m.toFixed(2)} ms`);
    console.log(
      `  ratio ${(m / h).toFixed(2)}, added ${diff.toFixed(2)} ms (target ≤ ${TARGET_MS} ms): ${diff <= TARGET_MS ? 'ok' : 'OVER'}`,
    );
    await endpoints.release();
    process.exitCode = diff <= TARGET_MS ? 0 : 1;
  } finally {
    await client?.close().catch(() => undefined);
    sandbox.kill('SIGTERM');
    await sandbox.exited;
    home.cleanup();
  }
}

await main();
