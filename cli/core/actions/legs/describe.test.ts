import { describe, expect, it } from 'vitest';
import { formatAmount } from '../../../../shared/amount.js';
import {
  borrowSpec,
  HUNDRED,
  ONE_OF_EACH,
  planOfLeg,
  pool,
  V_TOKEN,
  validator,
} from '../../../../test/helpers/leg-fixtures.js';
import { E18, vesuPair as pair } from '../../../../test/helpers/lending-fixtures.js';
import { ETH, legPlanOf, OTHER, POOL, STRK, USDC } from '../../../../test/helpers/swap-fixtures.js';
import { planDocument } from '../document.js';
import { LEG_TYPE_NAMES, LEG_TYPES, type LegView, legEffects, legViews } from './index.js';
import { positionLegOf } from './position-read.js';
import type { LegAmount, LegPlan } from './types.js';

const amountOf = (amount: bigint, token: typeof ETH): LegAmount => ({
  token: token.symbol,
  tokenAddress: token.address,
  amount: formatAmount(amount, token.decimals),
  baseUnits: amount.toString(),
});

/** Every exact amount a view lists (as token address → base units), wherever it sits. */
function amountsIn(view: unknown): string[] {
  if (view === null || typeof view !== 'object') return [];
  const o = view as Record<string, unknown>;
  if (typeof o.baseUnits === 'string' && typeof o.tokenAddress === 'string')
    return [`${BigInt(o.tokenAddress)}:${o.baseUnits}`];
  return Object.values(o).flatMap(amountsIn);
}

