/**
 * Views as JSON-RPC batches (cli/core/chain/views.ts), against a real socket: the views of one
 * turn leave as batches of at most VIEW_BATCH_MAX, each answered in its own shape (felts, or the
 * node's RpcError for a revert); a node that refuses batches is asked one request each, then and
 * later; a node that cannot be reached is not asked twice.
 */
import { RpcError } from 'starknet';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { createChainReader } from './account.js';
import { batchedViews, VIEW_BATCH_MAX, type ViewCall } from './views.js';
import { startJsonServer } from '../../../test/helpers/json-server.js';

type Mode = 'batch' | 'refuse' | 'drop' | 'status';
let close: () => Promise<void>;
let url: string;
let mode: Mode;
/** each POST body received: an array for a batch, an object for a single request */
let bodies: unknown[];
/** mode 'status': a batch is answered with this status and body (a JSON value, or raw text) */
let batchAnswer: { status: number; body: unknown };

interface Request {
  id: unknown;
  method: string;
  params: { request: { contract_address: string; calldata: string[] } };
}

/** What a node might send where a felt belongs, none of it one (contract 0x6a5 answers them). */
const NOT_FELTS: unknown[] = [
  '',
  ' ',
  true,
  '-1',
  '12',
  ' 0x1',
  '0x',
  `0x${'f'.repeat(64)}`, // above the field prime
  `0x${'0'.repeat(65)}1`,
  null,
  1,
];

/**
 * `echo` contract: answers its calldata back with 1 added; contract 0xbad reverts; contract 0x6a5
 * answers NOT_FELTS[its calldata].
 */
const answer = (r: Request): Record<string, unknown> =>
  BigInt(r.params.request.contract_address) === 0xbadn
    ? { jsonrpc: '2.0', id: r.id, error: { code: 40, message: 'Contract error' } }
    : BigInt(r.params.request.contract_address) === 0x6a5n
      ? { jsonrpc: '2.0', id: r.id, result: [NOT_FELTS[Number(r.params.request.calldata[0])]] }
      : {
          jsonrpc: '2.0',
          id: r.id,
          result: r.params.request.calldata.map((f) => `0x${(BigInt(f) + 1n).toString(16)}`),
        };

beforeAll(async () => {
  const started = await startJsonServer((body, { req, res, json }) => {
    bodies.push(body);
    if (mode === 'drop') {
      req.socket.destroy();
      return;
    }
    if (Array.isArray(body)) {
      if (mode === 'status') {
        const { status, body: reply } = batchAnswer;
        res.writeHead(status, {
          'content-type': typeof reply === 'string' ? 'text/html' : 'application/json',
          ...(status >= 300 && status < 400 ? { location: 'http://127.0.0.1:1/' } : {}),
        });
        res.end(typeof reply === 'string' ? reply : JSON.stringify(reply));
        return;
      }
      if (mode === 'refuse')
        return json(400, {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: 'Invalid Request' },
        });
      // answered in reverse: the client matches the answers by id
      return json(200, (body as Request[]).map(answer).reverse());
    }
    return json(200, answer(body as Request));
  });
  url = `${started.url}/rpc`;
  close = started.close;
});
afterAll(() => close());
beforeEach(() => {
  bodies = [];
  mode = 'batch';
});

const reader = () =>
  createChainReader({ address: `0x${'1'.repeat(63)}`, rpcUrl: url, requestTimeoutMs: 5_000 });
const call = (n: number, contract = '0x123'): ViewCall => ({
  contractAddress: contract,
  entrypoint: 'echo',
  calldata: [`0x${n.toString(16)}`],
});
const settle = (ps: Array<Promise<bigint[]>>) =>
  Promise.all(
    ps.map((p) =>
      p.then(
        (felts) => ({ felts }),
        (error: unknown) => ({ error }),
      ),
    ),
  );

