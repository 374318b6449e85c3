/**
 * Cancellation helpers for commands: main aborts `ctx.signal` on the first Ctrl+C / SIGTERM and
 * maps a command that then rejects to CANCELLED (exit 2). Work that does not take a signal
 * itself (a probe in another module, say) is raced against it, so the command rejects at once.
 */
import { AppError, ErrorCode, isAppError } from '../../shared/errors.js';

export function cancelledError(cause?: unknown): AppError {
  return new AppError(ErrorCode.CANCELLED, 'cancelled', { status: 499, cause });
}

export function isCancelled(error: unknown, signal?: AbortSignal): boolean {
  return signal?.aborted === true || (isAppError(error) && error.code === ErrorCode.CANCELLED);
}

export function throwIfCancelled(signal?: AbortSignal): void {
  if (signal?.aborted) throw cancelledError(signal.reason);
}

/** `work`, or CANCELLED as soon as `signal` aborts (the work itself is left to wind down). */
export function unlessCancelled<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (signal === undefined) return work;
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(cancelledError(signal.reason));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(cancelledError(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
