import { describe, expect, it } from 'vitest';
import { refusal } from '../../../../test/helpers/failure.js';
import { ACCOUNT, ETH, legPlanOf, USDC } from '../../../../test/helpers/swap-fixtures.js';
import { HEALTH_MARGIN } from '../../../../shared/vesu.js';
import { healthWords, liquidationPrice, pairHealth } from '../../lending-health.js';
import { lendingPool } from '../../lending-pool.js';
import type { PairState } from '../../lending-decode.js';
import { healthNote } from '../../../../shared/vesu.js';
import { E18, vesuPair as pair } from '../../../../test/helpers/lending-fixtures.js';
import { verifyCalls } from '../checks.js';
import { planDocument } from '../document.js';
import { spendWords } from '../spend-words.js';
import { planFingerprint } from '../fingerprint.js';
import { legAcknowledgments } from './index.js';
import { positionLegOf } from './position-read.js';

const pool = lendingPool('mainnet');

const borrow = (amount: bigint, collateralAmount?: bigint) => ({
  type: 'position' as const,
  action: 'borrow' as const,
  pool,
  token: USDC,
  collateral: ETH,
  amount,
  collateralAmount,
});

const add = (collateralAmount: bigint) => ({
  ...borrow(0n),
  action: 'add-collateral' as const,
  amount: undefined,
  collateralAmount,
});

const withdraw = (collateralAmount: bigint | undefined) => ({
  ...borrow(0n),
  action: 'withdraw-collateral' as const,
  amount: undefined,
  collateralAmount,
});