describe('views as JSON-RPC batches', () => {
  it(`the views of one turn leave as batches of at most ${VIEW_BATCH_MAX}, each answered as its own call`, async () => {
    const views = batchedViews(reader());
    const count = 2 * VIEW_BATCH_MAX + 5;
    const results = await settle([
      ...Array.from({ length: count }, (_, i) => views(call(i))),
      views(call(7, '0xbad')),
    ]);
    // sent in parallel: in any order
    expect(
      bodies.map((b) => (Array.isArray(b) ? b.length : 'single')).sort((x, y) => +y - +x),
    ).toEqual([VIEW_BATCH_MAX, VIEW_BATCH_MAX, 6]);
    for (let i = 0; i < count; i++) expect(results[i]).toEqual({ felts: [BigInt(i) + 1n] });
    const reverted = results[count] as { error: unknown };
    expect(reverted.error).toBeInstanceOf(RpcError);
    expect((reverted.error as RpcError).code).toBe(40);
    // a later turn is a round of its own
    await expect(views(call(1))).resolves.toEqual([2n]);
    expect(bodies).toHaveLength(4);
  });

  it('a node that refuses batches is asked one request each, then and for the later rounds', async () => {
    mode = 'refuse';
    const views = batchedViews(reader());
    const results = await settle([views(call(1)), views(call(2)), views(call(3, '0xbad'))]);
    expect(results.slice(0, 2)).toEqual([{ felts: [2n] }, { felts: [3n] }]);
    expect((results[2] as { error: unknown }).error).toBeInstanceOf(RpcError);
    expect(bodies.filter(Array.isArray)).toHaveLength(1);
    const before = bodies.length;
    await expect(Promise.all([views(call(4)), views(call(5))])).resolves.toEqual([[5n], [6n]]);
    expect(bodies.slice(before).every((b) => !Array.isArray(b))).toBe(true);
    expect(bodies.length - before).toBe(2);
  });

  it('an answer that is not a felt (empty, blank, a boolean, negative, decimal, past the prime) is CHAIN_ERROR, batched or single', async () => {
    for (const m of ['batch', 'refuse'] as const) {
      mode = m;
      const views = batchedViews(reader());
      const results = await settle([
        ...NOT_FELTS.map((_, i) => views(call(i, '0x6a5'))),
        views(call(0x41)),
      ]);
      for (const r of results.slice(0, NOT_FELTS.length)) {
        const error = (r as { error: unknown }).error;
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).code).toBe(ErrorCode.CHAIN_ERROR);
      }
      // a felt in either case, up to 64 digits, below the prime, is read
      expect(results[NOT_FELTS.length]).toEqual({ felts: [0x42n] });
    }
  });

  it('a batch refused as a form (HTTP 400/405/413/415, -32600/-32700/-32601, too few answers) is asked one by one', async () => {
    const rpcError = (code: number) => ({
      jsonrpc: '2.0',
      id: null,
      error: { code, message: 'no batches' },
    });
    for (const refusal of [
      { status: 200, body: rpcError(-32600) },
      { status: 200, body: rpcError(-32700) },
      { status: 200, body: rpcError(-32601) },
      { status: 200, body: [{ jsonrpc: '2.0', id: 1, result: ['0x2'] }] },
      { status: 400, body: '<html>bad request</html>' },
      { status: 413, body: rpcError(-32600) },
      { status: 405, body: { error: 'batches not allowed' } },
      { status: 415, body: 'unsupported media type' },
    ]) {
      mode = 'status';
      batchAnswer = refusal;
      bodies = [];
      const views = batchedViews(reader());
      await expect(Promise.all([views(call(1)), views(call(2))])).resolves.toEqual([[2n], [3n]]);
      expect(bodies.map((b) => Array.isArray(b))).toEqual([true, false, false]);
    }
  });

  it('a batch answered 3xx, 401/403/404, 408, 429, 5xx or one JSON-RPC error is a failed transport: not asked again, the reader still batches', async () => {
    const rpcError = (code: number) => ({
      jsonrpc: '2.0',
      id: null,
      error: { code, message: 'slow down' },
    });
    const unreachable = (status: number) => ({
      code: ErrorCode.CHAIN_UNREACHABLE,
      details: { status },
    });
    const refused = (rpcCode: number) => ({ code: ErrorCode.CHAIN_ERROR, details: { rpcCode } });
    for (const failure of [
      { status: 429, body: rpcError(-32005), expected: unreachable(429) },
      { status: 429, body: 'Too Many Requests', expected: unreachable(429) },
      { status: 408, body: rpcError(-32000), expected: unreachable(408) },
      { status: 503, body: rpcError(-32603), expected: unreachable(503) },
      { status: 502, body: '<html>bad gateway</html>', expected: unreachable(502) },
      { status: 302, body: '', expected: unreachable(302) },
      { status: 401, body: '<html>unauthorized</html>', expected: unreachable(401) },
      { status: 403, body: { error: 'invalid api key' }, expected: unreachable(403) },
      { status: 404, body: 'not found', expected: unreachable(404) },
      // a rate limit or a refused key told in JSON-RPC (HTTP 200, or a 4xx with a JSON-RPC body)
      { status: 200, body: rpcError(-32005), expected: refused(-32005) },
      { status: 401, body: rpcError(-32001), expected: refused(-32001) },
      { status: 200, body: rpcError(-32603), expected: refused(-32603) },
    ]) {
      mode = 'status';
      batchAnswer = failure;
      bodies = [];
      const r = reader();
      const views = batchedViews(r);
      const results = await settle([views(call(1)), views(call(2))]);
      for (const x of results) {
        const error = (x as { error: unknown }).error;
        expect(error).toBeInstanceOf(AppError);
        expect(error).toMatchObject(failure.expected);
      }
      expect(bodies).toHaveLength(1);
      // the node is not marked as refusing batches: the next round is a batch again
      mode = 'batch';
      await expect(Promise.all([views(call(3)), views(call(4))])).resolves.toEqual([[4n], [5n]]);
      expect(bodies.map((b) => Array.isArray(b))).toEqual([true, true]);
    }
  });

  it('a node that cannot be reached fails each view with CHAIN_UNREACHABLE, asked once', async () => {
    mode = 'drop';
    const views = batchedViews(reader());
    const results = await settle([views(call(1)), views(call(2))]);
    for (const r of results) {
      const error = (r as { error: unknown }).error;
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe(ErrorCode.CHAIN_UNREACHABLE);
    }
    expect(bodies).toHaveLength(1);
  });
});
