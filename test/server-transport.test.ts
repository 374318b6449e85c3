/**
 * Socket-level abuse bounds of the auth server (docs/architecture.md "Abuse bounds"), through
 * raw TCP sockets against a listening server: deadlines on headers, bodies and idle keep-alive
 * connections (configured small here, so no test waits on a real-life timeout), the connection
 * cap, bodies refused before they are read on routes that take none, parser errors in our error
 * shape, and unknown paths that are neither echoed nor logged.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { ServerConfig } from '../server/config.js';
import { type ServerHandle, startServer } from '../server/main.js';
import { SECURITY_HEADERS } from '../server/plugins/security.js';
import { MAX_UNANSWERED_PER_SOCKET } from '../server/plugins/transport.js';
import { FakeIdentity, testConfig } from './helpers/build-test-app.js';

interface Raw {
  socket: Socket;
  /** everything the server sent so far */
  received(): string;
  /** resolves when the server closed the connection (or it errored) */
  closed: Promise<void>;
  /** resolves once `text` has arrived */
  receivedText(text: string): Promise<void>;
}

interface Parsed {
  status: number;
  headers: Record<string, string>;
  body: string;
}

let handle: ServerHandle | undefined;
let identity = new FakeIdentity();
let logs = '';
const openSockets: Socket[] = [];

afterEach(async () => {
  for (const socket of openSockets.splice(0)) socket.destroy();
  await handle?.close();
  handle = undefined;
});

async function start(overrides: Partial<ServerConfig> = {}): Promise<number> {
  logs = '';
  const logStream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      logs += chunk.toString();
      callback();
    },
  });
  identity = new FakeIdentity();
  handle = await startServer(testConfig({ port: 0, ...overrides }), {
    identity,
    logStream,
  });
  return Number(new URL(handle.url).port);
}

/**
 * A server of the test's own, for tests that run side by side: closed, and its clients' sockets
 * destroyed, when the test ends. `open` connects to it.
 */
async function startOwn(
  overrides: Partial<ServerConfig>,
): Promise<{ open: (localAddress?: string) => Promise<Raw> }> {
  const own = await startServer(testConfig({ port: 0, ...overrides }), {
    identity: new FakeIdentity(),
    logStream: new Writable({ write: (_chunk, _encoding, callback) => callback() }),
  });
  const sockets: Socket[] = [];
  onTestFinished(async () => {
    for (const socket of sockets) socket.destroy();
    await own.close();
  });
  const port = Number(new URL(own.url).port);
  return { open: (localAddress) => open(port, localAddress, sockets) };
}

async function open(port: number, localAddress?: string, sockets = openSockets): Promise<Raw> {
  const socket = connect({
    port,
    host: '127.0.0.1',
    ...(localAddress === undefined ? {} : { localAddress }),
  });
  sockets.push(socket);
  let data = '';
  const waiters: Array<{ text: string; resolve: () => void }> = [];
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    data += chunk;
    for (const waiter of [...waiters]) if (data.includes(waiter.text)) waiter.resolve();
  });
  // a reset after the answer is fine: what matters is what arrived
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  return {
    socket,
    received: () => data,
    closed,
    receivedText: (text) =>
      data.includes(text)
        ? Promise.resolve()
        : new Promise((resolve) => waiters.push({ text, resolve })),
  };
}

/**
 * Resolves once the server has taken `count` more requests: its 'request' event, emitted when a
 * request's head has been read and the request is in flight (the transport has marked its
 * connection busy by then: its own listener comes first).
 */
function requestsTaken(count: number): Promise<void> {
  const server = handle?.app.server;
  if (server === undefined) throw new Error('no server started');
  return new Promise((resolve) => {
    let seen = 0;
    const onRequest = (): void => {
      seen += 1;
      if (seen < count) return;
      server.off('request', onRequest);
      resolve();
    };
    server.on('request', onRequest);
  });
}

function parse(raw: string): Parsed {
  const split = raw.indexOf('\r\n\r\n');
  expect(split, `no complete head in ${JSON.stringify(raw.slice(0, 200))}`).toBeGreaterThan(0);
  const [statusLine = '', ...lines] = raw.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length']);
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: raw.slice(split + 4, split + 4 + length),
  };
}

