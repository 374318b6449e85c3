import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { refusal } from '../../../test/helpers/failure.js';
import { ROUTER_ADDRESS } from '../../../shared/swap-calldata.js';
import { decodeSwapCalldataTail, encodeSwapCalldata } from '../../../shared/swap-calldata.js';
import { type Token } from '../../../shared/tokens.js';
import {
  ACCOUNT,
  ETH,
  ethToUsdcTrade,
  honestCalldata,
  OTHER,
  planOf,
  plannedSwap,
  POOL,
  quoteOf,
  STRK,
  T0,
  USDC,
} from '../../../test/helpers/swap-fixtures.js';
import { buildApproveCall, buildTransferCall, type ChainCall as Call } from '../chain/calls.js';
import { decodeAddressAmount } from './calls.js';
import {
  checkBalances,
  checkPriceImpact,
  checkRequote,
  checkSimulation,
  type GasQuote,
  impactLevel,
  staleSwaps,
  verifyCalls,
  worstCaseArrival,
} from './checks.js';
import { type ActionPlan, withExecuting } from './plan.js';

const withCalls = (plan: ActionPlan, edit: (calls: Call[]) => Call[]): ActionPlan => ({
  ...plan,
  calls: edit(plan.calls.map((c) => ({ ...c, calldata: [...c.calldata] }))),
});
const replaceCall = (plan: ActionPlan, index: number, call: Call): ActionPlan =>
  withCalls(plan, (calls) => calls.map((c, i) => (i === index ? call : c)));
/** A trade whose swap call carries this calldata (as if the aggregator sent it) instead of the honest one. */
function tradeWithTail(tail: Parameters<typeof honestCalldata>[2]): ActionPlan {
  const q = quoteOf(ETH, USDC, 10n ** 18n, 3_000_000_000n);
  return planOf('trade', [plannedSwap(q, honestCalldata(q, ACCOUNT, tail))]);
}

/** Written out here so the test does not trust shared/fees.ts: m − ceil(m × bps / 10000). */
const afterFee = (m: bigint, bps: bigint): bigint => m - (m * bps + 9_999n) / 10_000n;

