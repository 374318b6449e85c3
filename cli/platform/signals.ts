/**
 * The bin's ownership of SIGINT/SIGTERM (docs/architecture.md "Client behaviour"): the first
 * signal aborts the run (commands see it as their AbortSignal, wind down, and the run ends
 * CANCELLED, or exit 0 for serve/sandbox); a second one forces the exit. Kept free of heavy
 * imports: the bin loads it before anything else.
 *
 * Coexisting with libraries that hook the same signals:
 *
 * - conf 16 writes through `atomically` 2, which imports `when-exit` 2. On module evaluation
 *   when-exit registers `process.once(sig, () => exit(sig))` for SIGINT, SIGTERM, SIGHUP and 14
 *   other signals (plus `process.once('exit')`); on a signal it runs its callbacks (atomically's
 *   temp-file purge) and then re-raises the signal with `process.kill(process.pid, sig)`,
 *   whoever else is listening. One Ctrl+C would reach us twice (first abort, then force), or —
 *   had we no handler yet — kill the process mid-write. So when-exit's SIGINT/SIGTERM
 *   listeners, recognised by being added from when-exit's own module (the call stack of the
 *   `newListener` event), are removed as they are added. Its purge still runs: it also hooks
 *   'exit', which every ending of ours fires. Its other signals are left alone.
 * - Every other listener stays. Ink restores the terminal through signal-exit, which only acts
 *   on a signal when it is the sole listener and otherwise on 'exit'; removing it would leave
 *   the terminal in raw mode. (A process test checks both.)
 *
 * Signals arriving within COALESCE_MS of the first count as that first one: `npm run` forwards
 * the terminal's Ctrl+C to its child, which the terminal has already signalled (the whole
 * foreground process group gets it), so a single keypress arrives twice.
 */
import { markShuttingDown } from './child-registry.js';
import { cancelledError, ExitCode } from '../../shared/errors.js';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
type OwnedSignal = (typeof SIGNALS)[number];

export const COALESCE_MS = 250;

export interface SignalOwnerOptions {
  stderr: NodeJS.WritableStream;
  stderrIsTTY: boolean;
  /** seams for tests */
  target?: NodeJS.EventEmitter;
  exit?: (code: number) => void;
  now?: () => number;
}

export interface SignalOwner {
  /** aborted (reason: CANCELLED) by the first signal */
  signal: AbortSignal;
  dispose(): void;
}

/** Whether the listener being added comes from when-exit's module (see the file comment). */
export function addedByWhenExit(): boolean {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  return /[\\/]node_modules[\\/]when-exit[\\/]/.test(stack);
}

export function ownProcessSignals(options: SignalOwnerOptions): SignalOwner {
  const target = options.target ?? process;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const now = options.now ?? (() => performance.now());
  const controller = new AbortController();
  let firstAt: number | undefined;

  const onSignal = (signal: OwnedSignal): void => {
    if (firstAt === undefined) {
      firstAt = now();
      markShuttingDown();
      if (options.stderrIsTTY) options.stderr.write('stopping… (press Ctrl+C again to force)\n');
      controller.abort(cancelledError());
      return;
    }
    if (now() - firstAt < COALESCE_MS) return;
    exit(signal === 'SIGINT' ? ExitCode.FORCED_SIGINT : ExitCode.FORCED_SIGTERM);
  };

  for (const signal of SIGNALS) target.on(signal, onSignal);
  const stopRefusing = refuseWhenExitListeners(target);
  return {
    signal: controller.signal,
    dispose: () => {
      for (const signal of SIGNALS) target.off(signal, onSignal);
      stopRefusing();
    },
  };
}

/**
 * Removes when-exit's SIGINT/SIGTERM listeners as they are added (see the file comment), and
 * nobody else's. The interactive app, which handles its signals itself, uses this alone.
 */
export function refuseWhenExitListeners(target: NodeJS.EventEmitter = process): () => void {
  const guard = (event: string | symbol, listener: unknown): void => {
    if ((event === 'SIGINT' || event === 'SIGTERM') && addedByWhenExit()) {
      // newListener fires before the listener is added: remove it right after
      queueMicrotask(() => target.off(event, listener as () => void));
    }
  };
  target.on('newListener', guard);
  return () => target.off('newListener', guard);
}
