/**
 * This very program as a child process of a client command: the sandbox (when no running
 * sandbox answers) or the auth server (`serve`, when nothing answers at a loopback server URL).
 * Its logs go to a file in the data folder, never to the terminal; it is stopped when the
 * command that started it ends, however it ends, and stops itself if that command dies.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { AppError, cancelledError, ErrorCode } from '../../shared/errors.js';
import { nodeFs, openPrivateLog } from '../../shared/fs.js';
import type { Network } from '../../shared/tokens.js';
import { isShuttingDown, track } from './child-registry.js';
import { removeSandboxState } from './sandbox-state.js';
import { probeServer } from '../clients/probe.js';

const { closeSync } = nodeFs;

interface ChildHandle {
  child: ChildProcess;
  /** what the child reported when ready (the sandbox: its URLs) */
  ready: Record<string, unknown>;
  logFile: string;
  stop(): Promise<void>;
}

/** The command that runs this very program: built bin, or source under tsx in development. */
function selfCommand(): string[] {
  const main = fileURLToPath(new URL('./main.js', import.meta.url));
  const source =
    main.endsWith('.js') && import.meta.url.endsWith('.ts') ? main.replace(/\.js$/, '.ts') : main;
  return [...process.execArgv, source];
}

/**
 * How long a stopped child is given before it is killed. The child's own stop is bounded: its
 * grace for in-flight requests (CLOSE_GRACE_MS, 5 s, in commands/serve.ts and sandbox.ts) then
 * at most HARD_STOP_AFTER_CUT_MS (1 s, server/main.ts) — so killing it any sooner (this was
 * 5 s) cut short a stop that was running to plan, and a sandbox killed that way left its
 * sandbox.json behind. The margin is for a loaded machine; a stop normally takes milliseconds.
 */
export const CHILD_STOP_GRACE_MS = 9_000;

async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** The first `{"event": "ready", …}` line on the child's stdout; then stdout is drained. */
async function readyDocument(child: ChildProcess, what: string): Promise<Record<string, unknown>> {
  const stdout = child.stdout;
  if (!stdout) throw new Error('child has no stdout pipe');
  for await (const line of createInterface({ input: stdout })) {
    try {
      const doc = JSON.parse(line) as Record<string, unknown>;
      if (doc.event === 'ready') {
        stdout.resume(); // never let a full pipe block the child
        return doc;
      }
    } catch {
      // not a JSON line; keep reading
    }
  }
  throw new AppError(ErrorCode.SERVER_UNREACHABLE, `${what} closed its output before it was ready`);
}

