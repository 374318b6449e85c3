import type { CommandContext } from './context.js';
import { describeEvent, type ProgressEvent } from '../core/events.js';

/**
 * The headless face of the core's progress (docs/architecture.md "Headless output"): one line
 * on stderr, and only on a TTY, so piped output and --json documents stay clean. Polls while
 * waiting for a receipt say nothing new: only the first is printed.
 */
export function progressTo(
  ctx: Pick<CommandContext, 'stderr' | 'stderrIsTTY'>,
): (event: ProgressEvent) => void {
  return (event) => {
    if (ctx.stderrIsTTY) ctx.stderr.write(`${describeEvent(event)}\n`);
  };
}
