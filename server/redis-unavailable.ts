/**
 * The one refusal of a request that needs Redis (rate limits, sign-outs, provisioning locks) when
 * Redis does not answer: 503 DEPENDENCY_UNAVAILABLE naming the store, never a 500, and never the
 * driver's error (it could quote the URL and its password). GET /health says the same
 * (routes/root.ts; docs/server-api.md "Errors").
 */
import { AppError, ErrorCode } from '../shared/errors.js';

export function redisUnavailable(): AppError {
  return new AppError(
    ErrorCode.DEPENDENCY_UNAVAILABLE,
    'The server cannot reach its Redis store (rate limits, sign-outs); try again shortly',
    { details: { dependency: 'redis' } },
  );
}
