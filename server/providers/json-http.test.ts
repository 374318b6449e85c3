import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJsonTransport, ResponseTooLargeError, UpstreamTimeoutError } from './json-http.js';

let server: Server;
let base: string;
/** the server's side of each connection, by the client's port */
const byClientPort = new Map<number, Socket>();
const seen: Array<{ method: string; url: string; headers: Record<string, unknown>; body: string }> =
  [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (req.url === '/json')
        res
          .writeHead(200, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] })
          .end(JSON.stringify({ echo: body }));
      else if (req.url === '/redirect') res.writeHead(302, { location: '/json' }).end();
      else if (req.url === '/empty') res.writeHead(204).end();
      else if (req.url === '/big') res.writeHead(200).end('x'.repeat(2048));
      else if (req.url === '/big-chunked') {
        res.writeHead(200);
        res.write('x'.repeat(1000));
        setTimeout(() => res.end('x'.repeat(1000)), 20);
      } else if (req.url === '/slow') setTimeout(() => res.writeHead(200).end('{}'), 2_000).unref();
      else if (req.url === '/slow-body') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{');
        setTimeout(() => res.end('}'), 2_000).unref();
      } else if (req.url === '/later')
        setTimeout(() => res.writeHead(200).end('{"late":true}'), 150).unref();
      else if (req.url === '/port') res.writeHead(200).end(String(req.socket.remotePort));
      else res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"nope"}');
    });
  });
  server.on('connection', (socket) => byClientPort.set(socket.remotePort ?? 0, socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('createJsonTransport', () => {
  const transport = createJsonTransport({ maxBodyBytes: 1024 });
  const get = (path: string, timeoutMs = 500) =>
    transport({ method: 'GET', url: `${base}${path}`, headers: {}, timeoutMs });

  it('sends method, headers and a JSON body, and returns status, headers and body text', async () => {
    const answer = await transport({
      method: 'POST',
      url: `${base}/json`,
      headers: { authorization: 'Basic abc' },
      json: { hello: 'world' },
      timeoutMs: 500,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(JSON.parse(answer.text)).toEqual({ echo: '{"hello":"world"}' });
    const request = seen.at(-1);
    expect(request).toMatchObject({ method: 'POST', url: '/json', body: '{"hello":"world"}' });
    expect(request?.headers).toMatchObject({
      authorization: 'Basic abc',
      'content-type': 'application/json',
      'content-length': '17',
      accept: 'application/json',
    });
    // nothing that would ask the upstream to compress
    expect(request?.headers['accept-encoding']).toBeUndefined();
  });

  it('keeps the connection for the next request', async () => {
    const first = await get('/port');
    const second = await get('/port');
    expect(second.text).toBe(first.text);
  });

  it('closes a pooled socket left idle (an upstream closing it first would reset the next request)', async () => {
    const quick = createJsonTransport({ idleSocketMs: 50 });
    const answer = await quick({ method: 'GET', url: `${base}/port`, headers: {}, timeoutMs: 500 });
    const socket = byClientPort.get(Number(answer.text));
    expect(socket).toBeDefined();
    // the server keeps it open (its keep-alive timeout is 5 s): the close is the client's
    if (socket !== undefined && !socket.destroyed) await once(socket, 'close');
  });

  it('the idle limit is for pooled sockets only: an answer slower than it still arrives', async () => {
    const quick = createJsonTransport({ idleSocketMs: 50 });
    const answer = await quick({
      method: 'GET',
      url: `${base}/later`,
      headers: {},
      timeoutMs: 2_000,
    });
    expect(answer).toMatchObject({ status: 200, text: '{"late":true}' });
  });

  it('does not follow a redirect: the 3xx comes back as it is', async () => {
    const before = seen.length;
    const answer = await get('/redirect');
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe('/json');
    expect(seen.length - before).toBe(1);
  });

  it('a 204 has an empty body; a 404 comes back with its body', async () => {
    expect(await get('/empty')).toMatchObject({ status: 204, text: '' });
    expect(await get('/missing')).toMatchObject({ status: 404, text: '{"code":"nope"}' });
  });

  it.each(['/slow', '/slow-body'])(
    'the deadline (%s) covers the whole answer, headers and body',
    async (path) => {
      // the server answers after 2 s: without a deadline on the body, /slow-body would resolve
      await expect(get(path, 200)).rejects.toBeInstanceOf(UpstreamTimeoutError);
    },
  );

  it.each(['/big', '/big-chunked'])(
    'an answer over the limit (%s) is refused, not buffered',
    async (path) => {
      await expect(get(path)).rejects.toBeInstanceOf(ResponseTooLargeError);
    },
  );

  it('a refused connection rejects with the socket error, for the adapter to name', async () => {
    // a port just bound and released: nothing listens there
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    await expect(
      transport({ method: 'GET', url: `http://127.0.0.1:${port}/`, headers: {}, timeoutMs: 500 }),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('only http and https', async () => {
    await expect(
      transport({ method: 'GET', url: 'file:///etc/passwd', headers: {}, timeoutMs: 500 }),
    ).rejects.toThrow(/unsupported protocol/);
  });
});
