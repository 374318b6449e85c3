/**
 * The built program run in the test's worker (test/helpers/in-process.ts) is the bin's result
 * without its process: two sandboxes, each in its own process, and the same e-mail signed in on
 * each from its own data folder; commands run in-process against one, then the other, then the
 * first again. Nothing of one sandbox or home reaches the other (the wallet, the balances, the
 * history), the spawned bin answers exactly what the in-process run answered, and a run leaves no
 * timer of its own running in the worker (docs/decisions.md "Bin runs in-process where the result
 * is the subject").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAUCET } from '../sandbox/chain/chain.js';
import { parseAmount } from '../shared/amount.js';
import { resolveToken } from '../shared/tokens.js';
import { cli, cliInProcess, startTwoUsers, type TwoUsers } from './helpers/cli-sandbox.js';

interface Amount {
  symbol: string;
  baseUnits: string;
}

const STRK = resolveToken('mainnet', 'STRK');
const FAUCET_STRK = parseAmount(
  FAUCET.find((f) => f.symbol === 'STRK')?.amount ?? '',
  STRK.decimals,
);

/** the worker's timers that keep it alive (an unref'd one ends with the process anyway) */
const timers = (): number =>
  process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('in-process runs of the built program', () => {
  let first: TwoUsers;
  let second: TwoUsers;

  beforeAll(async () => {
    // one after the other: two sandboxes and four sign-ins at once on a loaded machine
    first = await startTwoUsers();
    second = await startTwoUsers();
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
  });

  const strkOf = async (home: string): Promise<bigint> => {
    const r = await cliInProcess(home, ['balance', 'STRK', '--sandbox', '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    return BigInt((r.doc.balances as Amount[])[0]?.baseUnits ?? '-1');
  };
  const walletOf = async (home: string): Promise<string> => {
    const r = await cliInProcess(home, ['wallet', '--sandbox', '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    return (r.doc.wallet as { address: string }).address;
  };

  it('two sandboxes, one e-mail: each home sees its own wallet, balances and history', async () => {
    const here = await walletOf(first.aliceHome);
    const there = await walletOf(second.aliceHome);
    expect(here).not.toBe(there);
    expect(await walletOf(first.aliceHome)).toBe(here);

    const sent = await cliInProcess(first.aliceHome, [
      'send',
      '1',
      'STRK',
      first.bobAddress,
      '--yes',
      '--sandbox',
      '--json',
    ]);
    expect(sent.code, sent.stdout + sent.stderr).toBe(0);
    expect(sent.doc.sandbox).toBe(true);
    const { hash, feePaid } = sent.doc.transaction as { hash: string; feePaid: Amount | null };
    const fee = feePaid?.symbol === 'STRK' ? BigInt(feePaid.baseUnits) : 0n;

    // the other sandbox's alice, the same e-mail: nothing moved there, nothing recorded
    expect(await strkOf(second.aliceHome)).toBe(FAUCET_STRK);
    expect(await strkOf(first.aliceHome)).toBe(FAUCET_STRK - 10n ** BigInt(STRK.decimals) - fee);
    const otherHistory = await cliInProcess(second.aliceHome, ['history', '--json']);
    expect(otherHistory.code).toBe(0);
    expect(otherHistory.doc.entries).toEqual([]);
    const ownHistory = await cliInProcess(first.aliceHome, ['history', '--json']);
    expect((ownHistory.doc.entries as Array<{ hash: string }>).map((e) => e.hash)).toEqual([hash]);
  });

  it('the spawned bin answers what the in-process run answered', async () => {
    for (const args of [
      ['balance', '--sandbox', '--json'],
      ['send', '2', 'STRK', second.bobAddress, '--sandbox', '--json'],
      ['send', '2', 'NOPE', second.bobAddress, '--sandbox', '--json'],
    ]) {
      const inProcess = await cliInProcess(second.bobHome, args);
      const spawned = await cli(second.bobHome, args);
      expect(inProcess.code, args.join(' ')).toBe(spawned.code);
      expect(inProcess.stderr).toBe(spawned.stderr);
      // the plan's simulation is read at its block: the documents match field for field
      expect(inProcess.doc).toEqual(spawned.doc);
    }
    const human = ['balance', 'STRK', 'WBTC', '--sandbox'];
    expect((await cliInProcess(second.bobHome, human)).stdout).toBe(
      (await cli(second.bobHome, human)).stdout,
    );
  });

  it('a run leaves no timer of its own running in the worker', async () => {
    await strkOf(first.bobHome); // the build loaded, its modules' one-time work done
    const before = timers();
    await cliInProcess(first.bobHome, [
      'send',
      '1',
      'STRK',
      second.bobAddress,
      '--sandbox',
      '--json',
    ]);
    await strkOf(second.bobHome);
    // fewer is fine: a timer running before (a socket's, the sandbox's answer) may have ended
    expect(timers()).toBeLessThanOrEqual(before);
  });
});
