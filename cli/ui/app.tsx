/**
 * The root: owns the app state, the root AbortSignal, Ctrl+C and exit(). The first Ctrl+C (or
 * SIGTERM/SIGHUP/SIGINT, through `stopRequests`) says "stopping…", aborts every in-flight
 * request, stops a child server the core started (bounded by CLOSE_TIMEOUT_MS) and exits — 0 for
 * Ctrl+C or q (the user left), 2 for a signal (stopped from outside); a second one forces the
 * exit at once.
 */
import { Box, Text, useApp, useStdin, useWindowSize } from 'ink';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { type FooterSpec, NO_FOOTER, ScreenRows, type Ui, UiProvider, useUi } from './context.js';
import { KeyRouterContext, useKeyRouter } from './hooks/use-key-input.js';
import { useLockWaits } from './hooks/use-lock-waits.js';
import { ScreenView } from './screens/index.js';
import type { TuiServices } from './services.js';
import { appReducer, type AppState, initialState } from './state.js';
import type { Theme } from './theme.js';
import { describeFailure } from './failure.js';
import { whereWords } from './format.js';
import { Footer, footerLine, wrappedLines } from './widgets/layout.js';

/** How long a child server gets to stop before the app exits anyway. */
const CLOSE_TIMEOUT_MS = 6_000;

interface AppProps {
  services: TuiServices;
  theme: Theme;
  now?: () => number;
  /** emits 'stop' for a signal from outside (SIGTERM, SIGHUP, SIGINT), 'gone' when the terminal went away */
  stopRequests?: EventTarget;
  /** the second Ctrl+C: leave now */
  force: () => void;
  /** the exit code, reported just before exit() */
  onExitCode: (code: number) => void;
  /** start on this state (tests) */
  initial?: AppState;
  /** every key press received so far has been applied (tests wait for it) */
  onKeysApplied?: () => void;
  /** the live quote's pause for typing (tests; DEBOUNCE_MS otherwise) */
  quoteDebounceMs?: number;
}

export function App({
  services,
  theme,
  now = Date.now,
  stopRequests,
  force,
  onExitCode,
  initial,
  onKeysApplied,
  quoteDebounceMs,
}: AppProps) {
  const [state, dispatch] = useReducer(appReducer, initial ?? initialState);
  const root = useMemo(() => new AbortController(), []);
  const { exit } = useApp();
  const { isRawModeSupported } = useStdin();
  const stopping = useRef(false);

  const shutdown = useCallback(
    (code: number) => {
      if (stopping.current) {
        force();
        return;
      }
      stopping.current = true;
      dispatch({ type: 'stopping' });
      root.abort();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, CLOSE_TIMEOUT_MS);
      });
      void Promise.race([services.close().catch(() => undefined), timeout]).then(() => {
        clearTimeout(timer);
        onExitCode(code);
        // the live area is erased before the exit (Frame draws nothing once stopped): the receipts
        // written above it stay, "stopping…" does not (docs/app.md "Leaving, colour and terminals")
        dispatch({ type: 'stopped' });
        setImmediate(exit);
      });
    },
    [exit, force, onExitCode, root, services],
  );

  // the one key input: every key press of a burst in order, each applied before the next; Ctrl+C
  // is how one leaves the app: a clean exit (0), like q
  const keys = useKeyRouter(() => shutdown(0), isRawModeSupported, onKeysApplied);

  useEffect(() => {
    const onStop = (): void => shutdown(2);
    // the terminal went away: stop as for a signal, but never escalate to a forced exit (a hang-up
    // brings SIGHUP and then failed writes: two requests that are one event)
    const onGone = (): void => {
      if (!stopping.current) shutdown(2);
    };
    stopRequests?.addEventListener('stop', onStop);
    stopRequests?.addEventListener('gone', onGone);
    return () => {
      stopRequests?.removeEventListener('stop', onStop);
      stopRequests?.removeEventListener('gone', onGone);
    };
  }, [shutdown, stopRequests]);

  useEffect(() => {
    if (initial !== undefined) return;
    const call = { signal: root.signal };
    services
      .connect(call)
      .then(async (environment) =>
        dispatch({ type: 'connected', environment, session: await services.currentSession() }),
      )
      .catch((error: unknown) => {
        if (!root.signal.aborted)
          dispatch({ type: 'connectFailed', message: describeFailure(error).message });
      });
  }, [initial, root, services]);

  const lockWaits = useLockWaits(services);
  const [footer, setFooter] = useState<FooterSpec>(NO_FOOTER);
  const ui: Ui = {
    state,
    dispatch,
    services,
    theme,
    rootSignal: root.signal,
    now,
    setFooter,
    quoteDebounceMs,
  };
  return (
    <UiProvider value={ui}>
      <KeyRouterContext.Provider value={keys}>
        <Frame quit={() => shutdown(0)} footer={footer} lockWaits={lockWaits} />
      </KeyRouterContext.Provider>
    </UiProvider>
  );
}

