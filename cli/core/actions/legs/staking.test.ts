import { describe, expect, it } from 'vitest';
import { codeOf, refusal } from '../../../../test/helpers/failure.js';
import { validator } from '../../../../test/helpers/leg-fixtures.js';
import {
  ACCOUNT,
  legPlanOf,
  POOL,
  strkPricer as pricer,
  STRK,
} from '../../../../test/helpers/swap-fixtures.js';
import { checkLimits } from '../caps.js';
import { checkSimulation, verifyCalls } from '../checks.js';
import { planDocument } from '../document.js';
import { planFingerprint } from '../fingerprint.js';
import { legAcknowledgments } from './index.js';
import type { AggregatorClient } from '../../../clients/aggregator.js';
import type { PoolMember } from './staking-common.js';
import { stakingLegOf } from './staking-read.js';
import { durationWords } from './words.js';
import { removedPoolActions, STAKER_REMOVED_REASON } from '../../staking.js';

const member = (over: Partial<PoolMember> = {}): PoolMember => ({
  rewardAddress: ACCOUNT,
  amount: 100n * 10n ** 18n,
  unclaimedRewards: 7n,
  commissionBps: 500,
  unpoolAmount: 0n,
  unpoolTime: undefined,
  ...over,
});
const ONE_HUNDRED = 100n * 10n ** 18n;

/** The plan of one staking request with Alpha, by a member as read (undefined: not one yet). */
const planned = (
  kind: Parameters<typeof legPlanOf>[0],
  spec: Parameters<typeof stakingLegOf>[0],
  membership: PoolMember | undefined,
  now?: number,
) => legPlanOf(kind, stakingLegOf(spec, validator, membership, now));

