/**
 * The `baseFetch` given to starknet.js's RpcProvider and PaymasterRpc (docs/execution.md: customise
 * through headers/baseFetch, never by subclassing). Every request:
 * - goes through the client's transport (cli/clients/transport.ts: node:http, no fetch stack),
 *   unless a test hands in its own `baseFetch`;
 * - is aborted by the current scope's signal (Ctrl+C) and by one deadline for the whole answer,
 *   body included (`timeoutMs`: a node that sends its headers and then drips is cut there);
 * - follows no redirect (a 3xx is CHAIN_UNREACHABLE / SERVER_UNREACHABLE with
 *   `details.redirect`, and nothing goes to its Location), and reads at most
 *   `maxResponseBytes` of the answer;
 * - must come back as a JSON-RPC response. starknet.js ignores the HTTP status, so a 401 from our
 *   server would surface as "undefined: undefined": instead, our server's error body
 *   `{"error": {code, message}}` becomes that AppError (UNAUTHORIZED, RATE_LIMITED,
 *   WALLET_MISMATCH, PAYMASTER_ERROR, …; mapped by cli/clients/server-error.ts as every other call
 *   to our server is, so an unknown code is SERVER_ERROR and the text is made printable), and anything else that is not JSON-RPC (a 5xx, HTML, a
 *   dropped connection) becomes CHAIN_UNREACHABLE or SERVER_UNREACHABLE; so does a node's 408 or
 *   429, whatever it carries (the node failed the request: it did not answer the call). Our server answers its
 *   refusals as JSON-RPC errors with the stable code in `data.code`: below 500 they pass on to
 *   starknet.js (errors.ts maps them), from 500 up (PAYMASTER_ERROR, UPSTREAM_TIMEOUT) they become
 *   that AppError here. The AppError is recorded
 *   in the scope (scope.ts) before starknet.js rewraps it.
 */
import {
  AppError,
  cancelledError,
  ErrorCode,
  stableCodeOfJsonRpcError,
} from '../../../shared/errors.js';
import { isBodyTooLarge, readCapped } from '../../../shared/http-body.js';
import { printable } from '../../../shared/printable.js';
import { serverErrorOf } from '../../clients/server-error.js';
import { plainHeaders, transport, type TransportHeaders } from '../../clients/transport.js';
import { currentScope, record } from './scope.js';

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

interface ScopedFetchOptions {
  /** 'chain': the Starknet RPC; 'server': our auth server's /paymaster */
  service: 'chain' | 'server';
  timeoutMs: number;
  maxResponseBytes: number;
  baseFetch?: FetchLike;
}

/** Where a request went, without its query (never a credential in our URLs, but no need to repeat it). */
const fullUrlOf = (input: string | URL | Request): string =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
const urlOf = (input: string | URL | Request): string => {
  const raw = fullUrlOf(input);
  return raw.split('?')[0] ?? raw;
};

/**
 * What starknet.js reads of an answer (`json()`), without the global Response (which would load
 * undici: cli/clients/transport.ts).
 */
function jsonAnswer(text: string, contentType: string): Response {
  const answer = {
    ok: true,
    status: 200,
    statusText: 'OK',
    headers: {
      get: (name: string) => (name.toLowerCase() === 'content-type' ? contentType : null),
    },
    json: () => Promise.resolve(JSON.parse(text) as unknown),
    text: () => Promise.resolve(text),
  };
  return answer as unknown as Response;
}

function unreachable(
  service: ScopedFetchOptions['service'],
  detail: string,
  details?: Record<string, unknown>,
): AppError {
  const extra = details === undefined ? {} : { details };
  return service === 'chain'
    ? new AppError(ErrorCode.CHAIN_UNREACHABLE, `the Starknet RPC ${detail}`, extra)
    : new AppError(
        ErrorCode.SERVER_UNREACHABLE,
        `the auth server's paymaster relay ${detail}`,
        extra,
      );
}

function isJsonRpcResponse(body: unknown): boolean {
  const check = (item: unknown): boolean =>
    typeof item === 'object' &&
    item !== null &&
    (item as Record<string, unknown>).jsonrpc === '2.0' &&
    ('result' in item || 'error' in item);
  return Array.isArray(body) ? body.length > 0 && body.every(check) : check(body);
}

