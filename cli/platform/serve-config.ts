/**
 * The auth server's configuration as `finance-tui serve` reads it: the environment, with `.env`
 * in the current folder filling in what the environment does not set (dotenv's rule), checked
 * by the server's own loadConfig. Shared by `serve` and by the client commands that start
 * `serve` as a child, so both refuse a bad environment with the same lines.
 */
import { parseEnv } from 'node:util';
import { AppError, ErrorCode } from '../../shared/errors.js';
import type { ServerConfig } from '../../server/config.js';
import { nodeFs } from '../../shared/fs.js';

const { existsSync, readFileSync } = nodeFs;

/** The environment, with .env filling in variables the environment does not set. */
export function withDotEnv(
  env: NodeJS.ProcessEnv,
  cwd: string,
): Record<string, string | undefined> {
  const file = `${cwd}/.env`;
  if (!existsSync(file)) return { ...env };
  let parsed: NodeJS.Dict<string>;
  try {
    parsed = parseEnv(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new AppError(
      ErrorCode.CONFIG_ERROR,
      `could not read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`,
    );
  }
  return { ...parsed, ...env };
}

const SANDBOX_HINT =
  'to try finance-tui without identity-provider credentials, use the local sandbox: `finance-tui sandbox`, or --sandbox on any command';

/**
 * The validated configuration, or CONFIG_ERROR with one line per bad variable (fix them all in
 * one go) — and, when a required variable is missing, the way to the sandbox.
 */
export async function loadServeConfig(
  env: Record<string, string | undefined>,
): Promise<ServerConfig> {
  const { loadConfig, ConfigError } = await import('../../server/config.js');
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      const missing = error.problems.some((problem) => / is required\b/.test(problem));
      throw new AppError(
        ErrorCode.CONFIG_ERROR,
        [...error.problems, ...(missing ? [SANDBOX_HINT] : [])].join('\n'),
        { details: { problems: error.problems } },
      );
    }
    throw error;
  }
}
