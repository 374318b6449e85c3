/**
 * Spawning the built bin (`node dist/cli/main.js …`) the way a user runs it, with an isolated
 * FINANCE_TUI_HOME, and reading its output line by line without sleeping.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { cleanEnv } from './home.js';

// the home and environment helpers, for the process tests that import them from here
export { cleanEnv, tempHome } from './home.js';

export const BIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** A port nothing listens on (bound, then released), on `host`. */
export async function closedPort(host: string): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A free port below the kernel's ephemeral range (32768–60999 on Linux), for a test that must
 * name a port before something listens there. A port from closedPort is in that range, so any
 * other process's `listen(0)` or outgoing connection may take it meanwhile; this one is only
 * taken by a program that asks for it by number.
 */
export async function quietPort(host: string): Promise<number> {
  // only a port in use is tried again (a bounded number of times); any other error is the host's
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const server = createServer();
    const taken = await new Promise<boolean>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        error.code === 'EADDRINUSE' ? resolve(true) : reject(error),
      );
      server.listen(port, host, () => resolve(false));
    });
    if (taken) continue;
    await new Promise((resolve) => server.close(resolve));
    return port;
  }
  throw new Error(`no free port found below the ephemeral range on ${host}`);
}

export interface Spawned {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** resolves once stderr contains `text` */
  stderrIncludes(text: string): Promise<void>;
  /**
   * resolves with the first stdout line matching, rejects on exit or after `timeoutMs` (15 s;
   * Infinity: only on exit, the caller's hook or test timeout bounding the wait)
   */
  waitForLine(match: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  /** resolves once the process has exited and its stdout and stderr are read to their end */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): void;
}

/**
 * The children spawnBin started that are still running. A test that times out in its set-up
 * never reaches the close it would have called (vitest abandons the hook's promise), and the
 * worker is then ended by a signal, orphaning them: test/process-setup.ts stops what is left
 * after each file, or a sandbox would go on taking CPU from every later test.
 */
const running = new Set<ChildProcess>();

/** Stops (SIGTERM) every child spawnBin started that is still running; resolves once they exited. */
export async function stopLeftoverChildren(): Promise<number> {
  const left = [...running];
  await Promise.all(
    left.map(
      (child) =>
        new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          if (child.exitCode !== null || child.signalCode !== null) resolve();
          else child.kill('SIGTERM');
        }),
    ),
  );
  return left.length;
}

