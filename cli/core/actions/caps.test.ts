import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import type { AggregatorClient } from '../../clients/aggregator.js';
import {
  ETH,
  legPlanOf,
  OTHER,
  planOf,
  plannedSwap,
  quoteOf,
  STRK,
  strkPricer as pricer,
  USDC,
} from '../../../test/helpers/swap-fixtures.js';
import { codeOf } from '../../../test/helpers/failure.js';
import { vesuPair } from '../../../test/helpers/lending-fixtures.js';
import { lendingPool } from '../lending-pool.js';
import { checkLimits, outgoingUsdCents } from './caps.js';
import { positionLegOf } from './legs/position-read.js';
import type { OracleQuote } from '../oracle.js';
import type { ActionPlan } from './plan.js';
import type { Token } from '../../../shared/tokens.js';

const E18 = 10n ** 18n;
const NOW_S = 1_800_000_000;
const quote = (token: Token, usd: bigint): OracleQuote => ({
  ok: true,
  token,
  usd,
  lastUpdated: NOW_S,
});
/** Pragma's prices, below the aggregator's (the aggregator's value counts): ETH $1, STRK $0.01, USDC $1. */
const LOW: OracleQuote[] = [quote(ETH, E18), quote(STRK, E18 / 100n), quote(USDC, E18)];
const o = (plan: ActionPlan, oracle: OracleQuote[] = LOW): ActionPlan => ({ ...plan, oracle });

// 1 ETH at the quote's $3000 price, plus 10 STRK sent at $0.50
const trade = planOf('trade', [plannedSwap(quoteOf(ETH, USDC, 10n ** 18n, 3_000_000_000n))]);
const batch = planOf(
  'batch',
  [plannedSwap(quoteOf(ETH, USDC, 10n ** 18n, 3_000_000_000n))],
  [{ token: STRK, amount: 10n * 10n ** 18n, to: OTHER }],
);

describe('spending caps (checked before signing)', () => {
  it('values what leaves: a swap into USDC at its own route, a transfer at a route into USDC, exactly in cents', async () => {
    expect(await outgoingUsdCents(o(trade), pricer())).toBe(300_000n);
    expect(await outgoingUsdCents(o(batch), pricer())).toBe(300_500n);
  });

  it('refuses above --max-usd, allows at it; no caps asks nothing', async () => {
    expect(await codeOf(checkLimits(o(batch), { maxUsdCents: 300_499n }, pricer()))).toBe(
      'LIMIT_EXCEEDED',
    );
    expect(await codeOf(checkLimits(o(batch), { maxUsdCents: 300_500n }, pricer()))).toBe('ok');
    expect(
      await codeOf(
        checkLimits(o(batch), undefined, {
          getRoute: () => Promise.reject(new Error('asked')),
        } as unknown as AggregatorClient),
      ),
    ).toBe('ok');
  });

  it('a borrow counts the debt it takes on, though nothing leaves: over --max-usd it is refused', async () => {
    // 1000 USDC borrowed against the collateral the position holds (1 ETH): no outflow at all
    const leg = positionLegOf(
      {
        type: 'position',
        action: 'borrow',
        pool: lendingPool('mainnet'),
        token: USDC,
        collateral: ETH,
        amount: 1000n * 10n ** 6n,
      },
      vesuPair(0n),
    );
    const borrow = legPlanOf('borrow', leg);
    expect(await outgoingUsdCents(o(borrow), pricer())).toBe(100_000n);
    expect(await codeOf(checkLimits(o(borrow), { maxUsdCents: 5_000n }, pricer()))).toBe(
      'LIMIT_EXCEEDED',
    );
    expect(await codeOf(checkLimits(o(borrow), { maxUsdCents: 100_000n }, pricer()))).toBe('ok');
  });

  it('fails closed: an amount without a route into USDC cannot pass a cap', async () => {
    const sendEth = planOf('send', [], [{ token: ETH, amount: 1n, to: OTHER }]);
    expect(await codeOf(checkLimits(o(sendEth), { maxUsdCents: 10n ** 9n }, pricer()))).toBe(
      'LIMIT_EXCEEDED',
    );
  });

  it('a swap whose price field is a millionth of its route rate is refused, whatever the cap', async () => {
    const lying = planOf('trade', [
      plannedSwap(
        quoteOf(ETH, USDC, 10n ** 18n, 3_000_000_000n, { prices: ['0.003', '0.000001'] }),
      ),
    ]);
    const error = await checkLimits(o(lying), { maxUsdCents: 5_000n }, pricer()).catch(
      (e: unknown) => e as AppError,
    );
    expect(error).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      details: { reason: 'prices-disagree', tokens: ['ETH'], maxUsd: '50' },
    });
    expect((error as AppError).message).toMatch(/\$50 cap cannot be checked/);
  });

  it('refuses a token outside --allow-token, in or out', async () => {
    expect(await codeOf(checkLimits(o(trade), { allowTokens: [ETH.address] }, pricer()))).toBe(
      'TOKEN_NOT_ALLOWED',
    );
    expect(
      await codeOf(checkLimits(o(trade), { allowTokens: [ETH.address, USDC.address] }, pricer())),
    ).toBe('ok');
    expect(
      await codeOf(checkLimits(o(batch), { allowTokens: [ETH.address, USDC.address] }, pricer())),
    ).toBe('TOKEN_NOT_ALLOWED');
  });

  it('counts the token the gas is paid in: a fee in STRK moves STRK; sponsored gas moves nothing', async () => {
    const allowed = { allowTokens: [ETH.address, USDC.address] };
    const inStrk = { mode: 'default', token: STRK, maxFee: 10n ** 15n } as const;
    const error = await checkLimits(o(trade), allowed, pricer(), {}, inStrk).catch(
      (e: unknown) => e as AppError,
    );
    expect(error).toMatchObject({ code: 'TOKEN_NOT_ALLOWED', details: { tokens: ['STRK'] } });
    expect(await codeOf(checkLimits(o(trade), allowed, pricer(), {}, { mode: 'sponsored' }))).toBe(
      'ok',
    );
    const inEth = { mode: 'default', token: ETH, maxFee: 10n ** 15n } as const;
    expect(await codeOf(checkLimits(o(trade), allowed, pricer(), {}, inEth))).toBe('ok');
  });
});

