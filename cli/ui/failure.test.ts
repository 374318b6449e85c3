import { describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { describeFailure, describeFailureAfterSending } from './failure.js';

const HASH = `0x${'1'.padStart(64, '0')}`;

describe('describeFailure: a receipt the chain contradicts', () => {
  it('says how it ended is not known and never to send it again', () => {
    const error = new AppError(
      ErrorCode.TRANSACTION_PENDING,
      `transaction ${HASH} was submitted, but the chain's answers contradict each other`,
      { details: { transactionHash: HASH, contradiction: 'the receipt says REVERTED, but …' } },
    );
    for (const failure of [describeFailure(error), describeFailureAfterSending(error, HASH)]) {
      expect(failure.title).toMatch(/how it ended is not known: the chain contradicts itself/);
      expect(failure.next).toMatch(/^Do not send it again/);
    }
  });

  it('a receipt not there yet keeps its own words', () => {
    const failure = describeFailure(
      new AppError(ErrorCode.TRANSACTION_PENDING, 'not confirmed within 60 s', {
        details: { transactionHash: HASH },
      }),
    );
    expect(failure.title).toBe('Sent, not confirmed yet');
  });
});
