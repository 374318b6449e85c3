/**
 * Runs before every process test file (vitest.config.ts `setupFiles`). The process project's
 * files share a worker's modules (`isolate: false`), so after each file what vitest itself holds
 * for the whole worker goes back as it was — real timers, spies restored, stubbed environment
 * variables and globals removed — whether or not the file's own hooks got that far; and any
 * child the file spawned through spawnBin and left running (a sandbox whose set-up timed out
 * before its test could keep a handle to close it) is stopped (test/helpers/process.ts), and so
 * is any sandbox it started in this worker (test/helpers/sandbox-in-process.ts): its servers,
 * sockets and timers would otherwise go on in the worker under the next file.
 */
import { afterAll, expect, vi } from 'vitest';
import { cpuLogFile } from './helpers/cpu-log.js';
import { stopLeftoverChildren } from './helpers/process.js';
import { stopLeftoverSandboxes } from './helpers/sandbox-in-process.js';

// the measurement aid (bench/cpu-log.mjs): off unless CPU_LOG is set
const cpuLogged = cpuLogFile(expect.getState().testPath);

afterAll(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  await Promise.all([stopLeftoverChildren(), stopLeftoverSandboxes()]);
  cpuLogged?.();
}, 20_000);
