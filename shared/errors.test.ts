import { describe, expect, expectTypeOf, it } from 'vitest';
import { AppError, cancelledError, ErrorCode, usageError } from './errors.js';

// An error is its code: the auth server alone maps codes to HTTP statuses
// (HTTP_STATUS in server/plugins/errors.ts; docs/architecture.md "Auth server contract").
describe('AppError carries no HTTP status', () => {
  it('has no status in its type, nor in its options (typecheck fails if one comes back)', () => {
    expectTypeOf<AppError>().not.toHaveProperty('status');
    // @ts-expect-error -- status is not an option of AppError
    const withStatus = new AppError(ErrorCode.INVALID_AMOUNT, 'no', { status: 400 });
    expect(withStatus).not.toHaveProperty('status');
  });

  it.each([
    ['an AppError', new AppError(ErrorCode.NO_ROUTE_FOUND, 'none', { details: { pair: 'a' } })],
    ['cancelledError()', cancelledError(new Error('SIGINT'))],
    ['usageError()', usageError('bad flag')],
    ['usageError() with a code', usageError('bad amount', ErrorCode.INVALID_AMOUNT)],
  ])('%s has a code and no status', (_name, error) => {
    expect(Object.keys(error)).not.toContain('status');
    expect('status' in error).toBe(false);
    expect(Object.values(ErrorCode)).toContain(error.code);
  });
});
