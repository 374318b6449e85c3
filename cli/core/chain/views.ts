/**
 * View calls (`starknet_call`) sent as JSON-RPC batches (docs/architecture.md "Execution",
 * docs/decisions.md "Position reads: one round, batched"): every view asked in the same turn of
 * the event loop joins one round, sent as batches
 * of at most VIEW_BATCH_MAX requests, in parallel, through the reader's own bounded fetch
 * (fetch.ts: the scope's signal, one deadline, a size cap, no redirect). One answer per view, in
 * the shape `provider.callContract` gives: felts on success, starknet.js's `RpcError` when the
 * node answered that call with an error (a revert, an unknown entry point), anything else (the
 * node unreachable, cancelled) for a failure of the transport.
 *
 * A node that refuses batches still works: a batch answered with what means "I do not take
 * batches" — one JSON-RPC error object with code -32600, -32700 or -32601, an array of the wrong
 * length, or an HTTP 400, 405, 413 or 415 — is asked again one request each, and so is every later
 * view of that reader. Anything else failed the request, not the form: a batch that timed out,
 * could not be sent, or was answered with a redirect, a 401/403/404, a 408, a 429 or a 5xx
 * (CHAIN_UNREACHABLE with the status), or with one JSON-RPC error of another code (a rate limit:
 * CHAIN_ERROR with `details.rpcCode`): its views fail, not asked again, and later reads still batch
 * (asking each alone would only multiply the wait and the load).
 */
import { CallData, hash, RpcError } from 'starknet';
import { AppError, ErrorCode, isAppError } from '../../../shared/errors.js';
import { FELT_HEX, parseHexFelt } from '../../../shared/felt.js';
import type { ChainReader } from './account.js';
import { printable } from '../../../shared/printable.js';
import { currentScope, record } from './scope.js';

/** The sandbox chain's limit (sandbox/chain/jsonrpc.ts MAX_BATCH), and modest for any node. */
export const VIEW_BATCH_MAX = 20;

export interface ViewCall {
  contractAddress: string;
  entrypoint: string;
  calldata?: string[];
}

/** One view → its felts; views asked in the same turn are sent together. */
export type Viewer = (call: ViewCall) => Promise<bigint[]>;

/** One JSON-RPC request of a round: what goes in the batch, and the same question asked alone. */
export interface RpcAsk {
  method: string;
  params: Record<string, unknown>;
  /** the request alone through the provider (a node that refuses batches); resolves to its result */
  single: () => Promise<unknown>;
}

/** One request → its answer's `result`; requests asked in the same turn are sent together. */
export type RpcRound = (ask: RpcAsk) => Promise<unknown>;

interface Pending {
  ask: RpcAsk;
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
}

/** Readers whose node refused a batch: their views go one request each from then on. */
const refusesBatches = new WeakSet<object>();

const garbled = (): AppError =>
  new AppError(ErrorCode.CHAIN_ERROR, 'the Starknet RPC answered a call in a shape we do not know');

/**
 * A view's answer as felts: each one 0x-hex of 1–64 digits below the field prime (shared/felt.ts),
 * as the node sends them; anything else (empty, blank, a boolean, a sign, decimal, past the prime)
 * is a garbled answer (CHAIN_ERROR), never read as a number.
 */
export function feltsOf(answer: unknown): bigint[] {
  if (!Array.isArray(answer)) throw garbled();
  return answer.map((f: unknown) => {
    const felt = typeof f === 'string' && FELT_HEX.test(f) ? parseHexFelt(f) : undefined;
    if (felt === undefined) throw garbled();
    return felt;
  });
}

/** A view as a request of a round: `starknet_call` at the latest block, as callContract sends it. */
export const viewAsk = (reader: ChainReader, call: ViewCall): RpcAsk => ({
  method: 'starknet_call',
  params: {
    request: {
      contract_address: call.contractAddress,
      entry_point_selector: hash.getSelectorFromName(call.entrypoint),
      calldata: CallData.toHex(call.calldata ?? []),
    },
    block_id: 'latest',
  },
  single: () =>
    reader.provider.callContract({
      contractAddress: call.contractAddress,
      entrypoint: call.entrypoint,
      calldata: call.calldata ?? [],
    }),
});

const requestOf = (ask: RpcAsk, id: number) => ({
  jsonrpc: '2.0',
  id,
  method: ask.method,
  params: ask.params,
});

/** The node answered that it does not take batches: a reason to ask one by one, not a failure. */
class NotABatch extends Error {}

/** JSON-RPC codes that refuse the request's form: invalid request, parse error, no such method. */
const FORM_CODES = new Set([-32600, -32700, -32601]);

