/**
 * startServer + closeGracefully over real sockets: listen on an ephemeral port, then the stop
 * stops accepting, lets in-flight requests finish and resolves 'drained'; a connection that
 * never completes its request is cut after the grace period ('cut'); a close that hangs past
 * the hard stop rejects SHUTDOWN_TIMEOUT.
 */
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeGracefully, type Drainable, type ServerHandle, startServer } from '../server/main.js';
import type { PaymasterRelay } from '../server/providers/types.js';
import { FakeIdentity, testConfig } from './helpers/build-test-app.js';
import { createTokenService } from '../server/jwt.js';

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * A request whose body never arrives. The server has it in hand once it answers the Expect
 * header (its one log line comes only when a request ends, so the log cannot tell).
 */
async function sendUnfinishedRequest(socket: Socket): Promise<void> {
  const continued = new Promise<void>((resolve) => socket.once('data', () => resolve()));
  socket.write(
    'POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n',
  );
  await continued;
  socket.write('{"em');
}

/** A log stream that resolves `seen(text)` once a line containing text was written. */
function logWatcher() {
  let all = '';
  const waiters: Array<{ text: string; resolve: () => void }> = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      all += chunk.toString();
      for (const waiter of [...waiters]) if (all.includes(waiter.text)) waiter.resolve();
      callback();
    },
  });
  const seen = (text: string) =>
    all.includes(text)
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiters.push({ text, resolve }));
  return { stream, seen };
}

async function start(paymaster?: PaymasterRelay) {
  const identity = new FakeIdentity();
  const config = testConfig({ port: 0 });
  const logs = logWatcher();
  const handle = await startServer(config, {
    identity,
    logStream: logs.stream,
    ...(paymaster === undefined ? {} : { paymaster }),
  });
  const logged: string[] = [];
  return { handle, identity, config, logged, seen: logs.seen };
}

const drainable = (handle: ServerHandle): Drainable => ({
  close: () => handle.close(),
  servers: [handle.app.server],
});

describe('startServer', () => {
  it('listens on an ephemeral loopback port and serves /health', async () => {
    const { handle } = await start();
    try {
      expect(handle.url).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+$/);
      expect(handle.url).not.toMatch(/:0$/);
      const res = await fetch(`${handle.url}/health`);
      expect(await res.json()).toEqual({ status: 'ok' });
    } finally {
      await handle.close();
    }
  });
});

describe('closeGracefully', () => {
  it('refuses new connections, finishes the in-flight request, resolves "drained"', async () => {
    const release = deferred<void>();
    const arrived = deferred<void>();
    const slowPaymaster: PaymasterRelay = {
      async relay(request) {
        arrived.resolve();
        await release.promise;
        return { jsonrpc: '2.0', id: request.id ?? null, result: true };
      },
    };
    const { handle, identity, config, logged } = await start(slowPaymaster);
    const user = identity.addUser('slow@example.com');
    const wallet = await identity.createWallet();
    const { token } = await createTokenService({ secret: config.jwtSecret }).issue({
      userId: user.id,
      email: 'slow@example.com',
      walletId: wallet.id,
      walletAddress: wallet.address,
    });

    const inFlight = fetch(`${handle.url}/paymaster`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'paymaster_isAvailable' }),
    });
    await arrived.promise;
    const closed = closeGracefully(drainable(handle), {
      graceMs: 5_000,
      log: (m) => logged.push(m),
    });

    // the listening socket is closed: a new connection is refused
    await expect(
      fetch(`${handle.url}/health`, { headers: { connection: 'close' } }),
    ).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } });

    release.resolve();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 1, result: true });
    expect(await closed).toBe('drained');
    expect(logged.join('\n')).toContain('shutdown: done');
    expect(logged.join('\n')).not.toContain('closing the remaining connections');
  });

  it('a hung connection is cut after the grace period and the close resolves "cut"', async () => {
    const { handle, logged, seen } = await start();
    const port = Number(new URL(handle.url).port);
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const cut = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await sendUnfinishedRequest(socket);

    // 'cut' says the grace timer fired (nothing else cuts without cutNow); when it fires is
    // the fake-clock tests' business below
    expect(
      await closeGracefully(drainable(handle), { graceMs: 300, log: (m) => logged.push(m) }),
    ).toBe('cut');
    await cut;
    expect(logged.join('\n')).toContain('closing the remaining connections');
    // the request that never finished still has its one log line
    await seen('"url":"/auth/login","remoteAddress":"127.0.0.1","aborted":true');
  });

  it('cutNow cuts at once, before the grace period', async () => {
    const { handle, logged } = await start();
    const socket = connect(Number(new URL(handle.url).port), '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    await sendUnfinishedRequest(socket);
    const cutNow = new AbortController();
    const closed = closeGracefully(drainable(handle), {
      graceMs: 60_000,
      log: (m) => logged.push(m),
      cutNow: cutNow.signal,
    });
    cutNow.abort();
    expect(await closed).toBe('cut');
  });
});

describe('closeGracefully hard stop', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A target whose close never settles until told to (a Redis quit that hangs, say). */
  function hanging() {
    const calls = { closeAll: 0 };
    const settle = deferred<void>();
    const server = {
      closeAllConnections: () => {
        calls.closeAll += 1;
      },
      closeIdleConnections: () => undefined,
    };
    const target: Drainable = { close: () => settle.promise, servers: [server] };
    return { target, calls, settle };
  }

  it('close still hanging 1 s after the forced cut → SHUTDOWN_TIMEOUT, once', async () => {
    vi.useFakeTimers();
    const { target, calls, settle } = hanging();
    const logged: string[] = [];
    const outcomes: string[] = [];
    closeGracefully(target, { graceMs: 5_000, log: (m) => logged.push(m) }).then(
      (outcome) => outcomes.push(outcome),
      (error: { code?: string }) => outcomes.push(String(error.code)),
    );

    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls.closeAll).toBe(1);
    expect(outcomes).toEqual([]);
    await vi.advanceTimersByTimeAsync(999);
    expect(outcomes).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(outcomes).toEqual(['SHUTDOWN_TIMEOUT']);
    expect(logged.join('\n')).toMatch(/still not closed 6000 ms after the signal/);

    // a close that finally settles afterwards changes nothing
    settle.resolve();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(outcomes).toEqual(['SHUTDOWN_TIMEOUT']);
  });

  it('a close that completes after the cut but in time resolves "cut"; the hard stop never fires', async () => {
    vi.useFakeTimers();
    const { target, settle } = hanging();
    const outcomes: string[] = [];
    closeGracefully(target, { graceMs: 300, log: () => undefined }).then(
      (outcome) => outcomes.push(outcome),
      (error: { code?: string }) => outcomes.push(String(error.code)),
    );
    await vi.advanceTimersByTimeAsync(500);
    settle.resolve();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(outcomes).toEqual(['cut']);
  });
});