/** Polls GET /health at `url` until it answers ok (the caller races this with exit, timeout, abort). */
async function healthy(url: string, signal: AbortSignal): Promise<Record<string, unknown>> {
  for (;;) {
    const probe = await probeServer(url, { signal, timeoutMs: 1_000 });
    if (probe.reachable) return { url, ...(probe.version ? { version: probe.version } : {}) };
    if (signal.aborted) throw cancelledError(signal.reason);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface SpawnSelfOptions {
  /** "the sandbox", "the auth server": how messages name it */
  what: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  logFile: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** 'stdout': a ready line on stdout (stdout piped to us); else poll GET /health at this URL (stdout to the log) */
  ready: 'stdout' | { healthUrl: string };
  /** run (and awaited) once the child has exited, however it ended, before its stop resolves */
  afterExit?: (pid: number | undefined) => Promise<void> | void;
}

/**
 * Start the program with `args` and wait until it is ready, or exits, or the timeout, or the
 * command's abort signal — stopping it on any of the last three.
 */
async function spawnSelf(options: SpawnSelfOptions): Promise<ChildHandle> {
  const logFd = openPrivateLog(options.logFile);
  const [cmd, ...rest] = [process.execPath, ...selfCommand()];
  // stdin is a pipe the child watches: when this process dies, even by SIGKILL, the pipe closes
  // and the child shuts itself down (see exitWhenParentGone)
  const child = spawn(cmd as string, [...rest, ...options.args], {
    env: { ...options.env, [SUPERVISED_ENV]: '1' },
    stdio: ['pipe', options.ready === 'stdout' ? 'pipe' : logFd, logFd],
  });
  closeSync(logFd);
  child.stdin?.on('error', () => undefined);

  // One stop, however many callers (the command's release, run's final sweep): the child stays
  // tracked until it has really exited, so nobody exits the parent while it is still stopping.
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= stopChild(child, CHILD_STOP_GRACE_MS).finally(async () => {
      try {
        await options.afterExit?.(child.pid);
      } finally {
        untrack();
      }
    });
    return stopping;
  };
  const untrack = track({ stop });

  const exited = new Promise<never>((_resolve, reject) => {
    child.once('exit', (code) =>
      reject(
        new AppError(
          ErrorCode.SERVER_UNREACHABLE,
          `${options.what} exited (code ${code}) before it was ready; see ${options.logFile}`,
        ),
      ),
    );
    child.once('error', (error) =>
      reject(
        new AppError(
          ErrorCode.SERVER_UNREACHABLE,
          `could not start ${options.what}: ${error.message}`,
        ),
      ),
    );
  });
  exited.catch(() => undefined);

  // One signal for the wait: the command's abort, or the end of the wait (so a health poll stops).
  const waitDone = new AbortController();
  const waitSignal = AbortSignal.any([options.signal, waitDone.signal]);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new AppError(
            ErrorCode.SERVER_UNREACHABLE,
            `${options.what} did not become ready within ${options.timeoutMs} ms; see ${options.logFile}`,
          ),
        ),
      options.timeoutMs,
    );
  });
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(cancelledError());
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const readiness =
      options.ready === 'stdout'
        ? readyDocument(child, options.what)
        : healthy(options.ready.healthUrl, waitSignal);
    readiness.catch(() => undefined);
    const ready = await Promise.race([readiness, exited, timeout, aborted]);
    return { child, ready, logFile: options.logFile, stop };
  } catch (error) {
    await stop();
    throw error;
  } finally {
    waitDone.abort();
    clearTimeout(timer);
    if (onAbort) options.signal.removeEventListener('abort', onAbort);
  }
}

/** `finance-tui sandbox --port 0 --json` until its ready line (its URLs). */
export function spawnSandbox(options: {
  env: NodeJS.ProcessEnv;
  dataDir: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** the network the sandbox is to be shaped like; mainnet when absent */
  network?: Network | undefined;
}): Promise<ChildHandle> {
  const env = { ...options.env, FINANCE_TUI_HOME: options.dataDir };
  const network = options.network === undefined ? [] : ['--network', options.network];
  return spawnSelf({
    what: 'the sandbox',
    args: ['sandbox', '--port', '0', '--json', ...network],
    env,
    logFile: join(options.dataDir, 'sandbox-child.log'),
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    ready: 'stdout',
    afterExit: (pid) => removeSandboxState(env, pid),
  });
}

/**
 * `finance-tui serve` with the user's environment, listening where `serverUrl` points (a
 * loopback URL), until GET /health answers there. Its log lines go to `serve-child.log`.
 */
export function spawnServe(options: {
  env: NodeJS.ProcessEnv;
  dataDir: string;
  serverUrl: string;
  timeoutMs: number;
  signal: AbortSignal;
}): Promise<ChildHandle> {
  const url = new URL(options.serverUrl);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return spawnSelf({
    what: 'the auth server',
    args: ['serve', '--port', port],
    env: { ...options.env, HOST: host },
    logFile: join(options.dataDir, 'serve-child.log'),
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    ready: { healthUrl: options.serverUrl },
  });
}

/** Set in the environment of a child started by spawnSelf. */
const SUPERVISED_ENV = 'FINANCE_TUI_SUPERVISED';

/**
 * In a child started by spawnSelf: when the parent goes away (its end of our stdin closes),
 * stop as if sent SIGTERM, so a crashed or killed client never leaves a server behind.
 */
export function exitWhenParentGone(env: NodeJS.ProcessEnv): void {
  if (env[SUPERVISED_ENV] !== '1' || process.stdin.isTTY) return;
  const gone = (): void => {
    process.stdin.off('end', gone).off('close', gone).off('error', gone);
    // already stopping (the parent's own SIGTERM usually comes first): a second signal would force
    if (!isShuttingDown()) process.kill(process.pid, 'SIGTERM');
  };
  process.stdin.on('end', gone).on('close', gone).on('error', gone);
  process.stdin.resume();
}
