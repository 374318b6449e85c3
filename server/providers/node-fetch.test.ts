import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import ky, { isHTTPError, isTimeoutError } from 'ky';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeFetch, ResponseTooLargeError } from './node-fetch.js';

let server: Server;
let base: string;
const seen: Array<{ method: string; url: string; headers: Record<string, unknown>; body: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (req.url === '/json') res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] }).end(JSON.stringify({ echo: body }));
      else if (req.url === '/redirect') res.writeHead(302, { location: '/json' }).end();
      else if (req.url === '/empty') res.writeHead(204).end();
      else if (req.url === '/big') res.writeHead(200).end('x'.repeat(2048));
      else if (req.url === '/big-chunked') {
        res.writeHead(200);
        res.write('x'.repeat(1000));
        setTimeout(() => res.end('x'.repeat(1000)), 20);
      }
      else if (req.url === '/slow') setTimeout(() => res.writeHead(200).end('{}'), 2_000).unref();
      else res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"nope"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('createNodeFetch (under ky)', () => {
  const api = ky.create({ fetch: createNodeFetch({ maxBodyBytes: 1024 }), retry: 0, timeout: 500 });

  it('sends method, headers and JSON body, and returns status, headers and body', async () => {
    const response = await api.post(`${base}/json`, { json: { hello: 'world' }, headers: { authorization: 'Basic abc' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('set-cookie')).toBe('a=1, b=2');
    expect(await response.json()).toEqual({ echo: '{"hello":"world"}' });
    const request = seen.at(-1);
    expect(request).toMatchObject({ method: 'POST', url: '/json', body: '{"hello":"world"}' });
    expect(request?.headers).toMatchObject({ authorization: 'Basic abc', 'content-type': 'application/json', 'content-length': '17' });
    // nothing that would ask the upstream to compress
    expect(request?.headers['accept-encoding']).toBeUndefined();
  });

  it('does not follow a redirect: ky sees the 3xx as an HTTP error', async () => {
    const before = seen.length;
    const error = await api.get(`${base}/redirect`).catch((e: unknown) => e);
    expect(isHTTPError(error) && error.response.status).toBe(302);
    expect(seen.length - before).toBe(1);
  });

  it('a 204 has a null body; a 404 is an HTTP error with its body readable', async () => {
    expect((await api.get(`${base}/empty`)).status).toBe(204);
    const error = await api.get(`${base}/missing`).catch((e: unknown) => e);
    expect(isHTTPError(error) && error.data).toEqual({ code: 'nope' });
  });

  it("ky's timeout aborts the request", async () => {
    const error = await api.get(`${base}/slow`).catch((e: unknown) => e);
    expect(isTimeoutError(error)).toBe(true);
  });

  it.each(['/big', '/big-chunked'])('an answer over the limit (%s) is refused, not buffered', async (path) => {
    const error = await api.get(`${base}${path}`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
  });

  it('a refused connection rejects', async () => {
    await expect(api.get('http://127.0.0.1:9/unused')).rejects.toThrow();
  });
});
