import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import {
  ETH,
  OTHER,
  planOf,
  plannedSwap,
  quoteOf,
  STRK,
  USDC,
} from '../../../test/helpers/swap-fixtures.js';
import { checkRecipients, payees, unlistedPayees } from './recipients.js';

const THIRD = `0x${'ca201'.padStart(64, '0')}`;

describe('payees and the recipient list', () => {
  const batch = planOf(
    'batch',
    [plannedSwap(quoteOf(ETH, USDC, 10n ** 18n, 3_000_000_000n))],
    [
      { token: STRK, amount: 1n, to: OTHER },
      { token: USDC, amount: 2n, to: THIRD },
      { token: ETH, amount: 3n, to: OTHER },
    ],
  );
  it('payees are the transfers’ recipients, once each, in order; a swap pays no third party', () => {
    const canon = (a: string) => `0x${BigInt(a).toString(16).padStart(64, '0')}`;
    expect(payees(batch)).toEqual([canon(OTHER), THIRD]);
    expect(payees(planOf('trade', [plannedSwap(quoteOf(ETH, USDC, 1n, 1n))]))).toEqual([]);
  });

  it('a payee outside the list is RECIPIENT_NOT_ALLOWED with the addresses; no list allows any', () => {
    expect(unlistedPayees(batch, undefined)).toEqual([]);
    expect(unlistedPayees(batch, [OTHER.toUpperCase().replace('0X', '0x')])).toEqual([THIRD]);
    checkRecipients(batch, [OTHER, THIRD]);
    let error: unknown;
    try {
      checkRecipients(batch, [THIRD]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('RECIPIENT_NOT_ALLOWED');
    expect((error as AppError).details?.recipients).toHaveLength(1);
  });
});
