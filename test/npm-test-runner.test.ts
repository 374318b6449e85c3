/**
 * `npm test` is scripts/test.mjs (docs/decisions.md "npm test runs the checks beside the tests"):
 * the checks run beside vitest, and a red one still fails the run, its output shown whole and
 * named on the last line. Here the real script runs in a copy of the project whose checks are
 * small stand-ins (package.json scripts) and whose tests are one tiny file, through the real npm
 * and vitest; nothing leaves the machine.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { cleanEnv } from './helpers/process.js';

const REPO = resolve(import.meta.dirname, '..');
const root = mkdtempSync(join(tmpdir(), 'npm-test-runner-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A project with the real runner, checks that print a marker and exit with `codes`, and one test. */
function project(
  name: string,
  codes: { typecheck: number; lint: number; format: number },
  testPasses = true,
): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  copyFileSync(join(REPO, 'scripts', 'test.mjs'), join(dir, 'scripts', 'test.mjs'));
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  const check = (marker: string, code: number) =>
    `node -e "console.log('${marker}'); process.exit(${code})"`;
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: `runner-${name}`,
      private: true,
      type: 'module',
      scripts: {
        typecheck: check('TYPECHECK-SAID-THIS', codes.typecheck),
        lint: check('LINT-SAID-THIS', codes.lint),
        'format:check': check('FORMAT-SAID-THIS', codes.format),
      },
    }),
  );
  writeFileSync(
    join(dir, 'vitest.config.mjs'),
    "export default { test: { include: ['probe.test.mjs'] } };\n",
  );
  writeFileSync(
    join(dir, 'probe.test.mjs'),
    `import { expect, it } from 'vitest';\nit('probe', () => expect(${testPasses ? 1 : 2}).toBe(1));\n`,
  );
  return dir;
}

function runner(dir: string): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [join(dir, 'scripts', 'test.mjs')], {
    cwd: dir,
    // no CI: vitest's plain report either way; npm from this run (npm_execpath) or PATH
    env: cleanEnv({ npm_config_update_notifier: 'false' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  return new Promise((done) => child.once('close', (code) => done({ code, out })));
}

const lastLine = (out: string) => out.trimEnd().split('\n').at(-1) ?? '';

// three separate projects, each its own processes: run side by side
describe.concurrent('npm test (scripts/test.mjs)', () => {
  it('all green: exit 0, each check passed, the tests ran, the last line says so', async ({
    expect,
  }) => {
    const r = await runner(project('green', { typecheck: 0, lint: 0, format: 0 }));
    expect(r.code, r.out).toBe(0);
    for (const name of ['typecheck', 'lint', 'format:check'])
      expect(r.out).toContain(`[${name}] passed`);
    expect(r.out).toContain('1 passed');
    expect(lastLine(r.out)).toMatch(/^npm test: typecheck, lint, format and tests passed \(/);
  });

  it('a red typecheck, the tests green: exit 1, its own words shown again at the end, named last', async ({
    expect,
  }) => {
    const r = await runner(project('red-typecheck', { typecheck: 2, lint: 0, format: 0 }));
    expect(r.code, r.out).toBe(1);
    expect(r.out).toContain('[typecheck] FAILED (exit 2)');
    // after the tests' report: the failure and what the check said
    const tail = r.out.slice(r.out.lastIndexOf('Test Files'));
    expect(tail).toContain('[typecheck] FAILED (exit 2):\nTYPECHECK-SAID-THIS');
    expect(r.out).toContain('[lint] passed');
    expect(lastLine(r.out)).toMatch(/^npm test: FAILED: typecheck \(/);
  });

  it('red lint and format, a failing test: exit 1, all three named', async ({ expect }) => {
    const r = await runner(project('red-all', { typecheck: 0, lint: 1, format: 2 }, false));
    expect(r.code, r.out).toBe(1);
    expect(r.out).toContain('LINT-SAID-THIS');
    expect(r.out).toContain('FORMAT-SAID-THIS');
    expect(lastLine(r.out)).toMatch(/^npm test: FAILED: lint, format:check, tests \(/);
  });
});
