/**
 * Rendering the TUI in tests: the real App over a services port (usually the fake), through
 * ink-testing-library. press()/type() write keys and wait for the frame to change (never a
 * fixed sleep); waitForFrame() waits for a condition. Anything written to console.error while
 * the app is rendered fails the test at its next frame read (a render that throws is shown by
 * Ink's error screen instead, which no frame a test waits for matches).
 * Assert frames before unmount(): Ink writes a bare newline on unmount.
 */
import { render } from 'ink-testing-library';
import { App } from '../../cli/ui/app.js';
import type { TuiServices } from '../../cli/ui/services.js';
import type { AppState } from '../../cli/ui/state.js';
import { type Theme, themeFor } from '../../cli/ui/theme.js';

export const KEYS = {
  enter: '\r',
  escape: '\u001b',
  tab: '\t',
  up: '\u001b[A',
  down: '\u001b[B',
  left: '\u001b[D',
  right: '\u001b[C',
  backspace: '\u007f',
  ctrlC: '\u0003',
  ctrlD: '\u0004',
  ctrlF: '\u0006',
  ctrlN: '\u000e',
  ctrlR: '\u0012',
  ctrlT: '\u0014',
  ctrlW: '\u0017',
  ctrlX: '\u0018',
} as const;

/**
 * One turn of the event loop and the start of the next: what the app queued with setImmediate
 * (the key router's next key, React's scheduler) and the I/O between has run. Not a 0 ms timer:
 * Node's is at least 1 ms, and the tests wait for thousands of key presses (a second or more of a
 * worker idle per screen file: docs/benchmarks.md "Issue 36, seventh round: the unit project").
 */
const macrotask = (): Promise<void> =>
  new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

export interface Rendered {
  frame(): string;
  /** write keys; wait until the frame differs from before (or `timeoutMs`, then fail) */
  press(keys: string, options?: { timeoutMs?: number; change?: boolean }): Promise<string>;
  /** type text one character at a time, each waited for */
  type(text: string): Promise<string>;
  waitForFrame(predicate: (frame: string) => boolean, timeoutMs?: number): Promise<string>;
  exitCode(): number | undefined;
  /** a terminal resize to `rows` lines (and `columns`, else as it was) */
  resize(rows: number, columns?: number): Promise<string>;
  forced(): boolean;
  stop(): void;
  unmount(): void;
}

/**
 * The terminal's size as Ink sees it in tests (ink-testing-library's stdout has no rows): Ink
 * falls back to COLUMNS/LINES. resize() changes them and tells Ink.
 */
function setSize(columns: number, rows: number): void {
  process.env.COLUMNS = String(columns);
  process.env.LINES = String(rows);
}

export function renderWithProviders(
  services: TuiServices,
  options: {
    theme?: Theme;
    initial?: AppState;
    now?: () => number;
    stopRequests?: EventTarget;
    rows?: number;
    columns?: number;
    /**
     * the live quote's pause for typing: none unless a test is about it (DEBOUNCE_MS), so a quote
     * is asked as soon as its input is there rather than after 300 ms of a worker idle
     * (docs/decisions.md "The screen tests wait for events, not for the clock's turns")
     */
    quoteDebounceMs?: number;
  } = {},
): Rendered {
  const columns = options.columns ?? 100;
  setSize(columns, options.rows ?? 50);
  const original = console.error;
  // React's production build (the bin's: docs/decisions.md "The unit tests run the React the bin
  // ships") prints no development warnings; what it prints is an error
  const consoleErrors: string[] = [];
  console.error = (...args: unknown[]) => {
    consoleErrors.push(args.map(String).join(' '));
  };
  let code: number | undefined;
  let forced = false;
  // how many times the app has applied every key press written so far
  let keysApplied = 0;
  const stopRequests = options.stopRequests ?? new EventTarget();
  const theme = options.theme ?? { ...themeFor({ NO_COLOR: '1' }), animate: false };
  const instance = render(
    <App
      services={services}
      theme={theme}
      stopRequests={stopRequests}
      force={() => (forced = true)}
      onExitCode={(c) => (code = c)}
      onKeysApplied={() => (keysApplied += 1)}
      {...(options.now ? { now: options.now } : {})}
      {...(options.initial ? { initial: options.initial } : {})}
      quoteDebounceMs={options.quoteDebounceMs ?? 0}
    />,
  );
  // ink-testing-library's stdout is always 100 columns wide: give it the width asked for, so a
  // line longer than the terminal wraps or is cut here as it would be there
  let width = columns;
  Object.defineProperty(instance.stdout, 'columns', { get: () => width, configurable: true });
  if (columns !== 100) instance.stdout.emit('resize');
  const frame = (): string => {
    if (consoleErrors.length > 0)
      throw new Error(`console.error while rendering: ${consoleErrors[0]}`);
    return instance.lastFrame() ?? '';
  };
  const waitForFrame = async (
    predicate: (f: string) => boolean,
    timeoutMs = 10_000,
  ): Promise<string> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await macrotask();
      const current = frame();
      if (predicate(current)) {
        // let the new screen's effects (its input handlers) attach before the next key
        await macrotask();
        await macrotask();
        return frame();
      }
      if (Date.now() > deadline)
        throw new Error(`frame did not match within ${timeoutMs} ms; last frame:\n${current}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const waitFor = async (
    condition: () => boolean,
    timeoutMs = 10_000,
    what: string,
  ): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
      await macrotask();
    }
  };
  const press = async (
    keys: string,
    opts: { timeoutMs?: number; change?: boolean } = {},
  ): Promise<string> => {
    const before = frame();
    const applied = keysApplied;
    instance.stdin.write(keys);
    // a lone Esc is held ~20 ms by Ink before it fires
    if (keys === KEYS.escape) await new Promise((resolve) => setTimeout(resolve, 40));
    // every key press of what was written has been applied (a burst is applied key by key)
    await waitFor(() => keysApplied > applied, opts.timeoutMs, 'the keys were not all applied');
    if (opts.change === false) {
      await macrotask();
      return frame();
    }
    return waitForFrame((f) => f !== before, opts.timeoutMs);
  };
  return {
    frame,
    press,
    async type(text) {
      let last = frame();
      for (const ch of text) last = await press(ch);
      return last;
    },
    waitForFrame,
    exitCode: () => code,
    resize: (rows, newColumns = width) => {
      const before = frame();
      width = newColumns;
      setSize(newColumns, rows);
      instance.stdout.emit('resize');
      return waitForFrame((f) => f !== before);
    },
    forced: () => forced,
    stop: () => stopRequests.dispatchEvent(new Event('stop')),
    unmount: () => {
      instance.unmount();
      console.error = original;
    },
  };
}
