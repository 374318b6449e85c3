/**
 * The finance-tui program as a function: `run(argv, io)` parses, picks the command, runs it and
 * maps the outcome to an exit code (shared/exit-codes.ts). It touches no process-wide state
 * (signals, exit): the bin (main.ts) owns those, so tests call run in-process.
 * Kept free of heavy imports so --version and --help are instant; every command module is
 * loaded on demand.
 */
import type { CommandContext, CommandRun } from './headless/context.js';
import {
  cancelledError,
  ErrorCode,
  exitCodeFor,
  ExitCode,
  isAppError,
  usageError,
} from '../shared/errors.js';
import { exitCodeLines } from '../shared/exit-codes.js';
import { stopAllChildren } from './platform/child-registry.js';
import { errorBody, formatJson, humanError } from './headless/output.js';
import { closest } from './headless/suggest.js';
import { packageVersion, versionLine } from '../shared/version.js';
import { ACTION_KIND_NAMES, ACTION_KINDS } from './core/actions/kinds.js';

export interface ProgramIO {
  env: NodeJS.ProcessEnv;
  /** the input `mcp` reads its protocol from; the process's stdin when not given (main.ts) */
  stdin?: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** aborted on the first Ctrl+C / SIGTERM (the bin owns the signals) */
  signal: AbortSignal;
}

interface CommandEntry {
  summary: string;
  /** a server that owns its shutdown (drain, then a bounded cut), never abandoned by run */
  longRunning?: true;
  load: () => Promise<{ run: CommandRun }>;
}

/** An action kind's summary (kinds.ts) in the headless idiom: its signing flag. */
const signs = (summary: string): string => `${summary} (--yes signs)`;

/**
 * Each action kind's command, from the kinds table (the first kind of a word gives its summary):
 * every one is its declaration's (headless/kind-command.ts), its lists' bounds and its answer
 * ("already balanced") included.
 */
const KIND_COMMANDS: Record<string, CommandEntry> = {};
for (const kind of ACTION_KIND_NAMES) {
  const word = ACTION_KINDS[kind].command.split(' ')[0] ?? kind;
  KIND_COMMANDS[word] ??= {
    summary: signs(ACTION_KINDS[kind].summary),
    load: async () => ({ run: (await import('./commands/kind.js')).commandFor(word) }),
  };
}

/** Two-word names ("sandbox outbox") are matched before one-word ones. */
export const COMMANDS: Record<string, CommandEntry> = {
  ...KIND_COMMANDS,
  login: {
    summary: 'send a sign-in code to an e-mail address',
    load: () => import('./commands/login.js'),
  },
  verify: {
    summary: 'sign in with the code: saves the session',
    load: () => import('./commands/verify.js'),
  },
  logout: { summary: 'forget the saved session', load: () => import('./commands/logout.js') },
  wallet: {
    summary: "show the session's wallet (--create makes one)",
    load: () => import('./commands/wallet.js'),
  },
  balance: {
    summary: "the wallet's token balances, exact",
    load: () => import('./commands/balance.js'),
  },
  quote: {
    summary: 'quote a swap (or several with --pairs)',
    load: () => import('./commands/quote.js'),
  },
  staking: {
    summary: 'the validators known for the network and your staking positions',
    load: () => import('./commands/staking.js'),
  },
  lending: {
    summary: 'your Vesu lending positions, with the health factor of each borrow',
    load: () => import('./commands/lending.js'),
  },
  history: {
    summary: 'the transactions this client sent',
    load: () => import('./commands/history.js'),
  },
  status: {
    summary: 'aggregator and auth server health',
    load: () => import('./commands/status.js'),
  },
  grant: {
    summary: "an AI agent's budget held by the auth server: grant create, list, revoke",
    load: () => import('./commands/grant.js'),
  },
  'grant create': {
    summary: 'create an agent grant (daily amounts, recipients, expiry); its token to --out',
    load: () => import('./commands/grant-create.js'),
  },
  'grant list': {
    summary: 'your agent grants and what each has left today',
    load: () => import('./commands/grant-list.js'),
  },
  'grant revoke': {
    summary: 'end an agent grant at once',
    load: () => import('./commands/grant-revoke.js'),
  },
  mcp: {
    summary: 'the tool server for AI agents (MCP on stdio; read-only unless --allow-execute)',
    longRunning: true,
    load: () => import('./commands/mcp.js'),
  },
  serve: {
    summary: 'run the auth server from the environment (production)',
    longRunning: true,
    load: () => import('./commands/serve.js'),
  },
  sandbox: {
    summary: 'run the local sandbox stack: emulators + auth server',
    longRunning: true,
    load: () => import('./commands/sandbox.js'),
  },
  'sandbox outbox': {
    summary: 'print the latest sign-in code sent to an e-mail (sandbox only)',
    load: () => import('./commands/outbox.js'),
  },
  'sandbox advance': {
    summary: "move the running sandbox chain's clock forward (e.g. 2h, 8d)",
    load: () => import('./commands/sandbox-advance.js'),
  },
  'sandbox price': {
    summary: "set a token's USD price on the running sandbox (oracle and market)",
    load: () => import('./commands/sandbox-price.js'),
  },
  'sandbox liquidate': {
    summary: "liquidate a lending position on the running sandbox (its pool's liquidate_position)",
    load: () => import('./commands/sandbox-liquidate.js'),
  },
  'sandbox remove-staker': {
    summary: "remove a validator's staker on the running sandbox (its pool takes no new stake)",
    load: () => import('./commands/sandbox-remove-staker.js'),
  },
  portfolio: {
    summary: 'what the wallet holds and is worth, with each share',
    load: () => import('./commands/portfolio.js'),
  },
};

