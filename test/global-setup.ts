/**
 * Process tests spawn the built bin, exactly what a user runs; build it once per test run. The
 * bin is the esbuild bundle of scripts/bundle.mjs, made from the sources (cli/bin.ts and what it
 * imports), as `npm run build` makes it. `npm run build` first runs tsc, whose per-file output
 * beside the bundle no bin path loads; a test that loads one module in a plain Node child
 * (test/history-processes.test.ts) needs that layout, so the sources are transpiled to it file by
 * file with esbuild (the repo's TypeScript is erasable syntax only, isolated modules: the same
 * JavaScript without the types) — a tenth of tsc's CPU even without its type check. The types
 * are the typecheck's job, part of `npm test` (docs/decisions.md "npm test runs the checks beside the tests").
 *
 * Beside the bin, the same bundle again in dist/in-process/ with two more entries: `run.js`
 * (cli/run.ts, the function the bin calls) and `vtoken-origin.js` (its per-process proofs, which
 * test/helpers/in-process.ts forgets before every run). Process tests whose subject is a command's
 * result run it in the test's worker from there: the bin's code without a new Node and the
 * bundle's load each time (docs/decisions.md "Bin runs in-process where the result is the
 * subject"). The bin under test, dist/cli/, is built exactly as published.
 */
import { execFile } from 'node:child_process';
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
  const bundle = fileURLToPath(new URL('../scripts/bundle.mjs', import.meta.url));
  await Promise.all(
    [[], IN_PROCESS_BUILD].map((args) => execFileAsync(process.execPath, [bundle, ...args], root)),
  );
}

/** scripts/bundle.mjs's arguments for the in-process build (test/helpers/in-process.ts loads it). */
const IN_PROCESS_BUILD = [
  '--outdir=dist/in-process',
  '--entry=run:cli/run.ts',
  '--entry=vtoken-origin:cli/core/vtoken-origin.ts',
];

function execFileAsync(file: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = execFile(file, args, { cwd }, (error) => (error ? reject(error) : resolve()));
    child.stdout?.pipe(process.stdout);
    child.stderr?.pipe(process.stderr);
  });
}
