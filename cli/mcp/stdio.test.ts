import { describe, expect, it } from 'vitest';
import { boundedLines } from './stdio.js';

/** Feeds `chunks` through the line filter; what passed on and what was answered. */
async function through(
  chunks: string[],
  max = 64,
): Promise<{ passed: string; replies: Array<Record<string, unknown>> }> {
  const replies: Array<Record<string, unknown>> = [];
  const t = boundedLines(max, { reply: (m) => replies.push(m), log: () => undefined });
  let passed = '';
  t.on('data', (b: Buffer) => {
    passed += b.toString();
  });
  for (const c of chunks) t.write(Buffer.from(c));
  t.end();
  await new Promise((resolve) => t.on('end', resolve));
  return { passed, replies };
}

describe('the tool server’s input lines', () => {
  it('passes JSON objects on, whole, even split across chunks', async () => {
    const r = await through(['{"a":', '1}\n{"b":2}\n\n']);
    expect(r.passed).toBe('{"a":1}\n{"b":2}\n');
    expect(r.replies).toEqual([]);
  });

  it('answers a line that is not JSON with -32700 and id null, a batch with -32600', async () => {
    const r = await through([
      '{"jsonrpc": "2.0", "id": 2, "method": \n',
      '[{"id":1}]\n',
      '{"ok":1}\n',
    ]);
    expect(r.passed).toBe('{"ok":1}\n');
    expect(r.replies.map((m) => [m.id, (m.error as { code: number }).code])).toEqual([
      [null, -32700],
      [null, -32600],
    ]);
  });

  it('answers a line over the bound with an error naming the limit and drops it whole', async () => {
    const r = await through([`{"x":"${'y'.repeat(50)}`, `${'z'.repeat(50)}"}\n`, '{"ok":1}\n']);
    expect(r.passed).toBe('{"ok":1}\n');
    expect(r.replies).toHaveLength(1);
    expect((r.replies[0]?.error as { code: number; message: string }).message).toMatch(
      /limit of 64 bytes/,
    );
    expect(r.replies[0]?.id).toBeNull();
  });
});
