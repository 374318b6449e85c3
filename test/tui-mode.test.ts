/**
 * The mode decision through the built bin: without a terminal and without a command the program
 * says what to run instead (exit 1); Ink and React load only in interactive mode, never for a
 * command or --json.
 */
import { describe, expect, it } from 'vitest';
import { commandNames } from '../cli/run.js';
import { cleanEnv, runBin, runBinTracingModules, tempHome } from './helpers/process.js';

const UI_MODULES = /node_modules\/(ink|react|react-reconciler|ink-spinner|yoga-layout)\//;

describe('finance-tui without a command', () => {
  it('not on a terminal: a short message naming the headless commands, exit 1, no Ink loaded', async () => {
    const { code, stdout, stderr, modules } = await runBinTracingModules([], cleanEnv({}));
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('the interactive app needs a terminal');
    // every command of the command table, in its order
    expect(stderr).toContain(`use a command: ${commandNames().join(', ')} (finance-tui --help)`);
    expect(modules.filter((url) => UI_MODULES.test(url))).toEqual([]);
  });

  it('--json alone: one JSON error document', async () => {
    const result = await runBin(['--json'], cleanEnv({}));
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      error: { code: 'USAGE_ERROR', message: expect.stringContaining('--json needs a command') },
    });
  });

  it('a command after a global flag: the message puts the command first', async () => {
    const result = await runBin(
      ['--json', '--sandbox', 'batch', '--supply', '10 USDT'],
      cleanEnv({}),
    );
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      error: {
        code: 'USAGE_ERROR',
        message: expect.stringContaining('finance-tui batch --supply "10 USDT" --json --sandbox'),
      },
    });
  });

  it('an unknown flag is named', async () => {
    const result = await runBin(['--sandbx'], cleanEnv({}));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--sandbx');
  });
});

describe('headless commands never load the UI', () => {
  it('status --json runs the whole command path without Ink or React', async () => {
    const home = tempHome();
    try {
      // nothing listens on port 9: both services are reported down, quickly
      const env = cleanEnv({
        FINANCE_TUI_HOME: home.dir,
        FINANCE_TUI_SERVER_URL: 'http://127.0.0.1:9',
        FINANCE_TUI_AGGREGATOR_URL: 'http://127.0.0.1:9',
      });
      const { code, stdout, modules } = await runBinTracingModules(['status', '--json'], env);
      expect(code).toBe(0);
      expect(JSON.parse(stdout)).toMatchObject({ server: { reachable: false } });
      expect(modules.some((url) => url.includes('cli/clients/transport.js'))).toBe(true); // the hook saw the command's own imports
      expect(modules.filter((url) => UI_MODULES.test(url))).toEqual([]);
    } finally {
      home.cleanup();
    }
  });
});
