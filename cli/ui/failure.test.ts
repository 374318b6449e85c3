/**
 * The app's refusals in its own words (cli/ui/failure.ts): code → sentence → what to do, the
 * remedy the core names as data worded as the app's key or screen, and no "try again" where
 * trying again cannot help.
 */
import { describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { describeFailure, describeFailureAfterSending } from './failure.js';

const said = (error: AppError): string => {
  const f = describeFailure(error);
  return `${f.title} | ${f.message} | ${f.next}`;
};

describe('app refusals', () => {
  it.each([
    [
      new AppError(
        ErrorCode.EXIT_NOT_READY,
        'nothing was signed: the exit of 10 STRK from Alpha can be withdrawn at 2026-12-06T00:00:00.000Z, in 7 days',
        { details: { withdrawableAt: '2026-12-06T00:00:00.000Z' } },
      ),
      /^Not withdrawable yet \|.*\| Nothing was signed\. The exit window has not passed: withdraw at the time above\.$/,
    ],
    [
      new AppError(ErrorCode.UNKNOWN_VALIDATOR, 'no validator named "Nope" in the sandbox'),
      /^No such validator \|.*in the sandbox \| .*Staking screen/,
    ],
    [
      new AppError(ErrorCode.NOTHING_STAKED, 'no exit from Alpha is running: nothing to cancel'),
      /^Nothing to do with this validator/,
    ],
    [
      new AppError(ErrorCode.ACKNOWLEDGMENT_REQUIRED, 'the borrow leaves the health factor low', {
        details: { remedy: ['low-health'] },
      }),
      /type RISK on the review/,
    ],
    [
      new AppError(ErrorCode.ALREADY_SUBMITTED, 'the same plan was sent: not sending it twice', {
        details: { remedy: ['history'] },
      }),
      /open History \(it asks the chain how it ended\)/,
    ],
    [
      new AppError(ErrorCode.REBALANCE_OUTSIDE_BAND, 'USDC 26.10 % (target 30.00 %)', {
        details: { remedy: ['band'] },
      }),
      /Widen the band/,
    ],
  ])('%s: its own words, no "try again"', (error, words) => {
    const text = said(error);
    expect(text).toMatch(words);
    expect(text).not.toMatch(/try again|something went wrong|--[a-z]/i);
  });

  it('a code the app has no words for is said as a refusal with its code, not as "try again"', () => {
    const f = describeFailure(new AppError(ErrorCode.EXECUTION_DISABLED, 'execution is off'));
    expect(f).toMatchObject({ code: 'EXECUTION_DISABLED', title: 'Refused' });
    expect(f.next).not.toMatch(/try again/i);
  });
});

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
