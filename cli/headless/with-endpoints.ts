import type { CommandContext } from './context.js';
import type { CallOptions } from '../core/call.js';
import type { EndpointOptions, Endpoints } from '../core/endpoints.js';
import { progressTo } from './progress.js';
import { AppError, isAppError } from '../../shared/errors.js';
import { sandboxWording } from '../../shared/tokens.js';

/**
 * What every command that talks to the outside does around its core call: resolve where to talk
 * (finding or starting the sandbox), hand the core the command's signal and a progress sink
 * (stderr, on a TTY), and release whatever was started for it, however the call ends.
 */
export async function withEndpoints<T>(
  ctx: CommandContext,
  options: EndpointOptions,
  work: (endpoints: Endpoints, call: CallOptions) => Promise<T>,
): Promise<T> {
  const { resolveEndpoints } = await import('../core/endpoints.js');
  const call: CallOptions = { signal: ctx.signal, onProgress: progressTo(ctx) };
  const endpoints = await resolveEndpoints(ctx.env, options, call);
  if (endpoints.sandboxStarted !== undefined) sandboxStartedNotice(ctx, endpoints.sandboxStarted);
  try {
    return await work(endpoints, call);
  } catch (error) {
    // a sandbox runs its network's registry: a refusal naming that network names the sandbox
    if (endpoints.sandbox && isAppError(error)) {
      const words = sandboxWording(error.message, endpoints.network);
      if (words !== error.message)
        throw new AppError(error.code, words, {
          ...(error.details === undefined ? {} : { details: error.details }),
          cause: error,
        });
    }
    throw error;
  } finally {
    await endpoints.release();
  }
}

/**
 * A sandbox started for this command only is a new, empty chain that stops with the command:
 * said on stderr whether or not it is a terminal (issue 32 item 7) — naming the chain that ran
 * here before when sandbox.json still names one — and in the --json document (run.ts).
 */
function sandboxStartedNotice(
  ctx: CommandContext,
  started: { previousChain: string | null },
): void {
  ctx.notices = { ...ctx.notices, sandboxStarted: started };
  const before =
    started.previousChain === null
      ? 'no sandbox was running'
      : `the sandbox that ran here before (sandbox:${started.previousChain}) is gone`;
  ctx.stderr.write(
    `note: ${before}; a new one was started for this command only: a new, empty chain (earlier balances, positions and sign-ins are not on it) that stops when the command ends. Keep one running with \`finance-tui sandbox\`.\n`,
  );
}
