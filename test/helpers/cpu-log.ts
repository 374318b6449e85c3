/**
 * The worker's side of the measurement aid bench/cpu-log.mjs (off unless `CPU_LOG` names a log):
 * test/process-setup.ts tags the file about to run, so every child it starts inherits the tag
 * (`CPU_LOG_TAG` passes cleanEnv), and logs the worker's own CPU from the file's set-up to its
 * end. The process project's files share a worker (`isolate: false`), so the worker's exit line
 * is every file's; these lines split it by file.
 */
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';

/** Starts the file's measure when `CPU_LOG` is set; the function returned logs it. */
export function cpuLogFile(testPath: string | undefined): (() => void) | undefined {
  const log = process.env.CPU_LOG;
  if (!log) return undefined;
  const tag = relative(process.cwd(), testPath ?? 'unknown');
  process.env.CPU_LOG_TAG = tag;
  const start = process.cpuUsage();
  const started = performance.now();
  return () => {
    const { user, system } = process.cpuUsage(start);
    const line = {
      kind: 'worker-file',
      pid: process.pid,
      tag,
      user,
      system,
      wallMs: Math.round(performance.now() - started),
    };
    appendFileSync(log, `${JSON.stringify(line)}\n`);
  };
}
