/**
 * The one HTTP client layer of the program: every outside call (aggregator, our auth server,
 * the sandbox outbox) goes through createHttpClient, over the client's transport (transport.ts:
 * node:http, no fetch stack; it replaced ky and fetch for start-up's sake, docs/decisions.md
 * "The client's HTTP without fetch"), with one policy:
 *
 * - JSON in and out; an optional bearer token per request; answers larger than
 *   maxResponseBytes (1 MB) are refused while they stream, never buffered whole.
 * - One deadline per attempt for the whole answer, body included (`timeoutMs`): a server that
 *   sends its headers and then a byte a second is cut at the deadline (the connection closed),
 *   NETWORK_ERROR "timed out after N ms" with `details.timedOut` (attemptOnce).
 * - No redirect is ever followed (`redirect: 'manual'`): a 3xx is INVALID_RESPONSE with
 *   `details.redirect`, and nothing is sent to the Location it names (an API key, a token, an
 *   e-mail and its code must never reach another origin).
 * - Retries of transient failures only (connection errors, timeouts, 408, 429, 5xx) with
 *   exponential backoff and full jitter, a bounded number of attempts — and only for requests
 *   that are safe to repeat: GET, or a POST the caller marks `idempotent` (a read such as
 *   /wallet/find). A POST that may have had an effect (a login that sent a mail, a wallet
 *   that was created, a signature) is never retried; its 429 is surfaced as RATE_LIMITED with
 *   `details.retryAfterSeconds` for the caller to show or schedule.
 * - Responses validated against a TypeBox schema when given (shared/api.ts for our server):
 *   anything else is INVALID_RESPONSE.
 * - Errors: our server's `{"error": {code, message}}` becomes an AppError with the same code
 *   (`errorBodies: 'app'`); connection failures and other statuses are NETWORK_ERROR naming
 *   the service and URL — never a header, so never a token or an API key.
 *
 * Cancellation is per call: the caller's signal goes to that request only (combined with its
 * per-attempt deadline, and cutting a backoff wait short). An aborted call is never
 * retried and rejects at once with CANCELLED; a signal already aborted makes no request.
 */
import type { TSchema } from 'typebox';
import { AppError, cancelledError, ErrorCode } from '../../shared/errors.js';
import { isBodyTooLarge } from '../../shared/http-body.js';
import { printable } from '../../shared/printable.js';
import { schemaCheck, type SchemaCheck } from './schema-check.js';
import { serverErrorOf } from './server-error.js';
import { transport, TransportError, type TransportHeaders } from './transport.js';

export { retryAfterSeconds } from './server-error.js';

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

interface HttpClientOptions {
  baseUrl: string;
  /** the service's name in messages ("aggregator", "auth server") */
  service: string;
  headers?: Record<string, string>;
  /** per attempt, for the whole answer (headers and body) */
  timeoutMs?: number;
  /** retries after the first attempt, for requests that may be retried */
  retries?: number;
  backoff?: BackoffOptions;
  /** called before each retry, after its wait */
  onRetry?: (info: RetryInfo) => void;
  /** 'app': error bodies are ours, `{"error": {code, message}}`, mapped to the same code */
  errorBodies?: 'app' | 'plain';
  maxResponseBytes?: number;
}

interface RequestOptions {
  signal?: AbortSignal | undefined;
  query?: Record<string, string>;
  /** sent as `Authorization: Bearer …`; never appears in a message */
  token?: string | undefined;
  /** the answer must match it, else INVALID_RESPONSE */
  schema?: TSchema;
  /** may be retried: default true for GET, false for POST */
  idempotent?: boolean;
}

interface HttpResponse<T> {
  url: string;
  status: number;
  body: T;
}

