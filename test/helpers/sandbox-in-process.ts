/**
 * `finance-tui sandbox …` run in this test's worker: `run(['sandbox', …], io)` from the in-process
 * build of the bin (test/helpers/in-process.ts), where the sandbox is the test's infrastructure
 * rather than its subject. It is the bin's own sandbox command — its ready line, its sandbox.json,
 * its log, its graceful stop and stopped line — without a new Node, the bundle's load, and the
 * chain's and the server's start-up work paid again by every new process (docs/benchmarks.md
 * "Issue 36, fifth round: the sandboxes in the worker"). The handle reads like spawnBin's: the
 * same output readers (watchOutput), `exited`, and `kill`, which is the bin's Ctrl+C / SIGTERM (the
 * run's signal aborted). A test whose subject is the sandbox process — its signals, a kill, its
 * start as a child, its stdout as a process writes it — spawns it (docs/decisions.md "Sandboxes in
 * the worker where they are the set-up").
 */
import { Writable } from 'node:stream';
import { inProcessBuild } from './in-process.js';
import { type OutputReader, watchOutput } from './process.js';

export interface InProcessSandbox extends OutputReader {
  /** resolves once the run returned, with its exit code (signal: always null, there is no process) */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /**
   * The stop the bin's SIGTERM or SIGINT gives (main.ts aborts the run's signal): the servers
   * drain, sandbox.json is removed, the stopped line is printed and the run returns. A SIGKILL has
   * no in-process meaning: a test that kills the sandbox spawns it.
   */
  kill(signal?: 'SIGTERM' | 'SIGINT'): void;
}

/** The sandboxes started here whose run has not returned yet (stopLeftoverSandboxes). */
const running = new Set<InProcessSandbox>();

/** A stream handing each write (whole text from `run`) to `sink`. */
function into(sink: (chunk: string) => void): Writable {
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      sink(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      callback();
    },
  });
}

/**
 * Starts `finance-tui <args>` (a `sandbox` command) in this worker with `env` (a spawned bin's:
 * cleanEnv), stdout and stderr piped; returns at once, as spawnBin does: wait for its ready line.
 */
export function startSandboxInProcess(args: string[], env: NodeJS.ProcessEnv): InProcessSandbox {
  if (args[0] !== 'sandbox') throw new Error(`not a sandbox command: ${args.join(' ')}`);
  const stop = new AbortController();
  let onStdout: (chunk: string) => void = () => undefined;
  let onStderr: (chunk: string) => void = () => undefined;
  const exited = inProcessBuild()
    .then(({ run }) =>
      run(args, {
        env: { ...env },
        stdout: into((chunk) => onStdout(chunk)),
        stderr: into((chunk) => onStderr(chunk)),
        stdoutIsTTY: false,
        stderrIsTTY: false,
        signal: stop.signal,
      }),
    )
    .then(
      (code) => ({ code, signal: null }),
      // run maps every failure to an exit code; a throw is a bug of the run, shown as a crash is
      (error: unknown) => {
        onStderr(`${(error as Error)?.stack ?? String(error)}\n`);
        return { code: null, signal: null };
      },
    );
  const output = watchOutput(exited);
  ({ onStdout, onStderr } = output);
  const handle: InProcessSandbox = {
    ...output.reader,
    exited,
    kill: () => stop.abort(),
  };
  running.add(handle);
  void exited.then(() => running.delete(handle));
  return handle;
}

/**
 * Stops every sandbox started here whose run has not returned (a set-up that timed out never
 * reached its close) and waits for their runs to end: test/process-setup.ts, after each file.
 */
export async function stopLeftoverSandboxes(): Promise<number> {
  const left = [...running];
  for (const sandbox of left) sandbox.kill();
  await Promise.all(left.map((sandbox) => sandbox.exited));
  return left.length;
}
