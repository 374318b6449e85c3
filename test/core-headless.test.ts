/**
 * The core (cli/core/) is shared by the headless commands and the TUI, so it never writes to a
 * terminal and never sees a CommandContext: progress goes to onProgress, results are data.
 * Checked twice: by reading the source, and by running core calls with stdout/stderr watched.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ProgressEvent as Progress } from '../cli/core/call.js';
import { resolveEndpoints } from '../cli/core/endpoints.js';
import { quote, quoteDeps } from '../cli/core/quote.js';
import { status } from '../cli/core/status.js';
import { buildAggregatorEmulator } from '../sandbox/aggregator/app.js';
import { cleanEnv, tempHome } from './helpers/process.js';

const CORE = fileURLToPath(new URL('../cli/core/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('the core writes nothing to a terminal', () => {
  it('no core module names stdout, stderr, console or a CommandContext', () => {
    const files = sources(CORE);
    expect(files.length).toBeGreaterThan(5);
    const offences = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${relative(CORE, file)}:${i + 1}` }))
        .filter(({ line }) => !/^\s*(\*|\/\/)/.test(line))
        .filter(({ line }) =>
          /\bprocess\.(stdout|stderr)\b|\bconsole\.|\bCommandContext\b|\.\.\/context\.js|\bctx\.(stdout|stderr)\b/.test(
            line,
          ),
        )
        .map(({ at, line }) => `${at}: ${line.trim()}`),
    );
    expect(offences).toEqual([]);
  });

  describe('at run time', () => {
    let aggregator: FastifyInstance;
    const home = tempHome();

    beforeAll(async () => {
      aggregator = await buildAggregatorEmulator({});
      await aggregator.listen({ host: '127.0.0.1', port: 0 });
    });
    afterAll(async () => {
      await aggregator.close();
      home.cleanup();
    });

    it('quote and status report through their results and onProgress only', async () => {
      const url = `http://127.0.0.1:${(aggregator.server.address() as { port: number }).port}`;
      const env = cleanEnv({
        FINANCE_TUI_HOME: home.dir,
        FINANCE_TUI_AGGREGATOR_URL: url,
        FINANCE_TUI_SERVER_URL: 'http://127.0.0.1:9',
      });
      const out = vi.spyOn(process.stdout, 'write');
      const err = vi.spyOn(process.stderr, 'write');
      const progress: Progress[] = [];
      try {
        const call = {
          signal: new AbortController().signal,
          onProgress: (p: Progress) => progress.push(p),
        };
        const endpoints = await resolveEndpoints(env, {}, call);
        const q = await quote(
          { pairs: [{ amount: '1', from: 'ETH', to: 'USDC' }], multi: false },
          quoteDeps(endpoints),
          call,
        );
        const s = await status(env, {}, call);
        await endpoints.release();
        expect(q.quotes).toHaveLength(1);
        expect(s.aggregator.reachable).toBe(true);
        expect(s.server.reachable).toBe(false);
        expect(out).not.toHaveBeenCalled();
        expect(err).not.toHaveBeenCalled();
      } finally {
        out.mockRestore();
        err.mockRestore();
      }
    });
  });
});
