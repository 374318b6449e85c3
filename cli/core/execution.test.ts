import { describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { sponsorshipDeclined } from './execution.js';

describe('sponsorshipDeclined: which sponsored-build refusals are tried again in the gas token', () => {
  it('sponsorship off, its allowance spent, or the paymaster declining: yes', () => {
    expect(sponsorshipDeclined(new AppError(ErrorCode.SPONSORED_DISABLED, 'off'))).toBe(true);
    expect(sponsorshipDeclined(new AppError(ErrorCode.SPONSORED_LIMIT_REACHED, 'spent'))).toBe(
      true,
    );
    expect(
      sponsorshipDeclined(
        new AppError(ErrorCode.PAYMASTER_REFUSED, 'no key', { details: { paymasterCode: 163 } }),
      ),
    ).toBe(true);
  });

  it('the paymaster saying the calls would fail (SNIP-29 156): no, a second build would fail the same way', () => {
    expect(
      sponsorshipDeclined(
        new AppError(ErrorCode.PAYMASTER_REFUSED, 'would fail', {
          details: { paymasterCode: 156, revertReason: 'u256_sub Overflow' },
        }),
      ),
    ).toBe(false);
  });

  it('anything else: no', () => {
    expect(sponsorshipDeclined(new AppError(ErrorCode.CHAIN_ERROR, 'down'))).toBe(false);
    expect(sponsorshipDeclined(new Error('plain'))).toBe(false);
  });
});