describe('lending legs', () => {
  it('health factor = collateral value × max LTV / debt value, exact; liquidation price', () => {
    const p = pair(1500n * 10n ** 6n);
    expect(pairHealth(p, E18, 1500n * 10n ** 6n)).toBe((16n * E18) / 10n);
    expect(pairHealth(p, E18, 0n)).toBeUndefined();
    // 1500 / (1 × 0.8) = $1875
    expect(liquidationPrice(p, E18, 1500n * 10n ** 6n)).toBe(1875n * E18);
  });

  it('a borrow: approve the pool for the collateral exactly, one modify_position, read back', () => {
    const leg = positionLegOf(
      borrow(1000n * 10n ** 6n, E18),
      pair(0n, { collateralAmount: 0n, collateralShares: 0n }),
    );
    const plan = legPlanOf('borrow', leg);
    expect(plan.calls.map((c) => c.entrypoint)).toEqual(['approve', 'modify_position']);
    expect(plan.calls[0]?.contractAddress).toBe(ETH.address);
    expect(BigInt(plan.calls[0]?.calldata[0] ?? '0')).toBe(BigInt(pool.address));
    expect(plan.calls[1]?.calldata).toHaveLength(11);
    verifyCalls(plan);
    const tampered = {
      ...plan,
      calls: [{ ...plan.calls[0]!, calldata: [ACCOUNT, '0x1', '0x0'] }, plan.calls[1]!],
    };
    expect(refusal(() => verifyCalls(tampered)).code).toBe('APPROVAL_MISMATCH');
  });

  it('at or below 1 refused; below 1.2 needs low-health; above it nothing', () => {
    expect(
      refusal(() => positionLegOf(borrow(900n * 10n ** 6n), pair(1500n * 10n ** 6n))).code,
    ).toBe('HEALTH_TOO_LOW');
    const low = positionLegOf(borrow(600n * 10n ** 6n), pair(1500n * 10n ** 6n));
    expect(legAcknowledgments([low], legPlanOf('borrow', low))).toEqual([
      expect.objectContaining({ id: 'low-health' }),
    ]);
    const fine = positionLegOf(borrow(100n * 10n ** 6n), pair(1000n * 10n ** 6n));
    expect(legAcknowledgments([fine], legPlanOf('borrow', fine))).toEqual([]);
  });

  it('the 1.2 margin is one rule with one boundary: the acknowledgment and the warning agree at it and either side', () => {
    // 1 ETH at $3000, max LTV 80 %: a debt of 2000 USDC is a health factor of exactly 1.2
    const at = positionLegOf(borrow(500n * 10n ** 6n), pair(1500n * 10n ** 6n));
    expect(at.type === 'position' && at.health.after).toBe(HEALTH_MARGIN);
    const past = positionLegOf(borrow(500n * 10n ** 6n + 1n), pair(1500n * 10n ** 6n));
    expect(past.type === 'position' && (past.health.after ?? 0n) < HEALTH_MARGIN).toBe(true);
    for (const [leg, low] of [
      [at, false],
      [past, true],
    ] as const) {
      const asked = legAcknowledgments([leg], legPlanOf('borrow', leg)).length > 0;
      const after = leg.type === 'position' ? leg.health.after : undefined;
      const warned = healthNote(healthWords(after)).level !== 'ok';
      expect([asked, warned]).toEqual([low, low]);
    }
  });

  it('the pool limits refuse with their reason before signing', () => {
    const reason = (p: PairState, amount: bigint) =>
      refusal(() => positionLegOf(borrow(amount), p)).details.reason;
    expect(reason(pair(0n), 5n * 10n ** 6n)).toBe('debt-floor');
    expect(reason(pair(0n, { debtCap: 100n * 10n ** 6n }), 200n * 10n ** 6n)).toBe('debt-cap');
    const thin = pair(0n);
    thin.debtLimits = { ...thin.debtLimits, reserve: 1000n * 10n ** 6n };
    expect(reason(thin, 990n * 10n ** 6n)).toBe('utilization');
    const invalid = pair(0n);
    invalid.prices = { ...invalid.prices, collateral: { value: 0n, valid: false } };
    expect(reason(invalid, 100n * 10n ** 6n)).toBe('invalid-price');
  });

  it("the debt cap bounds the pair's total debt, every borrower's, not the account's alone", () => {
    const E6 = 10n ** 6n;
    // others owe 950 of the pair's 1000 cap (nominal at scale 1e6, accumulator 1: ×1e12)
    const crowded = (own: bigint) =>
      pair(own, { debtCap: 1000n * E6, pairNominalDebt: (950n * E6 + own) * 10n ** 12n });
    const error = refusal(() => positionLegOf(borrow(100n * E6), crowded(0n)));
    expect(error).toMatchObject({
      code: 'LENDING_LIMIT',
      details: {
        reason: 'debt-cap',
        cap: (1000n * E6).toString(),
        pairDebt: (950n * E6).toString(),
        available: (50n * E6).toString(),
      },
    });
    // within the room left: allowed, whatever the account already owes
    expect(positionLegOf(borrow(40n * E6), crowded(0n))).toMatchObject({ borrowed: 40n * E6 });
    expect(refusal(() => positionLegOf(borrow(60n * E6), crowded(20n * E6))).details).toMatchObject(
      { reason: 'debt-cap', available: (30n * E6).toString() },
    );
  });

  it('repay all is the Native nominal debt with a bounded approve cleared after; close withdraws every share', () => {
    const debt = 1500n * 10n ** 6n;
    const all = positionLegOf({ ...borrow(0n), action: 'repay', amount: undefined }, pair(debt));
    const plan = legPlanOf('repay', all);
    expect(plan.calls.map((c) => c.entrypoint)).toEqual(['approve', 'modify_position', 'approve']);
    // debt Amount: Native (0), abs = the nominal debt, negative
    const felts = plan.calls[1]?.calldata.map(BigInt) ?? [];
    expect(felts.slice(7)).toEqual([0n, debt * 10n ** 12n, 0n, 1n]);
    expect(plan.calls[2]?.calldata.slice(1).map(BigInt)).toEqual([0n, 0n]);
    verifyCalls(plan);
    // a partial repay leaving dust is refused
    expect(
      refusal(() =>
        positionLegOf(
          { ...borrow(0n), action: 'repay', amount: debt - 5n * 10n ** 6n },
          pair(debt),
        ),
      ).details.reason,
    ).toBe('debt-floor');
    const close = positionLegOf({ ...borrow(0n), action: 'close', amount: undefined }, pair(debt));
    const closed = legPlanOf('close-position', close);
    const c = closed.calls[1]?.calldata.map(BigInt) ?? [];
    expect(c.slice(3, 7)).toEqual([0n, E18, 0n, 1n]);
    verifyCalls(closed);
  });

  it("repay all's approve is capped at what is held when that covers the debt read", () => {
    const debt = 1000n * 10n ** 6n;
    const margin = debt + debt / 1000n + 1n;
    const approveOf = (action: 'repay' | 'close', held: bigint | undefined) => {
      const leg = positionLegOf({ ...borrow(0n), action, amount: undefined }, pair(debt), held);
      return leg.type === 'position' ? leg.repayApprove : undefined;
    };
    for (const action of ['repay', 'close'] as const) {
      // holds the debt and half a unit of the margin: approve exactly what is held
      expect(approveOf(action, debt + 500_000n)).toBe(debt + 500_000n);
      expect(approveOf(action, debt)).toBe(debt);
      // holds the whole margin or more, or nothing known: the margin
      expect(approveOf(action, margin + 1n)).toBe(margin);
      expect(approveOf(action, undefined)).toBe(margin);
      // short of the debt itself: the margin, which the balance check refuses
      expect(approveOf(action, debt - 1n)).toBe(margin);
    }
  });

  it('add collateral: approve the pool for exactly the amount, debt 0, the health factor rises', () => {
    const debt = 1500n * 10n ** 6n;
    // 1 ETH at $2000 against 1500 USDC: 1600 / 1500 = 1.0666…; + 0.5 ETH: 2400 / 1500 = 1.6
    const low = pair(debt, {
      prices: {
        collateral: { value: 2000n * E18, valid: true },
        debt: { value: E18, valid: true },
      },
    });
    const leg = positionLegOf(add(E18 / 2n), low);
    expect(leg).toMatchObject({
      action: 'add-collateral',
      health: { before: (16n * E18) / 15n, after: (16n * E18) / 10n },
    });
    const plan = legPlanOf('add-collateral', leg);
    expect(plan.calls.map((c) => c.entrypoint)).toEqual(['approve', 'modify_position']);
    // approve(pool, exactly 0.5 ETH) on the collateral token
    expect(plan.calls[0]?.contractAddress).toBe(ETH.address);
    expect(plan.calls[0]?.calldata.map(BigInt)).toEqual([BigInt(pool.address), E18 / 2n, 0n]);
    // collateral Amount: Assets (1), +0.5 ETH; debt Amount: Assets, 0
    const felts = plan.calls[1]?.calldata.map(BigInt) ?? [];
    expect(felts.slice(3)).toEqual([1n, E18 / 2n, 0n, 0n, 1n, 0n, 0n, 0n]);
    verifyCalls(plan);
    // adding adds no risk: no acknowledgment even when the factor stays below the margin
    const still = positionLegOf(add(E18 / 100n), low);
    expect(legAcknowledgments([still], legPlanOf('add-collateral', still))).toEqual([]);
    const tampered = {
      ...plan,
      calls: [{ ...plan.calls[0]!, calldata: [pool.address, '0x1', '0x0'] }, plan.calls[1]!],
    };
    expect(refusal(() => verifyCalls(tampered)).code).toBe('APPROVAL_MISMATCH');
  });

  it('add collateral with no debt, or to no position yet: allowed, no health factor', () => {
    const leg = positionLegOf(add(E18), pair(0n, { collateralAmount: 0n, collateralShares: 0n }));
    expect(leg).toMatchObject({ health: { before: undefined, after: undefined } });
    verifyCalls(legPlanOf('add-collateral', leg));
  });

  it('withdraw some collateral: Assets −amount, no approve, held to a borrow’s health rules', () => {
    const debt = 1000n * 10n ** 6n;
    // 1 ETH at $3000 × 0.8 = 2400 against 1000: 2.4; −0.25 ETH: 1800 / 1000 = 1.8
    const leg = positionLegOf(withdraw(E18 / 4n), pair(debt));
    expect(leg).toMatchObject({
      action: 'withdraw-collateral',
      collateralOut: E18 / 4n,
      health: { before: (24n * E18) / 10n, after: (18n * E18) / 10n },
    });
    const plan = legPlanOf('withdraw-collateral', leg);
    expect(plan.calls.map((c) => c.entrypoint)).toEqual(['modify_position']);
    const felts = plan.calls[0]?.calldata.map(BigInt) ?? [];
    // collateral Amount: Assets, −0.25 ETH (abs, sign 1); debt Amount: Assets, 0
    expect(felts.slice(3)).toEqual([1n, E18 / 4n, 0n, 1n, 1n, 0n, 0n, 0n]);
    verifyCalls(plan);
    expect(legAcknowledgments([leg], plan)).toEqual([]);
    // −0.5 ETH: 1200 / 1000 = 1.2, at the margin: fine; −0.55: 1.08 needs low-health
    const low = positionLegOf(withdraw((55n * E18) / 100n), pair(debt));
    expect(low.type === 'position' && low.health.after).toBe((108n * E18) / 100n);
    expect(legAcknowledgments([low], legPlanOf('withdraw-collateral', low))).toEqual([
      expect.objectContaining({ id: 'low-health' }),
    ]);
    // −0.6 ETH: 960 / 1000 < 1, refused
    expect(refusal(() => positionLegOf(withdraw((6n * E18) / 10n), pair(debt))).code).toBe(
      'HEALTH_TOO_LOW',
    );
    // all with a debt: nothing left against it
    expect(refusal(() => positionLegOf(withdraw(undefined), pair(debt))).code).toBe(
      'HEALTH_TOO_LOW',
    );
  });

  it('withdraw collateral: more than held refused with the amount held; none: NO_POSITION; invalid price', () => {
    const over = refusal(() => positionLegOf(withdraw(E18 + 1n), pair(0n)));
    expect(over).toEqual({ code: 'INVALID_AMOUNT', details: { collateral: E18.toString() } });
    expect(
      refusal(() =>
        positionLegOf(withdraw(1n), pair(0n, { collateralAmount: 0n, collateralShares: 0n })),
      ).code,
    ).toBe('NO_POSITION');
    const invalid = pair(0n);
    invalid.prices = { ...invalid.prices, collateral: { value: 0n, valid: false } };
    expect(refusal(() => positionLegOf(withdraw(1n), invalid)).details.reason).toBe(
      'invalid-price',
    );
  });

  it("withdraw collateral past the collateral asset's reserve or utilisation limit: LENDING_LIMIT utilization, as a borrow", () => {
    const debt = 1000n * 10n ** 6n;
    // ETH lent out: 19 ETH borrowed against a reserve of 1.25 ETH (93.8 %, limit 95 %)
    const lent = (reserve: bigint) =>
      pair(debt, {
        collateralLimits: {
          reserve,
          totalNominalDebt: 19n * E18,
          maxUtilization: (95n * E18) / 100n,
          floor: 10n * E18,
          scale: E18,
          accumulator: E18,
          lastUpdated: 1_764_000_000,
        },
      });
    // −0.25 ETH: 19 / 20 = 95 %, at the limit: fine
    expect(positionLegOf(withdraw(E18 / 4n), lent((5n * E18) / 4n))).toMatchObject({
      collateralOut: E18 / 4n,
    });
    // −0.3 ETH: 19 / 19.95 > 95 %: the pool would refuse (utilization-exceeded)
    const over = refusal(() => positionLegOf(withdraw((3n * E18) / 10n), lent((5n * E18) / 4n)));
    expect(over).toMatchObject({ code: 'LENDING_LIMIT', details: { reason: 'utilization' } });
    // more than the reserve holds, no debt on the position: refused the same way
    const dry = pair(0n, {
      collateralLimits: { ...lent(0n).collateralLimits, reserve: E18 / 2n, totalNominalDebt: 0n },
    });
    expect(refusal(() => positionLegOf(withdraw(undefined), dry))).toMatchObject({
      code: 'LENDING_LIMIT',
      details: { reason: 'utilization' },
    });
    // closing releases the collateral too
    const close = { ...borrow(0n), action: 'close' as const, amount: undefined };
    expect(refusal(() => positionLegOf(close, dry))).toMatchObject({
      code: 'LENDING_LIMIT',
      details: { reason: 'utilization' },
    });
  });

  it('withdraw all collateral (or exactly what it holds) is every share, Native: no dust', () => {
    const shares = E18 + 12345n;
    for (const amount of [undefined, E18]) {
      const leg = positionLegOf(withdraw(amount), pair(0n, { collateralShares: shares }));
      expect(leg).toMatchObject({ collateralOut: E18, health: { after: undefined } });
      const plan = legPlanOf('withdraw-collateral', leg);
      const felts = plan.calls[0]?.calldata.map(BigInt) ?? [];
      // collateral Amount: Native (0), −every share
      expect(felts.slice(3, 7)).toEqual([0n, shares, 0n, 1n]);
      verifyCalls(plan);
    }
  });

  it('withdraw all collateral (and close) fingerprint alike as the collateral grows, as repay all does', () => {
    // the same "all" asked twice, the collateral grown with interest between: one fingerprint
    const fingerprint = (collateral: bigint, action: 'withdraw-collateral' | 'close') => {
      const p = pair(0n, { collateralAmount: collateral, collateralShares: E18 });
      const leg = positionLegOf(
        action === 'close' ? { ...borrow(0n), action, amount: undefined } : withdraw(undefined),
        p,
      );
      return planFingerprint(legPlanOf(action === 'close' ? 'close-position' : action, leg), 'c');
    };
    expect(fingerprint(E18 + 7n, 'withdraw-collateral')).toBe(
      fingerprint(E18, 'withdraw-collateral'),
    );
    expect(fingerprint(E18 + 7n, 'close')).toBe(fingerprint(E18, 'close'));
    // a given amount stays in the fingerprint: another amount is another request
    const some = (amount: bigint) =>
      planFingerprint(
        legPlanOf('withdraw-collateral', positionLegOf(withdraw(amount), pair(0n))),
        'c',
      );
    expect(some(E18 / 4n)).not.toBe(some(E18 / 2n));
  });

  it('repay all and close with a debt fingerprint alike as the debt grows; an exact repay does not', () => {
    // the same "all" asked twice, the debt grown with interest between (5 base units): the
    // bounded approval moves with it, the fingerprint must not
    const debt = 1500n * 10n ** 6n;
    const fingerprint = (owed: bigint, action: 'repay' | 'close') => {
      const leg = positionLegOf({ ...borrow(0n), action, amount: undefined }, pair(owed));
      return planFingerprint(legPlanOf(action === 'close' ? 'close-position' : action, leg), 'c');
    };
    expect(fingerprint(debt + 5n, 'repay')).toBe(fingerprint(debt, 'repay'));
    expect(fingerprint(debt + 5n, 'close')).toBe(fingerprint(debt, 'close'));
    expect(fingerprint(debt, 'repay')).not.toBe(fingerprint(debt, 'close'));
    // an exact repay is its amount: another amount is another request, and not "all"
    const exact = (amount: bigint) =>
      planFingerprint(
        legPlanOf(
          'repay',
          positionLegOf({ ...borrow(0n), action: 'repay', amount }, pair(debt + 100n * 10n ** 6n)),
        ),
        'c',
      );
    expect(exact(40n * 10n ** 6n)).not.toBe(exact(50n * 10n ** 6n));
    expect(exact(40n * 10n ** 6n)).not.toBe(fingerprint(debt, 'repay'));
  });

  it('what the person consents to: repay all and close say "at most" the bound and the debt read', () => {
    const debt = 1500n * 10n ** 6n;
    const doc = (action: 'repay' | 'close') =>
      planDocument(
        legPlanOf(
          action === 'close' ? 'close-position' : action,
          positionLegOf({ ...borrow(0n), action, amount: undefined }, pair(debt)),
        ),
      );
    for (const action of ['repay', 'close'] as const) {
      const d = doc(action);
      const [usdc] = d.spend;
      // the bound: the debt + 1/1000 + 1 unit; what is expected: the debt as read
      expect(usdc?.amount.amount).toBe('1501.500001');
      expect(usdc?.expected?.amount).toBe('1500');
      // "about Y, as of <time>" (the chain's clock at the read), with the bound that is signed
      expect(usdc?.expectedAsOf).toBe('2025-11-24T16:00:00.000Z');
      expect(spendWords(usdc!, false)).toMatch(
        /^at most 1501\.500001 USDC \(about 1500 USDC: the debt as of 2025-11-24 16:00:00 UTC, plus the interest until it runs\)$/,
      );
      // the call line says the same, never the nominal debt in the pool's own denomination
      const line = d.calls.find((c) => c.entrypoint === 'modify_position')?.description ?? '';
      expect(line).toContain(
        'repay the whole debt: about 1500 USDC as of 2025-11-24 16:00:00 UTC, at most as approved',
      );
      expect(line).not.toMatch(/nominal|Native/);
      expect(d.terms.at(-1)).toContain('position after: owes nothing');
      expect(d.terms.at(-1)).toContain('health factor 1.6 → —');
    }
    expect(doc('repay').terms.at(-1)).toContain('1 ETH collateral');
    expect(doc('close').terms).toContain(
      'arrives in the wallet: at least 1 ETH (collateral withdrawn)',
    );
    expect(doc('close').terms.at(-1)).toContain('no collateral');
    // an exact repay is no bound: its amount, no "at most"
    const exact = planDocument(
      legPlanOf(
        'repay',
        positionLegOf({ ...borrow(0n), action: 'repay', amount: 500n * 10n ** 6n }, pair(debt)),
      ),
    );
    expect(exact.spend[0]?.expected).toBeNull();
    expect(spendWords(exact.spend[0]!, false)).toBe('500 USDC');
    expect(exact.terms).toEqual([
      'position after: owes 1000 USDC, 1 ETH collateral; health factor 1.6 → 2.4',
    ]);
  });

  it('what the person consents to: a borrow names what arrives, the debt after and the health after', () => {
    const borrowed = planDocument(
      legPlanOf('borrow', positionLegOf(borrow(500n * 10n ** 6n, E18), pair(1000n * 10n ** 6n))),
    );
    expect(borrowed.terms).toEqual([
      'arrives in the wallet: 500 USDC (borrowed)',
      'position after: owes 1500 USDC, 2 ETH collateral; health factor 2.4 → 3.2',
    ]);
    // the collateral deposited leaves, exactly
    expect(spendWords(borrowed.spend[0]!, false)).toBe('1 ETH');
    const added = planDocument(
      legPlanOf('add-collateral', positionLegOf(add(E18 / 2n), pair(1500n * 10n ** 6n))),
    );
    expect(added.terms).toEqual([
      'position after: owes 1500 USDC, 1.5 ETH collateral; health factor 1.6 → 2.4',
    ]);
    const taken = planDocument(
      legPlanOf('withdraw-collateral', positionLegOf(withdraw(E18 / 4n), pair(1000n * 10n ** 6n))),
    );
    expect(taken.spend).toEqual([]);
    expect(taken.terms).toEqual([
      'arrives in the wallet: 0.25 ETH (collateral withdrawn)',
      'position after: owes 1000 USDC, 0.75 ETH collateral; health factor 2.4 → 1.8',
    ]);
  });

  it("sepolia's own pool; an unknown pool by name", () => {
    expect(lendingPool('sepolia').name).toBe('WBTC Prime Sepolia');
    expect(refusal(() => lendingPool('sepolia', 'prime')).code).toBe('UNKNOWN_POOL');
    expect(refusal(() => lendingPool('mainnet', 'Nowhere')).code).toBe('UNKNOWN_POOL');
    expect(lendingPool('mainnet', 'prime').address).toBe(pool.address);
  });

  it("a known pool by address is the known one; another address is an unknown pool: said, and acknowledged ('unknown-pool')", () => {
    const known = lendingPool('mainnet', pool.address.replace(/^0x0*/, '0X'));
    expect(known).toEqual(pool);
    const other = lendingPool('mainnet', '0x1234');
    expect(other).toMatchObject({ unknown: true, address: `0x${'0'.repeat(60)}1234` });
    expect(other.name).toMatch(/unknown pool/);
    const supply = {
      type: 'supply' as const,
      pool: other,
      token: USDC,
      vToken: `0x${'0'.repeat(63)}5`,
      amount: 10n ** 6n,
    };
    const acks = legAcknowledgments([supply], legPlanOf('supply', supply));
    expect(acks).toMatchObject([{ id: 'unknown-pool', details: { pool: other.address } }]);
    const onKnown = { ...supply, pool };
    expect(legAcknowledgments([onKnown], legPlanOf('supply', onKnown))).toEqual([]);
    // an address that is no address is still refused
    expect(refusal(() => lendingPool('mainnet', '0x')).code).toBe('UNKNOWN_POOL');
  });
});