/** The first complete response on the connection. */
async function response(raw: Raw): Promise<Parsed> {
  await raw.receivedText('\r\n\r\n');
  const head = parse(raw.received());
  const total = raw.received().indexOf('\r\n\r\n') + 4 + Number(head.headers['content-length']);
  await vi.waitFor(() => expect(raw.received().length).toBeGreaterThanOrEqual(total), {
    timeout: 5_000,
    interval: 5,
  });
  return parse(raw.received());
}

function expectErrorShape(parsed: Parsed, status: number, code: string): void {
  expect(parsed.status).toBe(status);
  const body = JSON.parse(parsed.body) as {
    error: { code: string; message: string; requestId: string };
  };
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(0);
  expect(body.error.requestId).toBe(parsed.headers['x-request-id']);
  expect(parsed.headers['x-content-type-options']).toBe('nosniff');
}

/** Keep sending `piece` every 20 ms (never idle, never complete) until the server closes the connection. */
async function trickleUntilClosed(raw: Raw, piece: string): Promise<void> {
  const trickle = setInterval(() => raw.socket.writable && raw.socket.write(piece), 20);
  try {
    await raw.closed;
  } finally {
    clearInterval(trickle);
  }
}

const loginHead = (length: number, extra = ''): string =>
  `POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${extra}\r\n`;

