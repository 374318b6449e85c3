/**
 * Process tests spawn the built bin, exactly what a user runs; build it once per test run. The
 * bin is the esbuild bundle of scripts/bundle.mjs, made from the sources (cli/bin.ts and what it
 * imports), as `npm run build` makes it. `npm run build` first runs tsc, whose per-file output
 * beside the bundle no bin path loads; a test that loads one module in a plain Node child
 * (test/history-processes.test.ts) needs that layout, so the sources are transpiled to it file by
 * file with esbuild (the repo's TypeScript is erasable syntax only, isolated modules: the same
 * JavaScript without the types) — a tenth of tsc's CPU even without its type check. The types
 * are the typecheck's job, part of `npm test` (docs/decisions.md "npm test runs the checks beside the tests").
 */
import { execFileSync } from 'node:child_process';
import { globSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** tsconfig.build.json's files: the sources of the four folders, tests left out */
const SOURCES = ['cli', 'server', 'shared', 'sandbox'].map((dir) => `${dir}/**/*.{ts,tsx}`);
const TEST_FILE = /\.test\.tsx?$/;

export default async function setup(): Promise<void> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  await build({
    absWorkingDir: root,
    entryPoints: globSync(SOURCES, { cwd: root }).filter((file) => !TEST_FILE.test(file)),
    outdir: 'dist',
    outbase: '.',
    format: 'esm',
    platform: 'node',
    target: 'es2023',
    jsx: 'automatic',
    logLevel: 'warning',
  });
  execFileSync(
    process.execPath,
    [fileURLToPath(new URL('../scripts/bundle.mjs', import.meta.url))],
    { cwd: root, stdio: 'inherit' },
  );
}
