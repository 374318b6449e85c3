/**
 * The unit project's files share a worker, not their modules (docs/decisions.md "The unit tests
 * share a worker, not their modules"): its set-up file, test/unit-file-setup.ts, gives every file
 * its own copy of the repo's modules and refuses what a file leaves in the process. Here the real
 * set-up file runs under the real vitest in a small project whose files all share one worker:
 * two files that each need a module and process.env as new, and three that leave a process
 * listener, a global and a module hook behind. A copy of the set-up without its module reset
 * shows that the check of the reset fails when the reset is missing.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { cleanEnv } from './helpers/home.js';

const REPO = resolve(import.meta.dirname, '..');
const root = mkdtempSync(join(tmpdir(), 'unit-shared-worker-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Two files that each find the module's state and one variable as a new process would. */
const fresh = (name: string) => `
import { expect, it } from 'vitest';
import { state } from './state.js';
it('${name}: the module and the environment are new to this file', () => {
  expect(state.runs).toBe(0);
  state.runs += 1;
  expect(process.env.FINANCE_TUI_LEFT_BEHIND).toBeUndefined();
  process.env.FINANCE_TUI_LEFT_BEHIND = '${name}';
});
`;

const FILES: Record<string, string> = {
  'state.ts': 'export const state = { runs: 0 };\n',
  'fresh-a.test.ts': fresh('a'),
  'fresh-b.test.ts': fresh('b'),
  'leaves-listener.test.ts': `
import { it } from 'vitest';
it('leaves a listener', () => { process.on('SIGUSR2', () => {}); });
`,
  'leaves-global.test.ts': `
import { it } from 'vitest';
it('leaves a global', () => { Object.assign(globalThis, { financeTuiLeftBehind: 1 }); });
`,
  'leaves-hook.test.ts': `
import { registerHooks } from 'node:module';
import { it } from 'vitest';
it('leaves a module hook', () => { registerHooks({ resolve: (s, c, next) => next(s, c) }); });
`,
};

/** A project of FILES with the set-up file as `setup` makes it, its files in one worker. */
function project(name: string, setup: (text: string) => string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'test'), { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  const text = readFileSync(join(REPO, 'test', 'unit-file-setup.ts'), 'utf8');
  writeFileSync(join(dir, 'test', 'unit-file-setup.ts'), setup(text));
  copyFileSync(
    join(REPO, 'test', 'unit-module-marker.ts'),
    join(dir, 'test', 'unit-module-marker.ts'),
  );
  for (const [file, source] of Object.entries(FILES)) writeFileSync(join(dir, file), source);
  writeFileSync(
    join(dir, 'vitest.config.mjs'),
    `export default { test: { include: ['*.test.ts'], isolate: false, maxWorkers: 1,
      setupFiles: ['test/unit-file-setup.ts'] } };\n`,
  );
  return dir;
}

interface FileResult {
  name: string;
  status: string;
  message: string;
}

/** vitest run in `dir`: each file's status and failure message. */
function vitest(dir: string): Promise<{ files: Map<string, FileResult>; out: string }> {
  const report = join(dir, 'report.json');
  const child = spawn(
    process.execPath,
    [
      join(REPO, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--reporter=json',
      `--outputFile=${report}`,
    ],
    { cwd: dir, env: cleanEnv({}), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  return new Promise((done) =>
    child.once('close', () => {
      const { testResults } = JSON.parse(readFileSync(report, 'utf8')) as {
        testResults: FileResult[];
      };
      const files = new Map(testResults.map((r) => [r.name.slice(dir.length + 1), r]));
      done({ files, out });
    }),
  );
}

describe.concurrent('the unit project set-up (test/unit-file-setup.ts) in one shared worker', () => {
  it('gives each file new modules and environment; refuses a listener, a global or a hook left behind, and puts them back', async ({
    expect,
  }) => {
    const { files, out } = await vitest(project('shared', (text) => text));
    expect(files.size, out).toBe(5);
    expect(files.get('fresh-a.test.ts')?.status, out).toBe('passed');
    expect(files.get('fresh-b.test.ts')?.status, out).toBe('passed');
    const refusal = (file: string) => {
      expect(files.get(file)?.status, out).toBe('failed');
      return files.get(file)?.message ?? '';
    };
    expect(refusal('leaves-listener.test.ts')).toContain('1 process listener(s) for SIGUSR2');
    expect(refusal('leaves-global.test.ts')).toContain('globals changed: financeTuiLeftBehind');
    expect(refusal('leaves-hook.test.ts')).toContain(
      '1 module hook registration(s) never deregistered',
    );
  });

  it('without the module reset, the second file to run is refused by the check of it', async ({
    expect,
  }) => {
    const { files, out } = await vitest(
      project('no-reset', (text) => {
        expect(text).toContain('\nvi.resetModules();\n');
        return text.replace('\nvi.resetModules();\n', '\n');
      }),
    );
    const refused = [...files.values()].filter((r) =>
      r.message.includes('could not give this file its own modules'),
    );
    // every file after the first in the worker
    expect(refused.length, out).toBe(files.size - 1);
  });
});
