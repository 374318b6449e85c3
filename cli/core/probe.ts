/**
 * Is our auth server there? GET /health, then GET / for its version and whether it is a
 * sandbox — through the one HTTP client layer, one attempt each, a short timeout. Never throws:
 * an abort reads as "cancelled" (callers check their signal after).
 */
import { HealthResponse, RootResponse } from '../../shared/api.js';
import { isAppError } from '../../shared/errors.js';
import { printable } from '../../shared/printable.js';
import { createHttpClient } from '../clients/http.js';

export interface ServerProbe {
  reachable: boolean;
  version?: string;
  /** the server says it runs in the sandbox (GET / has `sandbox: true`) */
  sandbox?: boolean;
  error?: string;
}

export const PROBE_TIMEOUT_MS = 1_500;

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
  try {
    await http.get('health', { signal: options.signal, schema: HealthResponse });
  } catch (error) {
    if (options.signal?.aborted) return { reachable: false, error: 'cancelled' };
    return { reachable: false, error: isAppError(error) ? error.message : 'not reachable' };
  }
  try {
    const root = await http.get<RootResponse>('', { signal: options.signal, schema: RootResponse });
    const { version } = root.body;
    // the server's words: outside text, made printable where it enters
    return {
      reachable: true,
      ...(typeof version === 'string' ? { version: printable(version, 40) } : {}),
      sandbox: root.body.sandbox === true,
    };
  } catch {
    if (options.signal?.aborted) return { reachable: false, error: 'cancelled' };
    // answers /health but not a readable GET /: reachable, version unknown
    return { reachable: true, sandbox: false };
  }
}