/**
 * The node refused the batch as a form: an HTTP 400, 405, 413 or 415 whose body is not JSON-RPC
 * (fetch.ts). Nothing else: a redirect, a 401/403/404 (a wrong key or URL), a 408, a 429 or a 5xx
 * failed the request, and asking each view alone would only multiply the failing requests.
 */
const FORM_STATUSES = new Set([400, 405, 413, 415]);
const refusedTheForm = (error: unknown): boolean => {
  if (!isAppError(error) || error.code !== ErrorCode.CHAIN_UNREACHABLE) return false;
  const status = (error.details as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && FORM_STATUSES.has(status);
};

/**
 * A batch answered with one object instead of one answer per request: its error says whether the
 * node does not take batches (NotABatch) or failed the whole request (a rate limit, an unknown
 * key: CHAIN_ERROR with the node's code, recorded in the scope as fetch.ts records its failures).
 */
function notOnePerRequest(answer: unknown): Error {
  const error = (answer as { error?: unknown } | null)?.error;
  const code =
    typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === 'number' && FORM_CODES.has(code)) return new NotABatch();
  if (typeof code !== 'number') return record(garbled());
  const message = (error as { message?: unknown }).message;
  return record(
    new AppError(
      ErrorCode.CHAIN_ERROR,
      `the Starknet RPC failed the request (JSON-RPC error ${code}${
        typeof message === 'string' ? `: ${printable(message, 200)}` : ''
      })`,
      { details: { rpcCode: code } },
    ),
  );
}

async function sendChunk(reader: ChainReader, chunk: Pending[]): Promise<void> {
  const send = reader.sendBatch;
  if (send === undefined || refusesBatches.has(reader)) return singles(reader, chunk);
  let answers: unknown;
  try {
    answers = await send(chunk.map((p, i) => requestOf(p.ask, i + 1)));
    if (!Array.isArray(answers)) throw notOnePerRequest(answers);
    if (answers.length !== chunk.length) throw new NotABatch();
  } catch (error) {
    if (!(error instanceof NotABatch) && !refusedTheForm(error)) {
      for (const p of chunk) p.reject(error);
      return;
    }
    // the refusal is not this scope's failure (fetch.ts recorded it): the singles decide
    const scope = currentScope();
    if (scope !== undefined && scope.failure === error) scope.failure = undefined;
    refusesBatches.add(reader);
    return singles(reader, chunk);
  }
  // matched by id, in any order (a node may answer "1" for 1)
  const byId = new Map<string, Record<string, unknown>>();
  for (const a of answers as unknown[])
    if (typeof a === 'object' && a !== null)
      byId.set(String((a as { id?: unknown }).id), a as Record<string, unknown>);
  chunk.forEach((p, i) => {
    const answer = byId.get(String(i + 1));
    if (answer !== undefined && answer.result !== undefined) p.resolve(answer.result);
    else if (answer !== undefined && typeof answer.error === 'object' && answer.error !== null)
      p.reject(new RpcError(answer.error as never, p.ask.method as never, p.ask.params as never));
    else p.reject(garbled());
  });
}

async function singles(reader: ChainReader, chunk: Pending[]): Promise<void> {
  await Promise.all(
    chunk.map((p) =>
      p.ask.single().then(p.resolve, (error: unknown) => {
        p.reject(error);
      }),
    ),
  );
}

/**
 * A viewer over `reader`: the views asked before the event loop turns are one round, sent as
 * batches. Use one viewer per read (inside its scope, so every batch carries its signal).
 */
export function batchedViews(reader: ChainReader): Viewer {
  return viewsIn(reader, batchedRound(reader));
}

/** Views that join `round` (shared with the caller's other requests), answered as above. */
export const viewsIn =
  (reader: ChainReader, round: RpcRound): Viewer =>
  async (call) =>
    feltsOf(await round(viewAsk(reader, call)));

/**
 * Any JSON-RPC requests to `reader`'s node asked before the event loop turns, as one round sent
 * as batches (the views above are its `starknet_call`s; the account's facts mix their reads with
 * views: facts.ts). Each resolves to its answer's `result` (unchecked: the asker checks its shape)
 * or rejects with the node's RpcError for that request; a node that refuses batches is asked one
 * request each through `single`, as above.
 */
export function batchedRound(reader: ChainReader): RpcRound {
  let queue: Pending[] = [];
  const flush = (): void => {
    const round = queue;
    queue = [];
    for (let at = 0; at < round.length; at += VIEW_BATCH_MAX) {
      const chunk = round.slice(at, at + VIEW_BATCH_MAX);
      sendChunk(reader, chunk).catch((error: unknown) => {
        for (const p of chunk) p.reject(error);
      });
    }
  };
  return (ask) =>
    new Promise<unknown>((resolve, reject) => {
      if (queue.length === 0) setImmediate(flush);
      queue.push({ ask, resolve, reject });
    });
}
