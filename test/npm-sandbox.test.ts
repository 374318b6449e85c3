/**
 * `npm run sandbox` (README "Set-up") and Ctrl+C in a terminal: the terminal
 * sends SIGINT to the whole foreground process group — npm, and the sandbox under it — and npm
 * forwards it to its child as well. The sandbox must stop cleanly, say so, and npm must exit 0
 * (it exited 130: the script's intermediate shell died of the SIGINT and npm re-raised it).
 * The build (`presandbox`) is skipped here: test/global-setup.ts has built dist already.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, tempHome } from './helpers/process.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('npm run sandbox', () => {
  const home = tempHome();
  afterAll(() => home.cleanup());

  it('Ctrl+C (SIGINT to the process group): prints that it stopped, and npm exits 0', async () => {
    // npm itself, as `npm test` runs it when set (the same npm as the user's), else from PATH
    const npmCli = process.env.npm_execpath;
    const [command, args] =
      npmCli && npmCli.endsWith('.js') ? [process.execPath, [npmCli]] : ['npm', []];
    const child = spawn(
      command,
      [...args, 'run', 'sandbox', '--ignore-scripts', '--', '--port', '0'],
      {
        cwd: ROOT,
        detached: true, // its own process group, like a terminal's foreground job
        // npm's occasional check for a newer npm would ask the registry: tests stay on the machine
        env: cleanEnv({ FINANCE_TUI_HOME: home.dir, npm_config_update_notifier: 'false' }),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const running = new Promise<void>((resolve) =>
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('Press Ctrl+C to stop.')) resolve();
      }),
    );
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    try {
      await Promise.race([
        running,
        exited.then(() => Promise.reject(new Error(`npm exited early:\n${out}\n${err}`))),
      ]);
      expect(existsSync(join(home.dir, 'sandbox.json'))).toBe(true);
      process.kill(-(child.pid as number), 'SIGINT');
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(out).toContain('finance-tui sandbox stopped.');
      expect(existsSync(join(home.dir, 'sandbox.json'))).toBe(false);
    } finally {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
});
