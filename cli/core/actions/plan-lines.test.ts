import { describe, expect, it } from 'vitest';
import {
  borrowSpec,
  ONE_OF_EACH,
  planOfLeg,
  pool,
  V_TOKEN,
} from '../../../test/helpers/leg-fixtures.js';
import { E18, vesuPair as pair } from '../../../test/helpers/lending-fixtures.js';
import { ETH, legPlanOf, OTHER, planOf, STRK, USDC } from '../../../test/helpers/swap-fixtures.js';
import { planDocument } from './document.js';
import { LEG_TYPE_NAMES } from './legs/index.js';
import { positionLegOf } from './legs/position-read.js';
import type { ExecutionResult } from './pipeline.js';
import { type PlanLine, planLines, receiptLines } from './plan-lines.js';

const M6 = 10n ** 6n;
const sponsored = { mode: 'sponsored' } as const;
const linesOf = (plan: Parameters<typeof planDocument>[0], extras = {}) =>
  planLines(planDocument(plan, { gas: sponsored, ...extras }));
const brief = (lines: PlanLine[]) => lines.map((l) => [l.kind, l.words]);
const amounts = (l: PlanLine | undefined) =>
  l?.amounts.map((a) => [a.symbol, a.decimals, a.baseUnits]);

describe('plan lines: each leg type as lines, every amount exact', () => {
  it.each(LEG_TYPE_NAMES)('%s: at least one line of its own leg, amounts with decimals', (name) => {
    const { plan } = planOfLeg(name);
    const lines = linesOf(plan);
    const own = lines.filter((l) => l.leg === 0);
    expect(own.length).toBeGreaterThan(0);
    for (const l of lines)
      for (const a of l.amounts) {
        expect(typeof a.baseUnits).toBe('bigint');
        // the decimals of every token the plan moves are known: the display is exact
        expect(a.decimals).not.toBeNull();
      }
  });

  it('a swap: what leaves exactly and arrives at least, the expectation with its fee', () => {
    const { plan } = planOfLeg('swap');
    const lines = linesOf(plan);
    const q = ONE_OF_EACH.swap.leg.swap.confirmed;
    const swap = lines.find((l) => l.kind === 'swap');
    expect(swap?.words).toBe(`swap 1 ETH → at least ${q.summary.minimumReceived.amount} USDC`);
    expect(amounts(swap)).toEqual([
      ['ETH', 18, E18],
      ['USDC', 6, q.minimumReceived],
    ]);
    expect(lines.map((l) => l.kind)).toEqual(expect.arrayContaining(['expected', 'total', 'gas']));
    const expected = lines.find((l) => l.kind === 'expected');
    expect(expected?.words).toMatch(
      new RegExp(
        `^expected ${q.summary.expectedOutput.amount} USDC, service fee ${q.summary.fee.percent} ${q.summary.fee.amount.amount} USDC, price impact `,
      ),
    );
    // the aggregator's route, each split's share and hops, as the quote gave it
    const route = q.summary.route
      .map((r) => `${r.percent} ${[r.hops[0]?.from, ...r.hops.map((h) => h.to)].join(' → ')}`)
      .join(', ');
    expect(route).not.toBe('');
    expect(expected?.words.endsWith(`, route ${route}`)).toBe(true);
    expect(amounts(expected)).toEqual([
      ['USDC', 6, q.expectedOutput],
      ['USDC', 6, BigInt(q.summary.fee.amount.baseUnits)],
    ]);
    expect(lines.find((l) => l.kind === 'total')?.words).toBe('leaves the wallet: 1 ETH');
    expect(lines.at(-1)?.words).toBe('gas: sponsored (you pay no gas)');
  });

  it('a transfer names its recipient in full; a claim its reward address', () => {
    const send = linesOf(planOfLeg('transfer').plan).find((l) => l.leg === 0);
    expect(send).toEqual({
      kind: 'leaves',
      leg: 0,
      words: `send 5 STRK to ${OTHER}`,
      amounts: [
        { symbol: 'STRK', address: STRK.address, decimals: 18, baseUnits: 5n * E18, amount: '5' },
      ],
      to: OTHER,
    });
    const claim = linesOf(planOfLeg('claim').plan).find((l) => l.leg === 0);
    expect(claim?.kind).toBe('at-least');
    expect(claim?.to).toBe(OTHER);
    expect(claim?.words).toBe(
      `claim at least 0.000000000000000007 STRK of rewards from Alpha, paid to ${OTHER}`,
    );
  });

  it('staking: a stake leaves, an exit starts, an exited amount arrives', () => {
    expect(brief(linesOf(planOfLeg('stake').plan).filter((l) => l.leg === 0))).toEqual([
      ['leaves', 'stake 100 STRK with Alpha (a first stake in its pool)'],
    ]);
    const intent = linesOf(planOfLeg('unstake-intent').plan);
    expect(brief(intent.filter((l) => l.leg === 0))).toEqual([
      ['position', 'start exiting 3 STRK from Alpha'],
    ]);
    // its terms (what is exiting after it) follow, in the leg's words
    expect(intent.some((l) => l.kind === 'term' && l.words.includes('is exiting from Alpha'))).toBe(
      true,
    );
    expect(brief(linesOf(planOfLeg('unstake').plan).filter((l) => l.leg === 0))).toEqual([
      ['arrives', 'arrives in the wallet: 3 STRK (exited from Alpha)'],
    ]);
  });

  it('lending: a supply leaves; a withdrawal arrives exactly, or all at least', () => {
    expect(brief(linesOf(planOfLeg('supply').plan).filter((l) => l.leg === 0))).toEqual([
      ['leaves', `supply 250 USDC to the Vesu ${pool.name} pool`],
    ]);
    expect(brief(linesOf(planOfLeg('withdraw').plan).filter((l) => l.leg === 0))).toEqual([
      [
        'at-least',
        `arrives in the wallet: at least 251 USDC (all withdrawn from the Vesu ${pool.name} pool)`,
      ],
    ]);
    const some = legPlanOf('withdraw', {
      type: 'withdraw',
      pool,
      token: USDC,
      vToken: V_TOKEN,
      mode: 'assets',
      amount: 5n * M6,
    } as never);
    expect(brief(linesOf(some).filter((l) => l.leg === 0))).toEqual([
      ['arrives', `arrives in the wallet: 5 USDC (withdrawn from the Vesu ${pool.name} pool)`],
    ]);
  });

  it('a borrow: the collateral leaves, the debt arrives (said once), the position after with its health', () => {
    const lines = linesOf(planOfLeg('position').plan);
    expect(brief(lines.filter((l) => l.leg === 0))).toEqual([
      ['leaves', `deposit 1 ETH as collateral in the Vesu ${pool.name} pool`],
      ['arrives', 'arrives in the wallet: 1000 USDC (borrowed)'],
    ]);
    // the leg's term with the same words is not said twice
    expect(
      lines.filter((l) => l.words === 'arrives in the wallet: 1000 USDC (borrowed)'),
    ).toHaveLength(1);
    expect(lines.find((l) => l.kind === 'term')?.words).toMatch(
      /^position after: owes 1000 USDC, 1 ETH collateral; health factor — → [0-9.]+$/,
    );
  });

  it('repay all: a bound, "at most", never an exact amount leaving; close: all collateral at least', () => {
    const debt = 1000n * M6;
    const repay = positionLegOf({ ...borrowSpec, action: 'repay', amount: undefined }, pair(debt));
    if (repay.type !== 'position') throw new Error('not a position');
    const lines = linesOf(legPlanOf('repay', repay));
    const bound = lines.find((l) => l.leg === 0);
    expect(bound?.kind).toBe('at-most');
    expect(amounts(bound)).toEqual([['USDC', 6, repay.repayApprove]]);
    const total = lines.find((l) => l.leg === null && l.words.startsWith('leaves the wallet'));
    expect(total?.kind).toBe('at-most');
    expect(total?.words).toMatch(
      /^leaves the wallet: at most [0-9.]+ USDC \(about [0-9.]+ USDC: the debt/,
    );
    const close = positionLegOf(
      { ...borrowSpec, action: 'close', amount: undefined, collateralAmount: undefined },
      pair(debt),
    );
    const closed = linesOf(legPlanOf('close-position', close)).filter((l) => l.leg === 0);
    expect(closed.map((l) => l.kind)).toEqual(['at-most', 'at-least']);
    expect(closed[1]?.words).toBe('arrives in the wallet: at least 1 ETH (collateral withdrawn)');
  });

  it('a batch: each leg in call order, the totals per token, the gas at most, the acknowledgments', () => {
    const { leg: stake } = planOfLeg('stake');
    const { leg: supply } = planOfLeg('supply');
    const plan = planOf(
      'batch',
      [],
      [{ token: USDC, amount: 1_250_000n, to: OTHER }],
      [stake, supply],
    );
    const lines = linesOf(plan, {
      gas: { mode: 'default', token: STRK, maxFee: 2n * 10n ** 17n, estimatedFee: 10n ** 17n },
      acknowledgments: [{ id: 'low-health', reason: 'the health factor is low', details: {} }],
    });
    expect(brief(lines)).toEqual([
      ['leaves', `send 1.25 USDC to ${OTHER}`],
      ['leaves', 'stake 100 STRK with Alpha (a first stake in its pool)'],
      ['leaves', `supply 250 USDC to the Vesu ${pool.name} pool`],
      ['total', 'leaves the wallet: 251.25 USDC'],
      ['total', 'leaves the wallet: 100 STRK (+ up to 0.2 STRK gas)'],
      ['gas', 'gas: at most 0.2 STRK, about 0.1 STRK (the unused part is refunded)'],
      ['acknowledgment', 'to acknowledge: the health factor is low'],
    ]);
    expect(lines.map((l) => l.leg)).toEqual([0, 1, 2, null, null, null, null]);
    expect(amounts(lines[4])).toEqual([
      ['STRK', 18, 100n * E18],
      ['STRK', 18, 2n * 10n ** 17n],
    ]);
    // the document carries them JSON-safe, the same lines again
    const doc = planDocument(plan, { gas: sponsored });
    expect(planLines(JSON.parse(JSON.stringify(doc)) as typeof doc)).toEqual(planLines(doc));
  });
});

describe('receipt lines', () => {
  it('the balance changes, each output against its minimum, the gas paid, notes', () => {
    const doc = planDocument(planOfLeg('swap').plan, {
      gas: { mode: 'default', token: STRK, maxFee: 10n ** 18n },
    });
    const result: ExecutionResult = {
      ...doc,
      transaction: {
        hash: `0x${'ab'.repeat(32)}`,
        status: 'SUCCEEDED',
        blockNumber: 7,
        received: [
          {
            symbol: 'USDC',
            address: USDC.address,
            amount: '3000.000001',
            baseUnits: '3000000001',
            minimum: { amount: '2985', baseUnits: '2985000000' },
          },
        ],
        balanceChanges: [
          {
            symbol: 'ETH',
            address: ETH.address,
            decimals: 18,
            amount: '-1',
            baseUnits: (-E18).toString(),
          },
          {
            symbol: 'USDC',
            address: USDC.address,
            decimals: 6,
            amount: '3000.000001',
            baseUnits: '3000000001',
          },
        ],
        feePaid: { symbol: 'STRK', amount: '0.000000000000000123', baseUnits: '123' },
        deployedAccount: true,
      },
    };
    const lines = receiptLines(result);
    expect(brief(lines)).toEqual([
      ['change', '-1 ETH'],
      ['change', '+3000.000001 USDC'],
      ['arrives', 'received 3000.000001 USDC (you confirmed at least 2985 USDC)'],
      ['gas', 'gas paid: 0.000000000000000123 STRK'],
      ['note', 'your account was deployed with this transaction'],
    ]);
    expect(amounts(lines[2])).toEqual([
      ['USDC', 6, 3_000_000_001n],
      ['USDC', 6, 2_985_000_000n],
    ]);
    expect(amounts(lines[3])).toEqual([['STRK', 18, 123n]]);
  });

  it("an exit's receipt says what is exiting and when it can be withdrawn (its terms)", () => {
    const doc = planDocument(planOfLeg('unstake-intent').plan, { gas: sponsored });
    const result = {
      ...doc,
      transaction: {
        hash: `0x${'cd'.repeat(32)}`,
        status: 'SUCCEEDED',
        blockNumber: null,
        received: [],
        balanceChanges: [],
        feePaid: null,
        deployedAccount: false,
      },
    } satisfies ExecutionResult;
    const lines = receiptLines(result);
    expect(lines.filter((l) => l.kind === 'term').map((l) => l.words)).toEqual(doc.terms);
    expect(lines.at(-1)?.words).toBe('gas: sponsored');
  });
});
