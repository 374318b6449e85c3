/**
 * The log's batches (server/app.ts asyncLog): lines are gathered as one string and handed to the
 * file's writer 32 KB or 100 ms at a time, so every way out of the process has to hand over what
 * is gathered first. Each case runs asyncLog from the build in a process of its own and reads the
 * file it wrote.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, it, vi } from 'vitest';

const APP = fileURLToPath(new URL('../dist/server/app.js', import.meta.url));

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
/** A file in a folder of its own (removed after the file's tests). */
const logFile = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'log-batches-'));
  dirs.push(dir);
  return join(dir, 'server.log');
};

/** Runs `body` after a log on `file` (asyncLog) and a pino logger on it are made; resolves with the exit code. */
function run(file: string, body: string): { exited: Promise<number | null>; kill(): void } {
  const script = `
    import { openSync } from 'node:fs';
    import pino from 'pino';
    const { asyncLog } = await import(${JSON.stringify(APP)});
    const log = asyncLog(openSync(${JSON.stringify(file)}, 'a', 0o600));
    const logger = pino({ base: { pid: process.pid } }, log);
    ${body}`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return {
    exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
    kill: () => void child.kill('SIGKILL'),
  };
}

const messages = (file: string): string[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { msg: string }).msg);

// each case is a process of its own, most of it loading the server's modules: side by side
describe.concurrent('the log hands its gathered lines over', () => {
  it('on process.exit: the lines written just before it are in the file, in order', async ({
    expect,
  }) => {
    const file = logFile();
    const child = run(
      file,
      `for (let i = 0; i < 5; i++) logger.info('line ' + i);
       log.write('{"msg":"by hand"}\\n');
       process.exit(0);`,
    );
    expect(await child.exited).toBe(0);
    expect(messages(file)).toEqual(['line 0', 'line 1', 'line 2', 'line 3', 'line 4', 'by hand']);
  });

  it('when the event loop empties (beforeExit): nothing gathered is lost', async ({ expect }) => {
    const file = logFile();
    const child = run(file, `logger.info('last words');`);
    expect(await child.exited).toBe(0);
    expect(messages(file)).toEqual(['last words']);
  });

  it('without a flush or an exit: a line reaches the file once its wait is over', async ({
    expect,
  }) => {
    const file = logFile();
    // the process stays (a timer) and never flushes: only the periodic hand-over can write it
    const child = run(file, `logger.info('waiting'); setInterval(() => undefined, 1_000);`);
    try {
      // the file is read until the line is there (it may not exist before the first batch)
      await vi.waitFor(() => expect(messages(file)).toEqual(['waiting']), {
        timeout: 10_000,
        interval: 50,
      });
    } finally {
      child.kill();
      await child.exited;
    }
  });
});