describe('each leg type describes itself in the plan document', () => {
  it.each(LEG_TYPE_NAMES)(
    '%s: its own type, every amount its effects move listed exactly',
    (name) => {
      const { leg, plan } = planOfLeg(name);
      const view = LEG_TYPES[name].describe(leg as never, plan as LegPlan) as LegView;
      expect(view.type).toBe(name);
      const listed = amountsIn(view);
      const [effects] = legEffects([leg], plan);
      const moved = [...effects!.out, ...effects!.in]
        .filter((e) => e.amount > 0n)
        .map((e) => `${BigInt(e.token.address)}:${e.amount}`);
      for (const m of moved) expect(listed).toContain(m);
      // the document carries it, in call order, and stays JSON-safe
      const doc = planDocument(plan);
      expect(doc.legs).toEqual([view]);
      expect(JSON.parse(JSON.stringify(doc.legs))).toEqual([view]);
    },
  );

  it('a swap: what leaves exactly, the confirmed minimum, the expectation and the router', () => {
    const { leg, plan } = planOfLeg('swap');
    const [view] = legViews([leg], plan);
    const q = ONE_OF_EACH.swap.leg.swap.confirmed;
    expect(view).toEqual({
      type: 'swap',
      sell: amountOf(E18, ETH),
      minimum: expect.objectContaining({ baseUnits: q.minimumReceived.toString(), token: 'USDC' }),
      expected: expect.objectContaining({ baseUnits: q.expectedOutput.toString(), token: 'USDC' }),
      slippageBps: 100,
      router: plan.router,
    });
  });

  it('a transfer, a stake, an exit intent, an exit and a claim: amounts, validator, addresses', () => {
    const views = (['transfer', 'stake', 'unstake-intent', 'unstake', 'claim'] as const).map(
      (name) => {
        const { leg, plan } = planOfLeg(name);
        return legViews([leg], plan)[0];
      },
    );
    const v = { name: 'Alpha', staker: validator.staker, pool: POOL };
    expect(views).toEqual([
      { type: 'transfer', amount: amountOf(5n * E18, STRK), to: OTHER },
      { type: 'stake', amount: amountOf(HUNDRED, STRK), validator: v, entry: 'enter' },
      { type: 'unstake-intent', amount: amountOf(3n * E18, STRK), cancel: false, validator: v },
      { type: 'unstake', amount: amountOf(3n * E18, STRK), validator: v },
      {
        type: 'claim',
        amount: {
          token: 'STRK',
          tokenAddress: STRK.address,
          amount: '0.000000000000000007',
          baseUnits: '7',
        },
        validator: v,
        rewardAddress: OTHER,
      },
    ]);
  });

  it('a supply and a withdrawal (an amount exactly; all: the shares, at least the minimum)', () => {
    const { leg, plan } = planOfLeg('supply');
    expect(legViews([leg], plan)).toEqual([
      {
        type: 'supply',
        amount: amountOf(250n * 10n ** 6n, USDC),
        pool: { name: pool.name, address: pool.address },
        vToken: V_TOKEN,
      },
    ]);
    const all = planOfLeg('withdraw');
    expect(legViews([all.leg], all.plan)).toEqual([
      {
        type: 'withdraw',
        pool: { name: pool.name, address: pool.address },
        vToken: V_TOKEN,
        all: true,
        minimum: amountOf(251n * 10n ** 6n, USDC),
        shares: (249n * 10n ** 6n).toString(),
      },
    ]);
    const some = { ...ONE_OF_EACH.withdraw.leg, mode: 'assets' as const, amount: 5n * 10n ** 6n };
    expect(legViews([some], legPlanOf('withdraw', some))[0]).toEqual({
      type: 'withdraw',
      pool: { name: pool.name, address: pool.address },
      vToken: V_TOKEN,
      all: false,
      amount: amountOf(5n * 10n ** 6n, USDC),
    });
  });

  it('a borrow: the collateral deposited and the debt borrowed, exactly, and the health factor', () => {
    const { leg, plan } = planOfLeg('position');
    expect(legViews([leg], plan)).toEqual([
      {
        type: 'position',
        action: 'borrow',
        pool: { name: pool.name, address: pool.address },
        collateralToken: { symbol: 'ETH', address: ETH.address },
        debtToken: { symbol: 'USDC', address: USDC.address },
        deposit: amountOf(E18, ETH),
        borrow: amountOf(1000n * 10n ** 6n, USDC),
        health: { before: null, after: expect.any(String) },
      },
    ]);
  });

  it('repay all: the approve bound as a maximum, the nominal debt; close: all collateral at least', () => {
    const debt = 1000n * 10n ** 6n;
    const repay = positionLegOf({ ...borrowSpec, action: 'repay', amount: undefined }, pair(debt));
    const [view] = legViews([repay], legPlanOf('repay', repay));
    if (repay.type !== 'position' || view?.type !== 'position') throw new Error('not a position');
    expect(view.repay).toEqual({
      all: true,
      maximum: amountOf(repay.repayApprove, USDC),
      nominalDebt: (debt * 10n ** 12n).toString(),
    });
    expect(repay.repayApprove).toBeGreaterThan(debt);
    const close = positionLegOf(
      { ...borrowSpec, action: 'close', amount: undefined, collateralAmount: undefined },
      pair(debt),
    );
    const [closed] = legViews([close], legPlanOf('close-position', close));
    if (closed?.type !== 'position') throw new Error('not a position');
    expect(closed.withdrawCollateral).toEqual({ all: true, minimum: amountOf(E18, ETH) });
    expect(closed.repay).toEqual(expect.objectContaining({ all: true }));
  });

  it('the legs of a plan in call order, one per leg', () => {
    const names = [...LEG_TYPE_NAMES].reverse();
    const legs = names.map((n) => planOfLeg(n).leg);
    const views = legViews(legs, planOfLeg('swap').plan);
    expect(views.map((l) => l.type)).toEqual(names);
  });
});

describe('lending terms in words (the same lines every face shows)', () => {
  it('withdraw all: what the shares are worth in the token, never a count of vToken shares', () => {
    const { plan } = planOfLeg('withdraw');
    const doc = planDocument(plan as never);
    const words = [doc.headline, ...doc.terms, ...doc.calls.map((c) => c.description)].join('\n');
    expect(words).toContain('every share, worth at least 251 USDC');
    expect(words).not.toMatch(/249000000|vToken shares/);
  });
});
