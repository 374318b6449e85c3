/**
 * Process tests spawn the built bin, exactly what a user runs; build it once per test run, the
 * way `npm run build` does: tsc, then the esbuild bundle that becomes dist/cli/main.js. tsc runs
 * with --noCheck: the same emitted files, byte for byte, in a third of the time; the types are
 * checked by `npm run typecheck`, part of `npm test` (docs/decisions.md "npm test runs the
 * checks beside the tests").
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(
    process.execPath,
    [
      fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url)),
      '-p',
      'tsconfig.build.json',
      '--noCheck',
    ],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  execFileSync(
    process.execPath,
    [fileURLToPath(new URL('../scripts/bundle.mjs', import.meta.url))],
    { cwd: root, stdio: 'inherit' },
  );
}
