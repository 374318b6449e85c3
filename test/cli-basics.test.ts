import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT_CODE_TABLE } from '../shared/exit-codes.js';
import { cleanEnv, runBin, runBinTracingModules, tempHome } from './helpers/process.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

describe('finance-tui bin basics', () => {
  const env = cleanEnv({});

  it('--version prints the package version', async () => {
    const result = await runBin(['--version'], env);
    expect(result).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
  });

  it('--help lists the commands and every exit code', async () => {
    const result = await runBin(['--help'], env);
    expect(result.code).toBe(0);
    for (const word of [
      'login',
      'verify',
      'logout',
      'wallet',
      'serve',
      'sandbox outbox',
      'quote',
      'status',
      '--json',
      'Exit codes',
    ])
      expect(result.stdout).toContain(word);
    for (const { code } of EXIT_CODE_TABLE)
      expect(result.stdout).toMatch(new RegExp(`^  ${code}\\s`, 'm'));
  });

  it('an unknown command is a usage error: one JSON error document, exit 1, no stack', async () => {
    const result = await runBin(['frobnicate', '--json'], env);
    expect(result.code).toBe(1);
    const doc = JSON.parse(result.stdout) as { error: { code: string; message: string } };
    expect(doc.error.code).toBe('USAGE_ERROR');
    expect(doc.error.message).toContain('frobnicate');
    expect(result.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });

  it('sandbox with an unreadable latency knob: CONFIG_ERROR before anything starts, no state written', async () => {
    const home = tempHome();
    try {
      for (const value of ['slow', '120001', '-5']) {
        const result = await runBin(
          ['sandbox', '--port', '0', '--json'],
          cleanEnv({ FINANCE_TUI_HOME: home.dir, FINANCE_TUI_SANDBOX_LATENCY_MS: value }),
        );
        expect(result.code, value).toBe(1);
        expect(JSON.parse(result.stdout), value).toEqual({
          error: {
            code: 'CONFIG_ERROR',
            message: `FINANCE_TUI_SANDBOX_LATENCY_MS must be whole milliseconds from 0 to 120000 (got "${value}")`,
          },
        });
        expect(result.stderr, value).toBe('');
        expect(existsSync(join(home.dir, 'sandbox.json')), value).toBe(false);
        expect(existsSync(join(home.dir, 'sandbox')), value).toBe(false);
      }
    } finally {
      home.cleanup();
    }
  });

  it('grant alone prints the grant commands; an unknown one of them is a usage error', async () => {
    const usage = await runBin(['grant'], env);
    expect(usage.code, usage.stderr).toBe(0);
    for (const word of ['finance-tui grant create', 'finance-tui grant list', 'grant revoke ID'])
      expect(usage.stdout).toContain(word);
    const unknown = await runBin(['grant', 'frobnicate', '--json'], env);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout)).toMatchObject({
      error: {
        code: 'USAGE_ERROR',
        message: 'unknown grant command "frobnicate": create, list or revoke',
      },
    });
  });

  it('a mistyped flag names the flag and suggests the closest one', async () => {
    const result = await runBin(['quote', '2', 'ETH', 'USDC', '--slipage', '2'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "error: Unknown option '--slipage'; did you mean --slippage? (USAGE_ERROR)\n",
    );
  });

  it('a reading command that takes no arguments refuses a stray word before reading anything', async () => {
    const home = tempHome();
    try {
      for (const command of ['lending', 'staking']) {
        const result = await runBin(
          [command, 'USDC', '--json'],
          cleanEnv({ FINANCE_TUI_HOME: home.dir }),
        );
        expect(result.code, command).toBe(1);
        expect(JSON.parse(result.stdout)).toMatchObject({
          error: { code: 'USAGE_ERROR', message: `${command} takes no arguments (got "USDC")` },
        });
      }
    } finally {
      home.cleanup();
    }
  });

  it('repay without --collateral names the flag as repay takes it (a token, no amount)', async () => {
    const home = tempHome();
    try {
      const result = await runBin(
        ['repay', '10', 'USDC', '--json'],
        cleanEnv({ FINANCE_TUI_HOME: home.dir }),
      );
      expect(result.code).toBe(1);
      const { error } = JSON.parse(result.stdout) as { error: { code: string; message: string } };
      expect(error.code).toBe('USAGE_ERROR');
      expect(error.message).toMatch(/^--collateral TOKEN is required/);
      expect(error.message).not.toMatch(/AMOUNT/);
    } finally {
      home.cleanup();
    }
  });

  it('borrow with one argument too many says so, not that the collateral lacks its token', async () => {
    const home = tempHome();
    try {
      const result = await runBin(
        ['borrow', '100', 'USDC', '--collateral', '1', 'ETH', '2', '--json'],
        cleanEnv({ FINANCE_TUI_HOME: home.dir }),
      );
      expect(result.code).toBe(1);
      const { error } = JSON.parse(result.stdout) as { error: { code: string; message: string } };
      expect(error.code).toBe('USAGE_ERROR');
      expect(error.message).toMatch(/^too many arguments/);
    } finally {
      home.cleanup();
    }
  });

  it('an acknowledgment flag is refused where it means nothing, and listed only where it does', async () => {
    const home = tempHome();
    const run = (args: string[]) =>
      runBin([...args, '--json'], cleanEnv({ FINANCE_TUI_HOME: home.dir }));
    try {
      for (const args of [
        ['supply', '10', 'USDC'],
        ['withdraw', '10', 'USDC'],
        ['repay', '10', 'USDC', '--collateral', 'ETH'],
        ['add-collateral', '1', 'ETH', '--debt', 'USDC'],
        ['close-position', '--collateral', 'ETH', '--debt', 'USDC'],
      ]) {
        const result = await run([...args, '--accept-low-health']);
        expect(result.code, args[0]).toBe(1);
        expect(JSON.parse(result.stdout), args[0]).toMatchObject({
          error: {
            code: 'USAGE_ERROR',
            message: `--accept-low-health means nothing to ${args[0]}: it leaves no health factor lower (only borrow and withdraw-collateral can)`,
          },
        });
        const help = await runBin([args[0] ?? '', '--help'], env);
        expect(help.stdout, args[0]).not.toContain('--accept-low-health');
      }
      for (const command of ['borrow', 'withdraw-collateral'])
        expect((await runBin([command, '--help'], env)).stdout).toContain('--accept-low-health');
      const complete = await run(['unstake', '--complete', '--validator', 'X', '--restart-exit']);
      expect(JSON.parse(complete.stdout)).toMatchObject({
        error: {
          code: 'USAGE_ERROR',
          message: expect.stringMatching(/^--restart-exit means nothing/),
        },
      });
    } finally {
      home.cleanup();
    }
  });

  it('an unknown flag names the flag', async () => {
    const home = tempHome();
    try {
      const result = await runBin(
        ['sandbox', '--prot', '0', '--json'],
        cleanEnv({ FINANCE_TUI_HOME: home.dir }),
      );
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stdout)).toMatchObject({
        error: { code: 'USAGE_ERROR', message: expect.stringContaining('--prot') },
      });
    } finally {
      home.cleanup();
    }
  });

  it('--version does not load the heavy modules (Fastify, starknet.js)', async () => {
    const { code, stdout, modules } = await runBinTracingModules(['--version'], env);
    expect({ code, stdout }).toEqual({ code: 0, stdout: `${pkg.version}\n` });
    // the hook saw our own imports: `--version` alone is answered by the entry from the version the
    // bundle carries (cli/bin.ts), without loading a chunk — not the command table, not even the
    // version module
    expect(modules.some((url) => url.endsWith('dist/cli/bin.js'))).toBe(true);
    expect(modules.filter((url) => /\/dist\/cli\/chunk-[A-Z0-9]+\.js$/.test(url))).toEqual([]);
    expect(modules.some((url) => url.endsWith('dist/cli/run.js'))).toBe(false);
    expect(
      modules.filter((url) =>
        /node_modules\/(fastify|starknet|typebox|ky|conf|ink|react)\//.test(url),
      ),
    ).toEqual([]);
  });
});
