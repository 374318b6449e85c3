import { describe, expect, it } from 'vitest';
import { type BalanceEvidence, judgeOutcome, type OutcomeEvidence } from './outcome.js';

/** 1 USDC (6 decimals) sent, the fee paid in STRK: USDC's balance predicts exactly 1_000_000. */
const usdc = (before: bigint, after: bigint): BalanceEvidence => ({
  symbol: 'USDC',
  exact: 1_000_000n,
  bound: 1_000_000n,
  feeMax: 0n,
  before,
  after,
});

const evidence = (over: Partial<OutcomeEvidence>): OutcomeEvidence => ({
  receipt: 'succeeded',
  reread: 'succeeded',
  nonceUsed: true,
  balances: [usdc(5_000_000n, 4_000_000n)],
  ...over,
});

const problemOf = (e: OutcomeEvidence): string => {
  const verdict = judgeOutcome(e);
  return verdict.outcome === 'unknown' ? verdict.problem : `final: ${verdict.outcome}`;
};

describe('judgeOutcome: a receipt is final only when the nonce and the balances agree with it', () => {
  it('a success that used its nonce and took what the plan sends is a success', () => {
    expect(judgeOutcome(evidence({}))).toEqual({ outcome: 'succeeded' });
  });

  it('a revert whose nonce is unused and whose balance did not drop is a revert', () => {
    expect(
      judgeOutcome(
        evidence({
          receipt: 'reverted',
          reread: 'reverted',
          nonceUsed: false,
          balances: [usdc(5_000_000n, 5_000_000n)],
        }),
      ),
    ).toEqual({ outcome: 'reverted' });
  });

  it('REVERTED with its nonce used (it ran, the events stripped) is unknown', () => {
    const e = evidence({ receipt: 'reverted', reread: 'reverted', nonceUsed: true });
    expect(judgeOutcome(e)).toMatchObject({ outcome: 'unknown', receipt: 'reverted' });
    expect(problemOf(e)).toMatch(/REVERTED, but .* nonce is used/);
  });

  it('REVERTED whose spent balance dropped by more than the fee can take is unknown (even when the nonce read says unused)', () => {
    const e = evidence({ receipt: 'reverted', reread: 'reverted', nonceUsed: false });
    expect(problemOf(e)).toMatch(/USDC balance dropped by more than the fee can take/);
  });

  it('a revert that paid its fee in the spent token is still a revert; one base unit past the fee is not', () => {
    const withFee = (after: bigint): OutcomeEvidence =>
      evidence({
        receipt: 'reverted',
        reread: 'reverted',
        nonceUsed: false,
        balances: [{ ...usdc(5_000_000n, after), feeMax: 30_000n }],
      });
    expect(judgeOutcome(withFee(4_970_000n))).toEqual({ outcome: 'reverted' });
    expect(judgeOutcome(withFee(4_969_999n)).outcome).toBe('unknown');
  });

  it('SUCCEEDED with its nonce still unused (it did not run) is unknown', () => {
    const e = evidence({ nonceUsed: false, balances: [usdc(5_000_000n, 5_000_000n)] });
    expect(problemOf(e)).toMatch(/SUCCEEDED, but .* nonce is still unused/);
  });

  it('SUCCEEDED whose spent balance dropped by less than the plan sends is unknown', () => {
    expect(problemOf(evidence({ balances: [usdc(5_000_000n, 4_000_001n)] }))).toMatch(
      /dropped by 999999 base units, less than the 1000000 the plan sends/,
    );
  });

  it('SUCCEEDED whose spent balance dropped by more than the plan and its fee can take is unknown', () => {
    const e = evidence({ balances: [{ ...usdc(5_000_000n, 3_969_999n), feeMax: 30_000n }] });
    expect(problemOf(e)).toMatch(/more than the plan and its fee can take \(1030000\)/);
    expect(
      judgeOutcome(evidence({ balances: [{ ...usdc(5_000_000n, 3_970_000n), feeMax: 30_000n }] })),
    ).toEqual({ outcome: 'succeeded' });
  });

  it('an "all" outflow may take anything from its exact part up to its bound', () => {
    const all = (after: bigint): OutcomeEvidence =>
      evidence({ balances: [{ ...usdc(5_000_000n, after), exact: 0n, bound: 2_000_000n }] });
    expect(judgeOutcome(all(5_000_000n))).toEqual({ outcome: 'succeeded' });
    expect(judgeOutcome(all(3_000_000n))).toEqual({ outcome: 'succeeded' });
    expect(judgeOutcome(all(2_999_999n)).outcome).toBe('unknown');
  });

  it('a receipt that says something else when read again is unknown', () => {
    expect(problemOf(evidence({ reread: 'reverted' }))).toMatch(
      /said SUCCEEDED, and read again it says REVERTED/,
    );
    expect(problemOf(evidence({ receipt: 'reverted', reread: 'unknown' }))).toMatch(
      /said REVERTED, and read again it says UNKNOWN/,
    );
  });

  it('without a SNIP-9 identity or balances to check, the re-read receipt decides', () => {
    expect(judgeOutcome(evidence({ nonceUsed: undefined, balances: [] }))).toEqual({
      outcome: 'succeeded',
    });
    expect(
      judgeOutcome(
        evidence({ receipt: 'reverted', reread: 'reverted', nonceUsed: undefined, balances: [] }),
      ),
    ).toEqual({ outcome: 'reverted' });
  });
});
