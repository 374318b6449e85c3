import { describe, expect, it } from 'vitest';
import { E18, vesuPair } from '../../test/helpers/lending-fixtures.js';
import {
  ETH,
  ethToUsdcTrade,
  legPlanOf,
  OTHER,
  planOf,
  plannedSwap,
  quoteOf,
  USDC,
} from '../../test/helpers/swap-fixtures.js';
import { planDocument } from '../core/actions/document.js';
import { positionLegOf } from '../core/actions/legs/position-read.js';
import { lendingPool } from '../core/lending-pool.js';
import type { HistoryEntry } from '../core/history.js';
import { renderHistory, renderPlan } from './plan-render.js';

describe('renderPlan', () => {
  it('one screen: what is paid, the guaranteed minimum, gas, the simulation and the calls in order', () => {
    const doc = planDocument(
      planOf(
        'batch',
        [plannedSwap(quoteOf(ETH, USDC, 10n ** 18n, 3_000_000_000n))],
        [{ token: USDC, amount: 5_000_000n, to: OTHER }],
      ),
      {
        gas: { mode: 'default', token: ETH, maxFee: 10n ** 15n, estimatedFee: 5n * 10n ** 14n },
        simulation: {
          reverted: false,
          transfers: [],
          balanceChanges: [
            { token: ETH.address, symbol: 'ETH', decimals: 18, amount: -(10n ** 18n) },
          ],
        },
        warnings: ['swap 1: price impact 6% is above 5%'],
      },
    );
    const text = renderPlan(doc);
    expect(text).toContain('SANDBOX');
    // the core's lines (plan-lines.ts), each leg numbered, the plan's own lines after them
    expect(text).toContain(
      `  1. swap 1 ETH → at least ${doc.swaps[0]?.confirmedMinimumReceived.amount} USDC\n`,
    );
    expect(text).toContain(`  2. send 5 USDC to ${OTHER}\n`);
    expect(text).toContain(
      '  leaves the wallet: 1 ETH (+ up to 0.001 ETH gas)\n  leaves the wallet: 5 USDC\n',
    );
    expect(text).toContain('  gas: at most 0.001 ETH, about 0.0005 ETH');
    expect(text).toContain('  simulation: ok: -1 ETH');
    expect(text).toContain('  1. approve 1 ETH to the router 0x00f6…df5a');
    expect(text).toContain(`  3. transfer 5 USDC to ${OTHER}`);
    expect(text).toContain('warning: swap 1: price impact 6% is above 5%');
  });

  it('says so when gas is sponsored and when the simulation reverts', () => {
    const text = renderPlan(
      planDocument(ethToUsdcTrade(), {
        gas: { mode: 'sponsored' },
        simulation: { reverted: true, reason: 'no pool' },
      }),
    );
    expect(text).toContain('  gas: sponsored');
    expect(text).toContain('  simulation: REVERTS: no pool');
  });
});

describe('renderHistory', () => {
  const entry: HistoryEntry = {
    time: '2026-11-22T12:00:00.000Z',
    updatedAt: '2026-11-22T12:00:01.000Z',
    kind: 'trade',
    network: 'mainnet',
    sandbox: true,
    account: OTHER,
    hash: '0xabc',
    status: 'reverted',
    summary: 'swap 1 ETH → at least 2970 USDC',
    amounts: [
      {
        direction: 'out',
        symbol: 'ETH',
        address: ETH.address,
        amount: '1',
        baseUnits: '1000000000000000000',
        basis: 'sent',
      },
      {
        direction: 'in',
        symbol: 'USDC',
        address: USDC.address,
        amount: '2970',
        baseUnits: '2970000000',
        basis: 'minimum',
      },
    ],
    revertReason: 'below min_received',
  };

  it('marks a sandbox entry of another chain than the current sandbox as an earlier sandbox', () => {
    expect(renderHistory([{ ...entry, chain: 'sandbox:old' }], null, 'sandbox:new')).toContain(
      'reverted   earlier sandbox  0xabc',
    );
    expect(renderHistory([{ ...entry, chain: 'sandbox:new' }], null, 'sandbox:new')).toContain(
      'reverted   sandbox  0xabc',
    );
  });

  it('lists each transaction with what left and what arrived, newest first as given', () => {
    expect(renderHistory([entry], null)).toBe(
      [
        '2026-11-22T12:00:00.000Z  trade       reverted   sandbox  0xabc',
        '    sent 1 ETH; at least 2970 USDC',
        '    reverted: below min_received',
        '',
      ].join('\n'),
    );
  });

  it('a chain revert reason shows as its failure reason on one line', () => {
    const long = {
      ...entry,
      revertReason:
        "Transaction execution has failed:\n0: Error in the called contract (…):\nExecution failed. Failure reason: 'Insufficient output amount'.",
    };
    expect(renderHistory([long], null)).toContain("    reverted: 'Insufficient output amount'.\n");
  });

  it('says when there is nothing, and when a damaged file was set aside', () => {
    expect(renderHistory([], '/x/history.corrupt-1.json')).toContain(
      'set aside as /x/history.corrupt-1.json',
    );
    expect(renderHistory([], null)).toContain('No transactions');
  });

  it('repay all: what leaves is "at most" the bound with the debt expected; the position after', () => {
    const leg = positionLegOf(
      {
        type: 'position',
        action: 'repay',
        pool: lendingPool('mainnet'),
        token: USDC,
        collateral: ETH,
        amount: undefined,
      },
      vesuPair(1000n * 10n ** 6n),
    );
    const text = renderPlan(
      planDocument(legPlanOf('repay', leg), {
        gas: { mode: 'sponsored' },
        balances: [{ token: USDC.address, amount: 2000n * 10n ** 6n }],
      }),
    );
    expect(text).toMatch(
      /leaves the wallet: at most 1001\.000001 USDC \(about 1000 USDC: the debt as of 2025-11-24 16:00:00 UTC, plus the interest until it runs\); the wallet holds 2000 USDC\n/,
    );
    expect(text).toContain(
      'position after: owes nothing, 1 ETH collateral; health factor 2.4 → —\n',
    );
  });

  it('a plan that takes nothing out of the account says so, with one blank line before the gas', () => {
    // withdrawing collateral: nothing leaves, gas is sponsored
    const leg = positionLegOf(
      {
        type: 'position',
        action: 'withdraw-collateral',
        pool: lendingPool('mainnet'),
        token: USDC,
        collateral: ETH,
        amount: undefined,
        collateralAmount: E18 / 4n,
      },
      vesuPair(1000n * 10n ** 6n),
    );
    const text = renderPlan(
      planDocument(legPlanOf('withdraw-collateral', leg), {
        gas: { mode: 'sponsored' },
        simulation: { reverted: false, transfers: [], balanceChanges: [] },
      }),
    );
    expect(text).toContain('  leaves the wallet: nothing\n');
    expect(text).not.toContain('\n\n\n');
  });
});
