import type { CommandContext } from './context.js';
import type { Progress } from '../core/call.js';

/**
 * The headless face of the core's progress (docs/architecture.md "Headless output"): one line
 * on stderr, and only on a TTY, so piped output and --json documents stay clean.
 */
export function progressTo(ctx: Pick<CommandContext, 'stderr' | 'stderrIsTTY'>): (progress: Progress) => void {
  return (progress) => {
    if (ctx.stderrIsTTY) ctx.stderr.write(`${progress.message}\n`);
  };
}
