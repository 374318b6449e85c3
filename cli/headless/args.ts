import { parseArgs, type ParseArgsConfig } from 'node:util';
import { AppError, ErrorCode, usageError } from '../../shared/errors.js';
import { closest } from './suggest.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Flags every command accepts (main reads them too). */
export const GLOBAL_OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  sandbox: { type: 'boolean' },
} as const satisfies Options;

/**
 * node:util parseArgs in strict mode, with its errors turned into USAGE_ERROR (exit 1,
 * `{"error": {"code": "USAGE_ERROR", …}}` under --json) that name the offending flag, and an
 * unknown flag's closest known one (`--slipage` → "did you mean --slippage?").
 */
export function parseCommandArgs<T extends Options>(argv: string[], options: T, allowPositionals = true) {
  const all = { ...GLOBAL_OPTIONS, ...options };
  try {
    return parseArgs({ args: argv, options: all, allowPositionals, strict: true });
  } catch (error) {
    let message = error instanceof Error ? error.message.replace(/\. To specify a positional.*$/s, '') : String(error);
    const unknown = (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /Unknown option '(--[^'=]+)/.exec(message)?.[1] : undefined;
    if (unknown !== undefined) {
      const suggestion = closest(unknown, Object.keys(all).map((name) => `--${name}`));
      if (suggestion !== undefined) message += `; did you mean ${suggestion}?`;
    }
    throw usageError(message);
  }
}

/** An integer port from a flag, 0 allowed (ephemeral). */
export function parsePort(raw: string | undefined, flag = '--port'): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^[0-9]{1,5}$/.test(raw) || Number(raw) > 65535) throw usageError(`${flag} must be an integer from 0 to 65535 (got "${raw}")`);
  return Number(raw);
}

const NEGATIVE_NUMBER = /^-(?:[0-9]|\.[0-9])/;

/**
 * `quote -1 ETH USDC`, `send -1 STRK 0x…`: parseArgs would call "-1" an unknown option, which
 * hides the real mistake. A negative number where an argument stands (not as the value of one of
 * `valueFlags`) is an amount.
 */
export function refuseNegativeAmount(argv: readonly string[], valueFlags: ReadonlySet<string>): void {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') return;
    if (NEGATIVE_NUMBER.test(arg) && !valueFlags.has(argv[i - 1] ?? '')) {
      throw new AppError(ErrorCode.INVALID_AMOUNT, `invalid amount "${arg.slice(0, 40)}": amount must not be negative`, { status: 400 });
    }
  }
}
