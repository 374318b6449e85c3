import { parseArgs, type ParseArgsConfig } from 'node:util';
import { usageError } from '../shared/errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Flags every command accepts (main reads them too). */
export const GLOBAL_OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  sandbox: { type: 'boolean' },
} as const satisfies Options;

/**
 * node:util parseArgs in strict mode, with its errors turned into USAGE_ERROR (exit 1,
 * `{"error": {"code": "USAGE_ERROR", …}}` under --json) that name the offending flag.
 */
export function parseCommandArgs<T extends Options>(argv: string[], options: T, allowPositionals = true) {
  try {
    return parseArgs({ args: argv, options: { ...GLOBAL_OPTIONS, ...options }, allowPositionals, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/\. To specify a positional.*$/s, '') : String(error);
    throw usageError(message);
  }
}

/** An integer port from a flag, 0 allowed (ephemeral). */
export function parsePort(raw: string | undefined, flag = '--port'): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^[0-9]{1,5}$/.test(raw) || Number(raw) > 65535) throw usageError(`${flag} must be an integer from 0 to 65535 (got "${raw}")`);
  return Number(raw);
}
