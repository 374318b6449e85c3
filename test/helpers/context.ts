/**
 * A CommandContext for running a command in-process: no arguments, an empty environment,
 * throwaway streams, --json, no TTY and a signal that never aborts, unless overridden.
 */
import { PassThrough } from 'node:stream';
import type { CommandContext } from '../../cli/headless/context.js';

export function commandContext(overrides: Partial<CommandContext> = {}): CommandContext {
  return {
    argv: [],
    env: {},
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    json: true,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    signal: new AbortController().signal,
    ...overrides,
  };
}
