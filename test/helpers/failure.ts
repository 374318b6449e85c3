import { AppError } from '../../shared/errors.js';

/** The AppError a promise rejects with; anything else (or success) fails the test. */
export async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

/** The AppError `run` throws, as its code and details; anything else (or no throw) fails the test. */
export function refusal(run: () => unknown): { code: string; details: Record<string, unknown> } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { code: error.code, details: error.details ?? {} };
  }
  throw new Error('expected a refusal, nothing was thrown');
}

/** 'ok' when `work` resolves, else the AppError's code (anything else named as not one). */
export const codeOf = async (work: Promise<unknown>): Promise<string> =>
  work.then(
    () => 'ok',
    (e: unknown) => (e instanceof AppError ? e.code : `not an AppError: ${String(e)}`),
  );
