/**
 * The data folder and the files in it as something other than what the program wrote there, run
 * through the built bin (each a process of its own): never a hang, never INTERNAL_ERROR, never a
 * secret or a terminal escape repeated, never a file outside the folder changed.
 *
 * - a FIFO in place of the session, settings or history file, or given as the grant file: a
 *   stable code at once (opened, a FIFO would wait for a writer for ever);
 * - a data folder that is a file: CONFIG_ERROR naming it;
 * - the settings file a link to a file others may read: refused, the file's mode left as it was;
 * - a grant file others may read: narrowed to 0600 when read;
 * - a service URL carrying a password or a key: refused, neither repeated;
 * - the sign-in code given where the e-mail goes: not repeated; escapes in a setting: not printed.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, runBin, spawnBin, tempHome } from './helpers/process.js';

const home = tempHome();
afterAll(() => home.cleanup());

/** A data folder of its own under the test's home. */
function folder(name: string): string {
  const dir = join(home.dir, name);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

const run = (dir: string, args: string[], env: NodeJS.ProcessEnv = {}) =>
  runBin(args, cleanEnv({ FINANCE_TUI_HOME: dir, ...env }));

/**
 * The bin on a FIFO: a process that still waits after 15 s is killed (SIGKILL: blocked opening a
 * FIFO, it takes no other signal) and the test fails, rather than hang the run.
 */
async function runOnFifo(dir: string, args: string[]) {
  const spawned = spawnBin(args, cleanEnv({ FINANCE_TUI_HOME: dir }));
  const timer = setTimeout(() => spawned.kill('SIGKILL'), 15_000);
  const { code, signal } = await spawned.exited;
  clearTimeout(timer);
  expect(signal, 'the bin waited on the FIFO').toBeNull();
  return { code, stdout: spawned.stdout(), stderr: spawned.stderr() };
}

const codeOf = (stdout: string): string | undefined =>
  (JSON.parse(stdout) as { error?: { code?: string } }).error?.code;

// eslint-disable-next-line no-control-regex -- the characters the tests look for
const ESCAPES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe.concurrent('data files that are not what the program wrote', () => {
  it.each([
    ['session.json', ['wallet', '--json'], 'CONFIG_ERROR'],
    ['settings.json', ['quote', '1', 'ETH', 'USDC', '--json'], 'CONFIG_ERROR'],
    ['history.json', ['history', '--offline', '--json'], 'HISTORY_ERROR'],
  ])('a FIFO as %s: %s at once, never a wait', async (file, args, code) => {
    const dir = folder(`fifo-${file}`);
    execFileSync('mkfifo', [join(dir, file)]);
    const { code: exit, stdout } = await runOnFifo(dir, args);
    expect(exit).toBe(1);
    expect(codeOf(stdout)).toBe(code);
    expect(stdout).toMatch(/not a regular file/);
  });

  it('a FIFO as the grant file: CONFIG_ERROR at once', async () => {
    const dir = folder('fifo-grant');
    const grant = join(dir, 'grant.json');
    execFileSync('mkfifo', [grant]);
    const { code, stderr } = await runOnFifo(dir, ['mcp', '--grant', grant]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/cannot read the grant file .* \(ENOTREG\) \(CONFIG_ERROR\)/);
  });

  it('a data folder that is a file: CONFIG_ERROR naming it, for a command and for status', async () => {
    const file = join(home.dir, 'a-file');
    writeFileSync(file, 'x');
    for (const args of [
      ['wallet', '--json'],
      ['status', '--json'],
    ]) {
      const { code, stdout } = await run(file, args);
      expect(code).toBe(1);
      expect(JSON.parse(stdout)).toEqual({
        error: { code: 'CONFIG_ERROR', message: `${file} is not a folder (EEXIST)` },
      });
    }
  });

  it("the settings file a link to a file others may read: refused, that file's mode unchanged", async () => {
    const dir = folder('linked');
    const target = join(home.dir, 'someone-elses.json');
    writeFileSync(target, '{}');
    chmodSync(target, 0o644);
    symlinkSync(target, join(dir, 'settings.json'));
    const { stdout } = await run(dir, ['quote', '1', 'ETH', 'USDC', '--json']);
    expect(codeOf(stdout)).toBe('CONFIG_ERROR');
    expect(stdout).toMatch(/is a link to another file; run chmod 0600 on the file it names/);
    expect(statSync(target).mode & 0o777).toBe(0o644);
  });

  it('a grant file others may read is narrowed to 0600 when read', async () => {
    const dir = folder('grant-mode');
    const grant = join(dir, 'grant.json');
    writeFileSync(grant, '{"not":"a grant"}');
    chmodSync(grant, 0o666);
    const { code } = await run(dir, ['mcp', '--grant', grant]);
    expect(code).toBe(1);
    expect(statSync(grant).mode & 0o777).toBe(0o600);
  });

  it('a service URL with a password or a key is refused, and neither is repeated', async () => {
    const dir = folder('urls');
    for (const url of [
      'http://user:PASSWORD1@127.0.0.1:9/agg',
      'http://127.0.0.1:9/agg?api_key=APIKEY1',
    ]) {
      const { stdout, stderr } = await run(dir, ['quote', '1', 'ETH', 'USDC', '--json'], {
        FINANCE_TUI_AGGREGATOR_URL: url,
      });
      expect(codeOf(stdout)).toBe('CONFIG_ERROR');
      expect(stdout + stderr).not.toMatch(/PASSWORD1|APIKEY1/);
    }
  });

  it('the sign-in code where the e-mail goes is not repeated; escapes in a setting or a command are not printed', async () => {
    const dir = folder('words');
    const swapped = await run(dir, ['verify', '123456', 'a@example.com']);
    expect(swapped.stderr).toMatch(/not an e-mail address.*\(USAGE_ERROR\)/);
    expect(swapped.stderr).not.toContain('123456');
    const network = await run(dir, ['wallet'], {
      FINANCE_TUI_NETWORK: 'main\u001b]0;PWNED\u0007\u001b[2J',
    });
    expect(network.stderr).toMatch(/FINANCE_TUI_NETWORK must be mainnet or sepolia/);
    expect(network.stderr).not.toMatch(ESCAPES);
    const command = await run(dir, ['\u001b]0;PWNED\u0007']);
    expect(command.stderr).toMatch(/unknown command/);
    expect(command.stderr).not.toMatch(ESCAPES);
  });
});
