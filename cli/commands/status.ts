/**
 * `finance-tui status [--sandbox] [--json]`: where the client points and whether the aggregator
 * and the auth server answer (cli/core/status.ts). A service being down is reported, never a
 * failure (exit 0); only usage and configuration mistakes fail, and Ctrl+C (CANCELLED).
 *
 * Only light modules are imported up front, so `--help` and usage errors answer at once.
 */
import { parseCommandArgs } from '../headless/args.js';
import type { CommandContext, CommandResult, CommandRun } from '../headless/context.js';
import type { StatusDeps, StatusResult } from '../core/status.js';
import { progressTo } from '../headless/progress.js';
import { renderStatus } from '../headless/quote-render.js';

export const USAGE = `Usage: finance-tui status [--sandbox] [--json]

Reports the network, and whether the swap aggregator and the auth server answer.
Exits 0 even when a service is down (the report says so).
`;

interface StatusOptions {
  sandbox: boolean;
  help: boolean;
}

function parseStatusOptions(argv: string[]): StatusOptions {
  const { values } = parseCommandArgs(argv, {}, false);
  return { sandbox: values.sandbox === true, help: values.help === true };
}

const human = (data: StatusResult) => (): string =>
  `${renderStatus(data)}${data.sandboxError ? `sandbox: ${data.sandboxError}\n` : ''}`;

export async function runStatusCommand(
  ctx: CommandContext,
  loadDeps?: () => Promise<StatusDeps>,
): Promise<CommandResult> {
  const opts = parseStatusOptions(ctx.argv);
  if (opts.help) return { data: { usage: USAGE }, human: () => USAGE };
  const { status } = await import('../core/status.js');
  const data = await status(
    ctx.env,
    { sandbox: opts.sandbox },
    { signal: ctx.signal, onProgress: progressTo(ctx) },
    loadDeps ? await loadDeps() : undefined,
  );
  return { data, human: human(data) };
}

export const run: CommandRun = (ctx: CommandContext) => runStatusCommand(ctx);
