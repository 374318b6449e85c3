#!/usr/bin/env node
/**
 * The finance-tui program: parse, pick the command, run it, map the outcome to an exit code.
 * Kept thin and free of heavy imports so --version and --help are instant; every command
 * module is loaded on demand.
 */
import type { CommandContext, CommandRun } from './context.js';
import { exitCodeFor, ExitCode, usageError } from '../shared/errors.js';
import { errorBody, formatJson, humanError } from './output.js';
import { packageVersion } from '../shared/version.js';

const COMMANDS: Record<string, { summary: string; load: () => Promise<{ run: CommandRun }> }> = {
  serve: { summary: 'run the auth server from the environment (production)', load: () => import('./commands/serve.js') },
  sandbox: { summary: 'run the local sandbox stack: emulators + auth server', load: () => import('./commands/sandbox.js') },
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

export async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const stdoutIsTTY = process.stdout.isTTY === true;
  const first = argv[0];

  if (first === '--version' || first === '-v') {
    process.stdout.write(json ? formatJson({ version: packageVersion() }, stdoutIsTTY) : `${packageVersion()}\n`);
    return ExitCode.OK;
  }
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(helpText());
    return ExitCode.OK;
  }

  const controller = new AbortController();
  const onSignal = (): void => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const ctx: CommandContext = {
    argv: argv.slice(1),
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    json,
    stdoutIsTTY,
    stderrIsTTY: process.stderr.isTTY === true,
    signal: controller.signal,
  };

  try {
    const command = COMMANDS[first];
    if (command === undefined) {
      throw usageError(`unknown command "${first}" (commands: ${Object.keys(COMMANDS).join(', ')})`);
    }
    const { run } = await command.load();
    const result = await run(ctx);
    if (result !== undefined) {
      process.stdout.write(json ? formatJson(result.data, stdoutIsTTY) : result.human());
    }
    return ExitCode.OK;
  } catch (error) {
    if (process.env.FINANCE_TUI_DEBUG === '1') process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
    if (json) process.stdout.write(formatJson(errorBody(error), stdoutIsTTY));
    else process.stderr.write(humanError(error));
    return exitCodeFor(error);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

// Set exitCode rather than calling exit(): lets stdout drain when piped.
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(humanError(error));
    process.exitCode = ExitCode.ERROR;
  },
);
