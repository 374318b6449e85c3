/**
 * A flag given twice is a usage error naming it (cli/headless/args.ts parseCommandArgs, the one
 * parser of every command): `--slippage 1 --slippage 50` must not run at 50 % without a word.
 * Flags declared repeatable (batch's --swap and --send) stay repeatable. The built bin, with no
 * service reachable: a usage error comes before any request. The refusals' documents run the
 * built program in this worker (runInProcess); the human refusal on stderr spawns the bin
 * (docs/decisions.md "Bin runs in-process where the result is the subject").
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runInProcess } from './helpers/in-process.js';
import { cleanEnv, runBin, tempHome } from './helpers/process.js';

const home = tempHome();
afterAll(() => home.cleanup());
const env = cleanEnv({
  FINANCE_TUI_HOME: home.dir,
  FINANCE_TUI_AGGREGATOR_URL: 'http://127.0.0.1:9',
  FINANCE_TUI_SERVER_URL: 'http://127.0.0.1:9',
});
const RECIPIENT = `0x${'5'.padStart(64, '0')}`;

async function usage(args: string[]): Promise<string> {
  const r = await runInProcess([...args, '--json'], env);
  expect(r.code).toBe(1);
  const doc = JSON.parse(r.stdout) as { error: { code: string; message: string } };
  expect(doc.error.code).toBe('USAGE_ERROR');
  return doc.error.message;
}

describe('repeated flags', () => {
  it.each([
    [['quote', '1', 'ETH', 'USDC', '--slippage', '1', '--slippage', '50'], '--slippage'],
    [['quote', '1', 'ETH', 'USDC', '--slippage=1', '--slippage=50'], '--slippage'],
    [['trade', '1', 'ETH', 'USDC', '--slippage', '1', '--slippage', '50', '--yes'], '--slippage'],
    [['send', '1', 'STRK', RECIPIENT, '--yes', '--yes'], '--yes'],
    [['history', '--limit', '1', '--limit', '5'], '--limit'],
  ])('%j is USAGE_ERROR naming %s', async (args, flag) => {
    expect(await usage(args)).toBe(`${flag} was given more than once; give it once`);
  });

  it('a repeated global flag too (--json --json), and a short one names both spellings', async () => {
    expect(await usage(['status', '--json'])).toBe('--json was given more than once; give it once');
    expect(await usage(['history', '-h', '--help'])).toBe(
      '--help (-h) was given more than once; give it once',
    );
  });

  it('human output says the same on stderr, exit 1', async () => {
    const r = await runBin(
      ['quote', '1', 'ETH', 'USDC', '--slippage', '1', '--slippage', '50'],
      env,
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error: --slippage was given more than once; give it once (USAGE_ERROR)\n',
    );
  });

  it('batch --send and --swap stay repeatable (declared multiple): no usage error for them', async () => {
    const r = await runInProcess(
      ['batch', '--send', `1 STRK>${RECIPIENT}`, '--send', `2 STRK>${RECIPIENT}`, '--json'],
      env,
    );
    const doc = JSON.parse(r.stdout) as { error?: { code: string; message: string } };
    // it gets past the parser: not signed in here, so the next refusal is about the session
    expect(doc.error?.message ?? '').not.toMatch(/more than once/);
    expect(doc.error?.code).not.toBe('USAGE_ERROR');
  });
});
