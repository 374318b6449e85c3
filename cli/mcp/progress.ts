/**
 * Progress notifications of one tool call (docs/architecture.md "Tool server"): sent only when
 * the caller gave a progress token, with values that strictly increase, in order, and none after
 * the call was cancelled or answered. Every event also goes to the log (stderr).
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import type { ProgressEvent } from '../core/call.js';

/** `stop` sends what is queued, then nothing more (before the call's answer). */
type ProgressReporter = ((event: ProgressEvent) => void) & { stop(): Promise<void> };

export async function progressReporter(
  ctx: ServerContext,
  log: (line: string) => void,
): Promise<ProgressReporter> {
  const token = ctx.mcpReq._meta?.progressToken;
  const describe =
    token === undefined ? undefined : (await import('../core/events.js')).describeEvent;
  let step = 0;
  let stopped = false;
  // one after the other: a notification never overtakes an earlier one
  let queue: Promise<unknown> = Promise.resolve();
  const report = ((event: ProgressEvent): void => {
    log(`progress: ${event.kind}${'hash' in event ? ` ${event.hash}` : ''}`);
    if (token === undefined || describe === undefined || stopped || ctx.mcpReq.signal.aborted)
      return;
    step += 1;
    const params = {
      progressToken: token,
      progress: step,
      message: describe(event),
      ...('hash' in event ? { _meta: { transactionHash: event.hash } } : {}),
    };
    queue = queue
      .then(() =>
        stopped || ctx.mcpReq.signal.aborted
          ? undefined
          : ctx.mcpReq.notify({ method: 'notifications/progress', params }),
      )
      .catch(() => undefined);
  }) as ProgressReporter;
  report.stop = async () => {
    await queue;
    stopped = true;
  };
  return report;
}
