/**
 * JSON-RPC 2.0 for the chain emulator's two endpoints: dispatch with bounded batches, named or
 * positional params, and the error objects clients parse (`{code, message, data?}`).
 * Param readers throw `RpcFailure` -32602 with a message naming the parameter.
 */
import { parseFelt } from '../../shared/erc20.js';

export class RpcFailure extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'RpcFailure';
    this.code = code;
    this.data = data;
  }
}

export const invalidParams = (detail: string): RpcFailure => new RpcFailure(-32602, 'Invalid params', detail);

export interface RpcContext {
  headers: Record<string, string | string[] | undefined>;
}

export interface Method {
  /** names of positional params, in order */
  params: readonly string[];
  handler: (params: Record<string, unknown>, context: RpcContext) => unknown;
}

export type MethodTable = Readonly<Record<string, Method>>;

export const MAX_BATCH = 20;

type Id = string | number | null;

function responseError(id: Id, failure: RpcFailure): Record<string, unknown> {
  return { jsonrpc: '2.0', id, error: { code: failure.code, message: failure.message, ...(failure.data === undefined ? {} : { data: failure.data }) } };
}

function idOf(request: Record<string, unknown>): Id {
  const id = request.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

async function one(request: unknown, methods: MethodTable, context: RpcContext): Promise<Record<string, unknown>> {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    return responseError(null, new RpcFailure(-32600, 'Invalid Request'));
  }
  const body = request as Record<string, unknown>;
  const id = idOf(body);
  if (body.jsonrpc !== '2.0' || typeof body.method !== 'string') return responseError(id, new RpcFailure(-32600, 'Invalid Request'));
  const method = Object.hasOwn(methods, body.method) ? methods[body.method] : undefined;
  if (method === undefined) {
    return responseError(id, new RpcFailure(-32601, 'Method not found', `${body.method.slice(0, 100)} is not served here (served: ${Object.keys(methods).join(', ')})`));
  }
  let params: Record<string, unknown>;
  if (body.params === undefined) params = {};
  else if (Array.isArray(body.params)) {
    if (body.params.length > method.params.length) return responseError(id, invalidParams('too many positional params'));
    params = Object.fromEntries(body.params.map((value, index) => [method.params[index] as string, value]));
  } else if (typeof body.params === 'object' && body.params !== null) params = body.params as Record<string, unknown>;
  else return responseError(id, invalidParams('params must be an object or an array'));
  try {
    return { jsonrpc: '2.0', id, result: await method.handler(params, context) };
  } catch (error) {
    if (error instanceof RpcFailure) return responseError(id, error);
    throw error;
  }
}

/** A single request or a batch (1..MAX_BATCH requests) → the response body. */
export async function dispatch(body: unknown, methods: MethodTable, context: RpcContext): Promise<unknown> {
  if (!Array.isArray(body)) return one(body, methods, context);
  if (body.length === 0 || body.length > MAX_BATCH) {
    return responseError(null, new RpcFailure(-32600, 'Invalid Request', `a batch holds 1 to ${MAX_BATCH} requests`));
  }
  const out: unknown[] = [];
  // in order, one at a time: requests of a batch may depend on each other's effects
  for (const request of body) out.push(await one(request, methods, context));
  return out;
}

// ── param readers ──────────────────────────────────────────────────────────────

export function objectParam(value: unknown, name: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidParams(`${name} must be an object`);
  return value as Record<string, unknown>;
}

export function feltParam(value: unknown, name: string): bigint {
  // JSON numbers are accepted when they are exact integers (some clients send small ones so)
  const felt = typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : parseFelt(value);
  if (felt === undefined) throw invalidParams(`${name} must be a felt (0x-hex or decimal, below the field prime)`);
  return felt;
}

export function feltListParam(value: unknown, name: string, max: number): bigint[] {
  if (!Array.isArray(value)) throw invalidParams(`${name} must be an array of felts`);
  if (value.length > max) throw invalidParams(`${name} has more than ${max} felts`);
  return value.map((item, index) => feltParam(item, `${name}[${index}]`));
}

export function stringParam(value: unknown, name: string, max = 100): string {
  if (typeof value !== 'string' || value.length > max) throw invalidParams(`${name} must be a string of at most ${max} characters`);
  return value;
}
