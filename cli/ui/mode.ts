/**
 * Which face of the program runs: a command (headless), the interactive TUI, or neither.
 * A pure function of the arguments, the terminal and the environment, decided before anything
 * heavy loads: Ink and React are imported only once this says "interactive" (docs/architecture.md
 * "Client behaviour"), so `--json` and every command stay free of them.
 */
import { createRequire } from 'node:module';
import type * as Util from 'node:util';
import { printable } from '../../shared/printable.js';
import { ACTION_KIND_NAMES, ACTION_KINDS } from '../core/actions/kinds.js';

// node:util through require, not `import`: an ES import builds its module facade, which reads
// every export and loads ~40 of Node's internal modules (~10 ms of CPU) for parseArgs alone
// (docs/decisions.md "Built-ins required, TypeBox by name"; transport.ts does so for node:http)
const { parseArgs } = createRequire(import.meta.url)('node:util') as typeof Util;

interface ModeInput {
  argv: readonly string[];
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  env: NodeJS.ProcessEnv;
}

export type Mode =
  /** a command word, --help or --version: main's headless path */
  | { kind: 'command' }
  | { kind: 'interactive'; sandbox: boolean }
  /** no command, and the TUI cannot run here: say what to run instead (exit 1) */
  | { kind: 'refused'; message: string; json: boolean };

/** The flags the TUI itself takes (`finance-tui --sandbox`). */
const TUI_OPTIONS = { sandbox: { type: 'boolean' }, json: { type: 'boolean' } } as const;

/**
 * Every command word, in run.ts's order (a test keeps the two in step without loading run.ts
 * here): each action kind's command from the kinds table, then the others.
 */
const HEADLESS = [
  ...new Set(ACTION_KIND_NAMES.map((k) => ACTION_KINDS[k].command.split(' ')[0] ?? k)),
  ...'login, verify, logout, wallet, balance, quote, staking, lending, history, status, grant, mcp, serve, sandbox, portfolio'.split(
    ', ',
  ),
].join(', ');

/** CI=true, CI=1, … but not CI=false or CI=0 (the usual convention, as is-in-ci reads it). */
function isCI(env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI;
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
}

export function decideMode(input: ModeInput): Mode {
  const first = input.argv[0];
  if (first !== undefined && !first.startsWith('-')) return { kind: 'command' };
  if (input.argv.some((a) => a === '--help' || a === '-h' || a === '--version' || a === '-v'))
    return { kind: 'command' };

  // a command after a global flag (`finance-tui --json balance`): say where the command goes
  const word = input.argv.find((a) => !a.startsWith('-'));
  if (word !== undefined && HEADLESS.split(', ').includes(word)) {
    const at = input.argv.indexOf(word);
    const globals = input.argv.slice(0, at).filter((a) => a === '--json' || a === '--sandbox');
    const quoted = (a: string): string => {
      const clean = printable(a, 80);
      return /^[\w.@:/+=,-]+$/.test(clean) ? clean : `"${clean.replace(/["\\$`]/g, '\\$&')}"`;
    };
    const line = [...input.argv.slice(at), ...globals].map(quoted).join(' ');
    return {
      kind: 'refused',
      json: input.argv.includes('--json'),
      message: `the command comes first, then its flags: finance-tui ${line.slice(0, 400)}`,
    };
  }

  let sandbox: boolean;
  let json: boolean;
  try {
    const { values } = parseArgs({
      args: [...input.argv],
      options: TUI_OPTIONS,
      strict: true,
      allowPositionals: false,
    });
    sandbox = values.sandbox === true;
    json = values.json === true;
  } catch (error) {
    const json = input.argv.includes('--json');
    return {
      kind: 'refused',
      json,
      message: `${(error as Error).message.replace(/\. To specify a positional.*$/s, '')}; see finance-tui --help`,
    };
  }
  const why = json
    ? '--json needs a command'
    : !input.stdinIsTTY || !input.stdoutIsTTY
      ? 'the interactive app needs a terminal (stdin and stdout)'
      : isCI(input.env)
        ? 'the interactive app does not run under CI (CI is set)'
        : undefined;
  if (why !== undefined)
    return {
      kind: 'refused',
      json,
      message: `${why}; use a command: ${HEADLESS} (finance-tui --help)`,
    };
  return { kind: 'interactive', sandbox };
}

/**
 * No command: run the TUI (loading Ink only now) or say why not. Returns the exit code.
 * The theme is decided here, before Ink loads, because Ink reads FORCE_COLOR at import.
 */
export async function runWithoutCommand(
  mode: Exclude<Mode, { kind: 'command' }>,
  io: { env: NodeJS.ProcessEnv; stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  if (mode.kind === 'refused') {
    // --json: still exactly one JSON document on stdout (docs/architecture.md "Headless output")
    if (mode.json)
      io.stdout.write(
        `${JSON.stringify({ error: { code: 'USAGE_ERROR', message: mode.message } })}\n`,
      );
    else io.stderr.write(`finance-tui: ${mode.message}\n`);
    return 1;
  }
  const env = io.env;
  const { themeFor } = await import('./theme.js');
  const theme = themeFor(env);
  if (!theme.color) process.env.FORCE_COLOR = '0';
  const { runInteractive } = await import('./run.js');
  return runInteractive({ sandbox: mode.sandbox, env, theme });
}
