import type { CommandContext } from './context.js';
import type { CallOptions } from '../core/call.js';
import type { EndpointOptions, Endpoints } from '../core/endpoints.js';
import { progressTo } from './progress.js';

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
  try {
    return await work(endpoints, call);
  } finally {
    await endpoints.release();
  }
}
