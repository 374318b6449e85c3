/**
 * `finance-tui serve [--port N]`: the production auth server, configured by the environment
 * (`.env` in the current folder fills in what the environment does not set). Logs are pino
 * JSON lines on stdout; SIGTERM/SIGINT stop it gracefully.
 */
import { EventEmitter } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { parseCommandArgs, parsePort } from '../args.js';
import { exitWhenParentGone } from '../child.js';
import type { CommandRun } from '../context.js';

export const USAGE = `Usage: finance-tui serve [--port N]

Runs the auth server against the real identity provider and paymaster. Configuration comes
from the environment and from .env in the current folder (see .env.example).

  --port N   listen port (overrides PORT; 0 = any free port)
`;

/** The environment, with .env filling in variables the environment does not set (dotenv's rule). */
export function withDotEnv(env: NodeJS.ProcessEnv, cwd: string): Record<string, string | undefined> {
  const file = `${cwd}/.env`;
  if (!existsSync(file)) return { ...env };
  let parsed: NodeJS.Dict<string>;
  try {
    parsed = parseEnv(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new AppError(ErrorCode.CONFIG_ERROR, `could not read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`, { status: 400 });
  }
  return { ...parsed, ...env };
}

export const run: CommandRun = async (ctx) => {
  const { values } = parseCommandArgs(ctx.argv, { port: { type: 'string' } }, false);
  if (values.help) return { data: { usage: USAGE }, human: () => USAGE };
  const port = parsePort(values.port);
  const env = withDotEnv(ctx.env, process.cwd());
  if (port !== undefined) env.PORT = String(port);

  const [{ loadConfig, ConfigError }, { startServer, installShutdown }] = await Promise.all([
    import('../../server/config.js'),
    import('../../server/main.js'),
  ]);
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      // one line per bad variable (main prints each line of the message): fix them all in one go
      throw new AppError(ErrorCode.CONFIG_ERROR, error.problems.join('\n'), { status: 400 });
    }
    throw error;
  }

  let handle: Awaited<ReturnType<typeof startServer>>;
  try {
    handle = await startServer(config);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new AppError(ErrorCode.CONFIG_ERROR, `port ${config.port} on ${config.host} is already in use`, { status: 400 });
    }
    throw error;
  }
  // main owns the process signals; the first one reaches us as ctx.signal (a second forces exit)
  const shutdownRequests = new EventEmitter();
  ctx.signal.addEventListener('abort', () => shutdownRequests.emit('SIGTERM', 'SIGTERM'), { once: true });
  installShutdown(handle, { graceMs: 5_000, log: (message) => handle.app.log.info(message), target: shutdownRequests, signals: ['SIGTERM'] });
  exitWhenParentGone(ctx.env);
  // Runs until a signal: installShutdown closes the server and exits the process.
  await new Promise<never>(() => undefined);
  return undefined;
};
