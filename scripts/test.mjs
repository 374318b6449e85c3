// `npm test` (README "Set-up", CI's `.ci/run`): the three checks — typecheck, lint, format — and
// both test projects, the checks beside the tests instead of before them (docs/decisions.md
// "npm test runs the checks beside the tests"). Arguments go to vitest (`npm test -- <file>`).
// The tests' report streams as it comes; each check's output is held and shown whole once it
// ends, a failed one again at the very end. Any red part fails the run: exit 1 (vitest's own code
// when only the tests failed), each failure named on the last lines.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));

/** The checks: package.json's own scripts, run by the npm that runs this (else npm on PATH). */
const CHECKS = ['typecheck', 'lint', 'format:check'];
const npm = process.env.npm_execpath?.endsWith('.js')
  ? [process.execPath, [process.env.npm_execpath]]
  : ['npm', []];

const children = new Set();

/** Runs `command args`; resolves with its exit code (1 when it died of a signal) and output. */
function run(command, args, stdio) {
  const child = spawn(command, args, { cwd: root, stdio });
  children.add(child);
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => {
    child.once('error', (error) => {
      output += `${error.message}\n`;
      resolve({ code: 1, output });
    });
    child.once('close', (code) => {
      children.delete(child);
      resolve({ code: code ?? 1, output });
    });
  });
}

// Ctrl+C reaches every child through the terminal's process group; a TERM sent to this script
// alone is passed on, so no check outlives the run.
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exitCode = 1;
  });

const started = Date.now();
const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

// the checks one after another (each takes one core), beside vitest (which takes the rest)
const checks = (async () => {
  const failed = [];
  for (const name of CHECKS) {
    const { code, output } = await run(
      npm[0],
      [...npm[1], 'run', '--silent', name],
      ['ignore', 'pipe', 'pipe'],
    );
    const head = `\n[${name}] ${code === 0 ? 'passed' : `FAILED (exit ${code})`} at ${seconds()}`;
    process.stdout.write(`${head}\n${output.trimEnd() ? `${output.trimEnd()}\n` : ''}`);
    if (code !== 0) failed.push({ name, code, output });
  }
  return failed;
})();
const tests = run(process.execPath, [vitest, 'run', ...process.argv.slice(2)], 'inherit');

const [failedChecks, testRun] = await Promise.all([checks, tests]);
for (const check of failedChecks)
  process.stdout.write(
    `\n[${check.name}] FAILED (exit ${check.code}):\n${check.output.trimEnd()}\n`,
  );
const red = [...failedChecks.map((c) => c.name), ...(testRun.code === 0 ? [] : ['tests'])];
process.stdout.write(
  red.length === 0
    ? `\nnpm test: typecheck, lint, format and tests passed (${seconds()})\n`
    : `\nnpm test: FAILED: ${red.join(', ')} (${seconds()})\n`,
);
process.exitCode =
  red.length === 0 ? 0 : testRun.code !== 0 && failedChecks.length === 0 ? testRun.code : 1;
