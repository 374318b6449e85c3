/**
 * `finance-tui serve [--port N]`: the production auth server, configured by the environment
 * (`.env` in the current folder fills in what the environment does not set). Logs are pino
 * JSON lines on stdout. The first Ctrl+C / SIGTERM (the bin's signal, ctx.signal) stops it
 * through the one stop path (server/main.ts closeGracefully): drain, cut what lingers after
 * 5 s, return — and the bin exits 0.
 */
import { once } from 'node:events';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { parseCommandArgs, parsePort } from '../headless/args.js';
import { exitWhenParentGone } from '../platform/child.js';
import type { CommandRun } from '../headless/context.js';
import { loadServeConfig, withDotEnv } from '../platform/serve-config.js';

export const USAGE = `Usage: finance-tui serve [--port N]

Runs the auth server against the real identity provider and paymaster. Configuration comes
from the environment and from .env in the current folder (see .env.example).

  --port N   listen port (overrides PORT; 0 = any free port)
`;

export const CLOSE_GRACE_MS = 5_000;

export const run: CommandRun = async (ctx) => {
  const { values } = parseCommandArgs(ctx.argv, { port: { type: 'string' } }, false);
  if (values.help) return { data: { usage: USAGE }, human: () => USAGE };
  const port = parsePort(values.port);
  const env = withDotEnv(ctx.env, process.cwd());
  if (port !== undefined) env.PORT = String(port);
  const config = await loadServeConfig(env);

  const { startServer, closeGracefully } = await import('../../server/main.js');
  let handle: Awaited<ReturnType<typeof startServer>>;
  try {
    handle = await startServer(config);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new AppError(
        ErrorCode.CONFIG_ERROR,
        `port ${config.port} on ${config.host} is already in use`,
      );
    }
    throw error;
  }
  exitWhenParentGone(ctx.env);
  if (!ctx.signal.aborted) await once(ctx.signal, 'abort');
  const log = (message: string): void => handle.app.log.info(message);
  log(`shutdown: stop requested, finishing in-flight requests (up to ${CLOSE_GRACE_MS} ms)`);
  await closeGracefully(
    { close: () => handle.close(), servers: [handle.app.server] },
    { graceMs: CLOSE_GRACE_MS, log },
  );
  // the last lines out before the exit: a reader that went away (`serve | head -1`) is found
  // here, not by the exit handler's flush, which would retry forever (server/app.ts asyncLog)
  await handle.flushLog();
  return undefined;
};
