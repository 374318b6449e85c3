/**
 * JSON-RPC 2.0 for the chain emulator's two endpoints: dispatch with bounded batches, named or
 * positional params, notifications (no reply), and the error objects clients parse
 * (`{code, message, data?}`). Param readers throw `RpcFailure` -32602 "Invalid params" whose
 * `data` names the parameter.
 */
import { parseFelt } from '../../shared/felt.js';

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

export const invalidParams = (detail: string): RpcFailure =>
  new RpcFailure(-32602, 'Invalid params', detail);

export interface RpcContext {
  headers: Record<string, string | string[] | undefined>;
}

export interface Method {
  /** names of positional params, in order */
  params: readonly string[];
  handler: (params: Record<string, unknown>, context: RpcContext) => unknown;
}

export type MethodTable = Readonly<Record<string, Method>>;

const MAX_BATCH = 20;

type Id = string | number | null;

function responseError(id: Id, failure: RpcFailure): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: failure.code,
      message: failure.message,
      ...(failure.data === undefined ? {} : { data: failure.data }),
    },
  };
}

const invalidRequest = (detail?: string): RpcFailure =>
  new RpcFailure(-32600, 'Invalid Request', detail);

/**
 * One request object → its response, or undefined for a notification (a valid request without
 * an `id` member: JSON-RPC 2.0 §4.1 runs it and answers nothing, errors included). An `id` that is
 * not a string, a finite number or null makes the request invalid (answered with id null).
 */
async function one(
  request: unknown,
  methods: MethodTable,
  context: RpcContext,
): Promise<Record<string, unknown> | undefined> {
  if (typeof request !== 'object' || request === null || Array.isArray(request))
    return responseError(null, invalidRequest());
  const body = request as Record<string, unknown>;
  const notification = !Object.hasOwn(body, 'id');
  const rawId = body.id;
  if (
    !notification &&
    rawId !== null &&
    typeof rawId !== 'string' &&
    !(typeof rawId === 'number' && Number.isFinite(rawId))
  ) {
    return responseError(null, invalidRequest('id must be a string, a number or null'));
  }
  const id: Id = notification ? null : (rawId as Id);
  if (body.jsonrpc !== '2.0' || typeof body.method !== 'string')
    return responseError(id, invalidRequest());
  const answer = (response: Record<string, unknown>): Record<string, unknown> | undefined =>
    notification ? undefined : response;
  const method = Object.hasOwn(methods, body.method) ? methods[body.method] : undefined;
  if (method === undefined) {
    return answer(
      responseError(
        id,
        new RpcFailure(
          -32601,
          'Method not found',
          `${body.method.slice(0, 100)} is not served here (served: ${Object.keys(methods).join(', ')})`,
        ),
      ),
    );
  }
  let params: Record<string, unknown>;
  if (body.params === undefined) params = {};
  else if (Array.isArray(body.params)) {
    if (body.params.length > method.params.length)
      return answer(responseError(id, invalidParams('too many positional params')));
    params = Object.fromEntries(
      body.params.map((value, index) => [method.params[index] as string, value]),
    );
  } else if (typeof body.params === 'object' && body.params !== null)
    params = body.params as Record<string, unknown>;
  else return answer(responseError(id, invalidParams('params must be an object or an array')));
  try {
    return answer({ jsonrpc: '2.0', id, result: await method.handler(params, context) });
  } catch (error) {
    if (error instanceof RpcFailure) return answer(responseError(id, error));
    throw error;
  }
}

/**
 * A single request or a batch (1..MAX_BATCH requests) → the response body, or undefined when
 * nothing is to be answered (a notification, or a batch of notifications only: the route then
 * sends 204 with no body). A batch answers its requests in order, notifications left out.
 */
export async function dispatch(
  body: unknown,
  methods: MethodTable,
  context: RpcContext,
): Promise<unknown> {
  if (!Array.isArray(body)) return one(body, methods, context);
  if (body.length === 0 || body.length > MAX_BATCH)
    return responseError(null, invalidRequest(`a batch holds 1 to ${MAX_BATCH} requests`));
  const out: unknown[] = [];
  // in order, one at a time: requests of a batch may depend on each other's effects
  for (const request of body) {
    const response = await one(request, methods, context);
    if (response !== undefined) out.push(response);
  }
  return out.length === 0 ? undefined : out;
}

// ── param readers ──────────────────────────────────────────────────────────────

export function objectParam(value: unknown, name: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalidParams(`${name} must be an object`);
  return value as Record<string, unknown>;
}

export function feltParam(value: unknown, name: string): bigint {
  // JSON numbers are accepted when they are exact integers (some clients send small ones so)
  const felt =
    typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
      ? BigInt(value)
      : parseFelt(value);
  if (felt === undefined)
    throw invalidParams(`${name} must be a felt (0x-hex or decimal, below the field prime)`);
  return felt;
}

export function feltListParam(value: unknown, name: string, max: number): bigint[] {
  if (!Array.isArray(value)) throw invalidParams(`${name} must be an array of felts`);
  if (value.length > max) throw invalidParams(`${name} has more than ${max} felts`);
  return value.map((item, index) => feltParam(item, `${name}[${index}]`));
}

export function stringParam(value: unknown, name: string, max = 100): string {
  if (typeof value !== 'string' || value.length > max)
    throw invalidParams(`${name} must be a string of at most ${max} characters`);
  return value;
}
