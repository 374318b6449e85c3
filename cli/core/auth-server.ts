/**
 * Before any command that needs the auth server (docs/architecture.md "Client behaviour"):
 * GET /health at the configured URL. Nothing answers and the URL is loopback → start the bundled
 * server (`finance-tui serve`, the user's environment) as a child, wait for its health, log to
 * `serve-child.log`, stop it when the endpoints are released (and on any exit: child-registry).
 * A remote URL that does not answer is SERVER_UNREACHABLE, never a spawn. In sandbox mode the
 * endpoints already point at a sandbox that answered (or was started).
 */
import { AppError, cancelledError, ErrorCode } from '../../shared/errors.js';
import type { CallOptions } from './call.js';
import type { Endpoints } from './endpoints.js';
import { probeServer } from '../clients/probe.js';
import { isLoopbackUrl } from '../../shared/url.js';

const SPAWN_TIMEOUT_MS = 20_000;

interface AuthServerState {
  url: string;
  /** true when this call started it */
  started: boolean;
  version?: string;
}

/** How long a sandbox's answer to the endpoint resolution stands for its auth server's. */
const SANDBOX_SEEN_MS = 5_000;

export async function ensureAuthServer(
  endpoints: Endpoints,
  call: CallOptions = {},
): Promise<AuthServerState> {
  const url = endpoints.serverUrl;
  // The sandbox's endpoints come from a sandbox whose server answered GET /health and GET / (or
  // was started) moments ago: asking again would cost a command two requests for the same fact.
  if (
    endpoints.sandbox &&
    endpoints.serverSeenAt !== undefined &&
    Date.now() - endpoints.serverSeenAt < SANDBOX_SEEN_MS
  )
    return { url, started: false };
  const probe = await probeServer(url, { signal: call.signal });
  if (call.signal?.aborted) throw cancelledError(call.signal.reason);
  if (probe.reachable) {
    // Plain mode must never sign in to a sandbox that happens to listen on the configured port
    // (npm run sandbox takes 3001, the default): the session would say mainnet and be a sandbox's.
    if (!endpoints.sandbox && probe.sandbox === true) {
      throw new AppError(
        ErrorCode.CONFIG_ERROR,
        `the server at ${url} is a sandbox, not a production auth server: point FINANCE_TUI_SERVER_URL (serverUrl in settings) at your server, or use the sandbox`,
        { details: { remedy: ['sandbox'] } },
      );
    }
    return { url, started: false, ...(probe.version ? { version: probe.version } : {}) };
  }
  if (endpoints.sandbox) {
    throw new AppError(
      ErrorCode.SERVER_UNREACHABLE,
      `the sandbox's auth server at ${url} does not answer (${probe.error ?? 'no answer'}); restart the sandbox`,
    );
  }
  // The bundled server speaks plain HTTP at the root: only such a loopback URL can be started here.
  const parsed = new URL(url);
  if (
    !isLoopbackUrl(url) ||
    parsed.protocol !== 'http:' ||
    parsed.pathname.replace(/\/+$/, '') !== ''
  ) {
    throw new AppError(
      ErrorCode.SERVER_UNREACHABLE,
      `the auth server at ${url} does not answer (${probe.error ?? 'no answer'}); check FINANCE_TUI_SERVER_URL (serverUrl in settings), or use the sandbox`,
      { details: { url, remedy: ['sandbox'] } },
    );
  }
  // Only now the child-process machinery and serve's configuration (child_process, readline,
  // node:util's facade): a command whose server answers never loads them (docs/decisions.md
  // "Built-ins required, TypeBox by name"; cli/core/endpoints.ts does the same for the sandbox).
  const [{ spawnServe }, { loadServeConfig, withDotEnv }] = await Promise.all([
    import('../platform/child.js'),
    import('../platform/serve-config.js'),
  ]);
  // Refuse a bad environment here, with serve's own lines, rather than spawn a child that dies.
  const port = parsed.port || '80';
  await loadServeConfig({ ...withDotEnv(endpoints.env, process.cwd()), PORT: port });
  call.onProgress?.({ kind: 'server-start', url, logDir: endpoints.dataDir });
  const child = await spawnServe({
    env: endpoints.env,
    dataDir: endpoints.dataDir,
    serverUrl: url,
    timeoutMs: SPAWN_TIMEOUT_MS,
    signal: call.signal ?? new AbortController().signal,
  });
  endpoints.children.push(child);
  const version = typeof child.ready.version === 'string' ? child.ready.version : undefined;
  return { url, started: true, ...(version ? { version } : {}) };
}
