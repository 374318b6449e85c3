/**
 * `.ci/node.sh` never fails silently: on a machine with an old Node whose Node download fails
 * (here: npm's registry pointed at a closed port, offline and quick), sourcing it returns
 * non-zero and says what failed and what to try. A real bash, a copy of the script in a temp
 * folder (so the repo's own .ci/.node is not used), a fake `node` that claims version 20 and
 * hands everything else to the real one (npm runs on it).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = mkdtempSync(join(tmpdir(), 'ci-node-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('.ci/node.sh', () => {
  it('a failed Node download says what failed, npm’s words, and what to try (CA file, proxy, registry)', () => {
    const repo = join(root, 'repo');
    mkdirSync(join(repo, '.ci'), { recursive: true });
    copyFileSync(join(import.meta.dirname, '..', '.ci', 'node.sh'), join(repo, '.ci', 'node.sh'));
    const bin = join(root, 'bin');
    mkdirSync(bin);
    // an old node for the version check; the real one for everything else (npm itself)
    writeFileSync(
      join(bin, 'node'),
      `#!/bin/sh\ncase "$*" in *process.versions.node*) echo 20; exit 0;; esac\nexec '${process.execPath}' "$@"\n`,
    );
    chmodSync(join(bin, 'node'), 0o755);
    const env: NodeJS.ProcessEnv = {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      HOME: join(root, 'home'),
      npm_config_registry: 'http://127.0.0.1:1/',
      npm_config_cache: join(root, 'npm-cache'),
      npm_config_fetch_retries: '0',
      npm_config_fetch_timeout: '5000',
      npm_config_userconfig: join(root, 'npmrc'),
    };
    const run = spawnSync(
      'bash',
      ['-c', `source '${join(repo, '.ci', 'node.sh')}'; echo "rc=$?"`],
      { env, encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.stdout).toContain('rc=1');
    const said = run.stderr;
    expect(said).toContain('FAILED to install Node 24 from the npm registry (http://127.0.0.1:1/)');
    // npm's own reason is shown
    expect(said).toContain('npm error code ECONNREFUSED');
    expect(said).toContain('NODE_EXTRA_CA_CERTS');
    expect(said).toContain('npm config set cafile');
    expect(said).toContain('npm config get registry');
    expect(said).toContain('install Node >= 22 yourself');
  });
});