export function spawnBin(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd?: string,
  options: { nodeArgs?: string[] } = {},
): Spawned {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], {
    env,
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  // 'close', not 'exit': at 'exit' the last of stdout and stderr may still be unread (Node's
  // child_process docs), and a test that reads them then saw an empty stderr under load. The
  // bin's own children never hold its stdout or stderr (cli/platform/child.ts), so 'close' comes
  // with its exit.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  const output = watchOutput(exited);
  child.stdout?.setEncoding('utf8').on('data', output.onStdout);
  child.stderr?.setEncoding('utf8').on('data', output.onStderr);
  return {
    child,
    ...output.reader,
    exited,
    kill: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}

/** What reads a program's output as it comes: Spawned's readers, without the process. */
export type OutputReader = Pick<Spawned, 'stdout' | 'stderr' | 'stderrIncludes' | 'waitForLine'>;

/**
 * The output of a program that ends with `exited`, fed chunk by chunk (onStdout, onStderr), read
 * line by line without sleeping: the one reader of a spawned bin (spawnBin) and of a sandbox run
 * in this worker (test/helpers/sandbox-in-process.ts).
 */
export function watchOutput(exited: Promise<{ code: number | null }>): {
  onStdout(chunk: string): void;
  onStderr(chunk: string): void;
  reader: OutputReader;
} {
  let out = '';
  let err = '';
  const waiters: Array<{ match: (line: string) => boolean; resolve: (line: string) => void }> = [];
  let pending = '';
  const errWaiters: Array<{ text: string; resolve: () => void }> = [];
  const onStdout = (chunk: string): void => {
    out += chunk;
    pending += chunk;
    let index = pending.indexOf('\n');
    while (index >= 0) {
      const line = pending.slice(0, index);
      pending = pending.slice(index + 1);
      for (const waiter of [...waiters]) {
        if (waiter.match(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
      index = pending.indexOf('\n');
    }
  };
  const onStderr = (chunk: string): void => {
    err += chunk;
    for (const waiter of [...errWaiters]) {
      if (err.includes(waiter.text)) {
        errWaiters.splice(errWaiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };
  const reader: OutputReader = {
    stdout: () => out,
    stderr: () => err,
    stderrIncludes: (text) =>
      err.includes(text)
        ? Promise.resolve()
        : new Promise<void>((resolve) => errWaiters.push({ text, resolve })),
    waitForLine(match, timeoutMs = 15_000) {
      const existing = out.split('\n').find(match);
      if (existing !== undefined) return Promise.resolve(existing);
      return new Promise<string>((resolve, reject) => {
        const timer =
          timeoutMs === Infinity
            ? undefined
            : setTimeout(
                () =>
                  reject(
                    new Error(
                      `no matching line within ${timeoutMs} ms; stdout:\n${out}\nstderr:\n${err}`,
                    ),
                  ),
                timeoutMs,
              );
        waiters.push({
          match,
          resolve: (line) => {
            clearTimeout(timer);
            resolve(line);
          },
        });
        void exited.then(({ code }) => {
          clearTimeout(timer);
          reject(
            new Error(
              `process exited (${code}) before a matching line; stdout:\n${out}\nstderr:\n${err}`,
            ),
          );
        });
      });
    },
  };
  return { onStdout, onStderr, reader };
}

/** The environment of `finance-tui serve` against an identity emulator at `emulatorUrl`, plus `extra`. */
export function serveEnv(
  options: {
    home: string;
    appId: string;
    appSecret: string;
    jwtSecret: string;
    emulatorUrl: string;
  },
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return cleanEnv({
    FINANCE_TUI_HOME: options.home,
    IDENTITY_APP_ID: options.appId,
    IDENTITY_APP_SECRET: options.appSecret,
    JWT_SECRET: options.jwtSecret,
    IDENTITY_AUTH_URL: `${options.emulatorUrl}/api/v1`,
    IDENTITY_API_URL: options.emulatorUrl,
    ...extra,
  });
}

/** `finance-tui serve --port 0` with `env`; resolves once it listens, with the URL it printed. */
export async function spawnServe(
  env: NodeJS.ProcessEnv,
  cwd?: string,
): Promise<{ proc: Spawned; url: string }> {
  const proc = spawnBin(['serve', '--port', '0'], env, cwd);
  const line = await proc.waitForLine((l) => l.includes('Server listening at'));
  const url = /Server listening at (http:\/\/[0-9.:]+)/.exec(line)?.[1];
  if (!url) throw new Error(`no URL in ${line}`);
  return { proc, url };
}

/** Run to completion and collect everything. */
export async function runBin(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const spawned = spawnBin(args, env, cwd);
  const { code } = await spawned.exited;
  return { code, stdout: spawned.stdout(), stderr: spawned.stderr() };
}

/**
 * The bin is an esbuild bundle (scripts/bundle.mjs): a loaded chunk stands for the modules inside
 * it, listed in dist/bundle-meta.json. Each chunk URL is followed by one `bundled:` URL per
 * package (`bundled:node_modules/ink/`) and own source file (`bundled:dist/cli/headless/output.js`) it
 * holds, so a trace says which packages a command loaded whether the build is bundled or not.
 */
function expandChunks(urls: string[]): string[] {
  let meta: Record<string, string[]>;
  try {
    meta = JSON.parse(
      readFileSync(new URL('../../dist/bundle-meta.json', import.meta.url), 'utf8'),
    ) as Record<string, string[]>;
  } catch {
    return urls; // not bundled
  }
  return urls.flatMap((url) => {
    const file = /\/dist\/cli\/([^/]+\.js)$/.exec(url)?.[1];
    const inside = file === undefined ? undefined : meta[file];
    if (inside === undefined) return [url];
    const expanded = inside.map((entry) =>
      entry.startsWith('(own) ')
        ? `bundled:dist/${entry.slice('(own) '.length).replace(/\.tsx?$/, '.js')}`
        : `bundled:node_modules/${entry}/`,
    );
    return [url, ...expanded];
  });
}

/**
 * Run the bin with a load hook that prints every module URL it loads (to stderr, after the bin's
 * own output): which modules a command loads, e.g. that `--help` stays light. A load hook, not a
 * resolve hook: the bin resolves its own chunks itself (cli/bin.ts), ahead of a preloaded hook.
 */
export async function runBinTracingModules(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string; modules: string[] }> {
  const hook = `data:text/javascript,${encodeURIComponent(
    "import { registerHooks } from 'node:module'; registerHooks({ load(u, c, next) { process.stderr.write('resolved: ' + u + '\\n'); return next(u, c); } });",
  )}`;
  const child = spawn(process.execPath, ['--import', hook, BIN, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) =>
    child.once('close', (exitCode) => resolve(exitCode)),
  );
  const modules = expandChunks(
    stderr
      .split('\n')
      .filter((line) => line.startsWith('resolved: '))
      .map((line) => line.slice('resolved: '.length)),
  );
  return {
    code,
    stdout,
    stderr: stderr
      .split('\n')
      .filter((line) => !line.startsWith('resolved: '))
      .join('\n'),
    modules,
  };
}
