import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import { ROUTER_ADDRESS } from '../../../shared/swap-calldata.js';
import {
  ACCOUNT,
  ETH,
  ethToUsdcTrade,
  OTHER,
  planOf,
  plannedSwap,
  quoteOf,
  T0,
  USDC,
} from '../../../test/helpers/swap-fixtures.js';
import { buildApproveCall } from '../chain/calls.js';
import { describeCall, planDocument, requireConfirmation } from './document.js';

describe('planDocument', () => {
  it('survives JSON and keeps every amount exact, as decimal strings', () => {
    const plan = ethToUsdcTrade();
    const doc = planDocument(plan, {
      gas: { mode: 'default', token: ETH, maxFee: 12_345n, estimatedFee: 10_000n },
      balances: [{ token: ETH.address, amount: 2n * 10n ** 18n }],
      simulation: {
        reverted: false,
        transfers: [
          { token: ETH.address, from: ACCOUNT, to: ROUTER_ADDRESS, amount: 10n ** 18n },
          { token: USDC.address, from: ROUTER_ADDRESS, to: ACCOUNT, amount: 2_999_400_000n },
        ],
        balanceChanges: [
          { token: ETH.address, symbol: 'ETH', decimals: 18, amount: -(10n ** 18n) },
          { token: USDC.address, symbol: 'USDC', decimals: 6, amount: 2_999_400_000n },
        ],
      },
      warnings: ['w'],
    });
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
    expect(doc).toMatchObject({
      kind: 'trade',
      sandbox: true,
      account: ACCOUNT,
      router: ROUTER_ADDRESS,
      slippage: { bps: 100, percent: '1%' },
      quoteValidUntil: new Date(T0 + 30_000).toISOString(),
      gas: {
        mode: 'default',
        token: { symbol: 'ETH' },
        maxFee: { baseUnits: '12345' },
        estimatedFee: { baseUnits: '10000' },
      },
      spend: [
        {
          token: { symbol: 'ETH' },
          amount: { amount: '1' },
          gas: { baseUnits: '12345' },
          total: { baseUnits: (10n ** 18n + 12_345n).toString() },
          balance: { amount: '2' },
        },
      ],
      simulation: {
        status: 'ok',
        balanceChanges: [
          { token: { symbol: 'ETH' }, change: { amount: '-1', baseUnits: '-1000000000000000000' } },
          { token: { symbol: 'USDC' }, change: { amount: '2999.4' } },
        ],
      },
      warnings: ['w'],
    });
    const swap = doc.swaps[0];
    expect(swap).toMatchObject({
      from: { symbol: 'ETH' },
      to: { symbol: 'USDC' },
      amountIn: { amount: '1', baseUnits: '1000000000000000000' },
      expectedOutput: { amount: '2999.4' },
      confirmedMinimumReceived: { baseUnits: swap?.minimumReceived.baseUnits },
      priceImpactWarning: null,
      quotedAt: new Date(T0).toISOString(),
    });
    expect(swap?.route[0]?.hops[0]).toMatchObject({ from: 'ETH', to: 'USDC' });
  });

  it('says the calls in words a person can check', () => {
    const doc = planDocument(
      planOf(
        'batch',
        [plannedSwap(quoteOf(ETH, USDC, 10n ** 18n, 3_000_000_000n))],
        [{ token: USDC, amount: 5_000_000n, to: OTHER }],
      ),
    );
    expect(doc.calls.map((c) => c.description)).toEqual([
      'approve 1 ETH to the router 0x00f6…df5a',
      `swap 1 ETH for at least ${doc.swaps[0]?.minimumReceived.amount} USDC (expected 2999.4 USDC) to your account, on the router 0x00f6…df5a`,
      `transfer 5 USDC to ${OTHER}`,
    ]);
    expect(doc.headline).toBe(
      `swap 1 ETH → at least ${doc.swaps[0]?.minimumReceived.amount} USDC; send 5 USDC to 0x0000…0b0b (one transaction, 3 calls)`,
    );
    expect(doc.calls[0]).toMatchObject({
      contractAddress: ETH.address,
      entrypoint: 'approve',
      calldata: expect.any(Array),
    });
  });

  it('reads each call from the call itself: a wrong approve reads wrong', () => {
    expect(
      describeCall(buildApproveCall(ETH, OTHER, 5n * 10n ** 18n), {
        network: 'mainnet',
        router: ROUTER_ADDRESS,
        account: ACCOUNT,
      }),
    ).toBe(`approve 5 ETH to ${OTHER}`);
  });

  it('ranks the worst price impact across swaps', () => {
    const doc = planDocument(
      planOf('multi-swap', [
        plannedSwap(quoteOf(ETH, USDC, 10n ** 18n, 2_990_000_000n)),
        plannedSwap(quoteOf(ETH, USDC, 10n ** 18n, 2_800_000_000n)),
      ]),
    );
    expect(doc.priceImpact).toEqual({ level: 'warn', worst: { bps: 666, percent: '6.66%' } });
    expect(doc.swaps.map((s) => s.priceImpactWarning)).toEqual([null, 'high']);
  });

  it('before gas and simulation are known it says so', () => {
    const doc = planDocument(ethToUsdcTrade());
    expect(doc.gas).toEqual({ mode: 'unknown' });
    expect(doc.simulation).toEqual({ status: 'not-run' });
  });

  it('a reverted simulation shows its reason', () => {
    expect(
      planDocument(ethToUsdcTrade(), { simulation: { reverted: true, reason: 'nope' } }).simulation,
    ).toEqual({ status: 'reverted', reason: 'nope' });
  });
});

describe('requireConfirmation', () => {
  it('without yes: CONFIRMATION_REQUIRED carrying the plan document; with yes: nothing', () => {
    const doc = planDocument(ethToUsdcTrade());
    expect(() => requireConfirmation(true, doc)).not.toThrow();
    try {
      requireConfirmation(false, doc);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('CONFIRMATION_REQUIRED');
      // the core names no flag: the remedy is data, each face words it
      expect((error as AppError).details).toEqual({ plan: doc, remedy: ['confirm'] });
      expect((error as AppError).message).not.toContain('--');
    }
  });
});
