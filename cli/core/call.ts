/**
 * What every core function takes per call (docs/architecture.md "Client behaviour"): the
 * caller's cancellation and a sink for progress. The core never writes to a terminal; the
 * headless commands print progress on stderr (on a TTY only), the TUI shows it on screen.
 *
 * Progress is a typed event (events.ts): a face switches on `kind` and reads fields (a
 * transaction hash is `hash`), never a human message. `describeEvent` gives the words for faces
 * that print a line.
 */
import type { ProgressEvent } from './events.js';

export type { ProgressEvent } from './events.js';

export interface CallOptions {
  /** aborting it cancels the call: requests stop at once and the call rejects with CANCELLED */
  signal?: AbortSignal | undefined;
  onProgress?: ((event: ProgressEvent) => void) | undefined;
}
