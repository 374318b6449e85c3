/**
 * The `position` leg type: one `modify_position` on a Vesu pool's (collateral, debt) position of
 * the account — a borrow (collateral deposited when an amount is given, debt > 0), a repay
 * (debt < 0; "all" is the whole **nominal** debt in the Native denomination, so no dust is left),
 * a close (both: the whole nominal debt repaid and every collateral share withdrawn, in one
 * call), or collateral alone (debt 0): added (asset units), or withdrawn (asset units, or every
 * share in the Native denomination for all, so no dust share is left). The pool is the spender
 * for what it takes: `approve(pool, collateral)` before a deposit, `approve(pool, repay)` before
 * a repay — exact for an amount; for "all" the debt read plus
 * REPAY_ALL_MARGIN (interest accrues per second until it runs), cleared to 0 right after, so no
 * allowance outlives the transaction. Its reads before planning are the pair's position, prices,
 * max LTV and limits (legs/position-read.ts), which give the health factor before → after, checked
 * there (≤ 1 refused, below the margin acknowledged: lending-common.ts). Effects: the collateral
 * deposited and the repay's bound leave (for "all", a bound: the debt read is what it is expected
 * to take); the borrowed amount arrives exactly, withdrawn collateral at least as read. Its terms
 * (what the person consents to, beside what leaves): what arrives, the debt and the collateral
 * the position is left with, the health factor before → after.
 */
import { addressToBigInt, type Token } from '../../../../shared/tokens.js';
import { buildApproveCall } from '../../chain/calls.js';
import { checkPoolCall } from './staking-common.js';
import {
  amountValues,
  checkApprove,
  type HealthChange,
  healthChangeWords,
  healthView,
  hexFelt,
  lowHealth,
  poolView,
  poolWords,
  type VesuPool,
} from './lending-common.js';
import type { PositionEffect } from './types.js';
import type { LegType, PositionAction } from './types.js';
import { asOfWords, exact, legAmount, shortAddress } from './words.js';

/** Repay all: the approve covers the debt read plus 1/1000 (plus 1 unit) for the interest until it runs. */
export const REPAY_ALL_MARGIN_DIVISOR = 1000n;

export interface PositionLeg {
  type: 'position';
  action: PositionAction;
  pool: VesuPool;
  collateral: Token;
  debt: Token;
  /**
   * the collateral `Amount`: + deposit (asset units), − an amount (asset units), − every share
   * (Native: a close, a withdrawal of all), or 0
   */
  collateralDelta: { native: boolean; value: bigint };
  /** the debt `Amount`: + borrow (asset units), − repay (asset units, or Native nominal for all) */
  debtDelta: { native: boolean; value: bigint };
  /** approve(pool, this) of the collateral before a deposit; 0: none */
  depositApprove: bigint;
  /** approve(pool, this) of the debt token before a repay; 0: none */
  repayApprove: bigint;
  /** the repay is "all": its approve is a bound, cleared to 0 after the call */
  repayAll: boolean;
  /** the debt borrowed (arrives exactly) */
  borrowed: bigint;
  /** the collateral withdrawn (arrives, at least) */
  collateralOut: bigint;
  /** the debt as read before planning (what repaying all is expected to take, before interest) */
  debtNow: bigint;
  /** the chain time (seconds) `debtNow` is as of: the pool accrues interest to the block it is read at */
  debtAsOf: number;
  /** the position as it is left: its debt and its collateral, in asset units, as read plus this change */
  after: { debt: bigint; collateral: bigint };
  health: HealthChange;
}

const modify = (leg: PositionLeg, account: string) => ({
  contract: leg.pool.address,
  entrypoint: 'modify_position',
  args: [
    addressToBigInt(leg.collateral.address) ?? -1n,
    addressToBigInt(leg.debt.address) ?? -1n,
    addressToBigInt(account) ?? -1n,
    ...amountValues(leg.collateralDelta.native, leg.collateralDelta.value),
    ...amountValues(leg.debtDelta.native, leg.debtDelta.value),
  ],
});

const risky = (leg: PositionLeg): boolean =>
  leg.debtDelta.value > 0n || leg.collateralDelta.value < 0n;

const pairWords = (leg: PositionLeg): string => `${leg.collateral.symbol}/${leg.debt.symbol}`;

const what = (leg: PositionLeg): string => {
  switch (leg.action) {
    case 'borrow':
      return `borrowing ${exact(leg.borrowed, leg.debt)} against ${leg.collateral.symbol}`;
    case 'repay':
      return `repaying ${leg.repayAll ? 'all' : exact(-leg.debtDelta.value, leg.debt)} of the ${leg.debt.symbol} debt`;
    case 'close':
      return `closing the ${pairWords(leg)} position`;
    case 'add-collateral':
      return `adding ${exact(leg.depositApprove, leg.collateral)} of collateral to the ${pairWords(leg)} position`;
    case 'withdraw-collateral':
      return leg.collateralDelta.native
        ? `withdrawing all the ${leg.collateral.symbol} collateral from the ${pairWords(leg)} position`
        : `withdrawing ${exact(leg.collateralOut, leg.collateral)} of collateral from the ${pairWords(leg)} position`;
  }
};

