/**
 * Getting the command on a fresh machine (README "Set-up", issue 27 item 13), from a clean clone
 * of this repository at HEAD: the documented step `npm run link` (after `source .ci/node.sh` and
 * `npm ci`; here node_modules, .ci/.node and the built dist/ are this checkout's, linked in, to
 * keep it fast) puts `finance-tui` on the PATH the docs promise (~/.local/bin), where a new shell —
 * with only the machine's own Node first on PATH — runs it; and the MCP host form the README gives
 * (the launcher's absolute path) starts the tool server with a bare PATH.
 *
 * Nothing here reaches off the machine (docs/decisions.md "Tests never reach off the machine"):
 * the clone's .ci/.node is the Node this run already has, as `source .ci/node.sh` would have
 * left it, so the bootstrap downloads nothing; and the new shell keeps what a person's own shell
 * carries (CA bundle, proxy, npm config: newShellEnv), npm's update check off.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newShellEnv } from './helpers/home.js';

const REPO = resolve(import.meta.dirname, '..');
const VERSION = (
  JSON.parse(
    spawnSync(process.execPath, ['-p', 'JSON.stringify(require("./package.json"))'], {
      cwd: REPO,
      encoding: 'utf8',
    }).stdout,
  ) as { version: string }
).version;

const root = mkdtempSync(join(tmpdir(), 'link-'));
const clone = join(root, 'clone');
const home = join(root, 'home');
/** What a new shell has: ~/.local/bin, then the machine's own folders (no .ci/.node). */
const freshPath = `${join(home, '.local', 'bin')}:/usr/local/bin:/usr/bin:/bin`;

beforeAll(() => {
  const cloned = spawnSync('git', ['clone', '-q', REPO, clone], { encoding: 'utf8' });
  expect(cloned.status, cloned.stderr).toBe(0);
  mkdirSync(home);
  // what `npm ci` would make, reused: the dependencies and the built dist/ of this checkout
  symlinkSync(join(REPO, 'node_modules'), join(clone, 'node_modules'));
  symlinkSync(join(REPO, 'dist'), join(clone, 'dist'));
  // what `source .ci/node.sh` leaves on a machine whose own Node is older than 22: a Node >= 22
  // at .ci/.node/node_modules/.bin/node. This run's Node is one (vitest needs it), whether or not
  // this checkout has a .ci/.node: the clone's bootstrap then has nothing to download.
  const nodeBin = join(clone, '.ci', '.node', 'node_modules', '.bin');
  mkdirSync(nodeBin, { recursive: true });
  symlinkSync(process.execPath, join(nodeBin, 'node'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** npm asks the registry for a newer npm now and then; not the subject here, and off the machine. */
const NO_UPDATE_CHECK = { npm_config_update_notifier: 'false' };

/** bash in the clone, with a new shell's environment. */
const shell = (script: string, path = freshPath) =>
  spawnSync('bash', ['-c', script], {
    cwd: clone,
    env: newShellEnv(home, path, NO_UPDATE_CHECK),
    encoding: 'utf8',
  });

describe('the command on PATH from a clean clone', () => {
  it('`source .ci/node.sh && npm run link`, then a new shell finds `finance-tui` in ~/.local/bin and it runs', () => {
    const linked = shell('source .ci/node.sh && npm run --silent link');
    expect(linked.status, linked.stderr + linked.stdout).toBe(0);
    const link = join(home, '.local', 'bin', 'finance-tui');
    expect(readlinkSync(link)).toBe(join(clone, 'bin', 'finance-tui'));
    // the snippet printed for MCP hosts names the launcher itself
    expect(linked.stdout).toContain(`"command": "${join(clone, 'bin', 'finance-tui')}"`);

    // a new shell: no .ci/.node on PATH; its first `node` is the machine's (maybe older than 22)
    const found = shell('command -v finance-tui && finance-tui --version');
    expect(found.status, found.stderr).toBe(0);
    expect(found.stdout.split('\n')).toEqual([link, VERSION, '']);

    // run again: the link is replaced, not refused
    expect(shell('source .ci/node.sh && npm run --silent link').status).toBe(0);
  });

  it('~/.local/bin not on PATH yet: the link is made and the line to add is printed', () => {
    const other = join(root, 'home-other');
    mkdirSync(other);
    const linked = spawnSync('bash', ['-c', 'source .ci/node.sh && npm run --silent link'], {
      cwd: clone,
      env: newShellEnv(other, '/usr/local/bin:/usr/bin:/bin', NO_UPDATE_CHECK),
      encoding: 'utf8',
    });
    expect(linked.status, linked.stderr).toBe(0);
    expect(linked.stdout).toContain(`export PATH="${join(other, '.local', 'bin')}:$PATH"`);
    expect(readlinkSync(join(other, '.local', 'bin', 'finance-tui'))).toBe(
      join(clone, 'bin', 'finance-tui'),
    );
  });

  it("the README's MCP host form: the launcher's absolute path starts the tool server with a bare PATH", async () => {
    const transport = new StdioClientTransport({
      command: join(clone, 'bin', 'finance-tui'),
      args: ['mcp'],
      env: { HOME: home, PATH: '/usr/bin:/bin', FINANCE_TUI_HOME: join(home, 'data') },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities: {} });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('get_quote');
    } finally {
      await client.close().catch(() => undefined);
    }
  });
});