describe('verifyCalls: swap calldata against what was confirmed', () => {
  it('passes the honest plan of a trade', () => {
    expect(() => verifyCalls(ethToUsdcTrade())).not.toThrow();
  });

  it.each([
    ['destination', { destination: BigInt(OTHER) }],
    ['token_in', { tokenIn: BigInt(STRK.address) }],
    ['token_out', { tokenOut: BigInt(STRK.address) }],
    ['amount_in', { amountIn: 10n ** 18n + 1n }],
    ['amount_in', { amountIn: 10n ** 18n - 1n }],
  ] as const)('tampered %s → CALLDATA_MISMATCH naming it', (field, tail) => {
    expect(refusal(() => verifyCalls(tradeWithTail(tail)))).toMatchObject({
      code: 'CALLDATA_MISMATCH',
      details: { field, swap: 1, call: 2 },
    });
  });

  it('min_received: accepted at the exact threshold, refused one unit below', () => {
    const q = quoteOf(ETH, USDC, 10n ** 18n, 3_000_000_000n);
    // the smallest c with c − ceil(c × 2 / 10000) ≥ the shown minimum
    let c = q.minimumReceived;
    while (afterFee(c, 2n) < q.minimumReceived) c += 1n;
    expect(c).toBeLessThanOrEqual(q.calldataMinimumReceived);
    expect(() => verifyCalls(tradeWithTail({ minReceived: c }))).not.toThrow();
    expect(refusal(() => verifyCalls(tradeWithTail({ minReceived: c - 1n })))).toMatchObject({
      code: 'CALLDATA_MISMATCH',
      details: { field: 'min_received', confirmedMinimum: q.minimumReceived.toString() },
    });
  });

  it('min_received: the fee is the larger of the route\'s and the calldata\'s own (a "direct" route with routed calldata pays 15 bps)', () => {
    const q = quoteOf(ETH, USDC, 10n ** 18n, 3_000_000_000n);
    // enough at 2 bps, short at 15 bps
    const c = q.calldataMinimumReceived;
    expect(afterFee(c, 15n)).toBeLessThan(q.minimumReceived);
    const routed = encodeSwapCalldata(
      [
        {
          tokenIn: ETH.address,
          tokenOut: STRK.address,
          rate: 1_000_000n,
          protocol: 1,
          poolAddress: POOL,
        },
        {
          tokenIn: STRK.address,
          tokenOut: USDC.address,
          rate: 1_000_000n,
          protocol: 1,
          poolAddress: POOL,
        },
      ],
      {
        tokenIn: BigInt(ETH.address),
        tokenOut: BigInt(USDC.address),
        amountIn: q.amountIn,
        minReceived: c,
        destination: BigInt(ACCOUNT),
      },
    );
    expect(refusal(() => verifyCalls(planOf('trade', [plannedSwap(q, routed)])))).toMatchObject({
      code: 'CALLDATA_MISMATCH',
      details: { field: 'min_received', feeBps: 15 },
    });
  });

  it('the swap must call the router', () => {
    const plan = ethToUsdcTrade();
    const swap = plan.calls[1] as Call;
    expect(
      refusal(() => verifyCalls(replaceCall(plan, 1, { ...swap, contractAddress: OTHER }))),
    ).toMatchObject({ code: 'CALLDATA_MISMATCH', details: { field: 'router' } });
  });

  it.each([
    ['garbage', ['0x1', 'zz']],
    ['too short', ['1', '2', '3']],
    ['no swap in it', ['0', '0x1', '0x2', '1', '0', '1', '0', '0x3']],
  ])('calldata that is not the router layout (%s) → layout', (_name, calldata) => {
    const plan = ethToUsdcTrade();
    const swap = plan.calls[1] as Call;
    expect(refusal(() => verifyCalls(replaceCall(plan, 1, { ...swap, calldata })))).toMatchObject({
      code: 'CALLDATA_MISMATCH',
      details: { field: 'layout' },
    });
  });
});

describe('verifyCalls: approvals', () => {
  it.each([
    ['amount', buildApproveCall(ETH, ROUTER_ADDRESS, 10n ** 18n + 1n)],
    ['amount', buildApproveCall(ETH, ROUTER_ADDRESS, 10n ** 18n - 1n)],
    ['amount', buildApproveCall(ETH, ROUTER_ADDRESS, (1n << 256n) - 1n)],
    ['spender', buildApproveCall(ETH, OTHER, 10n ** 18n)],
    ['token', buildApproveCall(STRK, ROUTER_ADDRESS, 10n ** 18n)],
    [
      'calldata',
      { contractAddress: ETH.address, entrypoint: 'approve', calldata: [ROUTER_ADDRESS, '1'] },
    ],
    ['missing', buildTransferCall(ETH, OTHER, 10n ** 18n)],
  ] as Array<[string, Call]>)('an approve with the wrong %s → APPROVAL_MISMATCH', (field, call) => {
    expect(refusal(() => verifyCalls(replaceCall(ethToUsdcTrade(), 0, call)))).toMatchObject({
      code: 'APPROVAL_MISMATCH',
      details: { field, swap: 1, call: 1 },
    });
  });

  it('approves first, swaps after (approve1, approve2, swap1, swap2) is refused: each approve must sit right before its swap', () => {
    const plan = planOf('multi-swap', [
      plannedSwap(quoteOf(USDC, ETH, 100_000_000n, 33_000_000_000_000_000n, { prices: [1, 3000] })),
      plannedSwap(quoteOf(USDC, STRK, 50_000_000n, 100n * 10n ** 18n, { prices: [1, '0.5'] })),
    ]);
    const [a1, s1, a2, s2] = plan.calls as [Call, Call, Call, Call];
    expect(refusal(() => verifyCalls(withCalls(plan, () => [a1, a2, s1, s2])))).toMatchObject({
      code: 'CALLDATA_MISMATCH',
      details: { field: 'entrypoint' },
    });
    expect(refusal(() => verifyCalls(withCalls(plan, () => [s1, a1, a2, s2])))).toMatchObject({
      code: 'APPROVAL_MISMATCH',
      details: { field: 'missing' },
    });
  });

  it('an extra call after the plan → CALLS_MISMATCH count', () => {
    const plan = ethToUsdcTrade();
    expect(
      refusal(() =>
        verifyCalls(withCalls(plan, (calls) => [...calls, buildApproveCall(USDC, OTHER, 1n)])),
      ),
    ).toMatchObject({
      code: 'CALLS_MISMATCH',
      details: { field: 'count', expected: 2, actual: 3 },
    });
  });
});

