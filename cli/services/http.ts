/**
 * GET-JSON over ky with the policy every outside call needs: a timeout per attempt, retries of
 * transient failures only (connection errors, timeouts, 408, 429, 5xx) with exponential backoff
 * and full jitter, a bounded number of attempts, and errors turned into NETWORK_ERROR /
 * INVALID_RESPONSE naming the URL (never a header: that is where the API key lives).
 */
import ky, { isHTTPError, isNetworkError, isTimeoutError, type KyInstance } from 'ky';
import { AppError, ErrorCode } from '../../shared/errors.js';

export interface BackoffOptions {
  /** first retry waits up to this (full jitter: uniform in [0, delay]) */
  baseMs?: number;
  /** cap on any one wait, Retry-After included */
  maxMs?: number;
  /** [0, 1): injectable for tests */
  random?: () => number;
}

export interface JsonGetterOptions {
  baseUrl: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** retries after the first attempt */
  retries?: number;
  backoff?: BackoffOptions;
  signal?: AbortSignal;
  /** the service's name in messages */
  service: string;
}

export type JsonGetter = (path: string, query?: Record<string, string>) => Promise<{ url: string; body: unknown }>;

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_RETRIES = 3;
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

export function createJsonGetter(options: JsonGetterOptions): JsonGetter {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retries = options.retries ?? DEFAULT_RETRIES;
  const baseMs = options.backoff?.baseMs ?? 250;
  const maxMs = options.backoff?.maxMs ?? 4000;
  const random = options.backoff?.random ?? Math.random;
  const base = options.baseUrl.replace(/\/+$/, '');
  const api: KyInstance = ky.create({
    prefix: base,
    timeout: timeoutMs,
    headers: { accept: 'application/json', ...options.headers },
    retry: {
      limit: retries,
      methods: ['get'],
      delay: (attempt) => Math.min(maxMs, baseMs * 2 ** (attempt - 1)),
      jitter: (delay) => random() * delay,
      backoffLimit: maxMs,
      maxRetryAfter: maxMs,
      // Only failures another attempt can fix; a 400 or 401 will fail the same way again.
      shouldRetry: ({ error }) => {
        if (isTimeoutError(error) || isNetworkError(error)) return true;
        if (isHTTPError(error)) return TRANSIENT_STATUS(error.response.status);
        return false;
      },
    },
  });

  return async (path, query) => {
    const url = `${base}/${path.replace(/^\/+/, '')}`;
    let attempts = 1;
    let text: string;
    try {
      text = await api
        .get(path.replace(/^\/+/, ''), {
          ...(query ? { searchParams: query } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
          hooks: {
            beforeRetry: [
              ({ retryCount }) => {
                attempts = retryCount + 1;
              },
            ],
          },
        })
        .text();
    } catch (error) {
      if (options.signal?.aborted) throw new AppError(ErrorCode.CANCELLED, 'cancelled', { status: 499, cause: error });
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
