/**
 * Per-call scope for the code starknet.js runs on our behalf. starknet.js takes no AbortSignal
 * and turns every error of its fetch into a plain `Error(message)`, so each core function runs
 * its work inside a scope (AsyncLocalStorage) that carries:
 * - the caller's `signal`, which our fetch (fetch.ts) and signer (signer.ts) pick up, so Ctrl+C
 *   aborts the request in flight;
 * - the first failure our fetch or signer recorded as an AppError, so the error a user sees is
 *   ours (code and message), not starknet.js's rewording of it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { type AppError, cancelledError } from '../../../shared/errors.js';

export interface CallScope {
  readonly signal: AbortSignal;
  failure: AppError | undefined;
}

const storage = new AsyncLocalStorage<CallScope>();

const NEVER = new AbortController().signal;

export function currentScope(): CallScope | undefined {
  return storage.getStore();
}

/** The scope's signal, or one that never aborts outside a scope. */
export function currentSignal(): AbortSignal {
  return storage.getStore()?.signal ?? NEVER;
}

/** Records `error` as the scope's failure (the first one wins) and returns it, for `throw record(…)`. */
export function record(error: AppError): AppError {
  const scope = storage.getStore();
  if (scope !== undefined && scope.failure === undefined) scope.failure = error;
  return error;
}

/**
 * Runs `work` in a fresh scope. A signal already aborted fails at once with CANCELLED; `mapError`
 * turns whatever escapes into the AppError to throw (it sees the scope's recorded failure).
 */
export async function inScope<T>(
  signal: AbortSignal | undefined,
  work: () => Promise<T>,
  mapError: (error: unknown, scope: CallScope) => unknown,
): Promise<T> {
  const scope: CallScope = { signal: signal ?? NEVER, failure: undefined };
  if (scope.signal.aborted) throw cancelledError(scope.signal.reason);
  try {
    return await storage.run(scope, work);
  } catch (error) {
    throw mapError(error, scope);
  }
}
