/**
 * The test knobs read from the environment (docs/commands.md, beside `NODE_DISABLE_COMPILE_CACHE`), in a module that
 * loads next to nothing: the app reads one before its first frame.
 */
import { AppError, ErrorCode } from '../../shared/errors.js';
import { printable } from '../../shared/printable.js';

/**
 * A test knob in whole milliseconds (FINANCE_TUI_LIVE_READ_MS, FINANCE_TUI_SANDBOX_LATENCY_MS):
 * unset or empty, undefined; whole milliseconds from `min` to `max`, the number; anything else is
 * refused (CONFIG_ERROR) rather than ignored, so a mistyped knob never runs as if it were unset.
 */
export function millisecondsKnob(
  env: NodeJS.ProcessEnv,
  name: string,
  range: { min: number; max: number },
): number | undefined {
  const knob = env[name]?.trim();
  if (knob === undefined || knob === '') return undefined;
  const ms = /^[0-9]{1,9}$/.test(knob) ? Number(knob) : Number.NaN;
  if (ms >= range.min && ms <= range.max) return ms;
  throw new AppError(
    ErrorCode.CONFIG_ERROR,
    `${name} must be whole milliseconds from ${range.min} to ${range.max} (got "${printable(knob, 40)}")`,
  );
}
