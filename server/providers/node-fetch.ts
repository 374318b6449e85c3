/**
 * The `fetch` ky uses for the identity provider: one request over node:http/https with
 * keep-alive agents, the answer buffered (up to a bound) into a standard Response.
 *
 * Why not the global fetch (undici): signing is on the hot path of every trade, and under load
 * undici's fetch cost about 0.5 ms of CPU per call and doubled the tail latency of the
 * identity-provider round trip compared with node:http (bench/server-health.ts, "added
 * latency"). ky still does everything above the wire: timeouts, errors, JSON, retries.
 *
 * What it does not do, on purpose: follow redirects (a 3xx comes back as it is, and ky turns it
 * into an HTTP error: credentials must never be replayed to another host), decompress (no
 * Accept-Encoding is sent), or hold more than `maxBodyBytes` of an answer.
 */
import { Agent as HttpAgent, type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** Statuses whose Response must have a null body. */
const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

export class ResponseTooLargeError extends Error {
  constructor(limit: number) {
    super(`the upstream answer is larger than ${limit} bytes`);
    this.name = 'ResponseTooLargeError';
  }
}

function toHeaders(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.append(name, value);
  }
  return headers;
}

export function createNodeFetch(options: { maxBodyBytes?: number } = {}): typeof fetch {
  const limit = options.maxBodyBytes ?? 4 * 1_048_576;
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

  return async (input, init) => {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    const url = new URL(request.url);
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:') throw new TypeError(`unsupported protocol ${url.protocol}`);
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    const headers: Record<string, string> = Object.fromEntries(request.headers);
    if (body !== undefined) headers['content-length'] = String(body.length);
    const { signal } = request;
    signal.throwIfAborted();

    return new Promise<Response>((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void): void => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        outcome();
      };
      const client = (secure ? httpsRequest : httpRequest)(
        url,
        { method: request.method, headers, agent: secure ? agents.https : agents.http },
        (response) => {
          // a declared length over the limit is refused before a byte is read
          if (Number(response.headers['content-length'] ?? 0) > limit) {
            settle(() => reject(new ResponseTooLargeError(limit)));
            client.destroy();
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size <= limit) chunks.push(chunk);
            else {
              settle(() => reject(new ResponseTooLargeError(limit)));
              client.destroy();
            }
          });
          response.on('error', (error) => settle(() => reject(error)));
          response.on('end', () => {
            const status = response.statusCode ?? 502;
            settle(() =>
              resolve(
                new Response(NULL_BODY_STATUS.has(status) ? null : Buffer.concat(chunks), {
                  status,
                  statusText: response.statusMessage ?? '',
                  headers: toHeaders(response.headers),
                }),
              ),
            );
          });
        },
      );
      const onAbort = (): void => {
        client.destroy();
        settle(() => reject(signal.reason));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      client.on('error', (error) => settle(() => reject(error)));
      client.end(body);
    });
  };
}