/**
 * Our server's refusal → its AppError; undefined when the body is neither of its shapes. A
 * JSON-RPC refusal carries the stable code in `data.code`; a plain HTTP refusal (401 before the
 * relay, 429, 413) is the server's `{"error": {code, message}}`, mapped as every other call to
 * our server maps it (cli/clients/server-error.ts).
 */
function serverError(
  body: unknown,
  status: number,
  headers: TransportHeaders,
  url: string,
): AppError | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const stable = stableCodeOfJsonRpcError(error);
  const { message } = error as { message?: unknown };
  if (stable !== undefined && typeof message === 'string')
    return new AppError(stable, printable(message, 500));
  return serverErrorOf(status, body, headers, { service: "auth server's paymaster relay", url });
}

/**
 * One request through the client's transport (no fetch stack): its status, headers and whole
 * text (undefined when over `maxBytes`; a 3xx's text is never read).
 */
async function viaTransport(
  input: string | URL | Request,
  init: RequestInit | undefined,
  signal: AbortSignal,
  maxBytes: number,
): Promise<{ status: number; headers: TransportHeaders; text: string | undefined }> {
  if (init?.body !== undefined && init.body !== null && typeof init.body !== 'string')
    throw new TypeError('the chain fetch sends text bodies only');
  try {
    const response = await transport(fullUrlOf(input), {
      method: init?.method ?? 'GET',
      headers: plainHeaders(init?.headers),
      body: init?.body ?? undefined,
      signal,
      maxBytes,
    });
    return response;
  } catch (error) {
    if (!isBodyTooLarge(error)) throw error;
    return { status: 0, headers: { get: () => null }, text: undefined };
  }
}

/**
 * A status refused before its body is looked at: any redirect (never followed), and a node that
 * is busy (429) or timed the request out (408) — it failed this request, whatever JSON-RPC it
 * sends with it: the transport's failure, never the call's answer.
 */
function refusal(service: ScopedFetchOptions['service'], status: number): AppError | undefined {
  if (status >= 300 && status < 400)
    return unreachable(
      service,
      `answered with a redirect (HTTP ${status}), which was refused: redirects are never followed`,
      { status, redirect: true },
    );
  if (service === 'chain' && (status === 408 || status === 429))
    return unreachable(
      service,
      `answered HTTP ${status} (${status === 429 ? 'too many requests' : 'request timeout'})`,
      { status },
    );
  return undefined;
}

export function scopedFetch(options: ScopedFetchOptions): FetchLike {
  const base = options.baseFetch;
  return async (input, init) => {
    const scope = currentScope();
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = scope === undefined ? timeout : AbortSignal.any([scope.signal, timeout]);
    let status: number;
    let text: string | undefined;
    let headers: TransportHeaders;
    try {
      if (base === undefined) {
        ({ status, headers, text } = await viaTransport(
          input,
          init,
          signal,
          options.maxResponseBytes,
        ));
        const refused = refusal(options.service, status);
        if (refused !== undefined) throw record(refused);
      } else {
        const response = await base(input, { ...init, signal, redirect: 'manual' });
        status = response.status;
        headers = response.headers;
        const refused = refusal(options.service, status);
        if (refused !== undefined) {
          await response.body?.cancel().catch(() => undefined);
          throw record(refused);
        }
        text = await readCapped(response, options.maxResponseBytes);
      }
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (scope?.signal.aborted === true) throw record(cancelledError(scope.signal.reason));
      if (timeout.aborted)
        throw record(
          unreachable(options.service, `did not answer within ${options.timeoutMs} ms`, {
            timedOut: true,
          }),
        );
      throw record(
        unreachable(
          options.service,
          `could not be reached (${error instanceof Error ? error.message : 'network error'})`,
        ),
      );
    }
    if (text === undefined)
      throw record(
        unreachable(options.service, `sent an answer over ${options.maxResponseBytes} bytes`),
      );
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw record(
        unreachable(options.service, `sent an answer that is not JSON (HTTP ${status})`, {
          status,
        }),
      );
    }
    if (isJsonRpcResponse(body) && status < 500)
      return jsonAnswer(text, headers.get('content-type') ?? 'application/json');
    const ours =
      options.service === 'server' ? serverError(body, status, headers, urlOf(input)) : undefined;
    if (ours !== undefined) throw record(ours);
    throw record(
      unreachable(options.service, `sent an answer that is not JSON-RPC (HTTP ${status})`, {
        status,
      }),
    );
  };
}