// each test its own server and sockets: they wait out the deadlines side by side
describe.concurrent('deadlines', () => {
  it('a client that trickles its body is answered 408 REQUEST_TIMEOUT and cut at the request deadline', async ({
    expect,
  }) => {
    const own = await startOwn({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const raw = await own.open();
    raw.socket.write(loginHead(1_000));
    // a byte every 20 ms: the connection is never idle, the body never completes
    await trickleUntilClosed(raw, ' ');
    expectErrorShape(parse(raw.received()), 408, 'REQUEST_TIMEOUT');
    expect(parse(raw.received()).headers.connection).toBe('close');
  });

  it('headers that never finish are answered 408 and cut at the headers deadline', async () => {
    const own = await startOwn({ headersTimeoutMs: 200, requestTimeoutMs: 5_000 });
    const raw = await own.open();
    raw.socket.write('GET /health HTTP/1.1\r\nHost: x\r\n');
    await trickleUntilClosed(raw, 'X-Slow: 1\r\n');
    expectErrorShape(parse(raw.received()), 408, 'REQUEST_TIMEOUT');
  });

  it('a connection that sends nothing is closed', async () => {
    const own = await startOwn({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const raw = await own.open();
    await raw.closed;
  });

  it('an idle keep-alive connection is closed after the keep-alive timeout', async ({ expect }) => {
    const own = await startOwn({ keepAliveTimeoutMs: 200 });
    const raw = await own.open();
    raw.socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    const answer = await response(raw);
    expect(answer.status).toBe(200);
    expect(answer.headers.connection).toBe('keep-alive');
    await raw.closed;
  });
});

describe('connection cap', () => {
  it('refuses connections past maxConnections while every one has a request in flight, and takes new ones once a slot frees', async () => {
    const port = await start({ maxConnections: 3 });
    const held: Raw[] = [];
    const taken = requestsTaken(3);
    for (let i = 0; i < 3; i++) {
      const raw = await open(port);
      // a body that never comes: the request stays in flight (until the request deadline)
      raw.socket.write(loginHead(100));
      held.push(raw);
    }
    // every one has a request in flight now: none is idle
    await taken;
    // the fourth is accepted by the kernel and closed by the server without a byte of answer
    const extra = await open(port);
    extra.socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    await extra.closed;
    expect(extra.received()).toBe('');
    await vi.waitFor(() =>
      expect(logs).toContain('connections refused: the server is at its connection cap'),
    );
    expect(held.every((raw) => !raw.socket.destroyed)).toBe(true);

    held[0]?.socket.destroy();
    await vi.waitFor(
      async () => {
        const again = await open(port);
        again.socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
        const closedFirst = await Promise.race([
          again.closed.then(() => 'closed'),
          again.receivedText('\r\n\r\n').then(() => 'answered'),
        ]);
        expect(closedFirst).toBe('answered');
        expect((await response(again)).status).toBe(200);
      },
      { timeout: 5_000, interval: 50 },
    );
  });

  it('with every slot taken, a newcomer gets the slot of the connection idle the longest', async () => {
    const port = await start({ maxConnections: 3 });
    const held: Raw[] = [];
    for (let i = 0; i < 3; i++) {
      const raw = await open(port, `127.0.0.${10 + i}`);
      raw.socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
      expect((await response(raw)).status).toBe(200);
      held.push(raw);
    }
    // the first becomes busy again: the second is now the longest idle
    const taken = requestsTaken(1);
    held[0]?.socket.write(loginHead(100));
    await taken;
    expect(await healthFrom(port, '127.0.0.20')).toBe(200);
    await held[1]?.closed;
    expect([held[0], held[2]].every((raw) => !raw?.socket.destroyed)).toBe(true);
    await vi.waitFor(() => expect(logs).toContain('idle connections closed: every slot was taken'));
  });
});

/** POST `body` to `path` on a fresh connection from `localAddress`: the status and the parsed body, or 'closed'. */
async function postFrom(
  port: number,
  localAddress: string,
  path: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> } | 'closed'> {
  const raw = await open(port, localAddress);
  const json = JSON.stringify(body);
  raw.socket.write(
    `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
  );
  const first = await Promise.race([
    raw.closed.then(() => 'closed' as const),
    raw.receivedText('\r\n\r\n').then(() => 'answered' as const),
  ]);
  if (first === 'closed' && !raw.received().includes('\r\n\r\n')) return 'closed';
  const parsed = await response(raw);
  return { status: parsed.status, body: JSON.parse(parsed.body) as Record<string, unknown> };
}

/** GET /health on a fresh connection from `localAddress`: the status, or 'closed' when the server closed it unanswered. */
async function healthFrom(port: number, localAddress: string): Promise<number | 'closed'> {
  const raw = await open(port, localAddress);
  raw.socket.write('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  const first = await Promise.race([
    raw.closed.then(() => 'closed' as const),
    raw.receivedText('\r\n\r\n').then(() => 'answered' as const),
  ]);
  if (first === 'closed' && !raw.received().includes('\r\n\r\n')) return 'closed';
  return (await response(raw)).status;
}

/** `count` connections from `localAddress` that send nothing; resolves with those still open once every refused one has closed. */
async function idleFrom(port: number, localAddress: string, count: number): Promise<Raw[]> {
  const opened = await Promise.all(Array.from({ length: count }, () => open(port, localAddress)));
  // each one either is refused (closed at once) or answers a request: ask the ones not closed
  const kept: Raw[] = [];
  await Promise.all(
    opened.map(async (raw) => {
      raw.socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
      const first = await Promise.race([
        raw.closed.then(() => 'closed' as const),
        raw.receivedText('\r\n\r\n').then(() => 'answered' as const),
      ]);
      if (first === 'answered') kept.push(raw);
    }),
  );
  return kept;
}

describe('connections per client address (issue 15: one address took every slot)', () => {
  it('one address holding 600 idle connections, topped up, cannot keep /health from another address from answering', async () => {
    const port = await start(); // the defaults: 512 in all, 128 per address
    const attacker: Raw[] = [];
    let stop = false;
    // ~530 idle connections, topped up every 100 ms, filled the 512 slots before
    const topUp = async (): Promise<void> => {
      while (!stop) {
        const alive = attacker.filter((raw) => !raw.socket.destroyed);
        attacker.splice(0, attacker.length, ...alive);
        const more = await Promise.all(
          Array.from({ length: 600 - alive.length }, () =>
            open(port, '127.0.0.1').catch(() => undefined),
          ),
        );
        for (const raw of more) if (raw !== undefined) attacker.push(raw);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const flooding = topUp();
    try {
      await vi.waitFor(() => expect(attacker.length).toBeGreaterThanOrEqual(128), {
        timeout: 10_000,
        interval: 20,
      });
      const answers: Array<number | 'closed'> = [];
      for (let batch = 0; batch < 4; batch++)
        answers.push(
          ...(await Promise.all(Array.from({ length: 10 }, () => healthFrom(port, '127.0.0.2')))),
        );
      expect(answers.filter((answer) => answer === 200)).toHaveLength(40);
    } finally {
      stop = true;
      await flooding;
    }
    // the attacker holds its share, no more: of its open connections, only those answer
    const answered = await Promise.all(
      attacker.map(async (raw) => {
        if (raw.socket.destroyed) return false;
        raw.socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
        return (
          (await Promise.race([
            raw.closed.then(() => 'closed'),
            raw.receivedText('\r\n\r\n').then(() => 'answered'),
          ])) === 'answered'
        );
      }),
    );
    expect(answered.filter(Boolean).length).toBeGreaterThan(0);
    expect(answered.filter(Boolean).length).toBeLessThanOrEqual(128);
    await vi.waitFor(() =>
      expect(logs).toContain(
        'connections refused: a client address is at its share of the connections',
      ),
    );
  });

  it('a quarter of the slots is kept for light clients: heavy addresses together cannot fill them', async () => {
    const port = await start({ maxConnections: 64, maxConnectionsPerAddress: 16 });
    const held: Raw[][] = [];
    // six addresses each try to hold 16: the first three take 48 (all but the reserved 16),
    // the others only as many as a light client holds (4)
    for (let i = 3; i <= 8; i++) held.push(await idleFrom(port, `127.0.0.${i}`, 16));
    expect(held.map((raws) => raws.length)).toEqual([16, 16, 16, 4, 4, 4]);
    // 4 slots left, for clients holding fewer than 4
    for (let i = 0; i < 10; i++) expect(await healthFrom(port, '127.0.0.2')).toBe(200);
  });

  it('a trusted proxy (TRUST_PROXY) carries many clients: bounded by the total only', async () => {
    const port = await start({
      maxConnections: 64,
      maxConnectionsPerAddress: 4,
      trustProxy: '127.0.0.5',
    });
    expect(await idleFrom(port, '127.0.0.5', 10)).toHaveLength(10);
    expect(await idleFrom(port, '127.0.0.6', 10)).toHaveLength(4);
  });
});

describe('idle connections from many sources (issue 33: 171 IPv4 addresses × 3 idle took every slot)', () => {
  it('200 addresses × 3 idle keep-alive connections: /health and sign-in from others are still served', async () => {
    // the defaults (512 in all, 128 per address); idle connections kept a minute
    const port = await start({ keepAliveTimeoutMs: 60_000 });
    const sources = Array.from(
      { length: 200 },
      (_, i) => `127.1.${Math.floor(i / 100)}.${(i % 100) + 1}`,
    );
    const holders = (await Promise.all(sources.map((source) => idleFrom(port, source, 3)))).flat();
    // 600 tried, at most 512 held (each newcomer past the cap took the longest idle's slot)
    await vi.waitFor(() =>
      expect(holders.filter((raw) => !raw.socket.destroyed).length).toBeLessThanOrEqual(512),
    );
    expect(holders.filter((raw) => !raw.socket.destroyed).length).toBeGreaterThan(400);
    const answers: Array<number | 'closed'> = [];
    for (let i = 0; i < 18; i++) answers.push(await healthFrom(port, `127.2.0.${i + 1}`));
    expect(answers).toEqual(Array(18).fill(200));
    const email = 'person@example.com';
    const sent = await postFrom(port, '127.3.0.1', '/auth/login', { email });
    expect(sent !== 'closed' && sent.status).toBe(200);
    const signedIn = await postFrom(port, '127.3.0.1', '/auth/verify', {
      email,
      code: identity.outbox.get(email),
    });
    expect(signedIn !== 'closed' && signedIn.status).toBe(200);
    expect(signedIn !== 'closed' && typeof signedIn.body.token).toBe('string');
  });
});

describe('pipelining (issue 27: 50,000 pipelined GET /health per connection, never read, took 2.6 GB)', () => {
  it('connections pipelining thousands of requests without reading are closed; what reached the routes stays bounded; another client is served', async () => {
    const port = await start();
    const attackers = await Promise.all(Array.from({ length: 4 }, () => open(port, '127.0.0.3')));
    const health = 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n';
    for (const raw of attackers) {
      // never read an answer
      raw.socket.pause();
      raw.socket.write(health.repeat(5_000));
    }
    // (writing on until the server's close shows: a paused socket reads no FIN)
    await Promise.all(attackers.map((raw) => trickleUntilClosed(raw, health)));
    expect(await healthFrom(port, '127.0.0.2')).toBe(200);
    await vi.waitFor(() =>
      expect(logs).toContain(
        `connections closed: more than ${MAX_UNANSWERED_PER_SOCKET} requests waiting unanswered on one`,
      ),
    );
    // of 20,000 requests sent, at most the bound per connection became requests in flight
    // (each logs one line when it ends, answered or cut), plus the probe's
    await handle?.flushLog();
    const reached = logs.split('\n').filter((line) => line.includes('"url":"/health"')).length;
    expect(reached).toBeGreaterThan(0);
    expect(reached).toBeLessThanOrEqual(4 * MAX_UNANSWERED_PER_SOCKET + 1);
  });

  it('the parse stops at the request that closes the connection: the rest of its read never becomes a request', async () => {
    const port = await start();
    const server = handle?.app.server;
    if (server === undefined) throw new Error('no server started');
    // every request Node parses is emitted, the refused ones too (this listener comes after the
    // bound's), so this counts what the parser made of each connection's reads
    // (a destroyed socket no longer says its port: it is read when the connection is accepted)
    const ports = new WeakMap<Socket, number>();
    server.on('connection', (socket: Socket) => ports.set(socket, socket.remotePort ?? 0));
    const parsed = new Map<number, number>();
    server.on('request', (request: { socket: Socket }) => {
      const from = ports.get(request.socket) ?? 0;
      parsed.set(from, (parsed.get(from) ?? 0) + 1);
    });
    const attackers = await Promise.all(Array.from({ length: 4 }, () => open(port, '127.0.0.5')));
    const sources = attackers.map((raw) => raw.socket.localPort);
    const health = 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n';
    for (const raw of attackers) {
      raw.socket.pause();
      // ~1,800 requests per 64 KB read: one read holds far more than the bound
      raw.socket.write(health.repeat(5_000));
    }
    await Promise.all(attackers.map((raw) => trickleUntilClosed(raw, health)));
    expect(sources.map((port) => parsed.get(port ?? -1))).toEqual(
      Array(4).fill(MAX_UNANSWERED_PER_SOCKET + 1),
    );
  });

  it('a client that pipelines within the bound and reads gets every answer, in order', async () => {
    const port = await start();
    const raw = await open(port, '127.0.0.4');
    const count = MAX_UNANSWERED_PER_SOCKET;
    raw.socket.write(
      Array.from(
        { length: count },
        (_, i) => `GET /health?i=${i} HTTP/1.1\r\nHost: x\r\n\r\n`,
      ).join(''),
    );
    await vi.waitFor(() => expect(raw.received().split('HTTP/1.1 200 OK').length - 1).toBe(count), {
      timeout: 5_000,
      interval: 10,
    });
    expect(raw.socket.destroyed).toBe(false);
  });
});

describe('connections per IPv6 /48 (issue 27: 171 /64s of one /48 took every slot)', () => {
  // The loopback has one IPv6 address (::1), so connections from other IPv6 sources cannot be
  // made for real. A front listener hands each accepted socket to the server as its
  // 'connection' (Node's documented way to inject a connection), with the peer address a /64 of
  // one /48 would have: the real socket, the real HTTP server and the real ledger decide.
  let front: Server | undefined;
  afterEach(async () => {
    // the client ends first: the front's close waits for its connections, and the server would
    // end the idle ones only at its keep-alive timeout (seconds)
    for (const socket of openSockets.splice(0)) socket.destroy();
    await new Promise((resolve) =>
      front === undefined ? resolve(undefined) : front.close(resolve),
    );
    front = undefined;
  });

  it("60 connections from 20 /64s of one /48 hold a client's share (16); another /48 and IPv4 are served", async () => {
    const port = await start({ maxConnections: 64, maxConnectionsPerAddress: 16 });
    const server = handle?.app.server as NonNullable<typeof handle>['app']['server'];
    let accepted = 0;
    front = createServer((socket) => {
      const i = accepted++;
      const peer = i < 60 ? `2001:db8:1:${Math.floor(i / 3).toString(16)}::1` : '2001:db8:2::1';
      Object.defineProperty(socket, 'remoteAddress', { value: peer });
      server.emit('connection', socket);
    });
    const frontPort = await new Promise<number>((resolve) =>
      (front as Server).listen(0, '127.0.0.1', () =>
        resolve(((front as Server).address() as { port: number }).port),
      ),
    );
    expect(await idleFrom(frontPort, '127.0.0.1', 60)).toHaveLength(16);
    await vi.waitFor(() =>
      expect(logs).toContain('connections refused: a client address is at its share'),
    );
    // the next /48 has its own share
    expect(await healthFrom(frontPort, '127.0.0.1')).toBe(200);
    expect(await healthFrom(port, '127.0.0.2')).toBe(200);
  });
});

describe('bodies on routes that take none', () => {
  const MB = 1_048_576;

  it.each([
    {
      description: 'POST to an unknown route',
      head: `POST /nope HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${MB}\r\n\r\n`,
      status: 404,
      code: 'NOT_FOUND',
    },
    {
      description: 'GET /health with a body',
      head: `GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: ${MB}\r\n\r\n`,
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
    },
    {
      description: 'GET /health with a chunked body',
      head: 'GET /health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n',
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
    },
    {
      description: 'GET on an unknown route with a body',
      head: `GET /nope/deeper HTTP/1.1\r\nHost: x\r\nContent-Length: ${MB}\r\n\r\n`,
      status: 404,
      code: 'NOT_FOUND',
    },
  ])(
    '$description: answered $status before the body is sent, and the connection is closed',
    async ({ head, status, code }) => {
      const port = await start();
      const raw = await open(port);
      // the head and 16 KB of the 1 MB: the rest is never sent, so only an answer that does not
      // wait for the body can arrive
      raw.socket.write(head);
      raw.socket.write(
        head.includes('chunked') ? `4000\r\n${'x'.repeat(0x4000)}\r\n` : 'x'.repeat(16_384),
      );
      const answer = await response(raw);
      expectErrorShape(answer, status, code);
      expect(answer.headers.connection).toBe('close');
      await raw.closed;
    },
  );

  it('a GET without a body, or with Content-Length: 0, is served as usual', async () => {
    const port = await start();
    const raw = await open(port);
    raw.socket.write('GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n');
    const answer = await response(raw);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ status: 'ok' });
  });

  it('a body over 1 MB to a route that takes one is refused from its Content-Length, and the connection closed', async () => {
    const port = await start();
    const raw = await open(port);
    raw.socket.write(loginHead(MB + 1));
    raw.socket.write('{"email":');
    const answer = await response(raw);
    expectErrorShape(answer, 413, 'PAYLOAD_TOO_LARGE');
    expect(answer.headers.connection).toBe('close');
    await raw.closed;
  });
});

describe('parser errors', () => {
  it('headers over 16 KB → 431 HEADERS_TOO_LARGE in our error shape, with the security headers', async () => {
    const port = await start();
    const raw = await open(port);
    raw.socket.write(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    await raw.closed;
    const answer = parse(raw.received());
    expectErrorShape(answer, 431, 'HEADERS_TOO_LARGE');
    for (const [name, value] of Object.entries(SECURITY_HEADERS))
      expect(answer.headers[name]).toBe(value);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(logs).toContain('"errorCode":"HEADERS_TOO_LARGE"');
  });

  it.each([
    { description: 'a garbage request line', data: 'HELLO THERE\r\n\r\n' },
    {
      description: 'a header without a colon',
      data: 'GET /health HTTP/1.1\r\nHost: x\r\nbroken header\r\n\r\n',
    },
    {
      description: 'two Content-Lengths that disagree',
      data: 'POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
    },
  ])('$description → 400 MALFORMED_REQUEST in our error shape', async ({ data }) => {
    const port = await start();
    const raw = await open(port);
    raw.socket.write(data);
    await raw.closed;
    expectErrorShape(parse(raw.received()), 400, 'MALFORMED_REQUEST');
  });
});

describe('unknown paths', () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkaWQ6cHJpdnk6eCJ9.c2lnbmF0dXJlLXBhcnQtaGVyZQ';

  it.each([`/${jwt}`, `/auth/${jwt}`, `/sign/hash/${jwt}?x=1`])(
    'GET %s: the 404 does not echo the path, and the log has no token',
    async (path) => {
      const port = await start();
      const raw = await open(port);
      raw.socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
      const answer = await response(raw);
      expectErrorShape(answer, 404, 'NOT_FOUND');
      expect(answer.body).not.toContain('eyJ');
      await vi.waitFor(() => expect(logs).toContain(JSON.parse(answer.body).error.requestId));
      expect(logs).not.toContain('eyJ');
      expect(logs).not.toContain('c2lnbmF0dXJl');
      // …and the line still says what it can: the prefix when it is one of ours, and the length
      const line =
        logs
          .split('\n')
          .find((l) => l.includes('"statusCode":404') && l.includes('"msg":"request"')) ?? '';
      const pathOnly = path.split('?')[0] as string;
      expect(line).toContain(`(${pathOnly.length} chars)`);
      expect(line).toContain(
        pathOnly.startsWith('/auth/')
          ? '"url":"/auth/… ('
          : pathOnly.startsWith('/sign/')
            ? '"url":"/sign/… ('
            : '"url":"/… (',
      );
    },
  );

  it('a matched route logs its pattern, once per request, with status and time', async () => {
    const port = await start();
    const raw = await open(port);
    raw.socket.write(
      'GET /health?token=abc HTTP/1.1\r\nHost: x\r\nX-Request-Id: line-check\r\n\r\n',
    );
    expect((await response(raw)).status).toBe(200);
    await vi.waitFor(() => expect(logs).toContain('line-check'));
    const lines = logs.split('\n').filter((l) => l.includes('line-check'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      reqId: 'line-check',
      method: 'GET',
      url: '/health',
      statusCode: 200,
      msg: 'request',
    });
    expect(JSON.parse(lines[0] as string).responseTime).toEqual(expect.any(Number));
    expect(logs).not.toContain('token=abc');
  });

  it('a request whose client leaves before the answer has one line, the aborted one', async () => {
    const port = await start();
    // sign-in waits on the provider until released: the client is gone by then
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    identity.sendOtp = async () => {
      arrived();
      await held;
    };
    const raw = await open(port);
    const body = JSON.stringify({ email: 'gone@example.com' });
    raw.socket.write(
      `POST /auth/login HTTP/1.1\r\nHost: x\r\nX-Request-Id: left-early\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    await reached;
    raw.socket.destroy();
    await vi.waitFor(() => expect(logs).toContain('left-early'));
    release();
    // the answer the handler makes now goes nowhere, and writes no second line
    await new Promise((resolve) => setTimeout(resolve, 50));
    const lines = logs.split('\n').filter((l) => l.includes('"reqId":"left-early"'));
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      reqId: 'left-early',
      method: 'POST',
      url: '/auth/login',
      remoteAddress: '127.0.0.1',
      aborted: true,
      msg: 'request ended before its answer',
    });
  });

  it("a refused request has the handler's line (request.log, its id bound) and its own", async () => {
    const port = await start();
    const raw = await open(port);
    raw.socket.write(
      'POST /auth/login HTTP/1.1\r\nHost: x\r\nX-Request-Id: refused-one\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
    );
    expect((await response(raw)).status).toBe(400);
    await vi.waitFor(() => expect(logs).toContain('"msg":"request"'));
    const lines = logs
      .split('\n')
      .filter((l) => l.includes('"reqId":"refused-one"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((line) => line.msg)).toEqual(['request rejected', 'request']);
    expect(lines[0]).toMatchObject({ level: 30, errorCode: 'VALIDATION_ERROR', statusCode: 400 });
    expect(lines[1]).toMatchObject({ statusCode: 400, errorCode: 'VALIDATION_ERROR' });
  });
});