describe('verifyCalls: batch transfers', () => {
  const batch = (): ActionPlan =>
    planOf(
      'batch',
      [plannedSwap(quoteOf(ETH, USDC, 10n ** 18n, 3_000_000_000n))],
      [{ token: USDC, amount: 5_000_000n, to: OTHER }],
    );

  it('passes swap + transfer', () => {
    expect(() => verifyCalls(batch())).not.toThrow();
  });

  it.each([
    ['recipient', buildTransferCall(USDC, ACCOUNT, 5_000_000n)],
    ['amount', buildTransferCall(USDC, OTHER, 5_000_001n)],
    ['token', buildTransferCall(STRK, OTHER, 5_000_000n)],
    ['entrypoint', buildApproveCall(USDC, OTHER, 5_000_000n)],
  ] as const)('a transfer with the wrong %s → CALLS_MISMATCH', (field, call) => {
    expect(refusal(() => verifyCalls(replaceCall(batch(), 2, call)))).toMatchObject({
      code: 'CALLS_MISMATCH',
      details: { field, send: 1, call: 3 },
    });
  });
});

/**
 * A toy ERC-20 ledger over the calls: approve SETS the allowance, the router's swap pulls its
 * calldata's amount_in with transferFrom (needing that much allowance), transfer moves funds.
 */
function replay(
  calls: readonly Call[],
  router: string,
): { ok: boolean; allowance: Map<string, bigint>; spent: Map<string, bigint> } {
  const allowance = new Map<string, bigint>();
  const spent = new Map<string, bigint>();
  const key = (a: string): string => BigInt(a).toString(16);
  for (const call of calls) {
    if (call.entrypoint === 'approve') {
      const args = decodeAddressAmount(call.calldata);
      if (args === undefined || args.address !== BigInt(router))
        return { ok: false, allowance, spent };
      allowance.set(key(call.contractAddress), args.amount);
    } else if (call.entrypoint === 'swap') {
      const tail = decodeSwapCalldataTail(call.calldata);
      const token = tail.tokenIn.toString(16);
      const left = allowance.get(token) ?? 0n;
      if (left < tail.amountIn) return { ok: false, allowance, spent };
      allowance.set(token, left - tail.amountIn);
      spent.set(token, (spent.get(token) ?? 0n) + tail.amountIn);
    } else if (call.entrypoint === 'transfer') {
      const args = decodeAddressAmount(call.calldata);
      spent.set(
        key(call.contractAddress),
        (spent.get(key(call.contractAddress)) ?? 0n) + (args?.amount ?? 0n),
      );
    }
  }
  return { ok: true, allowance, spent };
}

const tokens: Token[] = [ETH, STRK, USDC];
const arbPair = fc
  .tuple(fc.constantFrom(0, 1, 2), fc.constantFrom(1, 2))
  .map(([a, shift]) => [tokens[a] as Token, tokens[(a + shift) % 3] as Token] as const);