describe('caps: recipients and the budget', () => {
  const THIRD = `0x${'ca201'.padStart(64, '0')}`;
  const sendStrk = planOf('send', [], [{ token: STRK, amount: 10n * 10n ** 18n, to: THIRD }]);

  it('a payee outside the recipient list is refused before any price is asked', async () => {
    const noAsk = {
      getRoute: () => Promise.reject(new Error('asked')),
    } as unknown as AggregatorClient;
    expect(await codeOf(checkLimits(o(sendStrk), { allowRecipients: [OTHER] }, noAsk))).toBe(
      'RECIPIENT_NOT_ALLOWED',
    );
  });

  it('a budget is checked at the caps’ value, which is returned for the reservation', async () => {
    const checked: bigint[] = [];
    const budget = {
      limitCents: 100n,
      status: () => Promise.reject(new Error('unused')),
      check: async (cents: bigint) => {
        checked.push(cents);
      },
      reserve: () => Promise.reject(new Error('unused')),
    };
    expect(await checkLimits(o(sendStrk), { budget, allowRecipients: [THIRD] }, pricer())).toBe(
      500n,
    );
    expect(checked).toEqual([500n]);
  });
});

describe('caps against the oracle (docs/checks.md "The oracle\'s price")', () => {
  it("an outflow counts at the larger of the aggregator's value and Pragma's", async () => {
    // the aggregator says $3000 for the ETH; Pragma says $5000: the cap counts $5000
    const high = [quote(ETH, 5000n * E18), quote(STRK, E18 / 100n), quote(USDC, E18)];
    expect(await outgoingUsdCents(o(trade, high), pricer())).toBe(500_000n);
    expect(await codeOf(checkLimits(o(trade, high), { maxUsdCents: 400_000n }, pricer()))).toBe(
      'LIMIT_EXCEEDED',
    );
    // and the aggregator's when it is the larger
    expect(await outgoingUsdCents(o(trade, LOW), pricer())).toBe(300_000n);
  });

  it('an outflow Pragma cannot price (no pair, stale, not read) refuses a cap: ORACLE_PRICE_UNAVAILABLE', async () => {
    const stale: OracleQuote[] = [
      { ok: false, token: ETH, why: 'stale', ageS: 7200 },
      quote(USDC, E18),
    ];
    expect(await codeOf(checkLimits(o(trade, stale), { maxUsdCents: 10n ** 9n }, pricer()))).toBe(
      'ORACLE_PRICE_UNAVAILABLE',
    );
    // a plan read without the oracle is refused too (fail closed)
    expect(await codeOf(checkLimits(trade, { maxUsdCents: 10n ** 9n }, pricer()))).toBe(
      'ORACLE_PRICE_UNAVAILABLE',
    );
  });
});