/** The command words (`sandbox outbox` is the sandbox command's own sub-command). */
export function commandNames(): string[] {
  return Object.keys(COMMANDS).filter((name) => !name.includes(' '));
}

export function helpText(): string {
  // the summaries start in one column, two spaces after the longest command name
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length)) + 2;
  const lines = [
    `finance-tui ${packageVersion()} — token swaps on Starknet from the terminal`,
    '',
    'Usage: finance-tui <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}${c.summary}`),
    '',
    'Global options:',
    '  --json        print exactly one JSON document on stdout; never prompt',
    '  --sandbox     use the local sandbox (starts it when none is running)',
    '  -h, --help    show help (also: finance-tui <command> --help)',
    '  -v, --version print the version',
    '',
    'Exit codes:',
    ...exitCodeLines(),
    '',
    'Data folder: $FINANCE_TUI_HOME, else the platform config folder.',
    '',
  ];
  return lines.join('\n');
}

/** How long a command may take to wind down after Ctrl+C before it is abandoned. */
const CANCEL_GRACE_MS = 5_000;

function findCommand(argv: string[]): { name: string; entry: CommandEntry; rest: string[] } {
  const [first = '', second] = argv;
  const pair = second === undefined ? undefined : COMMANDS[`${first} ${second}`];
  if (pair !== undefined) return { name: `${first} ${second}`, entry: pair, rest: argv.slice(2) };
  const entry = Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined;
  if (entry !== undefined) return { name: first, entry, rest: argv.slice(1) };
  const names = commandNames();
  const suggestion = closest(first, names);
  throw usageError(
    `unknown command "${first}"${suggestion ? `; did you mean ${suggestion}?` : ''} (commands: ${names.join(', ')})`,
  );
}

export async function run(argv: string[], io: ProgramIO): Promise<ExitCode> {
  const json = argv.includes('--json');
  const first = argv[0];

  if (first === '--version' || first === '-v') {
    io.stdout.write(
      json ? formatJson({ version: packageVersion() }, io.stdoutIsTTY) : versionLine(),
    );
    return ExitCode.OK;
  }
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    io.stdout.write(json ? formatJson({ usage: helpText() }, io.stdoutIsTTY) : helpText());
    return ExitCode.OK;
  }

  let ctx: CommandContext | undefined;
  /** A --json document (an object) with what the command learned on the way (context.ts notices). */
  const withNotices = <T>(doc: T): T =>
    ctx?.notices?.sandboxStarted !== undefined &&
    typeof doc === 'object' &&
    doc !== null &&
    !Array.isArray(doc)
      ? { ...doc, sandboxStarted: ctx.notices.sandboxStarted }
      : doc;

  const fail = (error: unknown): ExitCode => {
    if (io.env.FINANCE_TUI_DEBUG === '1')
      io.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
    if (json) io.stdout.write(formatJson(withNotices(errorBody(error)), io.stdoutIsTTY));
    else io.stderr.write(humanError(error));
    return exitCodeFor(error);
  };

  try {
    const { entry, rest } = findCommand(argv);
    ctx = {
      argv: rest,
      env: io.env,
      ...(io.stdin === undefined ? {} : { stdin: io.stdin }),
      stdout: io.stdout,
      stderr: io.stderr,
      json,
      stdoutIsTTY: io.stdoutIsTTY,
      stderrIsTTY: io.stderrIsTTY,
      signal: io.signal,
    };
    const { run: runCommand } = await entry.load();

    // After an abort the command gets CANCEL_GRACE_MS to wind down; past that it is abandoned.
    let graceTimer: NodeJS.Timeout | undefined;
    const abandoned = new Promise<never>((_resolve, reject) => {
      const onAbort = (): void => {
        graceTimer = setTimeout(() => reject(cancelledError()), CANCEL_GRACE_MS);
        graceTimer.unref();
      };
      if (entry.longRunning) return;
      if (io.signal.aborted) onAbort();
      else io.signal.addEventListener('abort', onAbort, { once: true });
    });
    abandoned.catch(() => undefined);
    try {
      const result = await Promise.race([runCommand(ctx), abandoned]);
      if (result !== undefined) {
        io.stdout.write(
          json ? formatJson(withNotices(result.data), io.stdoutIsTTY) : result.human(),
        );
      }
      return ExitCode.OK;
    } finally {
      clearTimeout(graceTimer);
    }
  } catch (error) {
    // whatever a command threw while being cancelled (an aborted request, a stopped child) is
    // the cancellation — except a long-running server's own failure to stop, which is its own
    const ownFailure = isAppError(error) && error.code === ErrorCode.SHUTDOWN_TIMEOUT;
    // …and except a transaction that had left the client: its outcome (and hash) is what the
    // caller must learn, not "cancelled" (exit 3, SUBMITTED_UNCONFIRMED / TRANSACTION_PENDING)
    const sent = exitCodeFor(error) === ExitCode.SUBMITTED;
    if (io.signal.aborted && !ownFailure && !sent) return fail(cancelledError());
    return fail(error);
  } finally {
    // children this command started never outlive it
    await stopAllChildren();
  }
}
