/**
 * Is our auth server there? GET /health, then GET / for its version and whether it is a
 * sandbox — through the one HTTP client layer, one attempt each, a short timeout. Never throws:
 * an abort reads as "cancelled" (callers check their signal after).
 */
import { HealthResponse, RootResponse } from '../../shared/api.js';
import { isAppError } from '../../shared/errors.js';
import { printable } from '../../shared/printable.js';
import { createHttpClient, useChecks } from './http.js';
import { schemaCheck } from './schema-check.js';

export interface ServerProbe {
  reachable: boolean;
  version?: string;
  /** the server says it runs in the sandbox (GET / has `sandbox: true`) */
  sandbox?: boolean;
  /** GET /health answered 503: the server runs, a store it needs (its Redis) does not answer */
  degraded?: true;
  error?: string;
}

const PROBE_TIMEOUT_MS = 1_500;

// generated when the bin is built (scripts/bundle-plugins.mjs standaloneChecks): every sandbox
// command probes, and TypeBox's interpreter ran cold on these two answers
useChecks(schemaCheck(HealthResponse), schemaCheck(RootResponse));

export async function probeServer(
  serverUrl: string,
  options: { timeoutMs?: number; signal?: AbortSignal | undefined } = {},
): Promise<ServerProbe> {
  const http = createHttpClient({
    baseUrl: serverUrl,
    service: 'auth server',
    timeoutMs: options.timeoutMs ?? PROBE_TIMEOUT_MS,
    retries: 0,
  });
  let degraded = false;
  try {
    await http.get('health', { signal: options.signal, schema: HealthResponse });
  } catch (error) {
    if (options.signal?.aborted) return { reachable: false, error: 'cancelled' };
    // 503: our server runs but a store it needs does not answer (docs/server-api.md "Routes"):
    // it is there (never start another on its port), and its requests say what is down
    degraded = isAppError(error) && error.details?.status === 503;
    if (!degraded)
      return { reachable: false, error: isAppError(error) ? error.message : 'not reachable' };
  }
  const mark = degraded ? { degraded: true as const } : {};
  try {
    const root = await http.get<RootResponse>('', { signal: options.signal, schema: RootResponse });
    const { version } = root.body;
    // the server's words: outside text, made printable where it enters
    return {
      reachable: true,
      ...(typeof version === 'string' ? { version: printable(version, 40) } : {}),
      sandbox: root.body.sandbox === true,
      ...mark,
    };
  } catch {
    if (options.signal?.aborted) return { reachable: false, error: 'cancelled' };
    // answers /health but not a readable GET /: reachable, version unknown
    return { reachable: true, sandbox: false, ...mark };
  }
}
