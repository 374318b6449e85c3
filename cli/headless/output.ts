import { type ErrorBody, isAppError } from '../../shared/errors.js';

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
    return {
      error: {
        code: error.code,
        message: error.message,
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

/** One `error:` line per line of the message; the code closes the last one. */
export function humanError(error: unknown): string {
  const body = errorBody(error);
  const lines = body.error.message.split('\n');
  return `${lines.map((line, i) => `error: ${line}${i === lines.length - 1 ? ` (${body.error.code})` : ''}`).join('\n')}\n`;
}
