/**
 * shared/fs.ts across real processes: a writer killed mid-write leaves the old file whole, and
 * two processes taking the lock lose no update, as the app and a command saving at once must not
 * (shared/fs.test.ts and cli/platform/store.test.ts have the in-process rules).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readStore, writeStore } from '../cli/platform/store.js';
import { writeFileAtomic } from '../shared/fs.js';
import { tempHome } from './helpers/home.js';

const mode = (path: string): number => statSync(path).mode & 0o7777;
let root: string | undefined;
afterEach(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
  root = undefined;
});
const FS = fileURLToPath(new URL('../shared/fs.ts', import.meta.url));

/** Runs `script` (an ES module body; `FS` is shared/fs.ts's path) in a Node process of its own. */
function child(script: string): Promise<{ code: number | null; signal: string | null }> {
  const proc = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `const FS = ${JSON.stringify(FS)};\n${script}`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
}

describe('the one way to write a file, across processes', () => {
  it.each([
    [
      'half the new bytes written',
      `fs.writeFileSync = (target, data, ...rest) => {
         if (typeof target !== 'number') return write(target, data, ...rest);
         fs.writeSync(target, String(data).slice(0, String(data).length / 2));
         process.kill(process.pid, 'SIGKILL');
       };`,
    ],
    ['all written, not yet renamed', `fs.renameSync = () => process.kill(process.pid, 'SIGKILL');`],
  ])('a process killed with %s leaves the old file whole', async (_label, crash) => {
    root = mkdtempSync(join(tmpdir(), 'fs-test-'));
    const file = join(root, 'session.json');
    const old = `${JSON.stringify({ session: 'old'.repeat(1000) })}\n`;
    writeFileAtomic(file, old);
    // the crash is injected into node:fs of the child, which then really dies (SIGKILL)
    const result = await child(`
      import fs from 'node:fs';
      import { syncBuiltinESMExports } from 'node:module';
      const write = fs.writeFileSync;
      ${crash}
      syncBuiltinESMExports();
      const { writeFileAtomic } = await import(FS);
      writeFileAtomic(${JSON.stringify(file)}, JSON.stringify({ session: 'new'.repeat(100000) }));
      process.exit(0); // not reached: the crash comes first
    `);
    expect(result.signal).toBe('SIGKILL');
    expect(readFileSync(file, 'utf8')).toBe(old);
    expect(mode(file)).toBe(0o600);
    // what the crash left is a temp file beside it, never readable by others
    const temps = readdirSync(root).filter((name) => name.endsWith('.tmp'));
    expect(temps).toHaveLength(1);
    expect(mode(join(root, temps[0]!))).toBe(0o600);
  });

  it('two processes incrementing one counter (one waiting synchronously, one not) lose nothing', async () => {
    root = mkdtempSync(join(tmpdir(), 'fs-test-'));
    const file = join(root, 'counter.json');
    writeFileAtomic(file, '{"n":0}');
    const rounds = 60;
    const bump = (lock: 'withFileLock' | 'withFileLockSync') =>
      child(`
        import { readFileSync } from 'node:fs';
        const { ${lock}, writeFileAtomic } = await import(FS);
        const file = ${JSON.stringify(file)};
        for (let i = 0; i < ${rounds}; i++) {
          await ${lock}(file, () => {
            const { n } = JSON.parse(readFileSync(file, 'utf8'));
            writeFileAtomic(file, JSON.stringify({ n: n + 1 }));
          });
        }
      `);
    const results = await Promise.all([bump('withFileLock'), bump('withFileLockSync')]);
    expect(results).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ n: 2 * rounds });
    expect(existsSync(`${file}.lock`)).toBe(false);
  });
});

describe('store files across processes', () => {
  const STORE = fileURLToPath(new URL('../cli/platform/store.ts', import.meta.url));
  const home = tempHome();
  afterAll(() => home.cleanup());
  const name = (configName: string) => ({
    env: { FINANCE_TUI_HOME: home.dir },
    configName,
    what: configName,
  });

  it('two processes updating one file (as the app and a command may) lose no update', async () => {
    await writeStore(name('d'), { n: 0, kept: 'yes' });
    const rounds = 50;
    const bump = () =>
      child(`
        const { updateStore } = await import(${JSON.stringify(STORE)});
        const name = ${JSON.stringify(name('d'))};
        for (let i = 0; i < ${rounds}; i++)
          await updateStore(name, {}, (current) => ({ ...current, n: current.n + 1 }));
      `);
    expect(await Promise.all([bump(), bump()])).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
    expect(readStore(name('d'))).toEqual({ n: 2 * rounds, kept: 'yes' });
  });
});