export const positionLegType: LegType<PositionLeg> = {
  calls: (leg, plan) => {
    const m = modify(leg, plan.account);
    return [
      ...(leg.depositApprove > 0n
        ? [buildApproveCall(leg.collateral, leg.pool.address, leg.depositApprove)]
        : []),
      ...(leg.repayApprove > 0n
        ? [buildApproveCall(leg.debt, leg.pool.address, leg.repayApprove)]
        : []),
      { contractAddress: m.contract, entrypoint: m.entrypoint, calldata: m.args.map(hexFelt) },
      // the allowance cleared: buildApproveCall takes positive amounts only
      ...(leg.repayAll
        ? [
            {
              contractAddress: leg.debt.address,
              entrypoint: 'approve',
              calldata: [leg.pool.address, '0x0', '0x0'],
            },
          ]
        : []),
    ];
  },
  verify: (leg, calls, at, index, plan) => {
    const words = `position ${index + 1} (${what(leg)} in ${poolWords(leg.pool)})`;
    let n = at;
    if (leg.depositApprove > 0n)
      checkApprove(
        calls[n],
        leg.collateral,
        leg.pool.address,
        leg.depositApprove,
        words,
        n++,
        'the pool',
      );
    if (leg.repayApprove > 0n)
      checkApprove(calls[n], leg.debt, leg.pool.address, leg.repayApprove, words, n++, 'the pool');
    checkPoolCall(calls[n], modify(leg, plan.account), words, n);
    n++;
    if (leg.repayAll)
      checkApprove(calls[n], leg.debt, leg.pool.address, 0n, words, n++, 'the pool');
    return n - at;
  },
  effects: (leg) => {
    const positions: PositionEffect[] = [];
    const add = (token: Token, change: PositionEffect['change'], amount: bigint): void => {
      positions.push({ kind: 'lending', pool: leg.pool.address, token, change, amount });
    };
    // every share (withdraw all, close) is recorded as 0, as a repay of all the debt is (whose
    // bounded approval, below, is marked `all`): what it pays out or in grows with interest, and
    // the retry guard must know the same "all" asked twice
    if (leg.collateralDelta.value !== 0n)
      add(
        leg.collateral,
        leg.collateralDelta.value > 0n ? 'collateral' : 'collateral-withdraw',
        leg.collateralDelta.value > 0n
          ? leg.depositApprove
          : leg.collateralDelta.native
            ? 0n
            : leg.collateralOut,
      );
    if (leg.debtDelta.value > 0n) add(leg.debt, 'borrow', leg.borrowed);
    if (leg.debtDelta.value < 0n) add(leg.debt, 'repay', leg.repayAll ? 0n : leg.repayApprove);
    return {
      out: [
        ...(leg.depositApprove > 0n ? [{ token: leg.collateral, amount: leg.depositApprove }] : []),
        ...(leg.repayApprove > 0n
          ? [
              {
                token: leg.debt,
                amount: leg.repayApprove,
                ...(leg.repayAll
                  ? { all: true as const, expected: leg.debtNow, expectedAsOf: leg.debtAsOf }
                  : {}),
              },
            ]
          : []),
      ],
      in: [
        ...(leg.borrowed > 0n
          ? [{ token: leg.debt, amount: leg.borrowed, basis: 'exact' as const }]
          : []),
        ...(leg.collateralOut > 0n
          ? [{ token: leg.collateral, amount: leg.collateralOut, basis: 'minimum' as const }]
          : []),
      ],
      positions,
    };
  },
  identity: (leg) => [leg.pool.address, leg.action, leg.collateral.address, leg.debt.address],
  describe: (leg) => ({
    type: 'position',
    action: leg.action,
    pool: poolView(leg.pool),
    collateralToken: { symbol: leg.collateral.symbol, address: leg.collateral.address },
    debtToken: { symbol: leg.debt.symbol, address: leg.debt.address },
    ...(leg.collateralDelta.value > 0n
      ? { deposit: legAmount(leg.depositApprove, leg.collateral) }
      : {}),
    ...(leg.collateralDelta.value < 0n
      ? {
          withdrawCollateral: leg.collateralDelta.native
            ? { all: true as const, minimum: legAmount(leg.collateralOut, leg.collateral) }
            : { all: false as const, amount: legAmount(leg.collateralOut, leg.collateral) },
        }
      : {}),
    ...(leg.debtDelta.value > 0n ? { borrow: legAmount(leg.borrowed, leg.debt) } : {}),
    ...(leg.debtDelta.value < 0n
      ? {
          repay: leg.repayAll
            ? {
                all: true as const,
                maximum: legAmount(leg.repayApprove, leg.debt),
                nominalDebt: (-leg.debtDelta.value).toString(),
              }
            : { all: false as const, amount: legAmount(-leg.debtDelta.value, leg.debt) },
        }
      : {}),
    health: healthView(leg.health),
  }),
  headline: (legs) =>
    legs.map(
      (l) => `${what(l)} in ${poolWords(l.pool)} (health factor ${healthChangeWords(l.health)})`,
    ),
  acknowledgments: (leg) => lowHealth(leg.health, risky(leg), what(leg)),
  terms: (leg) => {
    const debtAfter = leg.after.debt === 0n ? 'nothing' : exact(leg.after.debt, leg.debt);
    const held =
      leg.after.collateral === 0n
        ? 'no collateral'
        : `${exact(leg.after.collateral, leg.collateral)} collateral`;
    return [
      ...(leg.borrowed > 0n
        ? [`arrives in the wallet: ${exact(leg.borrowed, leg.debt)} (borrowed)`]
        : []),
      ...(leg.collateralOut > 0n
        ? [
            `arrives in the wallet: ${leg.collateralDelta.native ? 'at least ' : ''}${exact(leg.collateralOut, leg.collateral)} (collateral withdrawn)`,
          ]
        : []),
      `position after: owes ${debtAfter}, ${held}; health factor ${healthChangeWords(leg.health)}`,
    ];
  },
  // repay all, close: the nominal debt repaid, and the approved bound with room left for the
  // interest until it runs (at least half its margin: docs/decisions.md "A plan is signed only
  // while it is still true"); every collateral share withdrawn, worth at least as reviewed
  moved: (planned, now) => {
    const changes: string[] = [];
    if (planned.repayAll) {
      if (now.debtDelta.value !== planned.debtDelta.value)
        changes.push(
          `the ${now.debt.symbol} debt is no longer the one reviewed: about ${exact(now.debtNow, now.debt)} as of ${asOfWords(now.debtAsOf)}, was about ${exact(planned.debtNow, planned.debt)} as of ${asOfWords(planned.debtAsOf)}`,
        );
      const margin = planned.repayApprove - planned.debtNow;
      if (now.debtNow > planned.repayApprove - margin / 2n)
        changes.push(
          `the ${now.debt.symbol} debt grew to about ${exact(now.debtNow, now.debt)} with interest: the ${exact(planned.repayApprove, planned.debt)} approved for it (the debt as reviewed, ${exact(planned.debtNow, planned.debt)}, plus a margin) no longer covers it safely`,
        );
    }
    if (planned.collateralDelta.native && planned.collateralDelta.value < 0n) {
      if (now.collateralDelta.value !== planned.collateralDelta.value)
        changes.push(
          `the position's ${now.collateral.symbol} collateral is no longer the one reviewed: worth ${exact(now.collateralOut, now.collateral)} now, ${exact(planned.collateralOut, planned.collateral)} when reviewed`,
        );
      if (now.collateralOut < planned.collateralOut)
        changes.push(
          `all the ${now.collateral.symbol} collateral is now worth ${exact(now.collateralOut, now.collateral)}, less than the ${exact(planned.collateralOut, planned.collateral)} reviewed`,
        );
    }
    return changes;
  },
  describeCalls: (leg) => [
    ...(leg.depositApprove > 0n
      ? [
          `approve ${exact(leg.depositApprove, leg.collateral)} to ${poolWords(leg.pool)} ${shortAddress(leg.pool.address)} (collateral)`,
        ]
      : []),
    ...(leg.repayApprove > 0n
      ? [
          `approve ${leg.repayAll ? 'at most ' : ''}${exact(leg.repayApprove, leg.debt)} to ${poolWords(leg.pool)} ${shortAddress(leg.pool.address)} (repayment)`,
        ]
      : []),
    `modify_position ${leg.collateral.symbol}/${leg.debt.symbol}: ${[
      leg.collateralDelta.value > 0n
        ? `deposit ${exact(leg.collateralDelta.value, leg.collateral)} collateral`
        : '',
      leg.collateralDelta.value < 0n
        ? leg.collateralDelta.native
          ? `withdraw all collateral (at least ${exact(leg.collateralOut, leg.collateral)})`
          : `withdraw ${exact(leg.collateralOut, leg.collateral)} collateral`
        : '',
      leg.debtDelta.value > 0n ? `borrow ${exact(leg.borrowed, leg.debt)}` : '',
      leg.debtDelta.value < 0n
        ? leg.repayAll
          ? `repay the whole debt: about ${exact(leg.debtNow, leg.debt)} as of ${asOfWords(leg.debtAsOf)}, at most as approved`
          : `repay ${exact(-leg.debtDelta.value, leg.debt)}`
        : '',
    ]
      .filter(Boolean)
      .join(', ')}; health factor ${healthChangeWords(leg.health)}`,
    ...(leg.repayAll
      ? [`approve 0 ${leg.debt.symbol} to ${poolWords(leg.pool)} (clears what the repayment left)`]
      : []),
  ],
};
