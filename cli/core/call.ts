/**
 * What every core function takes per call (docs/architecture.md "Client behaviour"): the
 * caller's cancellation and a sink for progress. The core never writes to a terminal; the
 * headless commands print progress on stderr (on a TTY only), the TUI shows it on screen.
 */
export interface Progress {
  /** a stable name for the step: 'sandbox-start', 'server-start', … */
  step: string;
  /** one human line, no trailing newline */
  message: string;
}

export interface CallOptions {
  /** aborting it cancels the call: requests stop at once and the call rejects with CANCELLED */
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: Progress) => void) | undefined;
}

/** A signal that never aborts, for calls made without one. */
export const NEVER: AbortSignal = new AbortController().signal;
