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
    const r = await through(
      ['{"jsonrpc":"2.0","method":', '"a"}\n{"jsonrpc":"2.0","method":"b"}\n\n'],
      4096,
    );
    expect(r.passed).toBe('{"jsonrpc":"2.0","method":"a"}\n{"jsonrpc":"2.0","method":"b"}\n');
    expect(r.replies).toEqual([]);
  });

  it('answers a line that is not JSON with -32700 and id null, a batch with -32600', async () => {
    const r = await through([
      '{"jsonrpc": "2.0", "id": 2, "method": \n',
      '[{"id":1}]\n',
      '{"jsonrpc":"2.0","method":"ok"}\n',
    ]);
    expect(r.passed).toBe('{"jsonrpc":"2.0","method":"ok"}\n');
    expect(r.replies.map((m) => [m.id, (m.error as { code: number }).code])).toEqual([
      [null, -32700],
      [null, -32600],
    ]);
  });

  it('answers a line over the bound with an error naming the limit and drops it whole', async () => {
    const ok = '{"jsonrpc":"2.0","method":"ok"}';
    const r = await through([`{"x":"${'y'.repeat(50)}`, `${'z'.repeat(50)}"}\n`, `${ok}\n`]);
    expect(r.passed).toBe(`${ok}\n`);
    expect(r.replies).toHaveLength(1);
    expect((r.replies[0]!.error as { code: number; message: string }).message).toMatch(
      /limit of 64 bytes/,
    );
    expect(r.replies[0]?.id).toBeNull();
  });
});

describe('lines that are JSON but not a JSON-RPC 2.0 message (issue 32 item 6)', () => {
  const cases: Array<[string, string | number | null]> = [
    ['42', null],
    ['null', null],
    ['"ping"', null],
    ['true', null],
    ['{"jsonrpc":"2.0","id":3}', 3],
    ['{"jsonrpc":"1.0","id":4,"method":"ping"}', 4],
    ['{"id":5,"method":"ping"}', 5],
    ['{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', null],
    ['{"jsonrpc":"2.0","id":null,"method":"ping"}', null],
    ['{"jsonrpc":"2.0","id":1.5,"method":"ping"}', null],
    ['{"jsonrpc":"2.0","id":"x","method":7}', 'x'],
    ['{"jsonrpc":"2.0","id":6,"method":"ping","params":"no"}', 6],
  ];
  it.each(cases)('%s is answered -32600 with id %s, not passed on', async (line, id) => {
    const r = await through([`${line}\n`], 4096);
    expect(r.passed).toBe('');
    expect(r.replies).toHaveLength(1);
    expect(r.replies[0]).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32600 } });
  });

  it('passes requests, notifications and responses on; drops a malformed response unanswered', async () => {
    const ok = [
      '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      '{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{}}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":2,"result":{}}',
      '{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"no"}}',
    ];
    const r = await through(
      [[...ok, '{"jsonrpc":"2.0","id":null,"error":{"code":-32700}}', ''].join('\n')],
      4096,
    );
    expect(r.passed).toBe(`${ok.join('\n')}\n`);
    expect(r.replies).toEqual([]);
  });
});
