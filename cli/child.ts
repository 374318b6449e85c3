/**
 * The sandbox as a child process of a client command, started when no running sandbox answers.
 * Its logs go to a file in the data folder, never to the terminal; it is stopped when the
 * command that started it ends, however it ends, and stops itself if that command dies.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { AppError, cancelledError, ErrorCode } from '../shared/errors.js';
import { isShuttingDown, track } from './child-registry.js';

export interface ChildHandle {
  child: ChildProcess;
  /** the sandbox's ready document (its URLs) */
  ready: Record<string, unknown>;
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

/** The first `{"event": "ready", …}` line on the child's stdout; then stdout is drained. */
async function readyDocument(child: ChildProcess): Promise<Record<string, unknown>> {
  const stdout = child.stdout;
  if (!stdout) throw new Error('sandbox child has no stdout pipe');
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
  throw new AppError(ErrorCode.SERVER_UNREACHABLE, 'the sandbox closed its output before it was ready');
}

/**
 * Start `finance-tui sandbox --port 0 --json` and wait for its ready line, or its exit, or the
 * timeout, or the command's abort signal — stopping it on any of the last three.
 */
export async function spawnSandbox(options: { env: NodeJS.ProcessEnv; dataDir: string; timeoutMs: number; signal: AbortSignal }): Promise<ChildHandle> {
  const logFile = join(options.dataDir, 'sandbox-child.log');
  const logFd = openSync(logFile, 'a', 0o600);
  const [cmd, ...rest] = [process.execPath, ...selfCommand()];
  // stdin is a pipe the child watches: when this process dies, even by SIGKILL, the pipe closes
  // and the child shuts itself down (see exitWhenParentGone)
  const child = spawn(cmd as string, [...rest, 'sandbox', '--port', '0', '--json'], {
    env: { ...options.env, FINANCE_TUI_HOME: options.dataDir, [SUPERVISED_ENV]: '1' },
    stdio: ['pipe', 'pipe', logFd],
  });
  closeSync(logFd);
  child.stdin?.on('error', () => undefined);

  // One stop, however many callers (the command's release, main's final sweep): the child stays
  // tracked until it has really exited, so nobody exits the parent while it is still stopping.
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= stopChild(child, 5_000).finally(() => untrack());
    return stopping;
  };
  const untrack = track({ stop });

  const exited = new Promise<never>((_resolve, reject) => {
    child.once('exit', (code) =>
      reject(new AppError(ErrorCode.SERVER_UNREACHABLE, `the sandbox exited (code ${code}) before it was ready; see ${logFile}`)),
    );
    child.once('error', (error) => reject(new AppError(ErrorCode.SERVER_UNREACHABLE, `could not start the sandbox: ${error.message}`)));
  });
  exited.catch(() => undefined);

  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new AppError(ErrorCode.SERVER_UNREACHABLE, `the sandbox did not become ready within ${options.timeoutMs} ms; see ${logFile}`)),
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
    const ready = await Promise.race([readyDocument(child), exited, timeout, aborted]);
    return { child, ready, logFile, stop };
  } catch (error) {
    await stop();
    throw error;
  } finally {
    clearTimeout(timer);
    if (onAbort) options.signal.removeEventListener('abort', onAbort);
  }
}

/** Set in the environment of a child started by spawnSandbox. */
export const SUPERVISED_ENV = 'FINANCE_TUI_SUPERVISED';

/**
 * In a child started by spawnSandbox: when the parent goes away (its end of our stdin closes),
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