/**
 * Header, the screen, and the footer with the screen's keys. The live area stays shorter than
 * the terminal (a taller one would scroll and leave copies of old frames in the scrollback): the
 * screen is clipped to the rows left, and the footer always shows. Resizing re-renders.
 */
function Frame({
  quit,
  footer,
  lockWaits,
}: {
  quit: () => void;
  footer: FooterSpec;
  /** the files whose lock another finance-tui holds while we wait to write them */
  lockWaits: readonly string[];
}) {
  const { state, theme } = useUi();
  const { columns, rows } = useWindowSize();
  const env = state.environment;
  const actions = state.stopping ? [] : footer.actions;
  const width = Math.max(20, columns);
  // the log path is always whole: in the full sentence when it fits one line, else in a shorter
  // one that does (80 columns), else the sentence wrapped — never cut
  const childLine = ((): string | undefined => {
    if (!env?.startedChild) return undefined;
    const { what, logFile } = env.startedChild;
    const full = `started ${what} for this session (logs: ${logFile})`;
    const short = `${what} · logs: ${logFile}`;
    if (wrappedLines(full, width) === 1 || wrappedLines(short, width) > 1) return full;
    return short;
  })();
  const waitLines = lockWaits.map(
    (what) => `waiting for another finance-tui to finish writing ${what}…`,
  );
  // header, child line, lock waits, gap, gap + the footer's lines (it wraps on a narrow terminal)
  const chrome =
    1 +
    (childLine === undefined ? 0 : wrappedLines(childLine, width)) +
    waitLines.reduce((rows, line) => rows + wrappedLines(line, width), 0) +
    1 +
    1 +
    wrappedLines(footerLine(actions, footer.wording), width);
  const screenRows = Math.max(3, rows - chrome - 1);
  if (state.stopped === true) return null;
  return (
    <Box flexDirection="column" width={width}>
      <Box>
        <Text bold wrap="truncate-end">
          finance-tui
          {env ? <Text color={theme.muted}> · {whereWords(env)}</Text> : null}
          {env?.sandbox ? (
            <Text color={theme.badge} inverse={theme.color}>
              {' '}
              SANDBOX{' '}
            </Text>
          ) : null}
          {state.session ? <Text color={theme.muted}> · {state.session.email}</Text> : null}
        </Text>
      </Box>
      {childLine === undefined ? null : (
        // the log path whole, wrapped: it is what a person copies when something went wrong
        <Text color={theme.muted} wrap="wrap">
          {childLine}
        </Text>
      )}
      {waitLines.map((line) => (
        <Text key={line} color={theme.warning} wrap="wrap">
          {line}
        </Text>
      ))}
      <Box marginTop={1} flexDirection="column" maxHeight={screenRows} overflow="hidden">
        {/* natural height inside, clipped by the box above (not squeezed line over line) */}
        <Box flexDirection="column" flexShrink={0}>
          {state.stopping ? (
            <Text color={theme.warning}>stopping… (press Ctrl+C again to force)</Text>
          ) : state.fatal !== undefined ? (
            <Text color={theme.danger} wrap="wrap">
              ✗ {state.fatal}
            </Text>
          ) : (
            <ScreenRows.Provider value={screenRows}>
              <ScreenView quit={quit} />
            </ScreenRows.Provider>
          )}
        </Box>
      </Box>
      <Box marginTop={1}>
        <Footer actions={actions} wording={footer.wording} />
      </Box>
    </Box>
  );
}
