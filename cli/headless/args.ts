import { createRequire } from 'node:module';
import type * as Util from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { AppError, ErrorCode, usageError } from '../../shared/errors.js';
import { isNetwork, NETWORKS, type Network } from '../../shared/tokens.js';
import { closest } from './suggest.js';

// through require, not `import` (cli/ui/mode.ts says why)
const { parseArgs } = createRequire(import.meta.url)('node:util') as typeof Util;

type Options = NonNullable<ParseArgsConfig['options']>;

/** One of parseArgs' tokens: a flag or an argument, and where it stood in argv. */
export interface ArgToken {
  kind: string;
  index: number;
  name?: string;
  value?: string | undefined;
  inlineValue?: boolean | undefined;
}

/** Flags every command accepts (main reads them too). */
const GLOBAL_OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  sandbox: { type: 'boolean' },
} as const satisfies Options;

/**
 * node:util parseArgs in strict mode, with its errors turned into USAGE_ERROR (exit 1,
 * `{"error": {"code": "USAGE_ERROR", …}}` under --json) that name the offending flag, and an
 * unknown flag's closest known one (`--slipage` → "did you mean --slippage?").
 *
 * A flag given twice is a USAGE_ERROR naming it, unless it is declared `multiple: true`
 * (batch's --swap and --send): parseArgs would keep the last value, so
 * `--slippage 1 --slippage 50` would run at 50 % without a word. Boolean flags too
 * (`--yes --yes`): harmless, but one rule is simpler to state and to trust than two.
 */
export function parseCommandArgs<T extends Options>(
  argv: string[],
  options: T,
  allowPositionals = true,
) {
  const all = { ...GLOBAL_OPTIONS, ...options };
  let parsed;
  try {
    parsed = parseArgs({
      args: attachNegativeValues(argv, all),
      options: all,
      allowPositionals,
      strict: true,
      tokens: true,
    });
  } catch (error) {
    let message =
      error instanceof Error
        ? error.message.replace(/\. To specify a positional.*$/s, '')
        : String(error);
    // `sandbox price ETH -5`, `sandbox advance -1d`: a negative number where an argument
    // stands is no option (signing commands say INVALID_AMOUNT first: refuseNegativeAmount)
    const negative = /^Unknown option '(-[0-9.][^']*)'/.exec(message)?.[1];
    if (negative !== undefined && NEGATIVE_VALUE.test(negative)) {
      const whole = argv.find((arg) => arg.startsWith(negative)) ?? negative;
      throw usageError(
        `"${whole.slice(0, 40)}" is negative: the numbers this command takes never are`,
      );
    }
    const unknown =
      (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION'
        ? /Unknown option '(--[^'=]+)/.exec(message)?.[1]
        : undefined;
    if (unknown !== undefined) {
      const suggestion = closest(
        unknown,
        Object.keys(all).map((name) => `--${name}`),
      );
      if (suggestion !== undefined) message += `; did you mean ${suggestion}?`;
    }
    throw usageError(message);
  }
  refuseRepeatedFlags(parsed.tokens, all);
  return parsed;
}

/** A negative number, alone or leading a value ("-1", "-.5", "-1 USDC"). */
const NEGATIVE_VALUE = /^-\s*(?:[0-9]|\.[0-9])/;

/**
 * `--collateral -1 ETH`, `--max-fee -1`, `--supply "-1 USDC"`, `--limit -5`: parseArgs calls a
 * value starting with "-" ambiguous and answers in its own words. A negative number after a flag
 * that takes a value is that flag's value (as `--flag=-1` would be), so the flag's own check
 * refuses it with its code (INVALID_AMOUNT "must not be negative", --limit's range, …).
 */
function attachNegativeValues(argv: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const next = argv[i + 1];
    const option = /^--([^=]+)$/.exec(arg)?.[1];
    if (
      option !== undefined &&
      options[option]?.type === 'string' &&
      next !== undefined &&
      NEGATIVE_VALUE.test(next)
    ) {
      out.push(`${arg}=${next}`);
      i++;
      continue;
    }
    out.push(arg);
  }
  return out;
}

/** Every option token names a declared flag (strict mode checked that); each may appear once unless `multiple`. */
function refuseRepeatedFlags(
  tokens: ReadonlyArray<{ kind: string; name?: string; rawName?: string }>,
  options: Options,
): void {
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name === undefined) continue;
    if ((options[token.name] as { multiple?: boolean } | undefined)?.multiple === true) continue;
    if (seen.has(token.name)) {
      const short = (options[token.name] as { short?: string } | undefined)?.short;
      throw usageError(
        `--${token.name}${short === undefined ? '' : ` (-${short})`} was given more than once; give it once`,
      );
    }
    seen.add(token.name);
  }
}

/** An integer port from a flag, 0 allowed (ephemeral). */
export function parsePort(raw: string | undefined, flag = '--port'): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^[0-9]{1,5}$/.test(raw) || Number(raw) > 65535)
    throw usageError(`${flag} must be an integer from 0 to 65535 (got "${raw}")`);
  return Number(raw);
}

const NEGATIVE_NUMBER = /^-(?:[0-9]|\.[0-9])/;

/**
 * `quote -1 ETH USDC`, `send -1 STRK 0x…`: parseArgs would call "-1" an unknown option, which
 * hides the real mistake. A negative number where an argument stands (not as the value of one of
 * `valueFlags`) is an amount.
 */
export function refuseNegativeAmount(
  argv: readonly string[],
  valueFlags: ReadonlySet<string>,
): void {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') return;
    if (NEGATIVE_NUMBER.test(arg) && !valueFlags.has(argv[i - 1] ?? '')) {
      throw new AppError(
        ErrorCode.INVALID_AMOUNT,
        `invalid amount "${arg.slice(0, 40)}": amount must not be negative`,
      );
    }
  }
}

/** `--network NAME` as given: a known network, or undefined when absent; USAGE_ERROR otherwise. */
export function parseNetworkFlag(value: string | undefined): Network | undefined {
  if (value === undefined || isNetwork(value)) return value;
  throw usageError(`--network must be ${NETWORKS.join(' or ')} (got "${value.slice(0, 20)}")`);
}
