/**
 * A pipelining flood against `finance-tui serve` as a process (issue 33 item 7: a flood left the
 * server at 1.57 GB after the clients had gone, and /health failed for its first ~6 s;
 * docs/server-security.md "Pipelining"): connections from four addresses write pipelined
 * `GET /health` as fast as the server takes them and never read an answer, each opened again
 * when the server closes it, until the server has closed FLOOD_CLOSES of them. Meanwhile /health
 * from another address is asked again and again, one after the other: every one is answered.
 * After the clients have gone, the server's resident set (read from /proc, Linux) comes back
 * within 100 MB of what it was before the flood. Nothing waits on the wall clock: the flood ends
 * on a count of closes, the probes on their answers.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { serveEnv, type Spawned, spawnServe, tempHome } from './helpers/process.js';

const FLOOD_CONNECTIONS = 32;
const FLOOD_CLOSES = 300;
const HEALTH = 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n';

const rssMb = (pid: number): number => {
  const kb = /VmRSS:\s+([0-9]+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
};

/** GET /health on a fresh connection from 127.0.0.2: the status, or 'closed' (closed unanswered). */
function health(port: number): Promise<number | 'closed'> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.2' });
    let data = '';
    socket.setEncoding('latin1');
    socket.on('connect', () =>
      socket.write('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    );
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const status = /^HTTP\/1\.1 ([0-9]{3})/.exec(data)?.[1];
      resolve(status === undefined ? 'closed' : Number(status));
    });
  });
}

describe('a pipelining flood (issue 33 item 7)', () => {
  const home = tempHome();
  let proc: Spawned | undefined;
  afterAll(async () => {
    proc?.kill();
    await proc?.exited;
    home.cleanup();
  });

  it('/health is answered throughout, and memory comes back within 100 MB of its start once the clients have gone', async () => {
    const started = await spawnServe(
      serveEnv({
        home: home.dir,
        appId: 'flood-test-app',
        appSecret: 'flood-test-app-secret-value',
        jwtSecret: 'jpkpA9v67Op_tKBnBkCyFMEPYMCutowvskVlTDZJTx8',
        // never asked: only /health is called
        emulatorUrl: 'http://127.0.0.1:9',
      }),
      home.dir,
    );
    proc = started.proc;
    const pid = proc.child.pid as number;
    const port = Number(new URL(started.url).port);
    for (let i = 0; i < 20; i++) expect(await health(port)).toBe(200);
    const before = rssMb(pid);

    const payload = Buffer.from(HEALTH.repeat(50_000), 'latin1');
    let closes = 0;
    let stop = false;
    const live = new Set<Socket>();
    let flooded: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (flooded = resolve));
    const attack = (index: number): void => {
      if (stop) return;
      const socket = connect({
        port,
        host: '127.0.0.1',
        localAddress: `127.0.4.${(index % 4) + 1}`,
      });
      live.add(socket);
      // never read an answer; a write after the server's close fails, which is how it shows
      const push = (): void => {
        while (!socket.destroyed && socket.write(payload));
      };
      socket.on('connect', () => {
        socket.pause();
        push();
      });
      socket.on('drain', push);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        live.delete(socket);
        closes += 1;
        if (closes >= FLOOD_CLOSES) flooded();
        setImmediate(() => attack(index));
      });
    };
    for (let i = 0; i < FLOOD_CONNECTIONS; i++) attack(i);

    // /health, one after the other, for as long as the flood lasts: every one answered 200
    const answers: Array<number | 'closed'> = [];
    let flooding = true;
    void done.then(() => (flooding = false));
    while (flooding || answers.length < 3) answers.push(await health(port));
    stop = true;
    for (const socket of live) socket.destroy();
    expect(closes).toBeGreaterThanOrEqual(FLOOD_CLOSES);
    expect(answers.length).toBeGreaterThanOrEqual(3);
    expect(answers.filter((a) => a !== 200)).toEqual([]);

    // the clients have gone: the server answers, and its memory is back near where it started
    for (let i = 0; i < 20; i++) expect(await health(port)).toBe(200);
    await vi.waitFor(() => expect(rssMb(pid) - before).toBeLessThanOrEqual(100), {
      timeout: 20_000,
      interval: 500,
    });
  }, 180_000);
});
