/** What every command gets from main: streams, environment, and the output mode. */
export interface CommandContext {
  argv: string[];
  env: NodeJS.ProcessEnv;
  /**
   * The program's input, for the one command that reads it as a stream (`mcp`'s protocol); the
   * process's own stdin when not given (the bin gives none: a stream built for stdin holds it).
   */
  stdin?: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** --json: exactly one JSON document on stdout, never a prompt. */
  json: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Aborted on SIGINT/SIGTERM; long-running commands stop on it. */
  signal: AbortSignal;
  /**
   * What the command learned on the way that its --json document must say whatever the command
   * (run.ts adds it): a sandbox started for this command only (withEndpoints sets it).
   */
  notices?: { sandboxStarted?: { previousChain: string | null } };
}

/**
 * A finished command's outcome: plain data for --json, and its human rendering.
 * Long-running commands (serve, sandbox) resolve when they have stopped and return undefined.
 */
export interface CommandResult {
  data: unknown;
  human: () => string;
}

export type CommandRun = (ctx: CommandContext) => Promise<CommandResult | undefined>;
