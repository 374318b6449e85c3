/**
 * Ctrl+C during `quote` and `status`: main aborts ctx.signal and expects the command to reject
 * promptly (it then prints CANCELLED, exit 2). The commands run in-process here against an
 * aggregator emulator with latency, so the abort lands mid-request.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CommandContext, CommandRun } from '../cli/headless/context.js';
import { run as quote } from '../cli/commands/quote.js';
import { run as status } from '../cli/commands/status.js';
import { buildAggregatorEmulator } from '../sandbox/aggregator/app.js';
import { commandContext } from './helpers/context.js';
import { cleanEnv, tempHome } from './helpers/process.js';

let app: FastifyInstance;
let url: string;
let home: ReturnType<typeof tempHome>;

beforeAll(async () => {
  // far beyond the client's 10 s deadline: only the abort can end a call in CANCELLED
  app = await buildAggregatorEmulator({ latencyMs: 60_000 });
  await app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  home = tempHome();
});
afterAll(async () => {
  // The aborted requests are still sleeping server-side; once answered, their keep-alive
  // sockets would hold close() open for the keep-alive timeout. Cut them.
  const closing = app.close();
  app.server.closeAllConnections();
  await closing;
  home.cleanup();
});

function context(argv: string[], signal: AbortSignal): CommandContext {
  // The emulator answers for the aggregator and (slowly, at /health) stands in for the server;
  // cleanEnv drops any inherited FINANCE_TUI_* (FINANCE_TUI_SANDBOX among them).
  return commandContext({
    argv,
    signal,
    env: cleanEnv({
      FINANCE_TUI_HOME: home.dir,
      FINANCE_TUI_AGGREGATOR_URL: url,
      FINANCE_TUI_SERVER_URL: url,
    }),
  });
}

async function abortMidRequest(
  command: CommandRun,
  argv: string[],
): Promise<{ error: unknown; requests: number; hits: Record<string, number> }> {
  const before = app.faults.requests;
  const controller = new AbortController();
  const outcome = command(context(argv, controller.signal)).then(
    () => ({ error: undefined }),
    (error: unknown) => ({ error }),
  );
  // wait until the aggregator request is in the emulator's latency
  await vi.waitFor(
    () =>
      expect(
        (app.aggregatorStats.hits['/route'] ?? 0) + (app.aggregatorStats.hits['/healthCheck'] ?? 0),
      ).toBeGreaterThan(0),
    { timeout: 10_000, interval: 5 },
  );
  controller.abort();
  const { error } = await outcome;
  // the requests made up to the rejection; that an aborted call is never retried afterwards is
  // cli/clients/aggregator.test.ts's (onRetry counted)
  const requests = app.faults.requests - before;
  const hits = { ...app.aggregatorStats.hits };
  app.aggregatorStats.reset();
  return { error, requests, hits };
}

describe('cancellation of quote and status', () => {
  it('quote: an abort mid-request rejects with CANCELLED, with no further attempt', async () => {
    const { error, hits } = await abortMidRequest(quote, ['1', 'ETH', 'USDC', '--json']);
    expect(error).toMatchObject({ code: 'CANCELLED' });
    // by path: a request of an earlier test (status's server probe) may still be arriving
    expect(hits['/route']).toBe(1);
  });

  it('status: an abort mid-request rejects with CANCELLED instead of reporting the services down', async () => {
    const { error, requests } = await abortMidRequest(status, ['--json']);
    expect(error).toMatchObject({ code: 'CANCELLED' });
    // one aggregator health check and one server probe, neither retried
    expect(requests).toBeLessThanOrEqual(2);
  });

  it('an already aborted signal makes no aggregator request', async () => {
    const before = app.faults.requests;
    const controller = new AbortController();
    controller.abort();
    await expect(quote(context(['1', 'ETH', 'USDC'], controller.signal))).rejects.toMatchObject({
      code: 'CANCELLED',
    });
    await expect(status(context([], controller.signal))).rejects.toMatchObject({
      code: 'CANCELLED',
    });
    expect(app.faults.requests).toBe(before);
  });
});
