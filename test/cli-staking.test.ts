/**
 * Native staking through the built bin and the sandbox (docs/commands.md "Staking"): stake (enter,
 * then add), `sandbox advance`, rewards, claim of exactly the unclaimed amount, an exit intent, a
 * withdrawal refused with the time left, a second intent that needs --restart-exit, the window
 * passed, the withdrawal of exactly the exited amount; and the validator refusals.
 *
 * Commands whose result is the subject run the bin's build in this worker (cliInProcess); the
 * sandbox is its own process (docs/decisions.md "Bin runs in-process where the result is the
 * subject").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess, startTwoUsers, type TwoUsers } from './helpers/cli-sandbox.js';

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
  rewardAddress: string;
}

const STRK = 10n ** 18n;

describe('staking through the sandbox (whole processes)', () => {
  let users: TwoUsers;
  const alice = (args: string[]) => cliInProcess(users.aliceHome, [...args, '--sandbox', '--json']);
  const position = async (): Promise<Position | undefined> => {
    const r = await alice(['staking']);
    expect(r.code, r.stderr).toBe(0);
    return (r.doc.positions as Position[]).find((p) => p.validator === 'Sandbox Alpha');
  };
  const advance = async (duration: string): Promise<void> => {
    const r = await cliInProcess(users.aliceHome, ['sandbox', 'advance', duration, '--json']);
    expect(r.code, r.stderr).toBe(0);
  };
  const alpha = ['--validator', 'Sandbox Alpha', '--yes'];

  beforeAll(async () => {
    users = await startTwoUsers();
  }, 120_000);
  afterAll(async () => {
    await users?.close();
  });

  it('stake → advance → rewards → claim exactly them → exit → refused early → restart needs its flag → withdraw', async () => {
    const listed = await alice(['staking']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.doc.validators).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'Sandbox Alpha', token: 'STRK', active: true }),
        expect.objectContaining({ name: 'Sandbox Leaving', active: false }),
      ]),
    );

    // the first stake enters the pool, the next adds: chosen from the chain
    const first = await alice(['stake', '100', ...alpha]);
    expect(first.doc.error, first.stderr).toBeUndefined();
    expect(first.doc).toMatchObject({
      kind: 'stake',
      calls: [{ entrypoint: 'approve' }, { entrypoint: 'enter_delegation_pool' }],
      transaction: { status: 'SUCCEEDED' },
    });
    const second = await alice(['stake', '50', ...alpha]);
    expect(second.doc).toMatchObject({
      calls: [{ entrypoint: 'approve' }, { entrypoint: 'add_to_delegation_pool' }],
      transaction: { status: 'SUCCEEDED' },
    });
    expect((await position())?.staked.baseUnits).toBe((150n * STRK).toString());

    await advance('3h');
    const accrued = await position();
    const unclaimed = BigInt(accrued?.unclaimedRewards.baseUnits ?? '0');
    expect(unclaimed).toBeGreaterThan(0n);

    const claim = await alice(['claim-rewards', ...alpha]);
    expect(claim.doc.error, claim.stderr).toBeUndefined();
    const received = (claim.doc.transaction as { received: Money[] }).received;
    expect(received).toEqual([
      expect.objectContaining({ baseUnits: unclaimed.toString(), symbol: 'STRK' }),
    ]);
    expect((await position())?.unclaimedRewards.baseUnits).toBe('0');

    const exit = await alice(['unstake', '30', ...alpha]);
    expect(exit.doc.error, exit.stderr).toBeUndefined();
    const exiting = await position();
    expect(exiting?.exiting.baseUnits).toBe((30n * STRK).toString());
    expect(exiting?.withdrawableAt).not.toBeNull();
    // the plan and its receipt say when: the pool's exit window (7 days in the sandbox) from the
    // chain's time, the same instant the position reads back
    const terms = exit.doc.terms as string[];
    expect(terms[0]).toBe('after it 30 STRK is exiting from Sandbox Alpha');
    const about = /exit window of 7 d 0 min has passed from when this lands: about (\S+)$/.exec(
      terms[1] ?? '',
    )?.[1];
    // planned from the chain's time a few seconds before the transaction landed
    const ahead = Date.parse(exiting?.withdrawableAt ?? '') - Date.parse(about ?? '');
    expect(ahead).toBeGreaterThanOrEqual(0);
    expect(ahead).toBeLessThan(5 * 60_000);

    const early = await alice(['unstake', '--complete', ...alpha]);
    expect(early.doc.error).toMatchObject({
      code: 'EXIT_NOT_READY',
      details: { withdrawableAt: exiting?.withdrawableAt },
    });
    expect(
      Number((early.doc.error!.details as { secondsLeft: number }).secondsLeft),
    ).toBeGreaterThan(0);

    // a second intent restarts the running timer: refused without its acknowledgment
    const again = await alice(['unstake', '10', ...alpha]);
    expect(again.doc.error).toMatchObject({
      code: 'ACKNOWLEDGMENT_REQUIRED',
      details: { remedy: ['exit-restart'] },
    });
    const human = await cliInProcess(users.aliceHome, ['unstake', '10', ...alpha, '--sandbox']);
    expect(human.stderr).toMatch(/restarts the exit timer[\s\S]*--restart-exit/);
    expect((await position())?.exiting.baseUnits).toBe((30n * STRK).toString());

    await advance('8d');
    const withdrawn = await alice(['unstake', '--complete', ...alpha]);
    expect(withdrawn.doc.error, withdrawn.stderr).toBeUndefined();
    expect((withdrawn.doc.transaction as { received: Money[] }).received).toEqual([
      expect.objectContaining({ baseUnits: (30n * STRK).toString(), symbol: 'STRK' }),
    ]);
    const after = await position();
    expect(after?.exiting.baseUnits).toBe('0');
    expect(after?.withdrawableAt).toBeNull();

    // issue 32: `unstake 0` cancels a running exit (exit_delegation_pool_intent(0)), through
    // the same review; refused with its code when no exit runs
    const none = await alice(['unstake', '0', ...alpha]);
    expect(none.doc.error).toMatchObject({ code: 'NOTHING_STAKED' });
    expect(none.doc.error?.message).toMatch(/no exit .* nothing to cancel/);
    expect((await alice(['unstake', '20', ...alpha])).doc.error).toBeUndefined();
    expect((await position())?.exiting.baseUnits).toBe((20n * STRK).toString());
    const unasked = await alice(['unstake', '0', ...alpha]);
    expect(unasked.doc.error).toMatchObject({
      code: 'ACKNOWLEDGMENT_REQUIRED',
      details: { remedy: ['exit-restart'] },
    });
    const cancel = await alice(['unstake', '0', ...alpha, '--restart-exit']);
    expect(cancel.doc.error, cancel.stderr).toBeUndefined();
    expect(cancel.doc).toMatchObject({
      legs: [{ type: 'unstake-intent', cancel: true, amount: { baseUnits: '0' } }],
      transaction: { status: 'SUCCEEDED' },
    });
    const cancelled = await position();
    expect(cancelled?.exiting.baseUnits).toBe('0');
    expect(cancelled?.withdrawableAt).toBeNull();
    expect(cancelled?.staked.baseUnits).toBe((120n * STRK).toString());

    // a claim's review says "at least" the rewards as read; its receipt never says less
    await advance('2d');
    const review = await alice(['claim-rewards', '--validator', 'Sandbox Alpha']);
    expect(review.doc.error?.code).toBe('CONFIRMATION_REQUIRED');
    const reviewed = (review.doc.error!.details as { plan: { headline: string } }).plan;
    expect(reviewed.headline).toMatch(/^claim at least \d+(\.\d+)? STRK of rewards/);
    const claimed = await alice(['claim-rewards', ...alpha]);
    expect(claimed.doc.error, claimed.stderr).toBeUndefined();
    const [got] = (claimed.doc.transaction as { received: Array<Money & { minimum: Money }> })
      .received;
    expect(BigInt(got?.baseUnits ?? '0')).toBeGreaterThanOrEqual(
      BigInt(got?.minimum.baseUnits ?? '1'),
    );
    expect(BigInt(got?.minimum.baseUnits ?? '0')).toBeGreaterThan(0n);

    // the portfolio counts the stake as its own line in the net total, not in the wallet's balance
    const folio = await alice(['portfolio', '--fresh']);
    expect(folio.code, folio.stderr).toBe(0);
    const lines = folio.doc.positions as Array<{
      kind: string;
      baseUnits: string;
      value: { cents: string } | null;
    }>;
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'staked', baseUnits: (120n * STRK).toString() }),
      ]),
    );
    const tokens = folio.doc.tokens as Array<{ value: { cents: string } | null }>;
    const sum = [...tokens, ...lines].reduce((s, t) => s + BigInt(t.value?.cents ?? '0'), 0n);
    expect((folio.doc.net as { cents: string }).cents).toBe(sum.toString());
  }, 300_000);

  it("each validator's share of the total stake (get_total_stake), in --json and in words", async () => {
    interface Listed {
      name: string;
      stake: { amount: string; baseUnits: string };
      shareOfTotalStake: string | null;
    }
    const before = await alice(['staking']);
    expect(before.code, before.stderr).toBe(0);
    const total = BigInt((before.doc.totalStake as { baseUnits: string }).baseUnits);
    const validators = before.doc.validators as Listed[];
    // the sandbox deploys every validator it counts: the stakes add up to the total exactly
    expect(validators.reduce((sum, v) => sum + BigInt(v.stake.baseUnits), 0n)).toBe(total);
    for (const v of validators) {
      const cut = (BigInt(v.stake.baseUnits) * 10_000n) / total;
      expect(v.shareOfTotalStake, v.name).toBe(
        `${cut / 100n}${cut % 100n === 0n ? '' : `.${(cut % 100n).toString().padStart(2, '0').replace(/0$/, '')}`}`,
      );
    }
    // a stake moves the validator's stake and the total by exactly its amount
    // Sandbox Beta: the other cases here stake with Alpha and expect a first entry there
    const betaBefore = validators.find((v) => v.name === 'Sandbox Beta')!;
    const staked = await alice(['stake', '7', '--validator', 'Sandbox Beta', '--yes']);
    expect(staked.doc.error, staked.stderr).toBeUndefined();
    const after = await alice(['staking']);
    const betaAfter = (after.doc.validators as Listed[]).find((v) => v.name === 'Sandbox Beta')!;
    expect(BigInt(betaAfter.stake.baseUnits) - BigInt(betaBefore.stake.baseUnits)).toBe(7n * STRK);
    expect(BigInt((after.doc.totalStake as { baseUnits: string }).baseUnits) - total).toBe(
      7n * STRK,
    );
    const words = await cliInProcess(users.aliceHome, ['staking', '--sandbox']);
    expect(words.code, words.stderr).toBe(0);
    expect(words.stdout).toContain(
      `stake ${betaAfter.stake.amount} STRK (${betaAfter.shareOfTotalStake} % of the total stake`,
    );
  }, 120_000);

  it('an inactive validator is refused with its reason; an unknown one by name', async () => {
    const leaving = await alice(['stake', '1', '--validator', 'Sandbox Leaving', '--yes']);
    expect(leaving.doc.error).toMatchObject({ code: 'VALIDATOR_INACTIVE' });
    // the reason once: "… takes no new stake: it has announced its exit from staking (it leaves at …)"
    expect(leaving.doc.error?.message).toMatch(
      /^Sandbox Leaving takes no new stake: it has announced its exit from staking \(it leaves at [0-9T:.-]+Z\)$/,
    );
    const unknown = await alice(['stake', '1', '--validator', 'Nobody', '--yes']);
    expect(unknown.doc.error).toMatchObject({ code: 'UNKNOWN_VALIDATOR' });
  }, 120_000);
});
