/**
 * A throw-away redis-server on a free loopback port, for tests of what instances share through
 * Redis. `redisServerPath` is undefined when redis-server is not installed (tests skip then).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';

function findOnPath(binary: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, binary);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export const redisServerPath = findOnPath('redis-server');

export interface RedisServer {
  port: number;
  url: string;
  stop(): void;
  /** SIGTERM, resolved once the process is gone (Redis writes its files first) */
  stopped(): Promise<void>;
}

export interface RedisOptions {
  /** none (the default: fastest), aof (an append-only file: what a deployment needs), snapshots (RDB only) */
  persistence?: 'none' | 'aof' | 'snapshots';
  /** the folder of its files (aof, snapshots); a restart on the same port and folder reads them back */
  dir?: string;
  port?: number;
  /** more redis-server options, e.g. ['--maxmemory-policy', 'allkeys-lru'] */
  args?: string[];
}

/** Starts redis-server and resolves once it accepts connections. */
export async function startRedisServer(options: RedisOptions = {}): Promise<RedisServer> {
  if (redisServerPath === undefined) throw new Error('redis-server is not installed');
  const port = options.port ?? (await freePort());
  const persistence = options.persistence ?? 'none';
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    persistence === 'snapshots' ? '900 1' : '',
    '--appendonly',
    persistence === 'aof' ? 'yes' : 'no',
    ...(options.dir === undefined ? [] : ['--dir', options.dir]),
    ...(options.args ?? []),
  ];
  const child: ChildProcess = spawn(redisServerPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // however the test ends (a timeout mid-start included), no redis-server outlives it
  const orphanGuard = (): void => void child.kill('SIGKILL');
  process.once('exit', orphanGuard);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      process.off('exit', orphanGuard);
      resolve();
    }),
  );
  child.stderr?.resume();
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
  });
  child.stdout?.resume();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop: () => child.kill('SIGTERM'),
    stopped: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