describe('staking legs', () => {
  it('a first stake enters the pool, a later one adds: chosen from the membership read', () => {
    const enter = planned(
      'stake',
      { type: 'stake', validator: 'Alpha', token: STRK, amount: ONE_HUNDRED },
      undefined,
    );
    expect(enter.calls.map((c) => c.entrypoint)).toEqual(['approve', 'enter_delegation_pool']);
    expect(enter.calls[1]?.calldata).toEqual([ACCOUNT, `0x${ONE_HUNDRED.toString(16)}`]);
    const add = planned(
      'stake',
      { type: 'stake', validator: 'Alpha', token: STRK, amount: ONE_HUNDRED },
      member(),
    );
    expect(add.calls.map((c) => c.entrypoint)).toEqual(['approve', 'add_to_delegation_pool']);
    expect(() => verifyCalls(add)).not.toThrow();
    // read back: an approve for more than the stake is refused
    const tampered = {
      ...add,
      calls: add.calls.map((c, i) => (i === 0 ? { ...c, calldata: [POOL, '0x1', '0x1'] } : c)),
    };
    expect(refusal(() => verifyCalls(tampered)).code).toBe('APPROVAL_MISMATCH');
  });

  it("an exit says when it can be withdrawn (the pool's exit window from the chain's time) and what is exiting after a restart", () => {
    const week = 7 * 24 * 3600;
    const now = 1_800_000_000;
    const exit = { windowSeconds: week, now };
    const fresh = planDocument(
      legPlanOf(
        'unstake',
        stakingLegOf(
          { type: 'unstake-intent', validator: 'x', token: STRK, amount: 2n * 10n ** 18n - 1n },
          validator,
          member(),
          undefined,
          exit,
        ),
      ),
    );
    expect(fresh.terms).toEqual([
      `after it 1.999999999999999999 STRK is exiting from ${validator.name}`,
      `it can be withdrawn once the pool's exit window of 7 d 0 min has passed from when this lands: about ${new Date((now + week) * 1000).toISOString()}`,
    ]);
    const restart = planDocument(
      legPlanOf(
        'unstake',
        stakingLegOf(
          { type: 'unstake-intent', validator: 'x', token: STRK, amount: 5n * 10n ** 18n },
          validator,
          member({ unpoolAmount: 3n * 10n ** 18n, unpoolTime: now + 100 }),
          undefined,
          exit,
        ),
      ),
    );
    expect(restart.terms[0]).toBe(
      `after it 5 STRK is exiting from ${validator.name} (replacing the running exit of 3 STRK, whose timer restarts)`,
    );
    expect(restart.terms[1]).toContain(new Date((now + week) * 1000).toISOString());
    const cancel = planDocument(
      legPlanOf(
        'unstake',
        stakingLegOf(
          { type: 'unstake-intent', validator: 'x', token: STRK, amount: 0n },
          validator,
          member({ unpoolAmount: 3n * 10n ** 18n, unpoolTime: now + 100 }),
          undefined,
          exit,
        ),
      ),
    );
    expect(cancel.terms).toEqual([
      `after it nothing is exiting from ${validator.name}: 3 STRK is staked again`,
    ]);
  });

  it('an inactive validator is refused with its reason', () => {
    expect(
      refusal(() =>
        stakingLegOf(
          { type: 'stake', validator: 'x', token: STRK, amount: 1n },
          { ...validator, active: false, inactiveReason: 'it has announced its exit' },
          undefined,
          undefined,
        ),
      ),
    ).toMatchObject({ code: 'VALIDATOR_INACTIVE' });
  });

  it('a removed staker: a stake is VALIDATOR_INACTIVE saying so; a new exit while one runs is EXIT_IN_PROGRESS; a first exit, a withdrawal and a claim are planned', () => {
    const removed = {
      ...validator,
      active: false,
      commissionBps: 0,
      stakerRemoved: true,
      inactiveReason: STAKER_REMOVED_REASON,
    };
    expect(
      refusal(() =>
        stakingLegOf(
          { type: 'stake', validator: 'x', token: STRK, amount: 1n },
          removed,
          member(),
          undefined,
        ),
      ),
    ).toMatchObject({
      code: 'VALIDATOR_INACTIVE',
      details: { stakerRemoved: true },
    });
    const running = member({ unpoolAmount: 30n, unpoolTime: 5 });
    expect(
      refusal(() =>
        stakingLegOf(
          { type: 'unstake-intent', validator: 'x', token: STRK, amount: 10n },
          removed,
          running,
          undefined,
        ),
      ),
    ).toMatchObject({ code: 'EXIT_IN_PROGRESS', details: { exiting: '30' } });
    expect(
      stakingLegOf(
        { type: 'unstake-intent', validator: 'x', token: STRK, amount: 10n },
        removed,
        member(),
        undefined,
      ),
    ).toMatchObject({ type: 'unstake-intent', amount: 10n });
    expect(
      stakingLegOf({ type: 'unstake', validator: 'x', token: STRK }, removed, running, 5),
    ).toMatchObject({ type: 'unstake', amount: 30n });
    expect(
      stakingLegOf({ type: 'claim', validator: 'x', token: STRK }, removed, running, undefined),
    ).toMatchObject({ type: 'claim', amount: 7n });
  });

  it("what a member of a removed staker's pool can still do, from its membership", () => {
    expect(removedPoolActions(member())).toEqual(['unstake', 'claim-rewards']);
    expect(removedPoolActions(member({ unclaimedRewards: 0n }))).toEqual(['unstake']);
    expect(removedPoolActions(member({ amount: 0n, unpoolAmount: 30n, unpoolTime: 5 }))).toEqual([
      'unstake-complete',
      'claim-rewards',
    ]);
    // staked and exiting: a new exit is refused there (EXIT_IN_PROGRESS), the withdrawal is not
    expect(removedPoolActions(member({ unpoolAmount: 30n, unpoolTime: 5 }))).toEqual([
      'unstake-complete',
      'claim-rewards',
    ]);
  });

  it('a withdrawal before the window: EXIT_NOT_READY with the time left; after: the exact amount arrives', () => {
    const exiting = member({ unpoolAmount: 30n, unpoolTime: 1_000_000 });
    const early = refusal(() =>
      stakingLegOf(
        { type: 'unstake', validator: 'x', token: STRK },
        validator,
        exiting,
        1_000_000 - 90_061,
      ),
    );
    expect(early).toMatchObject({ code: 'EXIT_NOT_READY', details: { secondsLeft: 90_061 } });
    expect(durationWords(90_061)).toBe('1 d 1 h 2 min');
    const plan = planned(
      'unstake-complete',
      { type: 'unstake', validator: 'x', token: STRK },
      exiting,
      1_000_000,
    );
    expect(planDocument(plan).headline).toContain('withdraw 0.00000000000000003 STRK');
    // the simulation must show the exact amount arriving
    expect(
      refusal(() =>
        checkSimulation(
          plan,
          { mode: 'sponsored' },
          { reverted: false, transfers: [], balanceChanges: [] },
        ),
      ).code,
    ).toBe('SIMULATION_BELOW_MINIMUM');
    expect(() =>
      checkSimulation(
        plan,
        { mode: 'sponsored' },
        {
          reverted: false,
          transfers: [{ token: STRK.address, from: POOL, to: ACCOUNT, amount: 30n }],
          balanceChanges: [],
        },
      ),
    ).not.toThrow();
  });

  it('an exit intent over a running exit needs exit-restart; the first does not', () => {
    const running = planned(
      'unstake',
      { type: 'unstake-intent', validator: 'x', token: STRK, amount: 10n },
      member({ unpoolAmount: 30n, unpoolTime: 5 }),
    );
    expect(legAcknowledgments(running.legs, running)).toEqual([
      {
        id: 'exit-restart',
        reason: expect.stringContaining('restarts the exit timer'),
        details: expect.anything(),
      },
    ]);
    const first = planned(
      'unstake',
      { type: 'unstake-intent', validator: 'x', token: STRK, amount: 10n },
      member(),
    );
    expect(legAcknowledgments(first.legs, first)).toEqual([]);
  });

  it('a stake and an exit of the same amount have distinct fingerprints; the same stake twice the same', () => {
    const stake = planned(
      'stake',
      { type: 'stake', validator: 'x', token: STRK, amount: ONE_HUNDRED },
      member(),
    );
    const exit = planned(
      'unstake',
      { type: 'unstake-intent', validator: 'x', token: STRK, amount: ONE_HUNDRED },
      member(),
    );
    expect(planFingerprint(stake, 'sandbox:x')).not.toBe(planFingerprint(exit, 'sandbox:x'));
    expect(planFingerprint(stake, 'sandbox:x')).toBe(planFingerprint({ ...stake }, 'sandbox:x'));
  });

  it('caps value the stake: above --max-usd is LIMIT_EXCEEDED; an unpriced outflow is refused (fail closed)', async () => {
    const stake = {
      ...planned(
        'stake',
        { type: 'stake', validator: 'x', token: STRK, amount: ONE_HUNDRED },
        member(),
      ),
      // Pragma's price below the aggregator's: the aggregator's value counts (value.ts)
      oracle: [{ ok: true as const, token: STRK, usd: 10n ** 16n, lastUpdated: 0 }],
    };
    // 100 STRK at $0.50 = $50
    expect(await codeOf(checkLimits(stake, { maxUsdCents: 4_999n }, pricer()))).toBe(
      'LIMIT_EXCEEDED',
    );
    expect(await codeOf(checkLimits(stake, { maxUsdCents: 5_000n }, pricer()))).toBe('ok');
    const unpriced = {
      network: 'mainnet',
      getRoute: () => Promise.reject(new Error('no route')),
    } as unknown as AggregatorClient;
    expect(await codeOf(checkLimits(stake, { maxUsdCents: 10n ** 9n }, unpriced))).toBe(
      'LIMIT_EXCEEDED',
    );
  });
});
