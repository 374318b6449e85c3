/**
 * Where the process project's CPU goes (docs/benchmarks.md "Issue 36, fifth round: the process
 * project"): a preload that appends one JSON line per Node process to the file `CPU_LOG` names
 * when the process exits — its own `process.cpuUsage()` (user + system, every thread, µs), its
 * argv, and `CPU_LOG_TAG` (test/process-setup.ts sets it to the test file in the worker, so every
 * child a file starts inherits it through cleanEnv). Off unless both are given:
 *
 *   CPU_LOG=/tmp/cpu.jsonl NODE_OPTIONS="--import=$PWD/bench/cpu-log.mjs" \
 *     npx vitest run --project process test/X.test.ts
 *   node bench/cpu-log-report.mjs /tmp/cpu.jsonl
 *
 * A process ended by a signal it does not handle writes nothing (the bin and the sandbox handle
 * SIGTERM and SIGINT): compare the sum with GNU time's figure for the whole tree.
 */
import { appendFileSync } from 'node:fs';

const file = process.env.CPU_LOG;
if (file) {
  const started = performance.now();
  process.once('exit', () => {
    const { user, system } = process.cpuUsage();
    const line = {
      kind: 'process',
      pid: process.pid,
      ppid: process.ppid,
      tag: process.env.CPU_LOG_TAG ?? '',
      argv: process.argv.slice(1),
      user,
      system,
      wallMs: Math.round(performance.now() - started),
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  });
}