interface HttpClient {
  readonly baseUrl: string;
  get<T = unknown>(path: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  post<T = unknown>(
    path: string,
    body: unknown,
    options?: RequestOptions,
  ): Promise<HttpResponse<T>>;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_RETRIES = 3;
const DEFAULT_BACKOFF_BASE_MS = 250;
const DEFAULT_BACKOFF_MAX_MS = 4000;
const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
const TRANSIENT_STATUS = (status: number): boolean =>
  status === 408 || status === 429 || status >= 500;

/**
 * The wait before retry number `retry` (1-based): exponential, capped, then full jitter —
 * uniform in [0, min(maxMs, baseMs × 2^(retry − 1))) — so clients that failed together do not
 * come back together.
 */
function backoffDelayMs(retry: number, backoff: BackoffOptions = {}): number {
  const baseMs = backoff.baseMs ?? DEFAULT_BACKOFF_BASE_MS;
  const maxMs = backoff.maxMs ?? DEFAULT_BACKOFF_MAX_MS;
  const random = backoff.random ?? Math.random;
  return random() * Math.min(maxMs, baseMs * 2 ** (retry - 1));
}

/** The whole answer did not arrive within the deadline (headers or body). */
class AnswerDeadline extends Error {
  constructor(timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`);
    this.name = 'AnswerDeadline';
  }
}

/** The service answered with a redirect, which is never followed. */
class RedirectRefused extends Error {
  readonly status: number;
  constructor(status: number) {
    super(
      `answered with a redirect (HTTP ${status}), which was refused: redirects are never followed`,
    );
    this.name = 'RedirectRefused';
    this.status = status;
  }
}

function causeOf<T extends Error>(
  error: unknown,
  type: new (...args: never[]) => T,
): T | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof type) return current;
    current = current.cause;
  }
  return current instanceof type ? current : undefined;
}

/** A status outside 2xx (a 3xx never gets here: RedirectRefused), with its body as data. */
class HttpStatusError extends Error {
  readonly status: number;
  readonly headers: TransportHeaders;
  /** the body: parsed when its type is JSON, else text; undefined when empty or unparsable */
  readonly data: unknown;
  constructor(status: number, headers: TransportHeaders, text: string) {
    super(`HTTP ${status}`);
    this.name = 'HttpStatusError';
    this.status = status;
    this.headers = headers;
    this.data = bodyData(text, headers.get('content-type') ?? '');
  }
}

function bodyData(text: string, contentType: string): unknown {
  if (text === '') return undefined;
  // JSON subtypes too: json, problem+json, vnd.api+json
  const mime = (contentType.split(';', 1)[0] ?? '').trim().toLowerCase();
  if (!/\/(?:.*[.+-])?json$/.test(mime)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * One attempt: follows no redirect (a 3xx rejects with RedirectRefused), one deadline for the
 * whole answer, which is read whole, at most `limit` bytes (declared or streamed). So a dripping
 * body is an attempt that failed like any other timeout (aborted — its socket closed — and
 * retried when the request may be), and nothing after this waits on the network.
 */
async function attemptOnce(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string | undefined },
  own: AbortSignal | undefined,
  limit: number,
  timeoutMs: number,
): Promise<{ status: number; text: string }> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new AnswerDeadline(timeoutMs)), timeoutMs);
  const signal = own ? AbortSignal.any([own, deadline.signal]) : deadline.signal;
  try {
    const response = await transport(url, { ...init, signal, maxBytes: limit });
    if (response.status >= 300 && response.status < 400) throw new RedirectRefused(response.status);
    if (response.status < 200 || response.status > 299)
      throw new HttpStatusError(response.status, response.headers, response.text);
    return { status: response.status, text: response.text };
  } catch (error) {
    throw deadline.signal.aborted && !own?.aborted ? deadline.signal.reason : error;
  } finally {
    clearTimeout(timer);
  }
}

function rootCause(error: unknown): string {
  let current: unknown = error;
  let message = error instanceof Error ? error.message : String(error);
  for (
    let depth = 0;
    depth < 5 && current instanceof Error && current.cause !== undefined;
    depth++
  ) {
    current = current.cause;
    if (current instanceof Error) {
      const code = (current as { code?: unknown }).code;
      message = typeof code === 'string' ? `${current.message} (${code})` : current.message;
    }
  }
  return message;
}

function describe(error: unknown, timeoutMs: number): string {
  if (causeOf(error, AnswerDeadline) !== undefined) return `timed out after ${timeoutMs} ms`;
  if (error instanceof HttpStatusError) {
    const data = error.data as { error?: unknown; message?: unknown } | undefined;
    const detail =
      typeof data?.error === 'string'
        ? data.error
        : typeof data?.message === 'string'
          ? data.message
          : '';
    return `HTTP ${error.status}${detail ? `: ${printable(detail, 200)}` : ''}`;
  }
  return rootCause(error);
}

const validators = new WeakMap<TSchema, SchemaCheck<TSchema>>();

/**
 * The checks a module made at its top level for the answers it asks for (schema-check.ts
 * `schemaCheck`): used for their schemas from then on. The bin's bundle generates such checks at
 * build (scripts/bundle-plugins.mjs `standaloneChecks`: probe.ts, auth-client.ts); a schema with
 * none is checked through `schemaCheck` when first answered.
 */
export function useChecks(...checks: ReadonlyArray<SchemaCheck<TSchema>>): void {
  for (const check of checks) validators.set(check.schema, check);
}

function validatorOf(schema: TSchema): SchemaCheck<TSchema> {
  let validator = validators.get(schema);
  if (validator === undefined) {
    validator = schemaCheck(schema);
    validators.set(schema, validator);
  }
  return validator;
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retries = options.retries ?? DEFAULT_RETRIES;
  const maxMs = options.backoff?.maxMs ?? DEFAULT_BACKOFF_MAX_MS;
  const limit = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const base = options.baseUrl.replace(/\/+$/, '');
  const fixedHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries({ accept: 'application/json', ...options.headers }))
    fixedHeaders[name.toLowerCase()] = value;

  /** Whether another attempt may fix this failure (the request itself may be repeated). */
  const transient = (error: unknown): boolean => {
    if (causeOf(error, RedirectRefused) !== undefined) return false;
    if (causeOf(error, AnswerDeadline) !== undefined || error instanceof TransportError)
      return true;
    // a 400 or 401 will fail the same way again; an answer over the cap too
    if (error instanceof HttpStatusError) return TRANSIENT_STATUS(error.status);
    return false;
  };

  async function send<T>(
    method: 'get' | 'post',
    path: string,
    body: unknown,
    request: RequestOptions,
  ): Promise<HttpResponse<T>> {
    const relative = path.replace(/^\/+/, '');
    const url = `${base}/${relative}`;
    const label = `${method.toUpperCase()} ${url}`;
    const { signal } = request;
    if (signal?.aborted) throw cancelledError(signal.reason);
    const idempotent = request.idempotent ?? method === 'get';
    const target =
      request.query === undefined
        ? url
        : `${url.replace(/\?.*$/, '')}?${new URLSearchParams(request.query).toString()}`;
    const headers: Record<string, string> = { ...fixedHeaders };
    if (request.token) headers.authorization = `Bearer ${request.token}`;
    let payload: string | undefined;
    if (method === 'post') {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body ?? {});
    }
    const limitOfRetries = idempotent ? retries : 0;
    let attempts = 1;
    let status: number;
    let text: string;
    try {
      for (;;) {
        try {
          ({ status, text } = await attemptOnce(
            target,
            { method: method.toUpperCase(), headers, body: payload },
            signal,
            limit,
            timeoutMs,
          ));
          break;
        } catch (error) {
          // a cancelled call stops, whatever error the abort surfaced as
          if (signal?.aborted || attempts > limitOfRetries || !transient(error)) throw error;
          // The jitter is inside backoffDelayMs, so the delay reported to onRetry is exactly
          // the one waited.
          const delayMs = Math.min(maxMs, backoffDelayMs(attempts, options.backoff));
          await pause(delayMs, signal);
          options.onRetry?.({ retry: attempts, delayMs, url });
          attempts += 1;
        }
      }
    } catch (error) {
      if (signal?.aborted) throw cancelledError(error);
      if (isBodyTooLarge(error)) {
        throw new AppError(
          ErrorCode.INVALID_RESPONSE,
          `the ${options.service} at ${label} sent an answer larger than ${limit} bytes`,
        );
      }
      const redirect = causeOf(error, RedirectRefused);
      if (redirect !== undefined) {
        throw new AppError(
          ErrorCode.INVALID_RESPONSE,
          `the ${options.service} at ${label} ${redirect.message}`,
          { details: { url, status: redirect.status, redirect: true } },
        );
      }
      if (options.errorBodies === 'app' && error instanceof HttpStatusError) {
        const mapped = serverErrorOf(error.status, error.data, error.headers, {
          service: options.service,
          url,
        });
        if (mapped !== undefined) throw mapped;
      }
      const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`;
      throw new AppError(
        ErrorCode.NETWORK_ERROR,
        `${options.service} request ${label} failed after ${tries}: ${describe(error, timeoutMs)}`,
        {
          details: {
            url,
            attempts,
            ...(error instanceof HttpStatusError ? { status: error.status } : {}),
            ...(causeOf(error, AnswerDeadline) !== undefined ? { timedOut: true } : {}),
          },
          cause: error,
        },
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new AppError(
        ErrorCode.INVALID_RESPONSE,
        `the ${options.service} at ${label} sent a response that is not JSON`,
      );
    }
    if (request.schema !== undefined && !validatorOf(request.schema).Check(parsed)) {
      throw new AppError(
        ErrorCode.INVALID_RESPONSE,
        `the ${options.service} at ${label} sent an answer of the wrong shape`,
      );
    }
    return { url, status, body: parsed as T };
  }

  return {
    baseUrl: base,
    get: (path, request = {}) => send('get', path, undefined, request),
    post: (path, body, request = {}) => send('post', path, body, request),
  };
}
