/**
 * Failures of the execution flow → AppErrors a user can act on. Order of precedence: the caller
 * cancelled → CANCELLED; our fetch or signer recorded an AppError (scope.ts) → that one; a
 * JSON-RPC error from the paymaster → its SNIP-29 meaning; one from the Starknet RPC → CHAIN_ERROR.
 */
import { RpcError } from 'starknet';
import {
  AppError,
  cancelledError,
  ErrorCode,
  isAppError,
  JSON_RPC_ERROR_CODES,
  JSON_RPC_SERVER_ERROR,
} from '../../../shared/errors.js';
import { printable } from '../../../shared/printable.js';
import type { CallScope } from './scope.js';

const SNIP29_NAMES: Readonly<Record<number, string>> = {
  150: 'INVALID_ADDRESS',
  151: 'TOKEN_NOT_SUPPORTED',
  153: 'INVALID_SIGNATURE',
  154: 'MAX_AMOUNT_TOO_LOW',
  155: 'CLASS_HASH_NOT_SUPPORTED',
  156: 'TRANSACTION_EXECUTION_ERROR',
  157: 'INVALID_TIME_BOUNDS',
  158: 'INVALID_DEPLOYMENT_DATA',
  163: 'UNKNOWN_ERROR',
};

const KNOWN_CODES: ReadonlySet<string> = new Set(Object.values(ErrorCode));

/** A revert reason is bounded at 1000 characters (docs/architecture.md "Client behaviour"). */
const REVERT_REASON_MAX = 1000;

/** The paymaster's or the node's words: one printable line, bounded (shared/printable.ts). */
const short = (value: unknown): string => {
  const text = typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
  return printable(text ?? '');
};

/** A JSON-RPC error object from the paymaster (relayed by our server) → AppError. */
export function paymasterRefusal(error: {
  code?: unknown;
  message?: unknown;
  data?: unknown;
}): AppError {
  const code = typeof error.code === 'number' ? error.code : undefined;
  // our server answers some refusals (limits, sponsored gas off) as JSON-RPC errors carrying our code
  const ours =
    typeof error.data === 'object' && error.data !== null
      ? (error.data as { code?: unknown }).code
      : undefined;
  // ours only with the JSON-RPC code our server gives it (shared/errors.ts JSON_RPC_ERROR_CODES):
  // a paymaster's error naming one of our codes under its own number is the paymaster's. The
  // words stay a service's either way (details.wordsFrom: a face does not give them as its own).
  if (
    typeof ours === 'string' &&
    KNOWN_CODES.has(ours) &&
    code === (JSON_RPC_ERROR_CODES[ours as ErrorCode] ?? JSON_RPC_SERVER_ERROR)
  ) {
    return new AppError(ours as ErrorCode, short(error.message) || ours, {
      details: { paymasterCode: code, wordsFrom: 'server' },
    });
  }
  const name = (code === undefined ? undefined : SNIP29_NAMES[code]) ?? short(error.message);
  const detail = short(error.data);
  const details = {
    paymasterCode: code,
    paymasterMessage: short(error.message),
    ...(detail === '' ? {} : { paymasterData: detail }),
  };
  const why = `${name}${code === undefined ? '' : ` (${code})`}${detail === '' ? '' : `: ${detail}`}`;
  if (code === 153)
    return new AppError(
      ErrorCode.SIGNATURE_REFUSED,
      `the paymaster refused the signature: ${why}`,
      { details },
    );
  // the paymaster simulates at build, as AVNU does: a call list that would revert is refused with
  // the revert reason in data.execution_error (SNIP-29; docs/sandbox-chain.md "Paymaster")
  const executionError =
    code === 156 && typeof error.data === 'object' && error.data !== null
      ? (error.data as { execution_error?: unknown }).execution_error
      : undefined;
  if (typeof executionError === 'string' && executionError.trim() !== '') {
    const reason = printable(executionError, REVERT_REASON_MAX);
    return new AppError(
      ErrorCode.PAYMASTER_REFUSED,
      `the paymaster refused the transaction, nothing was sent: it would fail (TRANSACTION_EXECUTION_ERROR, 156): ${reason}`,
      { details: { ...details, revertReason: reason } },
    );
  }
  if (code === 154) {
    return new AppError(
      ErrorCode.FEE_ABOVE_MAX,
      `the fee rose above the maximum you signed: ${why}. Estimate again and confirm the new fee`,
      { details },
    );
  }
  return new AppError(
    ErrorCode.PAYMASTER_REFUSED,
    `the paymaster refused the transaction: ${why}`,
    { details },
  );
}

/**
 * The revert reason when `error` is the paymaster's build refusing a call list its simulation saw
 * revert (156 with `execution_error`, worded by paymasterRefusal), else undefined: the planner
 * treats it as its own simulation's revert (cli/core/actions/plan-action.ts).
 */
export function paymasterSimulationRevert(error: unknown): string | undefined {
  if (!isAppError(error) || error.code !== ErrorCode.PAYMASTER_REFUSED) return undefined;
  const reason = error.details?.revertReason;
  return error.details?.paymasterCode === 156 && typeof reason === 'string' ? reason : undefined;
}

export function mapChainError(error: unknown, scope: CallScope): unknown {
  if (scope.signal.aborted) return cancelledError(scope.signal.reason);
  if (scope.failure !== undefined) return scope.failure;
  if (isAppError(error)) return error;
  if (error instanceof RpcError) {
    const base = error.baseError as { code?: unknown; message?: unknown; data?: unknown };
    if (error.request.method.startsWith('paymaster_')) return paymasterRefusal(base);
    return new AppError(
      ErrorCode.CHAIN_ERROR,
      `the Starknet RPC refused ${error.request.method}: ${short(base.message)} (${String(base.code)})${base.data === undefined ? '' : `: ${short(base.data)}`}`,
      { details: { rpcCode: base.code } },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new AppError(ErrorCode.CHAIN_ERROR, `the transaction flow failed: ${printable(message)}`, {
    cause: error,
  });
}