const arbSwap = fc.record({
  pair: arbPair,
  amountIn: fc.bigInt({ min: 1n, max: 10n ** 30n }),
  gross: fc.bigInt({ min: 0n, max: 10n ** 30n }),
  hops: fc.constantFrom(1 as const, 2 as const),
});

describe('the calls of any plan (property, 2 000 runs)', () => {
  it("verify, approve exactly each swap's amount right before it, and leave no allowance behind", () => {
    fc.assert(
      fc.property(
        fc.array(arbSwap, { minLength: 1, maxLength: 3 }),
        fc.array(
          fc.record({
            token: fc.constantFrom(...tokens),
            amount: fc.bigInt({ min: 1n, max: 10n ** 30n }),
          }),
          { maxLength: 3 },
        ),
        fc.integer({ min: 1, max: 5000 }),
        (swaps, sends, slippageBps) => {
          const planned = swaps.map((s) =>
            plannedSwap(
              quoteOf(s.pair[0], s.pair[1], s.amountIn, s.gross, { hops: s.hops, slippageBps }),
            ),
          );
          const plan = planOf(
            'batch',
            planned,
            sends.map((s) => ({ ...s, to: OTHER })),
          );
          verifyCalls(plan);
          const result = replay(plan.calls, plan.router);
          assert.equal(result.ok, true);
          for (const left of result.allowance.values()) assert.equal(left, 0n);
          for (const t of tokens) {
            const planned =
              swaps.filter((s) => s.pair[0] === t).reduce((sum, s) => sum + s.amountIn, 0n) +
              sends.filter((s) => s.token === t).reduce((sum, s) => sum + s.amount, 0n);
            assert.equal(result.spent.get(BigInt(t.address).toString(16)) ?? 0n, planned);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('why the order matters: approving both first leaves only the second amount approved (approve overwrites)', () => {
    const plan = planOf('multi-swap', [
      plannedSwap(quoteOf(USDC, ETH, 100_000_000n, 33_000_000_000_000_000n)),
      plannedSwap(quoteOf(USDC, STRK, 50_000_000n, 100n * 10n ** 18n)),
    ]);
    const [a1, s1, a2, s2] = plan.calls as [Call, Call, Call, Call];
    expect(replay([a1, s1, a2, s2], plan.router).ok).toBe(true);
    expect(replay([a1, a2, s1, s2], plan.router).ok).toBe(false);
  });
});

describe('the minimum-received rule (property, 10 000 runs)', () => {
  it('honest calldata of a quote passes; any accepted min_received delivers the shown minimum under either fee order', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 36n }),
        fc.integer({ min: 1, max: 5000 }),
        fc.constantFrom(1 as const, 2 as const),
        fc.bigInt({ min: -1000n, max: 1000n }),
        (gross, slippageBps, hops, delta) => {
          const q = quoteOf(ETH, USDC, 10n ** 18n, gross, { hops, slippageBps });
          const bps = hops === 1 ? 2n : 15n;
          // honest calldata passes: a refusal throws and fails the run (not wrapped in expect: the
          // wrapper cost more than the check, 10,000 times)
          verifyCalls(planOf('trade', [plannedSwap(q)]));
          const c = q.calldataMinimumReceived + delta;
          if (c < 0n) return;
          const accepted = (() => {
            try {
              verifyCalls(
                planOf('trade', [plannedSwap(q, honestCalldata(q, ACCOUNT, { minReceived: c }))]),
              );
              return true;
            } catch {
              return false;
            }
          })();
          assert.equal(accepted, afterFee(c, bps) >= q.minimumReceived);
          assert.equal(worstCaseArrival(c, Number(bps)), afterFee(c, bps));
          if (accepted) {
            assert.ok(c >= q.minimumReceived, 'the router checks after its fee');
            assert.ok(afterFee(c, bps) >= q.minimumReceived, 'the router checks before it');
          }
        },
      ),
      { numRuns: 10_000 },
    );
  });
});

describe('quote age and re-quotes', () => {
  const at = (ms: number): ActionPlan => ethToUsdcTrade({ quotedAt: T0 - ms });

  it('a quote is stale after 30 s, or when it is from the future', () => {
    expect(staleSwaps(at(30_000), T0)).toEqual([]);
    expect(staleSwaps(at(30_001), T0)).toEqual([0]);
    expect(staleSwaps(at(-1), T0)).toEqual([0]);
  });

  it('a re-quote below the confirmed minimum → QUOTE_CHANGED with both figures', () => {
    const confirmed = quoteOf(ETH, USDC, 10n ** 18n, 3_000_000_000n);
    const fresh = quoteOf(ETH, USDC, 10n ** 18n, 2_990_000_000n, { quotedAt: T0 + 31_000 });
    const r = refusal(() => checkRequote(0, confirmed, fresh));
    expect(r.code).toBe('QUOTE_CHANGED');
    expect(r.details).toMatchObject({
      swap: 1,
      confirmed: { minimumReceived: { baseUnits: confirmed.minimumReceived.toString() } },
      new: { minimumReceived: { baseUnits: fresh.minimumReceived.toString() } },
    });
  });

  it('a re-quote at or above the confirmed minimum executes, and its calldata still passes against the confirmed figures (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        fc.bigInt({ min: -50n, max: 10n ** 6n }),
        fc.integer({ min: 1, max: 5000 }),
        (gross, move, slippageBps) => {
          const confirmed = quoteOf(ETH, USDC, 10n ** 18n, gross, { slippageBps });
          const fresh = quoteOf(ETH, USDC, 10n ** 18n, gross + move < 0n ? 0n : gross + move, {
            slippageBps,
            quotedAt: T0 + 40_000,
          });
          const plan = planOf('trade', [plannedSwap(confirmed)]);
          let accepted = true;
          try {
            checkRequote(0, confirmed, fresh);
          } catch {
            accepted = false;
          }
          assert.equal(accepted, fresh.minimumReceived >= confirmed.minimumReceived);
          if (accepted) {
            const next = withExecuting(plan, 0, fresh, honestCalldata(fresh));
            verifyCalls(next); // a refusal throws and fails the run
            assert.deepEqual(staleSwaps(next, T0 + 40_000), []);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('price impact', () => {
  it.each([
    [undefined, 'unknown'],
    [-20, 'ok'],
    [500, 'ok'],
    [501, 'warn'],
    [1500, 'warn'],
    [1501, 'high'],
  ] as const)('%s bps → %s', (bps, level) => {
    expect(impactLevel(bps)).toBe(level);
  });

  // 1 ETH at $3000 for this many USDC: impact = 1 − out / 3000
  const tradeAtImpact = (usdc: bigint): ActionPlan =>
    planOf('trade', [plannedSwap(quoteOf(ETH, USDC, 10n ** 18n, usdc))]);

  it('above 15 % is refused unless allowed; above 5 % warns', () => {
    const high = tradeAtImpact(2_549_000_000n); // 15.03 %
    expect(refusal(() => checkPriceImpact(high, false))).toMatchObject({
      code: 'PRICE_IMPACT_TOO_HIGH',
      details: { swap: 1, bps: 1503, limitBps: 1500 },
    });
    expect(checkPriceImpact(high, true)).toEqual([
      expect.stringContaining('price impact 15.03% is above 15%'),
    ]);
    expect(checkPriceImpact(tradeAtImpact(2_820_000_000n), false)).toEqual([
      expect.stringContaining('price impact 6% is above 5%'),
    ]);
    expect(checkPriceImpact(tradeAtImpact(2_991_000_000n), false)).toEqual([]);
  });

  it('unknown impact warns but does not refuse', () => {
    const plan = planOf('trade', [
      plannedSwap(quoteOf(ETH, USDC, 10n ** 18n, 3_000_000_000n, { prices: [undefined, 1] })),
    ]);
    expect(checkPriceImpact(plan, false)).toEqual([
      expect.stringContaining('price impact unknown'),
    ]);
  });
});

describe('balances', () => {
  const ethGas = (maxFee: bigint): GasQuote => ({ mode: 'default', token: ETH, maxFee });
  const balance = (token: Token, amount: bigint) => ({ token: token.address, amount });

  it('the exact amount passes when gas is sponsored; one unit short is refused naming the token', () => {
    const plan = ethToUsdcTrade();
    expect(checkBalances(plan, { mode: 'sponsored' }, [balance(ETH, 10n ** 18n)])).toMatchObject([
      { token: ETH, total: 10n ** 18n, gas: 0n },
    ]);
    expect(
      refusal(() => checkBalances(plan, { mode: 'sponsored' }, [balance(ETH, 10n ** 18n - 1n)])),
    ).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      details: {
        token: 'ETH',
        needed: (10n ** 18n).toString(),
        available: (10n ** 18n - 1n).toString(),
      },
    });
  });

  it('gas in the same token counts on top of the amount', () => {
    const plan = ethToUsdcTrade();
    expect(() =>
      checkBalances(plan, ethGas(1000n), [balance(ETH, 10n ** 18n + 1000n)]),
    ).not.toThrow();
    expect(
      refusal(() => checkBalances(plan, ethGas(1000n), [balance(ETH, 10n ** 18n + 999n)])),
    ).toMatchObject({ code: 'INSUFFICIENT_BALANCE', details: { token: 'ETH', gas: '1000' } });
  });

  it('gas in another token needs that token too (missing balance counts as zero)', () => {
    const plan = ethToUsdcTrade();
    const gas: GasQuote = { mode: 'default', token: STRK, maxFee: 5n };
    expect(refusal(() => checkBalances(plan, gas, [balance(ETH, 10n ** 18n)]))).toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      details: { token: 'STRK', available: '0' },
    });
    expect(() =>
      checkBalances(plan, gas, [balance(ETH, 10n ** 18n), balance(STRK, 5n)]),
    ).not.toThrow();
  });

  it('two swaps and a send from one token add up', () => {
    const plan = planOf(
      'batch',
      [plannedSwap(quoteOf(USDC, ETH, 100n, 1000n)), plannedSwap(quoteOf(USDC, STRK, 50n, 1000n))],
      [{ token: USDC, amount: 7n, to: OTHER }],
    );
    expect(
      refusal(() => checkBalances(plan, { mode: 'sponsored' }, [balance(USDC, 156n)])),
    ).toMatchObject({ code: 'INSUFFICIENT_BALANCE', details: { needed: '157' } });
    expect(() => checkBalances(plan, { mode: 'sponsored' }, [balance(USDC, 157n)])).not.toThrow();
  });
});

describe('the simulation', () => {
  const plan = ethToUsdcTrade();
  const q = plan.swaps[0]?.confirmed;
  if (q === undefined) throw new Error('no swap');
  const ROUTERISH = ROUTER_ADDRESS;
  const spend = { token: ETH.address, from: ACCOUNT, to: ROUTERISH, amount: 10n ** 18n };
  const sponsored: GasQuote = { mode: 'sponsored' };

  it('a revert is refused with its reason', () => {
    expect(
      refusal(() =>
        checkSimulation(plan, sponsored, { reverted: true, reason: 'Insufficient output amount' }),
      ),
    ).toMatchObject({
      code: 'SIMULATION_REVERTED',
      details: { reason: 'Insufficient output amount' },
    });
  });

  it('delivering exactly the confirmed minimum passes; one unit less is refused', () => {
    const ok = [
      spend,
      { token: USDC.address, from: ROUTERISH, to: ACCOUNT, amount: q.minimumReceived },
    ];
    expect(() =>
      checkSimulation(plan, sponsored, { reverted: false, balanceChanges: [], transfers: ok }),
    ).not.toThrow();
    const short = [
      spend,
      { token: USDC.address, from: ROUTERISH, to: ACCOUNT, amount: q.minimumReceived - 1n },
    ];
    expect(
      refusal(() =>
        checkSimulation(plan, sponsored, { reverted: false, balanceChanges: [], transfers: short }),
      ),
    ).toMatchObject({
      code: 'SIMULATION_BELOW_MINIMUM',
      details: { token: 'USDC', minimum: q.minimumReceived.toString() },
    });
  });

  it('only transfers to the account from others count as received', () => {
    const transfers = [
      spend,
      { token: USDC.address, from: ACCOUNT, to: ACCOUNT, amount: q.minimumReceived },
      { token: USDC.address, from: ROUTERISH, to: OTHER, amount: q.minimumReceived },
    ];
    expect(
      refusal(() =>
        checkSimulation(plan, sponsored, { reverted: false, balanceChanges: [], transfers }),
      ).code,
    ).toBe('SIMULATION_BELOW_MINIMUM');
  });

  it('swaps into one token must together deliver the sum of their minimums', () => {
    const a = quoteOf(USDC, ETH, 100_000_000n, 33_000_000_000_000_000n);
    const b = quoteOf(STRK, ETH, 50n * 10n ** 18n, 8_000_000_000_000_000n);
    const multi = planOf('multi-swap', [plannedSwap(a), plannedSwap(b)]);
    const out = (amount: bigint) => [
      { token: USDC.address, from: ACCOUNT, to: ROUTERISH, amount: a.amountIn },
      { token: STRK.address, from: ACCOUNT, to: ROUTERISH, amount: b.amountIn },
      { token: ETH.address, from: ROUTERISH, to: ACCOUNT, amount },
    ];
    expect(() =>
      checkSimulation(multi, sponsored, {
        reverted: false,
        balanceChanges: [],
        transfers: out(a.minimumReceived + b.minimumReceived),
      }),
    ).not.toThrow();
    expect(
      refusal(() =>
        checkSimulation(multi, sponsored, {
          reverted: false,
          balanceChanges: [],
          transfers: out(a.minimumReceived + b.minimumReceived - 1n),
        }),
      ).code,
    ).toBe('SIMULATION_BELOW_MINIMUM');
  });

  it('taking more than the plan spends (plus the max fee) is refused', () => {
    const received = {
      token: USDC.address,
      from: ROUTERISH,
      to: ACCOUNT,
      amount: q.minimumReceived,
    };
    const gas: GasQuote = { mode: 'default', token: ETH, maxFee: 10n };
    const fee = (amount: bigint) => ({ token: ETH.address, from: ACCOUNT, to: OTHER, amount });
    expect(() =>
      checkSimulation(plan, gas, {
        reverted: false,
        balanceChanges: [],
        transfers: [spend, received, fee(10n)],
      }),
    ).not.toThrow();
    expect(
      refusal(() =>
        checkSimulation(plan, gas, {
          reverted: false,
          balanceChanges: [],
          transfers: [spend, received, fee(11n)],
        }),
      ),
    ).toMatchObject({
      code: 'SIMULATION_OVERSPEND',
      details: {
        token: 'ETH',
        spent: (10n ** 18n + 11n).toString(),
        planned: (10n ** 18n + 10n).toString(),
      },
    });
    const stray = { token: STRK.address, from: ACCOUNT, to: OTHER, amount: 1n };
    expect(
      refusal(() =>
        checkSimulation(plan, gas, {
          reverted: false,
          balanceChanges: [],
          transfers: [spend, received, stray],
        }),
      ),
    ).toMatchObject({ code: 'SIMULATION_OVERSPEND', details: { token: 'STRK', planned: '0' } });
  });
});
