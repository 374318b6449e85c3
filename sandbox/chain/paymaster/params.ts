/**
 * What the sandbox paymaster reads from a SNIP-29 request (docs/contracts.md C): the calls
 * (bounded: anything a stranger sends is), the fee mode and its tip, the time bounds, the version
 * and the transaction type, and how it writes them back (felts canonical, time bounds as decimal
 * strings). `readRequest` is what build and execute both read first.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { findToken, type Network, type Token } from '../../../shared/tokens.js';
import type { OutsideCall } from '../chain.js';
import { hex } from '../executor.js';
import {
  feltListParam,
  feltParam,
  invalidParams,
  objectParam,
  type RpcContext,
  stringParam,
} from '../jsonrpc.js';
import { refuse } from './errors.js';

/** Limits on what one transaction may carry (anything a stranger sends is bounded). */
const MAX_CALLS = 32;
const MAX_CALLDATA = 1_024;
const MAX_TOTAL_CALLDATA = 4_096;
const DEFAULT_WINDOW_S = 3_600;
const MAX_WINDOW_S = 24 * 3_600;

export function readCalls(value: unknown): OutsideCall[] {
  if (!Array.isArray(value)) throw invalidParams('invoke.calls must be an array');
  if (value.length === 0) throw invalidParams('invoke.calls is empty');
  if (value.length > MAX_CALLS) throw invalidParams(`at most ${MAX_CALLS} calls per transaction`);
  let total = 0;
  return value.map((raw, index) => {
    const call = objectParam(raw, `invoke.calls[${index}]`);
    const calldata = feltListParam(
      call.calldata ?? [],
      `invoke.calls[${index}].calldata`,
      MAX_CALLDATA,
    );
    total += calldata.length;
    if (total > MAX_TOTAL_CALLDATA)
      throw invalidParams(`at most ${MAX_TOTAL_CALLDATA} calldata felts per transaction`);
    return {
      to: feltParam(call.to, `invoke.calls[${index}].to`),
      selector: feltParam(call.selector, `invoke.calls[${index}].selector`),
      calldata,
    };
  });
}

export function address(value: unknown, name: string): bigint {
  try {
    return feltParam(value, name);
  } catch {
    throw refuse('INVALID_ADDRESS', `${name} is not a Starknet address`);
  }
}

/** SNIP-29 TIP_PRIORITY: "slow" | "normal" | "fast" | {custom: u64}. The sandbox has no tip market: read, checked, echoed. */
type Tip = 'slow' | 'normal' | 'fast' | { custom: number };

export type FeeModeParam = ({ mode: 'sponsored' } | { mode: 'default'; token: Token }) & {
  tip?: Tip;
};

function readTip(value: unknown): Tip | undefined {
  if (value === undefined) return undefined;
  if (value === 'slow' || value === 'normal' || value === 'fast') return value;
  const custom =
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length === 1
      ? (value as { custom?: unknown }).custom
      : undefined;
  if (typeof custom === 'number' && Number.isSafeInteger(custom) && custom >= 0) return { custom };
  throw invalidParams(
    'parameters.fee_mode.tip must be "slow", "normal", "fast" or {custom: integer}',
  );
}

function readFeeMode(parameters: Record<string, unknown>, network: Network): FeeModeParam {
  const feeMode = objectParam(parameters.fee_mode, 'parameters.fee_mode');
  const mode = stringParam(feeMode.mode, 'parameters.fee_mode.mode');
  const tip = readTip(feeMode.tip);
  const withTip = tip === undefined ? {} : { tip };
  if (mode === 'sponsored') return { mode, ...withTip };
  if (mode !== 'default')
    throw invalidParams('parameters.fee_mode.mode must be "sponsored" or "default"');
  const gasToken = feltParam(feeMode.gas_token, 'parameters.fee_mode.gas_token');
  const token = findToken(network, hex(gasToken));
  if (token === undefined)
    throw refuse('TOKEN_NOT_SUPPORTED', `${hex(gasToken)} is not a supported gas token`);
  return { mode, token, ...withTip };
}

