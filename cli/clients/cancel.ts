/**
 * Cancellation helpers for commands: main aborts `ctx.signal` on the first Ctrl+C / SIGTERM and
 * maps a command that then rejects to CANCELLED (exit 2). Work that does not take a signal
 * itself can be raced against it (unlessCancelled), so the command rejects at once.
 */
import { cancelledError, ErrorCode, isAppError } from '../../shared/errors.js';

export function isCancelled(error: unknown, signal?: AbortSignal): boolean {
  return signal?.aborted === true || (isAppError(error) && error.code === ErrorCode.CANCELLED);
}

export function throwIfCancelled(signal?: AbortSignal): void {
  if (signal?.aborted) throw cancelledError(signal.reason);
}
