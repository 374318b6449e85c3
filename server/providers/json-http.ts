/**
 * The server's one HTTP client for its upstreams: the identity adapter (identity.ts) and the
 * paymaster relay (paymaster.ts) both go through it (docs/decisions.md). One request over
 * node:http/https with keep-alive agents, its answer buffered (up to a bound) as text. Retries,
 * status handling and JSON belong to the adapters; this only moves bytes, with a deadline.
 *
 * Why not ky over fetch: signing is on the hot path of every trade, and building a WHATWG Request
 * and Response, their Headers and a web-stream body per call (ky over a node:http fetch, before
 * this) took about as much CPU as the rest of a /sign/hash request; undici's own fetch was slower
 * still (bench/server-health.ts, "added latency"; docs/benchmarks.md).
 *
 * What it does not do, on purpose: follow redirects (a 3xx comes back as it is: credentials must
 * never be replayed to another host), decompress (no Accept-Encoding is sent), or hold more than
 * `maxBodyBytes` of an answer. The answer's text is data for the adapter to check, never put into
 * a message as it is: the adapters' messages carry only statuses and codes they have validated.
 */
import { Agent as HttpAgent, type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export class ResponseTooLargeError extends Error {
  constructor(limit: number) {
    super(`the upstream answer is larger than ${limit} bytes`);
    this.name = 'ResponseTooLargeError';
  }
}

/** No complete answer within the request's `timeoutMs` (connecting, sending and reading included). */
export class UpstreamTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`no complete answer within ${timeoutMs} ms`);
    this.name = 'UpstreamTimeoutError';
  }
}

interface JsonRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Readonly<Record<string, string>>;
  /** sent as JSON (content-type application/json) */
  json?: unknown;
  timeoutMs: number;
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** the body as UTF-8 text ('' when there is none) */
  text: string;
}

export type JsonTransport = (request: JsonRequest) => Promise<Answer>;

/** How long a kept-alive socket may sit idle in the pool (a server's lower Keep-Alive hint wins). */
const IDLE_SOCKET_MS = 4_000;

export function createJsonTransport(
  options: { maxBodyBytes?: number; idleSocketMs?: number } = {},
): JsonTransport {
  const limit = options.maxBodyBytes ?? 4 * 1_048_576;
  // Without a timeout a pooled socket is kept forever, and an upstream that closed it (most close
  // idle connections after seconds) turns the next request on it into ECONNRESET: a 502 for the
  // user after every quiet spell. The agents close idle sockets first (and honour a server's
  // shorter Keep-Alive: timeout hint, less a second). What still races (the upstream closing a
  // socket as a request goes out) is a socket error: the identity adapter retries reads (GET)
  // once; writes are not retried (the upstream may have acted on them).
  const idle = options.idleSocketMs ?? IDLE_SOCKET_MS;
  const agents = {
    http: new HttpAgent({ keepAlive: true, timeout: idle }),
    https: new HttpsAgent({ keepAlive: true, timeout: idle }),
  };

  return (init) =>
    new Promise<Answer>((resolve, reject) => {
      const url = new URL(init.url);
      const secure = url.protocol === 'https:';
      if (!secure && url.protocol !== 'http:')
        throw new TypeError(`unsupported protocol ${url.protocol}`);
      const body = init.json === undefined ? undefined : JSON.stringify(init.json);
      const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
      if (body !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(Buffer.byteLength(body));
      }

      let settled = false;
      const settle = (outcome: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        outcome();
      };
      const fail = (error: Error): void => {
        settle(() => reject(error));
        client.destroy();
      };
      const client = (secure ? httpsRequest : httpRequest)(
        url,
        { method: init.method, headers, agent: secure ? agents.https : agents.http },
        (response) => {
          // a declared length over the limit is refused before a byte is read
          if (Number(response.headers['content-length'] ?? 0) > limit) {
            fail(new ResponseTooLargeError(limit));
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size <= limit) chunks.push(chunk);
            else fail(new ResponseTooLargeError(limit));
          });
          response.on('error', (error) => settle(() => reject(error)));
          response.on('end', () => {
            const text =
              chunks.length === 1
                ? (chunks[0] as Buffer).toString('utf8')
                : Buffer.concat(chunks).toString('utf8');
            settle(() =>
              resolve({ status: response.statusCode ?? 502, headers: response.headers, text }),
            );
          });
        },
      );
      const deadline = setTimeout(
        () => fail(new UpstreamTimeoutError(init.timeoutMs)),
        init.timeoutMs,
      );
      client.on('error', (error) => settle(() => reject(error)));
      // a string body goes out in the same write as the headers
      client.end(body);
    });
}
