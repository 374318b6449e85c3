/**
 * The client's transport: one HTTP request over node:http (node:https for https URLs, loaded
 * only then), its answer read whole and bounded. The HTTP layer (http.ts) and the chain's fetch
 * (core/chain/fetch.ts) send through it instead of the global fetch: a headless command makes a
 * handful of requests, and the fetch stack (undici and web streams, which ky also loads at
 * import) cost more CPU than the command's own work (docs/benchmarks.md "Start-up"). It does
 * what those callers asked of fetch, and no more:
 *
 * - no redirect is followed (node:http never follows one); a 3xx resolves with its status and
 *   an empty text, its body released unread;
 * - the caller's signal aborts the request, its socket closed, and rejects with the signal's
 *   reason (their deadlines are signals);
 * - the answer is read at most `maxBytes` (decoded): a declared Content-Length over it is
 *   refused before reading, a streamed body as soon as the count passes it — BodyTooLarge
 *   (shared/http-body.ts), the connection closed;
 * - a gzip, deflate or br Content-Encoding is decoded (as fetch would) before counting;
 * - a connection failure rejects with TransportError ("fetch failed"), the socket error as its
 *   cause (its `code`: ECONNREFUSED, ECONNRESET, …).
 */
import type * as Http from 'node:http';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import { BodyTooLarge } from '../../shared/http-body.js';

// Node's built-ins through require, not `import`: an ES import of node:http builds its module
// facade, which reads every export, and its lazy WebSocket getters load undici — what this file
// exists to avoid. (The fetch probe, bench/fetch-probe.ts, wraps http.request for the same object.)
const require = createRequire(import.meta.url);
const http = require('node:http') as typeof Http;

interface TransportRequest {
  method: string;
  headers?: Record<string, string>;
  /** sent as is (JSON text) */
  body?: string | undefined;
  signal?: AbortSignal | undefined;
  /** the answer's limit in bytes, decoded */
  maxBytes: number;
}

export interface TransportHeaders {
  get(name: string): string | null;
}

interface TransportResponse {
  status: number;
  statusText: string;
  headers: TransportHeaders;
  /** the body as UTF-8 text ('' for a 3xx, a HEAD or a null-body status) */
  text: string;
}

/** The request could not be made or its answer not read (the socket error is its cause). */
export class TransportError extends Error {
  constructor(cause: unknown) {
    super('fetch failed', { cause });
    this.name = 'TransportError';
  }
}

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

type RequestFn = typeof Http.request;
let httpsRequest: RequestFn | undefined;

function requestFnOf(url: URL): RequestFn {
  if (url.protocol === 'http:') return http.request;
  if (url.protocol !== 'https:') throw new TransportError(new Error(`unsupported ${url.protocol}`));
  httpsRequest ??= (require('node:https') as typeof import('node:https')).request;
  return httpsRequest;
}

function headersOf(response: Http.IncomingMessage): TransportHeaders {
  return {
    get(name) {
      const value = response.headers[name.toLowerCase()];
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

function decoded(response: Http.IncomingMessage): Readable {
  const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return response;
  const zlib = require('node:zlib') as typeof import('node:zlib');
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  if (decoder === undefined) return response;
  response.on('error', (error) => decoder.destroy(error));
  return response.pipe(decoder);
}

/** One request; its whole answer (see above). */
export async function transport(
  input: string | URL,
  request: TransportRequest,
): Promise<TransportResponse> {
  const { signal } = request;
  if (signal?.aborted) throw signal.reason;
  const url = typeof input === 'string' ? new URL(input) : input;
  const send = requestFnOf(url);
  return new Promise<TransportResponse>((resolve, reject) => {
    let settled = false;
    const finish = (error: unknown, value?: TransportResponse): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      if (error === undefined) resolve(value as TransportResponse);
      else {
        req.destroy();
        reject(error);
      }
    };
    const onAbort = (): void => finish(signal?.reason);
    const headers: Record<string, string> = { ...request.headers };
    if (
      request.body !== undefined &&
      !Object.keys(headers).some((h) => /^content-length$/i.test(h))
    )
      headers['content-length'] = String(Buffer.byteLength(request.body));
    const req = send(url, { method: request.method, headers });
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error) => finish(settled ? undefined : new TransportError(error)));
    req.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const head = {
        status,
        statusText: response.statusMessage ?? '',
        headers: headersOf(response),
      };
      if (
        (status >= 300 && status < 400) ||
        NULL_BODY_STATUS.has(status) ||
        request.method.toUpperCase() === 'HEAD'
      ) {
        response.resume();
        finish(undefined, { ...head, text: '' });
        return;
      }
      const declared = Number(response.headers['content-length'] ?? Number.NaN);
      if (Number.isFinite(declared) && declared > request.maxBytes) {
        finish(new BodyTooLarge(request.maxBytes));
        return;
      }
      response.on('error', (error) => finish(new TransportError(error)));
      const body = decoded(response);
      {
        const chunks: Buffer[] = [];
        let size = 0;
        body.on('data', (chunk: Buffer) => {
          size += chunk.byteLength;
          if (size > request.maxBytes) {
            body.destroy();
            finish(new BodyTooLarge(request.maxBytes));
          } else chunks.push(chunk);
        });
        body.on('error', (error) => finish(new TransportError(error)));
        body.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          // as fetch's text(): a leading byte-order mark is not part of the text
          finish(undefined, { ...head, text: text.startsWith('\uFEFF') ? text.slice(1) : text });
        });
      }
    });
    req.end(request.body);
  });
}

/**
 * Plain headers from what a fetch caller may pass (a record, pairs, or a Headers-like object
 * with entries()), without touching the global Headers (that would load undici).
 */
export function plainHeaders(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers === undefined || headers === null) return out;
  const entries =
    Array.isArray(headers) || typeof (headers as { entries?: unknown }).entries !== 'function'
      ? Array.isArray(headers)
        ? (headers as Array<[string, string]>)
        : Object.entries(headers as Record<string, string>)
      : [...(headers as { entries(): Iterable<[string, string]> }).entries()];
  for (const [name, value] of entries) out[name.toLowerCase()] = String(value);
  return out;
}
