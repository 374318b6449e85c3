import { describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { MAX_ADVANCE_SECONDS, parseDuration } from './sandbox-control.js';

const code = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? error.code : 'not an AppError';
  }
  return undefined;
};

describe('parseDuration', () => {
  it('reads seconds, minutes, hours and days', () => {
    expect(parseDuration('30s')).toBe(30);
    expect(parseDuration('90m')).toBe(5_400);
    expect(parseDuration('2h')).toBe(7_200);
    expect(parseDuration('8d')).toBe(691_200);
    expect(parseDuration(' 400d ')).toBe(MAX_ADVANCE_SECONDS);
  });

  it('refuses anything else as a USAGE_ERROR', () => {
    for (const bad of [
      '',
      '0s',
      '401d',
      '1.5h',
      '-2h',
      '2',
      'h',
      '2 h',
      '2w',
      '2H',
      '1e3s',
      '0x10s',
      '9999999999d',
    ])
      expect(
        code(() => parseDuration(bad)),
        bad,
      ).toBe(ErrorCode.USAGE_ERROR);
  });
});
