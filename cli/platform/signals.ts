/**
 * The bin's ownership of SIGINT/SIGTERM (docs/architecture.md "Client behaviour"): the first
 * signal aborts the run (commands see it as their AbortSignal, wind down, and the run ends
 * CANCELLED, or exit 0 for serve/sandbox); a second one forces the exit. Kept free of heavy
 * imports: the bin loads it before anything else.
 *
 * Other libraries' listeners on the same signals stay: Ink restores the terminal through
 * signal-exit, which only acts on a signal when it is the sole listener and otherwise on 'exit';
 * removing it would leave the terminal in raw mode. (A process test checks this.)
 *
 * Signals arriving within COALESCE_MS of the first count as that first one: `npm run` forwards
 * the terminal's Ctrl+C to its child, which the terminal has already signalled (the whole
 * foreground process group gets it), so a single keypress arrives twice.
 *
 * SIGHUP (the terminal went away: a closed window, a dropped ssh) stops a command the same way,
 * and never forces: left to its default it would kill the process between a signed transaction
 * leaving and its history entry, so a retry could not know it was sent. It comes more than once
 * (the kernel signals the foreground group, the shell passes its own on) and the terminal cannot
 * show a word, so it writes none. Not for the long-running servers (`serve`, `sandbox`: option
 * `hangup: false`): they keep SIGHUP's default, so `nohup finance-tui serve` still outlives its
 * terminal (a listener would override the ignored disposition nohup sets).
 */
import { markShuttingDown } from './child-registry.js';
import { cancelledError, ExitCode } from '../../shared/errors.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type OwnedSignal = (typeof SIGNALS)[number];

export const COALESCE_MS = 250;

interface SignalOwnerOptions {
  stderr: NodeJS.WritableStream;
  stderrIsTTY: boolean;
  /** own SIGHUP too (default true): false for serve and sandbox */
  hangup?: boolean;
  /** seams for tests */
  target?: NodeJS.EventEmitter;
  exit?: (code: number) => void;
  now?: () => number;
}

interface SignalOwner {
  /** aborted (reason: CANCELLED) by the first signal */
  signal: AbortSignal;
  dispose(): void;
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
      if (options.stderrIsTTY && signal !== 'SIGHUP')
        options.stderr.write('stopping… (press Ctrl+C again to force)\n');
      controller.abort(cancelledError());
      return;
    }
    if (signal === 'SIGHUP' || now() - firstAt < COALESCE_MS) return;
    exit(signal === 'SIGINT' ? ExitCode.FORCED_SIGINT : ExitCode.FORCED_SIGTERM);
  };

  const owned = SIGNALS.filter((s) => s !== 'SIGHUP' || options.hangup !== false);
  for (const signal of owned) target.on(signal, onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      for (const signal of owned) target.off(signal, onSignal);
    },
  };
}
