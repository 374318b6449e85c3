/**
 * Child processes of the client: the bundled auth server or the sandbox stack, started when
 * nothing answers at a loopback URL. Their logs go to a file in the data folder, never to the
 * terminal; they are stopped when the command that started them ends.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { AppError, ErrorCode } from '../shared/errors.js';
import { isShuttingDown, track } from './child-registry.js';

export interface ChildHandle {
  child: ChildProcess;
  /** the child's ready document (sandbox) or undefined (serve) */
  ready: Record<string, unknown> | undefined;
  logFile: string;
  stop(): Promise<void>;
}

/** The command that runs this very program: built bin, or source under tsx in development. */
function selfCommand(): string[] {
  const main = fileURLToPath(new URL('./main.js', import.meta.url));
  const source = main.endsWith('.js') && import.meta.url.endsWith('.ts') ? main.replace(/\.js$/, '.ts') : main;
  return [...process.execArgv, source];
}

async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * Spawn `finance-tui <args>` and wait until `isReady` says so, or the child exits, or time runs
 * out. For `sandbox --json` the first stdout line is the ready document.
 */
export async function spawnSelf(options: {
  args: string[];
  env: NodeJS.ProcessEnv;
  logDir: string;
  logName: string;
  timeoutMs: number;
  /** resolves true once the child is usable; polled until then */
  waitFor: (ready: Record<string, unknown> | undefined) => Promise<boolean>;
  readyLine: boolean;
  /** the command's abort signal: stop waiting, stop the child */
  signal?: AbortSignal;
}): Promise<ChildHandle> {
  const logFile = join(options.logDir, options.logName);
  const logFd = openSync(logFile, 'a', 0o600);
  const [cmd, ...rest] = [process.execPath, ...selfCommand()];
  // stdin is a pipe the child watches: when this process dies, even by SIGKILL, the pipe closes
  // and the child shuts itself down (see exitWhenParentGone)
  const child = spawn(cmd as string, [...rest, ...options.args], {
    env: { ...options.env, [SUPERVISED_ENV]: '1' },
    stdio: ['pipe', options.readyLine ? 'pipe' : logFd, logFd],
  });
  closeSync(logFd);
  child.stdin?.on('error', () => undefined);
  // One stop, however many callers (the command's release, main's final sweep): the child stays
  // tracked until it has really exited, so nobody exits the parent while it is still stopping.
  let untrack = (): void => undefined;
  let stopping: Promise<void> | undefined;
  const handle: ChildHandle = {
    child,
    ready: undefined,
    logFile,
    stop: () => {
      stopping ??= stopChild(child, 5_000).finally(() => untrack());
      return stopping;
    },
  };
  untrack = track(handle);

  const exited = new Promise<never>((_resolve, reject) => {
    child.once('exit', (code) =>
      reject(new AppError(ErrorCode.SERVER_UNREACHABLE, `the ${options.args[0]} child process exited (code ${code}) before it was ready; see ${logFile}`)),
    );
    child.once('error', (error) => reject(new AppError(ErrorCode.SERVER_UNREACHABLE, `could not start ${options.args[0]}: ${error.message}`)));
  });
  exited.catch(() => undefined);

  const ready = (async (): Promise<void> => {
    if (options.readyLine && child.stdout) {
      const lines = createInterface({ input: child.stdout });
      for await (const line of lines) {
        try {
          const doc = JSON.parse(line) as Record<string, unknown>;
          if (doc.event === 'ready') {
            handle.ready = doc;
            break;
          }
        } catch {
          // not a JSON line; keep reading
        }
      }
      child.stdout.resume(); // never let a full pipe block the child
    }
    while (!(await options.waitFor(handle.ready))) await new Promise((resolve) => setTimeout(resolve, 100));
  })();

  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new AppError(ErrorCode.SERVER_UNREACHABLE, `${options.args[0]} did not become ready within ${options.timeoutMs} ms; see ${logFile}`)),
      options.timeoutMs,
    );
  });
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(new AppError(ErrorCode.CANCELLED, 'cancelled', { status: 499 }));
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([ready, exited, timeout, aborted]);
    return handle;
  } catch (error) {
    await handle.stop();
    throw error;
  } finally {
    clearTimeout(timer);
    if (onAbort) options.signal?.removeEventListener('abort', onAbort);
  }
}

/** Set in the environment of a child started by spawnSelf. */
export const SUPERVISED_ENV = 'FINANCE_TUI_SUPERVISED';

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