/** The fee mode as SNIP-29's FEE_MODE writes it (felts canonical). */
const feeModeJson = (feeMode: FeeModeParam): Record<string, unknown> => ({
  mode: feeMode.mode,
  ...(feeMode.mode === 'default' ? { gas_token: hex(BigInt(feeMode.token.address)) } : {}),
  ...(feeMode.tip === undefined ? {} : { tip: feeMode.tip }),
});

/** Time bounds in (SNIP-29 TIMESTAMP: decimal strings; numbers and 0x-hex are taken too), checked against `now`. */
export function readTimeBounds(
  parameters: Record<string, unknown>,
  now: bigint,
): { after: bigint; before: bigint } {
  if (parameters.time_bounds === undefined || parameters.time_bounds === null)
    return { after: 1n, before: now + BigInt(DEFAULT_WINDOW_S) };
  const bounds = objectParam(parameters.time_bounds, 'parameters.time_bounds');
  const after = feltParam(bounds.execute_after ?? 1, 'parameters.time_bounds.execute_after');
  const before = feltParam(bounds.execute_before, 'parameters.time_bounds.execute_before');
  if (before <= now || after >= before || before > now + BigInt(MAX_WINDOW_S)) {
    throw refuse(
      'INVALID_TIME_BOUNDS',
      `execute_before must be in the next ${MAX_WINDOW_S / 3600} h and after execute_after`,
    );
  }
  return { after, before };
}

/** The execution parameters as SNIP-29's USER_PARAMETERS writes them: time bounds as decimal strings. */
export const parametersJson = (
  feeMode: FeeModeParam,
  bounds: { after: bigint; before: bigint } | undefined,
): Record<string, unknown> => ({
  version: '0x1',
  fee_mode: feeModeJson(feeMode),
  ...(bounds === undefined
    ? {}
    : {
        time_bounds: {
          execute_after: bounds.after.toString(),
          execute_before: bounds.before.toString(),
        },
      }),
});

function readVersion(parameters: Record<string, unknown>): void {
  if (parameters.version !== '0x1') throw invalidParams('parameters.version must be "0x1"');
}

const TRANSACTION_TYPES = ['invoke', 'deploy_and_invoke', 'deploy'] as const;
type TransactionType = (typeof TRANSACTION_TYPES)[number];

function readType(transaction: Record<string, unknown>): TransactionType {
  const type = transaction.type;
  if (!TRANSACTION_TYPES.includes(type as TransactionType))
    throw invalidParams('transaction.type must be "invoke", "deploy_and_invoke" or "deploy"');
  return type as TransactionType;
}

const sameSecret = (given: string, expected: string): boolean =>
  timingSafeEqual(
    createHash('sha256').update(given).digest(),
    createHash('sha256').update(expected).digest(),
  );

/** Sponsored mode needs `x-paymaster-api-key` equal to the paymaster's key, when it has one (as AVNU's does). */
function checkSponsor(
  feeMode: FeeModeParam,
  context: RpcContext,
  apiKey: string | undefined,
): void {
  if (feeMode.mode !== 'sponsored' || apiKey === undefined) return;
  const given = context.headers['x-paymaster-api-key'];
  if (typeof given !== 'string' || !sameSecret(given, apiKey)) {
    throw refuse('UNKNOWN_ERROR', 'sponsored transactions need a valid x-paymaster-api-key');
  }
}

/** What build and execute both read first: the two objects, the type, the version and an allowed fee mode. */
export function readRequest(
  params: Record<string, unknown>,
  context: RpcContext,
  paymaster: { network: Network; apiKey: string | undefined },
): {
  transaction: Record<string, unknown>;
  parameters: Record<string, unknown>;
  type: TransactionType;
  feeMode: FeeModeParam;
} {
  const transaction = objectParam(params.transaction, 'transaction');
  const parameters = objectParam(params.parameters, 'parameters');
  const type = readType(transaction);
  readVersion(parameters);
  const feeMode = readFeeMode(parameters, paymaster.network);
  checkSponsor(feeMode, context, paymaster.apiKey);
  return { transaction, parameters, type, feeMode };
}
