#!/usr/bin/env node
/**
 * The finance-tui program: parse, pick the command, run it, map the outcome to an exit code.
 * Kept thin and free of heavy imports so --version and --help are instant; every command
 * module is loaded on demand.
 */
import type { CommandContext, CommandRun } from './context.js';
import { cancelledError, exitCodeFor, ExitCode, usageError } from '../shared/errors.js';
import { markShuttingDown, stopAllChildren } from './child-registry.js';
import { errorBody, formatJson, humanError } from './output.js';
import { packageVersion } from '../shared/version.js';
import { isatty } from 'node:tty';
import { decideMode, runWithoutCommand } from './ui/mode.js';

/** longRunning: a server that owns its shutdown (drain, then a 5 s cut), never abandoned by main. */
const COMMANDS: Record<string, { summary: string; longRunning?: true; load: () => Promise<{ run: CommandRun }> }> = {
  serve: { summary: 'run the auth server from the environment (production)', longRunning: true, load: () => import('./commands/serve.js') },
  sandbox: { summary: 'run the local sandbox stack: emulators + auth server', longRunning: true, load: () => import('./commands/sandbox.js') },
  quote: { summary: 'quote a swap (or several with --pairs)', load: () => import('./commands/quote.js') },
  status: { summary: 'aggregator and auth server health', load: () => import('./commands/status.js') },
};

export function helpText(): string {
  const lines = [
    `finance-tui ${packageVersion()} — token swaps on Starknet from the terminal`,
    '',
    'Usage: finance-tui <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(10)}${c.summary}`),
    '',
    'Global options:',
    '  --json        print exactly one JSON document on stdout; never prompt',
    '  --sandbox     use the local sandbox (starts it when none is running)',
    '  -h, --help    show help (also: finance-tui <command> --help)',
    '  -v, --version print the version',
    '',
    'Exit codes: 0 ok, 1 error, 2 cancelled, 4 authentication needed.',
    'Data folder: $FINANCE_TUI_HOME, else the platform config folder.',
    '',
  ];
  return lines.join('\n');
}

/** How long a command may take to wind down after Ctrl+C before it is abandoned. */
const CANCEL_GRACE_MS = 5_000;

/**
 * Ctrl+C / SIGTERM: the first aborts the command (it stops its requests and children and
 * resolves); a second forces the exit. Handlers stay registered for the whole run: a library
 * that re-raises a signal (when-exit, under conf) must never find the default handler in place,
 * which would kill the process mid-write with no output and orphaned children.
 */
function installSignals(controller: AbortController, stderrIsTTY: boolean): { ours: (signal: NodeJS.Signals) => void; dispose: () => void } {
  let count = 0;
  const ours = (signal: NodeJS.Signals): void => {
    count += 1;
    markShuttingDown();
    if (count === 1) {
      if (stderrIsTTY) process.stderr.write('stopping… (press Ctrl+C again to force)\n');
      controller.abort(cancelledError());
      return;
    }
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  for (const signal of SIGNALS) process.on(signal, ours);
  return { ours, dispose: () => SIGNALS.forEach((signal) => process.off(signal, ours)) };
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * main is the only owner of SIGINT/SIGTERM; commands see them as ctx.signal. A library that
 * hooks them to clean up and then re-raise (when-exit, which conf loads for its atomic writes)
 * would turn one Ctrl+C into two, or find the default handler and kill us mid-write. So any
 * such listener is removed as soon as it is added, whenever its module loads; the library's
 * cleanup still runs, because it also hooks process 'exit', which our normal exit fires.
 */
function refuseForeignSignalHandlers(ours: (signal: NodeJS.Signals) => void): void {
  process.on('newListener', (event: string | symbol, listener: unknown) => {
    if ((event === 'SIGINT' || event === 'SIGTERM') && listener !== ours) {
      // newListener runs before the listener is added: remove it right after
      queueMicrotask(() => process.off(event, listener as () => void));
    }
  });
}

export async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const stdoutIsTTY = process.stdout.isTTY === true;
  const stderrIsTTY = process.stderr.isTTY === true;
  const first = argv[0];

  if (first === '--version' || first === '-v') {
    process.stdout.write(json ? formatJson({ version: packageVersion() }, stdoutIsTTY) : `${packageVersion()}\n`);
    return ExitCode.OK;
  }
  // no command: the interactive TUI (Ink loads only there), or a message saying what to run
  const mode = decideMode({ argv, stdinIsTTY: isatty(0), stdoutIsTTY, env: process.env });
  if (mode.kind !== 'command') return runWithoutCommand(mode, { env: process.env, stdout: process.stdout, stderr: process.stderr });
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(json ? formatJson({ usage: helpText() }, stdoutIsTTY) : helpText());
    return ExitCode.OK;
  }

  const controller = new AbortController();
  const signals = installSignals(controller, stderrIsTTY);
  refuseForeignSignalHandlers(signals.ours);

  const ctx: CommandContext = {
    argv: argv.slice(1),
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    json,
    stdoutIsTTY,
    stderrIsTTY,
    signal: controller.signal,
  };

  const fail = (error: unknown): number => {
    if (process.env.FINANCE_TUI_DEBUG === '1') process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
    if (json) process.stdout.write(formatJson(errorBody(error), stdoutIsTTY));
    else process.stderr.write(humanError(error));
    return exitCodeFor(error);
  };

  try {
    const command = COMMANDS[first];
    if (command === undefined) {
      throw usageError(`unknown command "${first}" (commands: ${Object.keys(COMMANDS).join(', ')})`);
    }
    const { run } = await command.load();

    // After an abort the command gets CANCEL_GRACE_MS to wind down; past that it is abandoned.
    let graceTimer: NodeJS.Timeout | undefined;
    const abandoned = new Promise<never>((_resolve, reject) => {
      const onAbort = (): void => {
        graceTimer = setTimeout(() => reject(cancelledError()), CANCEL_GRACE_MS);
        graceTimer.unref();
      };
      if (command.longRunning) return;
      if (controller.signal.aborted) onAbort();
      else controller.signal.addEventListener('abort', onAbort, { once: true });
    });
    abandoned.catch(() => undefined);
    try {
      const result = await Promise.race([run(ctx), abandoned]);
      if (result !== undefined) {
        process.stdout.write(json ? formatJson(result.data, stdoutIsTTY) : result.human());
      }
      return ExitCode.OK;
    } finally {
      clearTimeout(graceTimer);
    }
  } catch (error) {
    // whatever a command threw while being cancelled (an aborted request, a stopped child) is the cancellation
    return fail(controller.signal.aborted ? cancelledError() : error);
  } finally {
    // children this command started never outlive it
    await stopAllChildren();
    signals.dispose();
  }
}

// The command is done (or abandoned): exit now rather than when the event loop drains, so a
// stray timer or socket in some library can never keep a finished process alive. Exit from
// the write callback, after stdout has flushed, so a piped JSON document is never cut short.
const exitAfterFlush = (code: number): void => {
  process.exitCode = code;
  process.stdout.write('', () => process.exit(code));
};
main(process.argv.slice(2)).then(exitAfterFlush, (error: unknown) => {
  process.stderr.write(humanError(error));
  exitAfterFlush(ExitCode.ERROR);
});
