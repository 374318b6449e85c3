/**
 * The built program run in this test's worker: `run(argv, io)` (cli/run.ts, the function the bin
 * calls with the process's own streams, environment and signals) loaded from the in-process build
 * of the bin's bundle (dist/in-process/, test/global-setup.ts): the same code the bin runs, without
 * a new Node and the bundle's load for every command (0.3–0.66 s of CPU a run; docs/benchmarks.md
 * "Issue 36, fourth round"). For tests whose subject is what a command did or answered; a test
 * whose subject is the process (exit by a signal, a TTY, stdin, a child, start-up) spawns the bin
 * (docs/decisions.md "Bin runs in-process where the result is the subject").
 *
 * What makes a run here the same as a new process (the decision above has the audit):
 * - `run` reads its environment, streams and TTY flags from io only; the environment given is
 *   the one a spawned bin gets (cleanEnv), never this worker's.
 * - The one per-process memo whose reuse a new process would not have, the vToken proofs
 *   (cli/core/vtoken-origin.ts: a proven address is not read again), is forgotten before every
 *   run; the other memos are keyed by their whole input (an address from its key, a hash from its
 *   document) and answer the same in any process.
 * - `run` stops every child its command started before it returns (its child registry is one per
 *   worker: two in-process runs that start children must not overlap).
 * The build is loaded by Node itself (vitest.config.ts `server.deps.external`), once per worker:
 * the process project shares a worker's modules across files (`isolate: false`).
 */
import { Writable } from 'node:stream';
import type { run } from '../../cli/run.js';

interface InProcessBuild {
  /** cli/run.ts's own, as built (its type read from the source: erased, nothing loaded) */
  run: typeof run;
  forgetVTokenProofs(): void;
}

const BUILD = new URL('../../dist/in-process/', import.meta.url);

let loaded: Promise<InProcessBuild> | undefined;

/** The in-process build, loaded once per worker (a sandbox run in the worker starts from it too). */
export function inProcessBuild(): Promise<InProcessBuild> {
  loaded ??= Promise.all([
    import(new URL('run.js', BUILD).href) as Promise<Pick<InProcessBuild, 'run'>>,
    import(new URL('vtoken-origin.js', BUILD).href) as Promise<
      Pick<InProcessBuild, 'forgetVTokenProofs'>
    >,
  ]).then(([{ run }, { forgetVTokenProofs }]) => ({ run, forgetVTokenProofs }));
  return loaded;
}

/** A stream that keeps what is written to it, as text (each write is whole text from `run`). */
function collector(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      callback();
    },
  });
  return { stream, text: () => text };
}

/**
 * The program with `args` and `env` (a spawned bin's environment: cleanEnv), stdout and stderr
 * piped (no TTY), in this worker; resolves with what the bin would have exited with and printed.
 * `signal` stands for the bin's Ctrl+C (never aborted unless given).
 */
export async function runInProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  signal: AbortSignal = new AbortController().signal,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = collector();
  const stderr = collector();
  const code = await startInProcess(
    args,
    env,
    { stdout: stdout.stream, stderr: stderr.stream },
    signal,
  );
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/**
 * The program with `args` and `env` on the streams given, as a bin whose stdin, stdout and
 * stderr are pipes (no TTY): for a long-running command read and written while it runs (the tool
 * server, `mcp`, whose protocol is its stdin and stdout: test/helpers/mcp.ts). Resolves with the
 * exit code once the command has ended (for `mcp`: its stdin ended, or `signal` aborted).
 */
export async function startInProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  streams: { stdin?: NodeJS.ReadableStream; stdout: Writable; stderr: Writable },
  signal: AbortSignal = new AbortController().signal,
): Promise<number> {
  const { run, forgetVTokenProofs } = await inProcessBuild();
  // a new process has proven no vToken yet (see above)
  forgetVTokenProofs();
  return run(args, {
    env: { ...env },
    ...(streams.stdin === undefined ? {} : { stdin: streams.stdin }),
    stdout: streams.stdout,
    stderr: streams.stderr,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    signal,
  });
}
