/**
 * A validator whose staker was removed, through the built bin and a started sandbox (issue 31 §4;
 * docs/commands.md "Staking", docs/contracts.md "A removed staker"): `sandbox remove-staker` in
 * its own process, then `staking --json`, in words and the tool server's `get_staking` say so
 * for a member with a position
 * there and what it can still do, a stake to it is refused before signing, and an exit (at once)
 * and the withdrawal and the claim still work. Its own sandbox: a removal is for good. The
 * documents and refusals run the built program in this worker (cliInProcess); the stake, the
 * first removal, the words of `staking` and the claim spawn the bin (docs/decisions.md "Bin runs in-process where the
 * result is the subject").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, cliInProcess, startTwoUsers, type TwoUsers } from './helpers/cli-sandbox.js';
import { callTool, connectMcpInProcess } from './helpers/mcp.js';

interface Money {
  amount: string;
  baseUnits: string;
}
interface Position {
  validator: string;
  staked: Money;
  unclaimedRewards: Money;
  exiting: Money;
  withdrawableAt: string | null;
  stakerRemoved: boolean;
  memberCan: string[] | null;
}
interface Listed {
  name: string;
  active: boolean;
  stakerRemoved: boolean;
  inactiveReason?: string;
  commissionBps: number;
  stake: Money;
}

const STRK = 10n ** 18n;
const BETA = ['--validator', 'Sandbox Beta', '--yes'];

describe('a removed staker through the sandbox (whole processes)', () => {
  let users: TwoUsers;
  // the documents and refusals are the subject: the built program in this worker
  const alice = (args: string[]) => cliInProcess(users.aliceHome, [...args, '--sandbox', '--json']);
  /** the bin itself: the stake and the claim keep their own process (test/spawned-commands.test.ts) */
  const aliceSpawned = (args: string[]) => cli(users.aliceHome, [...args, '--sandbox', '--json']);
  const staking = async () => {
    const r = await alice(['staking']);
    expect(r.code, r.stderr).toBe(0);
    return {
      beta: (r.doc.validators as Listed[]).find((v) => v.name === 'Sandbox Beta'),
      alpha: (r.doc.validators as Listed[]).find((v) => v.name === 'Sandbox Alpha'),
      position: (r.doc.positions as Position[]).find((p) => p.validator === 'Sandbox Beta'),
      total: BigInt((r.doc.totalStake as Money).baseUnits),
    };
  };

  beforeAll(async () => {
    users = await startTwoUsers();
  }, 120_000);
  afterAll(async () => {
    await users?.close();
  });

  it('remove-staker → staking says so and what the member can do → stake refused → exit at once, withdraw, claim', async () => {
    const staked = await aliceSpawned(['stake', '100', ...BETA]);
    expect(staked.doc.error, staked.stderr).toBeUndefined();
    const advanced = await cliInProcess(users.aliceHome, ['sandbox', 'advance', '3h', '--json']);
    expect(advanced.code, advanced.stderr).toBe(0);
    const before = await staking();
    expect(before.beta).toMatchObject({ active: true, stakerRemoved: false });
    expect(before.position).toMatchObject({ stakerRemoved: false, memberCan: null });
    const earned = BigInt(before.position?.unclaimedRewards.baseUnits ?? '0');
    expect(earned).toBeGreaterThan(0n);

    const removed = await cli(users.aliceHome, [
      'sandbox',
      'remove-staker',
      'Sandbox Beta',
      '--json',
    ]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.doc).toMatchObject({ validator: 'Sandbox Beta', events: expect.any(Array) });
    expect((removed.doc.events as unknown[]).length).toBe(2);
    // a second removal: the staking contract knows no such staker any more
    const again = await cliInProcess(users.aliceHome, [
      'sandbox',
      'remove-staker',
      'Sandbox Beta',
      '--json',
    ]);
    expect(again.doc.error).toMatchObject({ code: 'UNKNOWN_VALIDATOR' });

    // the staking contract forgot the staker: read from its pool, the read does not fail
    const after = await staking();
    expect(after.beta).toMatchObject({
      active: false,
      stakerRemoved: true,
      commissionBps: 0,
      stake: { baseUnits: '0' },
    });
    expect(after.beta?.inactiveReason).toMatch(/staker was removed/);
    expect(after.alpha).toMatchObject({ active: true, stakerRemoved: false });
    expect(before.total - after.total).toBe(BigInt(before.beta?.stake.baseUnits ?? '0'));
    expect(after.position).toMatchObject({
      staked: { baseUnits: (100n * STRK).toString() },
      unclaimedRewards: { baseUnits: earned.toString() },
      stakerRemoved: true,
      memberCan: ['unstake', 'claim-rewards'],
    });
    // the tool server's get_staking says the same, as data
    const { client: mcp } = await connectMcpInProcess(['--sandbox'], {
      FINANCE_TUI_HOME: users.aliceHome,
    });
    try {
      const tool = await callTool(mcp, 'get_staking', {});
      expect(tool.isError, JSON.stringify(tool.content)).toBeFalsy();
      const doc = tool.structuredContent as { validators: Listed[]; positions: Position[] };
      expect(doc.validators.find((v) => v.name === 'Sandbox Beta')).toMatchObject({
        stakerRemoved: true,
        active: false,
      });
      expect(doc.positions.find((p) => p.validator === 'Sandbox Beta')).toMatchObject({
        stakerRemoved: true,
        memberCan: ['unstake', 'claim-rewards'],
      });
    } finally {
      await mcp.close();
    }
    const words = await cli(users.aliceHome, ['staking', '--sandbox']);
    expect(words.code, words.stderr).toBe(0);
    expect(words.stdout).toMatch(
      /its staker was removed: no more rewards, no new stake\. You can still: unstake AMOUNT --validator "Sandbox Beta" \(withdrawable at once\); claim-rewards --validator "Sandbox Beta"/,
    );

    // a stake is refused before anything is signed
    const refused = await alice(['stake', '1', ...BETA]);
    expect(refused.doc.error).toMatchObject({
      code: 'VALIDATOR_INACTIVE',
      details: { stakerRemoved: true },
    });
    expect(refused.doc.error?.message).toMatch(
      /^Sandbox Beta takes no new stake: its staker was removed/,
    );
    expect(refused.doc.transaction).toBeUndefined();

    // no reward accrues after the removal
    expect((await cliInProcess(users.aliceHome, ['sandbox', 'advance', '3h', '--json'])).code).toBe(
      0,
    );
    expect((await staking()).position?.unclaimedRewards.baseUnits).toBe(earned.toString());

    // exit: withdrawable at once (no 7-day window), then withdrawn without moving the clock
    const exit = await alice(['unstake', '100', ...BETA]);
    expect(exit.doc.error, exit.stderr).toBeUndefined();
    const exiting = await staking();
    expect(exiting.position).toMatchObject({
      staked: { baseUnits: '0' },
      exiting: { baseUnits: (100n * STRK).toString() },
      memberCan: ['unstake-complete', 'claim-rewards'],
    });
    // a new exit while one runs is refused before signing (the pool's UNDELEGATE_IN_PROGRESS)
    const change = await alice(['unstake', '10', ...BETA, '--restart-exit']);
    expect(change.doc.error).toMatchObject({ code: 'EXIT_IN_PROGRESS' });
    const withdrawn = await alice(['unstake', '--complete', ...BETA]);
    expect(withdrawn.doc.error, withdrawn.stderr).toBeUndefined();
    expect((withdrawn.doc.transaction as { received: Money[] }).received).toEqual([
      expect.objectContaining({ baseUnits: (100n * STRK).toString(), symbol: 'STRK' }),
    ]);

    // the rewards earned before the removal are still claimed, exactly
    const claim = await aliceSpawned(['claim-rewards', ...BETA]);
    expect(claim.doc.error, claim.stderr).toBeUndefined();
    expect((claim.doc.transaction as { received: Money[] }).received).toEqual([
      expect.objectContaining({ baseUnits: earned.toString(), symbol: 'STRK' }),
    ]);
    expect((await staking()).position).toBeUndefined();
  }, 300_000);

  it('remove-staker refuses an unknown validator and a missing argument', async () => {
    const unknown = await cliInProcess(users.aliceHome, [
      'sandbox',
      'remove-staker',
      'Nobody',
      '--json',
    ]);
    expect(unknown.doc.error).toMatchObject({ code: 'UNKNOWN_VALIDATOR' });
    const missing = await cliInProcess(users.aliceHome, ['sandbox', 'remove-staker', '--json']);
    expect(missing.doc.error).toMatchObject({ code: 'USAGE_ERROR' });
  }, 60_000);
});
