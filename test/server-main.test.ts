/**
 * startServer + installShutdown over real sockets: listen on an ephemeral port, then SIGTERM
 * (emitted on a stand-in process) stops accepting, lets in-flight requests finish and exits 0;
 * a connection that never completes its request is cut after the grace period.
 */
import { EventEmitter } from 'node:events';
import { connect } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installShutdown, type ServerHandle, startServer } from '../server/main.js';
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
  const seen = (text: string) => (all.includes(text) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ text, resolve })));
  return { stream, seen };
}

async function start(paymaster?: PaymasterRelay) {
  const identity = new FakeIdentity();
  const config = testConfig({ port: 0 });
  const logs = logWatcher();
  const handle = await startServer(config, { identity, logStream: logs.stream, ...(paymaster === undefined ? {} : { paymaster }) });
  const exited = deferred<number>();
  const target = new EventEmitter();
  const logged: string[] = [];
  return { handle, identity, config, exited, target, logged, seen: logs.seen };
}

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

describe('installShutdown', () => {
  it('SIGTERM: refuses new connections, finishes the in-flight request, exits 0', async () => {
    const release = deferred<void>();
    const arrived = deferred<void>();
    const slowPaymaster: PaymasterRelay = {
      async relay(request) {
        arrived.resolve();
        await release.promise;
        return { jsonrpc: '2.0', id: request.id ?? null, result: true };
      },
    };
    const { handle, identity, config, exited, target, logged } = await start(slowPaymaster);
    const user = identity.addUser('slow@example.com');
    const wallet = await identity.createWallet();
    const { token } = await createTokenService({ secret: config.jwtSecret }).issue({ userId: user.id, email: 'slow@example.com', walletId: wallet.id, walletAddress: wallet.address });
    installShutdown(handle, { graceMs: 5_000, log: (m) => logged.push(m), target, exit: (code) => exited.resolve(code) });

    const inFlight = fetch(`${handle.url}/paymaster`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'paymaster_isAvailable' }),
    });
    await arrived.promise;
    target.emit('SIGTERM', 'SIGTERM');

    // the listening socket is closed: a new connection is refused
    await expect(fetch(`${handle.url}/health`, { headers: { connection: 'close' } })).rejects.toThrow();

    release.resolve();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ jsonrpc: '2.0', id: 1, result: true });
    expect(await exited.promise).toBe(0);
    expect(logged.join('\n')).toContain('SIGTERM');
  });

  it('a hung connection is cut after the grace period and the process still exits 0', async () => {
    const { handle, exited, target, logged, seen } = await start();
    installShutdown(handle, { graceMs: 300, log: (m) => logged.push(m), target, exit: (code) => exited.resolve(code) });
    const port = Number(new URL(handle.url).port);
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const cut = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    // a request whose body never arrives
    socket.write('POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"em');
    // the server has the request in hand once it logs it
    await seen('"url":"/auth/login"');

    const started = Date.now();
    target.emit('SIGINT', 'SIGINT');
    expect(await exited.promise).toBe(0);
    const elapsed = Date.now() - started;
    await cut;
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(3_000);
    expect(logged.join('\n')).toContain('closing the remaining connections');
  });
});

describe('installShutdown hard stop', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A handle whose close never settles until told to (a Redis quit that hangs, say). */
  function hangingHandle() {
    const calls = { closeAll: 0 };
    const settle = deferred<void>();
    const server = {
      closeAllConnections: () => {
        calls.closeAll += 1;
      },
      closeIdleConnections: () => undefined,
    };
    const handle: ServerHandle = { app: { server } as unknown as FastifyInstance, url: 'http://127.0.0.1:1', close: () => settle.promise };
    return { handle, calls, settle };
  }

  it('close still hanging 1 s after the forced cut → exit(1), once', async () => {
    vi.useFakeTimers();
    const { handle, calls, settle } = hangingHandle();
    const target = new EventEmitter();
    const exits: number[] = [];
    const logged: string[] = [];
    installShutdown(handle, { graceMs: 5_000, log: (m) => logged.push(m), target, exit: (code) => exits.push(code) });
    target.emit('SIGTERM', 'SIGTERM');

    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls.closeAll).toBe(1);
    expect(exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(999);
    expect(exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(exits).toEqual([1]);
    expect(logged.join('\n')).toMatch(/still not closed 6000 ms after the signal/);

    // a close that finally settles afterwards does not exit again
    settle.resolve();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(exits).toEqual([1]);
  });

  it('a close that completes in time exits 0 and the hard stop never fires', async () => {
    vi.useFakeTimers();
    const { handle, settle } = hangingHandle();
    const target = new EventEmitter();
    const exits: number[] = [];
    installShutdown(handle, { graceMs: 300, log: () => undefined, target, exit: (code) => exits.push(code) });
    target.emit('SIGINT', 'SIGINT');
    await vi.advanceTimersByTimeAsync(500);
    settle.resolve();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(exits).toEqual([0]);
  });
});
