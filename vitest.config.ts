import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'cli/**/*.test.ts',
      'cli/**/*.test.tsx',
      'server/**/*.test.ts',
      'shared/**/*.test.ts',
      'sandbox/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    // Process tests spawn the built bin; build it once before any test file runs.
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores in CI: process tests each start real servers, keep the pool small.
    maxWorkers: 2,
  },
});
