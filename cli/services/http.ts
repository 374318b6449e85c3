/**
 * GET-JSON over ky with the policy every outside call needs: a timeout per attempt, retries of
 * transient failures only (connection errors, timeouts, 408, 429, 5xx) with exponential backoff
 * and full jitter, a bounded number of attempts, and errors turned into NETWORK_ERROR /
 * INVALID_RESPONSE naming the URL (never a header: that is where the API key lives).
 *
 * Cancellation: the caller's signal (the command's, aborted on Ctrl+C / SIGTERM) goes to every
 * request; ky combines it with its per-attempt timeout (AbortSignal.any over both), and also
 * uses it to cut a backoff wait short. An aborted call is never retried and rejects at once
 * with CANCELLED; a signal already aborted makes no request at all.
 */
import ky, { isHTTPError, isNetworkError, isTimeoutError, type KyInstance } from 'ky';
import { AppError, cancelledError, ErrorCode } from '../../shared/errors.js';

export interface BackoffOptions {
  /** first retry waits up to this (full jitter: uniform in [0, delay]) */
  baseMs?: number;
  /** cap on any one wait, Retry-After included */
  maxMs?: number;
  /** [0, 1): injectable for tests */
  random?: () => number;
}

/** What a retry is about to do, for progress lines and tests. */
export interface RetryInfo {
  /** 1 for the first retry */
  retry: number;
  /** the wait before it: ours (backoffDelayMs), or undefined when the server's Retry-After set it */
  delayMs: number | undefined;
  url: string;
}

export interface JsonGetterOptions {
  baseUrl: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** retries after the first attempt */
  retries?: number;
  backoff?: BackoffOptions;
  signal?: AbortSignal;
  /** called before each retry, after its wait */
  onRetry?: (info: RetryInfo) => void;
  /** the service's name in messages */
  service: string;
}

export type JsonGetter = (path: string, query?: Record<string, string>) => Promise<{ url: string; body: unknown }>;

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_RETRIES = 3;
export const DEFAULT_BACKOFF_BASE_MS = 250;
export const DEFAULT_BACKOFF_MAX_MS = 4000;
const TRANSIENT_STATUS = (status: number): boolean => status === 408 || status === 429 || status >= 500;

function rootCause(error: unknown): string {
  let current: unknown = error;
  let message = error instanceof Error ? error.message : String(error);
  for (let depth = 0; depth < 5 && current instanceof Error && current.cause !== undefined; depth++) {
    current = current.cause;
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      message = typeof code === 'string' ? `${current.message} (${code})` : current.message;
    }
  }
  return message;
}

function describe(error: unknown, timeoutMs: number): string {
  if (isTimeoutError(error)) return `timed out after ${timeoutMs} ms`;
  if (isHTTPError(error)) {
    const data = error.data as { error?: unknown; message?: unknown } | undefined;
    const detail = typeof data?.error === 'string' ? data.error : typeof data?.message === 'string' ? data.message : '';
    return `HTTP ${error.response.status}${detail ? `: ${detail.slice(0, 200)}` : ''}`;
  }
  return rootCause(error);
}

/**
 * The wait before retry number `retry` (1-based): exponential, capped, then full jitter —
 * uniform in [0, min(maxMs, baseMs × 2^(retry − 1))) — so clients that failed together do not
 * come back together.
 */
export function backoffDelayMs(retry: number, backoff: BackoffOptions = {}): number {
  const baseMs = backoff.baseMs ?? DEFAULT_BACKOFF_BASE_MS;
  const maxMs = backoff.maxMs ?? DEFAULT_BACKOFF_MAX_MS;
  const random = backoff.random ?? Math.random;
  return random() * Math.min(maxMs, baseMs * 2 ** (retry - 1));
}

export function createJsonGetter(options: JsonGetterOptions): JsonGetter {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retries = options.retries ?? DEFAULT_RETRIES;
  const maxMs = options.backoff?.maxMs ?? DEFAULT_BACKOFF_MAX_MS;
  const signal = options.signal;
  const base = options.baseUrl.replace(/\/+$/, '');
  const api: KyInstance = ky.create({
    prefix: base,
    timeout: timeoutMs,
    headers: { accept: 'application/json', ...options.headers },
  });

  return async (path, query) => {
    const url = `${base}/${path.replace(/^\/+/, '')}`;
    if (signal?.aborted) throw cancelledError(signal.reason);
    let attempts = 1;
    // Per call: the wait ky is about to take, so onRetry reports this request's own delays.
    let pendingDelay: number | undefined;
    let text: string;
    try {
      text = await api
        .get(path.replace(/^\/+/, ''), {
          ...(query ? { searchParams: query } : {}),
          ...(signal ? { signal } : {}),
          retry: {
            limit: retries,
            methods: ['get'],
            // The jitter is inside backoffDelayMs (ky's own jitter option is not used), so the
            // delay reported to onRetry is exactly the one ky waits.
            delay: (retry) => {
              pendingDelay = backoffDelayMs(retry, options.backoff);
              return pendingDelay;
            },
            backoffLimit: maxMs,
            maxRetryAfter: maxMs,
            // Only failures another attempt can fix; a 400 or 401 will fail the same way again,
            // and a cancelled call must stop, whatever error the abort surfaced as.
            shouldRetry: ({ error }) => {
              pendingDelay = undefined;
              if (signal?.aborted) return false;
              if (isTimeoutError(error) || isNetworkError(error)) return true;
              if (isHTTPError(error)) return TRANSIENT_STATUS(error.response.status);
              return false;
            },
          },
          hooks: {
            beforeRetry: [
              ({ retryCount }) => {
                attempts = retryCount + 1;
                options.onRetry?.({ retry: retryCount, delayMs: pendingDelay, url });
              },
            ],
          },
        })
        .text();
    } catch (error) {
      if (signal?.aborted) throw cancelledError(error);
      const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`;
      throw new AppError(ErrorCode.NETWORK_ERROR, `${options.service} request to ${url} failed after ${tries}: ${describe(error, timeoutMs)}`, {
        status: 502,
        details: { url, attempts },
        cause: error,
      });
    }
    try {
      return { url, body: JSON.parse(text) as unknown };
    } catch {
      throw new AppError(ErrorCode.INVALID_RESPONSE, `the ${options.service} at ${url} sent a response that is not JSON`, { status: 502 });
    }
  };
}
