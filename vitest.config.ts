import { defineConfig } from 'vitest/config';
import { PROCESS_TESTS, UNIT_TESTS } from './test/kinds.js';
import LongestFirstSequencer from './test/sequencer.js';

// Two kinds of test (docs/architecture.md "Tests"): `unit` beside its module, in this process,
// no build (`npm run test:unit`); `process` in test/, against the built bin.
export default defineConfig({
  test: {
    reporters: ['default', './test/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores in CI: process tests each start real servers, keep the pool small.
    maxWorkers: 2,
    // Every run takes the tests in a new order (the seed is printed; rerun one order with
    // --sequence.seed=N): no test may depend on another having run first (docs/decisions.md).
    // Files start longest first, shuffled in small windows (test/sequencer.ts), so that no long
    // file starts last and holds one core alone at the end.
    sequence: { shuffle: { files: false, tests: true }, sequencer: LongestFirstSequencer },
    projects: [
      {
        extends: true,
        // React's production build, the one the bin ships (scripts/bundle.mjs): its development
        // build spent half of a screen test's CPU on checks that print, never fail a test
        // (docs/decisions.md "The unit tests run the React the bin ships"); its JSX to match
        oxc: { jsx: { development: false } },
        test: {
          name: 'unit',
          // no NODE_COMPILE_CACHE for the workers: a checkout's first run paid more to write it than
          // the later runs saved (docs/decisions.md "The unit workers without Node's compile cache")
          env: { NODE_ENV: 'production' },
          include: UNIT_TESTS,
          // in `npm test` the unit tests run before the process tests
          sequence: { groupOrder: 0 },
          // checks the unit rule (test/kinds.ts); builds nothing
          globalSetup: ['test/unit-setup.ts'],
          // The files share a worker process, not their modules: the setup file resets the module
          // registry before each file's imports (checked), so every module of the repo is new to
          // the file, and refuses what a file leaves in the process; Node's own loading of the
          // third-party packages, ~0.7 s of CPU a file, is paid once per worker
          // (docs/decisions.md "The unit tests share a worker, not their modules").
          isolate: false,
          setupFiles: ['test/unit-file-setup.ts'],
        },
      },
      {
        extends: true,
        // React's production build, as the unit project (the screens some process tests render
        // in the worker: kinds-faces, mcp-guards, cli-liquidation)
        oxc: { jsx: { development: false } },
        test: {
          name: 'process',
          env: { NODE_ENV: 'production' },
          include: PROCESS_TESTS,
          sequence: { groupOrder: 1 },
          // Process tests spawn the built bin; build it once before any of them runs.
          globalSetup: ['test/global-setup.ts'],
          // A process test's state lives in the processes it starts; what it imports here is
          // constants, parsers and fixtures, so its files share a worker's loaded modules (loading
          // them again cost about 1.8 s of CPU a file). The setup file resets
          // vitest's own globals and stops leftover children after each file (docs/decisions.md
          // "The process tests' workers and set-up").
          isolate: false,
          // a file's set-up starts a sandbox and signs users in through the bin: on a loaded
          // machine that alone can take longer than a test's 30 s (a ceiling, not a measure)
          hookTimeout: 90_000,
          setupFiles: ['test/process-setup.ts'],
          // the in-process build of the bin (test/helpers/in-process.ts) is loaded by Node as the
          // bin loads it, not transformed: the same code, and its memos once per worker
          server: { deps: { external: [/\/dist\/in-process\//] } },
        },
      },
    ],
  },
});
