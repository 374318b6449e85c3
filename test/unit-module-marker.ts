/**
 * A module whose every evaluation is counted in the worker (test/unit-file-setup.ts): the unit
 * project's set-up imports it after resetting the module registry, once per file, and checks it
 * was evaluated again, i.e. that the file gets its own copy of every module of the repo
 * (docs/decisions.md "The unit tests share a worker, not their modules").
 */
const EVALUATIONS = Symbol.for('finance-tui.unit-module-marker.evaluations');
const worker = globalThis as { [EVALUATIONS]?: number };

worker[EVALUATIONS] = (worker[EVALUATIONS] ?? 0) + 1;

/** how many times this module has been evaluated in this worker, this time included */
export const evaluations: number = worker[EVALUATIONS];
