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
  STRK,
  USDC,
} from '../../../test/helpers/swap-fixtures.js';
import { type PlannedSwap } from './plan.js';
import { checkRecipient } from './rules.js';

const codeOf = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return 'none';
};

const swap = (): PlannedSwap => plannedSwap(quoteOf(ETH, USDC, 10n ** 18n, 3_000_000_000n));

describe('buildPlan', () => {
  it('a trade is approve(router, exact amount) then swap with the calldata verbatim', () => {
    const plan = ethToUsdcTrade();
    expect(plan.calls).toEqual([
      {
        contractAddress: ETH.address,
        entrypoint: 'approve',
        calldata: [ROUTER_ADDRESS, `0x${(10n ** 18n).toString(16)}`, '0x0'],
      },
      { contractAddress: ROUTER_ADDRESS, entrypoint: 'swap', calldata: plan.swaps[0]?.calldata },
    ]);
  });

  it('a batch puts the swaps first, then the transfers, in the order given', () => {
    const plan = planOf(
      'batch',
      [swap()],
      [
        { token: USDC, amount: 1n, to: OTHER },
        { token: STRK, amount: 2n, to: OTHER },
      ],
    );
    expect(plan.calls.map((c) => c.entrypoint)).toEqual([
      'approve',
      'swap',
      'transfer',
      'transfer',
    ]);
    expect(plan.calls[3]?.contractAddress).toBe(STRK.address);
  });

  it('a batch of transfers only is allowed', () => {
    expect(planOf('batch', [], [{ token: USDC, amount: 1n, to: OTHER }]).calls).toHaveLength(1);
  });

  it.each([
    ['a trade of two swaps', () => planOf('trade', [swap(), swap()]), 'USAGE_ERROR'],
    ['a multi-swap of one', () => planOf('multi-swap', [swap()]), 'USAGE_ERROR'],
    [
      'a multi-swap of four',
      () => planOf('multi-swap', [swap(), swap(), swap(), swap()]),
      'BATCH_LIMIT_EXCEEDED',
    ],
    [
      'a multi-swap with a transfer',
      () => planOf('multi-swap', [swap(), swap()], [{ token: USDC, amount: 1n, to: OTHER }]),
      'USAGE_ERROR',
    ],
    ['an empty batch', () => planOf('batch', []), 'USAGE_ERROR'],
    [
      'a batch of four swaps',
      () => planOf('batch', [swap(), swap(), swap(), swap()]),
      'BATCH_LIMIT_EXCEEDED',
    ],
    [
      'a batch of six transfers',
      () =>
        planOf(
          'batch',
          [],
          Array.from({ length: 6 }, () => ({ token: USDC, amount: 1n, to: OTHER })),
        ),
      'BATCH_LIMIT_EXCEEDED',
    ],
    [
      'a transfer of zero',
      () => planOf('batch', [], [{ token: USDC, amount: 0n, to: OTHER }]),
      'INVALID_AMOUNT',
    ],
    [
      'a send of two transfers',
      () =>
        planOf(
          'send',
          [],
          [
            { token: USDC, amount: 1n, to: OTHER },
            { token: USDC, amount: 1n, to: OTHER },
          ],
        ),
      'USAGE_ERROR',
    ],
    [
      'a send with a swap',
      () => planOf('send', [swap()], [{ token: USDC, amount: 1n, to: OTHER }]),
      'USAGE_ERROR',
    ],
    [
      'a send to a token contract',
      () => planOf('send', [], [{ token: USDC, amount: 1n, to: USDC.address }]),
      'INVALID_RECIPIENT',
    ],
  ])('%s is refused', (_name, build, code) => {
    expect(codeOf(build)).toBe(code);
  });
});

describe('checkRecipient: transfers that would lose the funds', () => {
  it.each([
    ['a token contract', USDC.address],
    [
      'a token contract written short',
      '0x33068f6539f8e6e6b131e6b2b814e6c34a5224bc66947c47dab9dfee93b35fb',
    ],
    ['the router', ROUTER_ADDRESS],
  ])('%s → INVALID_RECIPIENT', (_name, to) => {
    expect(codeOf(() => checkRecipient(to, { network: 'mainnet', router: ROUTER_ADDRESS }))).toBe(
      'INVALID_RECIPIENT',
    );
  });

  it.each([
    ['the zero address', '0x0'],
    ['not an address', 'bob'],
    ['beyond 2^251', `0x${'f'.repeat(63)}`],
  ])('%s → INVALID_ADDRESS', (_name, to) => {
    expect(codeOf(() => checkRecipient(to, { network: 'mainnet', router: ROUTER_ADDRESS }))).toBe(
      'INVALID_ADDRESS',
    );
  });

  it('a plain account is normalised', () => {
    expect(checkRecipient(' 0XB0B ', { network: 'mainnet', router: ROUTER_ADDRESS })).toBe(OTHER);
    expect(checkRecipient(ACCOUNT, { network: 'mainnet', router: ROUTER_ADDRESS })).toBe(ACCOUNT);
  });

  it("the sender's own account → INVALID_RECIPIENT (sending to oneself moves nothing)", () => {
    expect(
      codeOf(() =>
        checkRecipient(ACCOUNT.replace('0x0', '0x'), { network: 'mainnet', account: ACCOUNT }),
      ),
    ).toBe('INVALID_RECIPIENT');
    expect(codeOf(() => planOf('send', [], [{ token: USDC, amount: 1n, to: ACCOUNT }]))).toBe(
      'INVALID_RECIPIENT',
    );
  });

  it('is applied by buildPlan', () => {
    expect(codeOf(() => planOf('batch', [], [{ token: USDC, amount: 1n, to: ETH.address }]))).toBe(
      'INVALID_RECIPIENT',
    );
  });
});
