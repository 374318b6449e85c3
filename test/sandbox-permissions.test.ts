/**
 * A data folder left looser than it should be (an older version, a copy, a umask of 022) is
 * narrowed when the sandbox starts: the data folder and the sandbox folder to 0700, the secrets,
 * the wallet keys and the server log to 0600; and the server log still gets its lines.
 */
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { cleanEnv, spawnBin, tempHome } from './helpers/process.js';

const mode = (path: string): number => statSync(path).mode & 0o777;

describe('finance-tui sandbox: permissions', () => {
  const home = tempHome();
  afterAll(() => home.cleanup());

  it('narrows an existing looser data folder, sandbox folder, state files and server.log at start', async () => {
    const sandboxDir = join(home.dir, 'sandbox');
    mkdirSync(sandboxDir, { recursive: true });
    const files = {
      secrets: join(sandboxDir, 'secrets.json'),
      identity: join(sandboxDir, 'identity.json'),
      log: join(sandboxDir, 'server.log'),
    };
    writeFileSync(
      files.secrets,
      JSON.stringify({
        jwtSecret: 'Zk3q-9vYt_Lw2mNc8RbH4xJp7sDa1EuGfKi0oTyQ5Ve',
        appId: 'sandbox-app-1',
        appSecret: 'a'.repeat(32),
      }),
    );
    writeFileSync(files.identity, JSON.stringify({ version: 1, users: [], wallets: [] }));
    writeFileSync(files.log, '');
    for (const file of Object.values(files)) chmodSync(file, 0o644);
    chmodSync(sandboxDir, 0o755);
    chmodSync(home.dir, 0o755);

    // spawned, not run in the worker: the sandbox process's own start is the subject (what it
    // narrows before it reads a secret, and that it starts at all)
    const proc = spawnBin(
      ['sandbox', '--port', '0', '--json'],
      cleanEnv({ FINANCE_TUI_HOME: home.dir }),
    );
    try {
      const ready = JSON.parse(await proc.waitForLine((line) => line.startsWith('{'))) as {
        serverUrl: string;
      };
      expect(ready, JSON.stringify(ready)).toMatchObject({ event: 'ready' });
      expect(mode(home.dir)).toBe(0o700);
      expect(mode(sandboxDir)).toBe(0o700);
      for (const file of Object.values(files)) expect(mode(file), file).toBe(0o600);
      // the log is written (asynchronously, in batches) to the narrowed file
      await fetch(`${ready.serverUrl}/health`, { headers: { 'x-request-id': 'perm-check' } });
      await vi.waitFor(() => expect(readFileSync(files.log, 'utf8')).toContain('perm-check'), {
        timeout: 5_000,
      });
    } finally {
      proc.kill('SIGKILL');
      await proc.exited;
    }
  });
});
