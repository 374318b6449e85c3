#!/usr/bin/env node
/**
 * The finance-tui bin: decides the mode (a command, the interactive app, or neither) with a pure
 * function of the arguments, the terminal and the environment, owns the process (signals, exit)
 * and runs the program: a command through run(argv, io) (run.ts, testable in process), no
 * command through the TUI (cli/ui/mode.ts, which loads Ink only then).
 */
import { isatty } from 'node:tty';
import { humanError } from './headless/output.js';
import { run } from './run.js';
import { ownProcessSignals } from './platform/signals.js';
import { decideMode, runWithoutCommand } from './ui/mode.js';
import { ExitCode } from '../shared/exit-codes.js';

const argv = process.argv.slice(2);
const stdoutIsTTY = process.stdout.isTTY === true;
const stderrIsTTY = process.stderr.isTTY === true;

// The run is done (or abandoned): exit now rather than when the event loop drains, so a stray
// timer or socket in some library can never keep a finished process alive. Exit from the write
// callback, after stdout has flushed, so a piped JSON document is never cut short.
const exitAfterFlush = (code: number): void => {
  process.exitCode = code;
  process.stdout.write('', () => process.exit(code));
};
const crashed = (error: unknown): void => {
  process.stderr.write(humanError(error));
  exitAfterFlush(ExitCode.ERROR);
};

const mode = decideMode({
  argv,
  // fd 0 asked directly: process.stdin would build a stream a command may never read
  stdinIsTTY: isatty(0),
  stdoutIsTTY,
  env: process.env,
});
if (mode.kind === 'command') {
  // the servers keep SIGHUP's default (nohup works); every other command owns it (signals.ts)
  const server = argv[0] === 'serve' || argv[0] === 'sandbox';
  const signals = ownProcessSignals({ stderr: process.stderr, stderrIsTTY, hangup: !server });
  // a terminal or reader that went away (EIO, EPIPE) fails our writes, not the run: a command that
  // has signed still records its transaction before it ends (platform/signals.ts, SIGHUP)
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
  run(argv, {
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    stdoutIsTTY,
    stderrIsTTY,
    signal: signals.signal,
  }).then(exitAfterFlush, crashed);
} else {
  // the interactive app handles its own signals (and Ink restores the terminal)
  runWithoutCommand(mode, {
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
  }).then(exitAfterFlush, crashed);
}
