import { printable } from '../../shared/printable.js';
import { type ErrorBody, isAppError } from '../../shared/errors.js';
import { type Field, fieldOf, loginCommand, signInRemedyOf } from '../core/remedy.js';

/** docs/architecture.md "Headless output": 2-space indented on a TTY, compact when piped; always one trailing newline. */
export function formatJson(value: unknown, pretty: boolean): string {
  return `${JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? v.toString() : v), pretty ? 2 : undefined)}\n`;
}

/**
 * The error document for --json and the line for humans. Only AppError messages are shown;
 * anything else is a bug and its message may hold internals, so it becomes INTERNAL_ERROR.
 */
export function errorBody(error: unknown): ErrorBody {
  if (isAppError(error)) {
    // a session refusal's remedy (core/remedy.ts), in the headless words: the command to run
    const signIn = signInRemedyOf(error.details);
    // the parameter a refusal is about, named by its flag (core/remedy.ts "Field")
    const field = fieldOf(error.details);
    const message = field === undefined ? error.message : `${FIELD_FLAGS[field]}: ${error.message}`;
    return {
      error: {
        code: error.code,
        message:
          signIn === undefined
            ? `${message}${commandWords(error.details)}`
            : `${message}; sign in ${error.code === 'AUTH_REQUIRED' ? 'with' : 'again'}: ${loginCommand(signIn.email, signIn.sandbox)}`,
        ...(error.details ? { details: error.details } : {}),
      },
    };
  }
  return {
    error: {
      code: 'INTERNAL_ERROR',
      message: 'unexpected internal error (run with FINANCE_TUI_DEBUG=1 for details)',
    },
  };
}

/** The flag of each request parameter a refusal can be about. */
const FIELD_FLAGS: Record<Field, string> = {
  target: '--target',
  band: '--band',
  minTrade: '--min-trade',
  validator: '--validator',
  maxFee: '--max-fee',
  daily: '--daily',
  allowRecipient: '--allow-recipient',
  expires: '--expires',
  out: '--out',
};

/**
 * The remedies that name a command (core/remedy.ts "Remedy"), in the message itself as the
 * sign-in command is: a script reading `--json` sees the command to run too.
 */
function commandWords(details: Record<string, unknown> | undefined): string {
  const remedy = details?.remedy;
  if (!Array.isArray(remedy)) return '';
  const words: string[] = [];
  if (remedy.includes('history'))
    words.push('check `finance-tui history` (it asks the chain how it ended)');
  if (remedy.includes('start-sandbox'))
    words.push(
      'start one in another terminal with `finance-tui sandbox` (or `npm run sandbox`) and keep it running',
    );
  if (remedy.includes('sandbox')) words.push('the flag is --sandbox');
  return words.length === 0 ? '' : `; ${words.join('; ')}`;
}

/**
 * The headless words for a refusal's remedy (the core names no flag: `details.remedy` lists what
 * is missing — 'confirm', or an acknowledgment id, cli/core/actions/acknowledgments.ts).
 */
export const REMEDY_WORDS: Record<string, string> = {
  confirm: 'then run again with --yes to sign it',
  'high-impact': 'pass --allow-high-impact to accept it',
  'high-slippage': 'pass --allow-high-slippage to accept it',
  'exit-restart': 'pass --restart-exit to restart the exit timer',
  // a rebalance that would not reach its band (REBALANCE_OUTSIDE_BAND)
  band: 'a wider --band accepts it',
  'min-trade': 'a lower --min-trade makes those swaps too',
  'low-health': 'pass --accept-low-health to accept the low health factor',
  'unknown-pool': 'pass --accept-unknown-pool to use a pool that is not a known one',
};

function remedyOf(details: Record<string, unknown> | undefined): string {
  const remedy = details?.remedy;
  if (!Array.isArray(remedy)) return '';
  const words = remedy.map((r) => (typeof r === 'string' ? REMEDY_WORDS[r] : undefined));
  return words.every((w) => w !== undefined) && words.length > 0 ? `, ${words.join('; ')}` : '';
}

/**
 * One `error:` line per line of the message (and the remedy in headless words); the code closes
 * the last one. Each line made printable: a message may repeat what was typed or set in the
 * environment, and a terminal must not act on escapes in it.
 */
export function humanError(error: unknown): string {
  const body = errorBody(error);
  const lines = `${body.error.message}${remedyOf(body.error.details)}`
    .split('\n')
    .map((line) => printable(line, 2_000));
  return `${lines.map((line, i) => `error: ${line}${i === lines.length - 1 ? ` (${body.error.code})` : ''}`).join('\n')}\n`;
}
