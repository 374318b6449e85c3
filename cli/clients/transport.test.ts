/**
 * The client's transport (transport.ts) against real servers on loopback: what it adds beyond the
 * HTTP layer's own tests (http.test.ts, test/client-trust.test.ts) — an encoded answer decoded and
 * bounded after decoding, a redirect answered but not followed, an abort that closes the request,
 * and a refused connection named by its socket error.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodyTooLarge } from '../../shared/http-body.js';
import { transport, TransportError } from './transport.js';

let server: Server;
let base: string;
const hits: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    hits.push(request.url ?? '');
    if (request.url === '/gzip') {
      const body = gzipSync(JSON.stringify({ text: 'x'.repeat(5_000) }));
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(body);
    } else if (request.url === '/redirect') {
      response.writeHead(302, { location: '/elsewhere' });
      response.end('moved');
    } else if (request.url === '/hang') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{');
    } else {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('\uFEFF{"ok":true}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('transport', () => {
  it('decodes a gzip answer, and bounds it by its decoded size', async () => {
    const answer = await transport(`${base}/gzip`, { method: 'GET', maxBytes: 10_000 });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ text: 'x'.repeat(5_000) });
    // the compressed body is far below 1 KB; decoded it is over 5 KB
    await expect(transport(`${base}/gzip`, { method: 'GET', maxBytes: 1_000 })).rejects.toThrow(
      BodyTooLarge,
    );
  });

  it('answers a redirect with its status and no text, and goes nowhere else', async () => {
    hits.length = 0;
    const answer = await transport(`${base}/redirect`, { method: 'GET', maxBytes: 1_000 });
    expect(answer).toMatchObject({ status: 302, text: '' });
    expect(answer.headers.get('Location')).toBe('/elsewhere');
    expect(hits).toEqual(['/redirect']);
  });

  it('drops a byte-order mark, as fetch’s text() does', async () => {
    const answer = await transport(`${base}/plain`, { method: 'GET', maxBytes: 1_000 });
    expect(answer.text).toBe('{"ok":true}');
  });

  it("rejects with the signal's reason when it aborts mid-answer", async () => {
    const controller = new AbortController();
    const pending = transport(`${base}/hang`, {
      method: 'GET',
      maxBytes: 1_000,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('stop here')), 50);
    await expect(pending).rejects.toThrow('stop here');
  });

  it('a refused connection is a TransportError whose cause names the socket error', async () => {
    // a port that was just free: listened on, then closed
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const failure = await transport(`http://127.0.0.1:${port}/`, {
      method: 'GET',
      maxBytes: 1_000,
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TransportError);
    expect(failure).toMatchObject({ cause: { code: 'ECONNREFUSED' } });
  });
});
