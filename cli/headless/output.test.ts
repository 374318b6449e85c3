/**
 * The core names no flag or command (cli/core/remedy.ts): a refusal's field and remedy are data,
 * and every face words them its own way — here the headless line and document, the tool
 * server's error and the app's failure, from the same refusal.
 */
import { describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { fieldError } from '../core/remedy.js';
import { errorBody as toolError } from '../mcp/untrusted.js';
import { describeFailure } from '../ui/failure.js';
import { errorBody, humanError } from './output.js';

const sum = fieldError(
  'target',
  'percentages must add up to 100; they add up to 110',
  ErrorCode.USAGE_ERROR,
  { sum: '110.00' },
);

describe('a refusal about a field, worded by each face', () => {
  it('headless: the flag; the tool server: its argument; the app: the form field', () => {
    expect(errorBody(sum).error.message).toBe(
      '--target: percentages must add up to 100; they add up to 110',
    );
    expect(humanError(sum)).toBe(
      'error: --target: percentages must add up to 100; they add up to 110 (USAGE_ERROR)\n',
    );
    expect(toolError(sum.code, sum.message, sum.details, undefined, false).message).toBe(
      'target: percentages must add up to 100; they add up to 110',
    );
    const app = describeFailure(sum);
    expect(app.message).toBe('Target: percentages must add up to 100; they add up to 110');
    expect(`${app.title} ${app.message} ${app.next}`).not.toMatch(/--|Try again/);
  });

  it('"the history asks the chain": the headless command, the tool server’s tool', () => {
    const lost = new AppError(
      ErrorCode.SUBMITTED_UNCONFIRMED,
      'the signed transaction was sent, but its answer was lost: it may have been executed; do not retry',
      { details: { transactionHash: null, remedy: ['history'] } },
    );
    expect(errorBody(lost).error.message).toMatch(
      /do not retry; check `finance-tui history` \(it asks the chain how it ended\)$/,
    );
    expect(toolError(lost.code, lost.message, lost.details, undefined, false).message).toMatch(
      /Call get_history: it asks the chain how it ended/,
    );
    expect(describeFailure(lost).next).not.toMatch(/finance-tui|Try again/);
  });
});
