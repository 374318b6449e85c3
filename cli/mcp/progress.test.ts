import type { ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { progressReporter } from './progress.js';

/** A request context that records what it would send. */
function fakeContext(token: string | undefined) {
  const abort = new AbortController();
  const sent: Array<{ progress: number; message: string }> = [];
  const ctx = {
    mcpReq: {
      _meta: token === undefined ? {} : { progressToken: token },
      signal: abort.signal,
      notify: async (n: { params: { progress: number; message: string } }) => {
        sent.push({ progress: n.params.progress, message: n.params.message });
      },
    },
  } as unknown as ServerContext;
  return { ctx, abort, sent };
}

describe('progress of a tool call', () => {
  it('strictly increasing, in order, all sent before the answer (stop flushes)', async () => {
    const { ctx, sent } = fakeContext('t');
    const report = await progressReporter(ctx, () => undefined);
    report({ kind: 'quoting', swaps: 1, batch: false });
    report({ kind: 'simulating' });
    report({ kind: 'signing' });
    await report.stop();
    expect(sent.map((s) => s.progress)).toEqual([1, 2, 3]);
    expect(sent[0]?.message).toMatch(/^quoting/);
    report({ kind: 'signing' });
    await report.stop();
    expect(sent).toHaveLength(3);
  });

  it('nothing after a cancellation; nothing without a token (the log still has it)', async () => {
    const { ctx, abort, sent } = fakeContext('t');
    const logged: string[] = [];
    const report = await progressReporter(ctx, (l) => logged.push(l));
    report({ kind: 'signing' });
    abort.abort();
    report({ kind: 'simulating' });
    await report.stop();
    expect(sent).toHaveLength(0);
    expect(logged).toEqual(['progress: signing', 'progress: simulating']);
    const none = fakeContext(undefined);
    const quiet = await progressReporter(none.ctx, () => undefined);
    quiet({ kind: 'signing' });
    await quiet.stop();
    expect(none.sent).toHaveLength(0);
  });
});
