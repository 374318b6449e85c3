/**
 * The one place that calls Ink's render. Loaded only in interactive mode (see mode.ts), after
 * the colour decision is in the environment.
 */
import { render } from 'ink';
import { App } from './app.js';
import { createServices } from './adapter.js';
import type { Theme } from './theme.js';

/** a second one of these forces the exit (app.tsx); a hang-up never does (onTerminalGone) */
const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

export async function runInteractive(options: {
  sandbox: boolean;
  env: NodeJS.ProcessEnv;
  theme: Theme;
}): Promise<number> {
  const services = createServices({ env: options.env, sandbox: options.sandbox });
  const stopRequests = new EventTarget();
  let code = 0;
  let instance: ReturnType<typeof render> | undefined;
  const force = (): void => {
    instance?.unmount(); // Ink restores raw mode and the cursor
    process.exit(130);
  };
  const onSignal = (): void => {
    stopRequests.dispatchEvent(new Event('stop'));
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  // the terminal went away (a closed window, a dropped ssh): every write fails with EIO or EPIPE.
  // Stop as for a signal — in-flight work aborted, children stopped — without a word or a stack,
  // and never forced (the SIGHUP that comes with it was the first request; app.tsx "gone").
  const onTerminalGone = (): void => {
    stopRequests.dispatchEvent(new Event('gone'));
  };
  // a hang-up is the same event, and comes more than once: the kernel signals the terminal's
  // foreground group and the shell passes its own on to its jobs, so SIGHUP never forces
  process.on('SIGHUP', onTerminalGone);
  process.stdout.on('error', onTerminalGone);
  process.stdin.on('error', onTerminalGone);
  // in raw mode a key never ends the input (Ctrl+D is a byte): its end is the terminal's hang-up
  process.stdin.on('end', onTerminalGone);
  try {
    instance = render(
      <App
        services={services}
        theme={options.theme}
        stopRequests={stopRequests}
        force={force}
        onExitCode={(c) => (code = c)}
      />,
      {
        exitOnCtrlC: false,
        patchConsole: false,
      },
    );
    await instance.waitUntilExit();
    return code;
  } finally {
    for (const signal of SIGNALS) process.off(signal, onSignal);
    process.off('SIGHUP', onTerminalGone);
    await services.close().catch(() => undefined);
    // the listeners stay: Ink may still flush a last frame into the closed terminal
  }
}
