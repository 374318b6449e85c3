import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { cleanEnv, runBin, tempHome } from './helpers/process.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

describe('finance-tui bin basics', () => {
  const env = cleanEnv({});

  it('--version prints the package version', async () => {
    const result = await runBin(['--version'], env);
    expect(result).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
  });

  it('--help lists the commands and exit codes', async () => {
    const result = await runBin(['--help'], env);
    expect(result.code).toBe(0);
    for (const word of ['serve', 'sandbox', 'quote', 'status', '--json', 'Exit codes']) expect(result.stdout).toContain(word);
  });

  it('an unknown command is a usage error: one JSON error document, exit 1, no stack', async () => {
    const result = await runBin(['frobnicate', '--json'], env);
    expect(result.code).toBe(1);
    const doc = JSON.parse(result.stdout) as { error: { code: string; message: string } };
    expect(doc.error.code).toBe('USAGE_ERROR');
    expect(doc.error.message).toContain('frobnicate');
    expect(result.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });

  it('an unknown flag names the flag', async () => {
    const home = tempHome();
    try {
      const result = await runBin(['sandbox', '--prot', '0', '--json'], cleanEnv({ FINANCE_TUI_HOME: home.dir }));
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'USAGE_ERROR', message: expect.stringContaining('--prot') } });
    } finally {
      home.cleanup();
    }
  });

  it('--version does not load the heavy modules (Fastify, starknet.js)', async () => {
    // every module resolved while running `--version`, printed by a resolve hook
    const traced = await runBinTraced();
    expect(traced).toContain('dist/cli/output.js'); // the hook saw our own imports
    expect(traced).not.toMatch(/node_modules\/(fastify|starknet|ink|react)\//);
  });
});

/** Run `--version` with a loader hook that prints every resolved module URL to stderr. */
async function runBinTraced(): Promise<string> {
  const { spawn } = await import('node:child_process');
  const { BIN } = await import('./helpers/process.js');
  const hook = `data:text/javascript,${encodeURIComponent(
    "import { registerHooks } from 'node:module'; registerHooks({ resolve(s, c, next) { const r = next(s, c); process.stderr.write(r.url + '\\n'); return r; } });",
  )}`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', hook, BIN, '--version'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      err += c;
    });
    child.on('exit', () => resolve(err));
  });
}
