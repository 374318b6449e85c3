/**
 * The sandbox paymaster's refusals (docs/contracts.md C, docs/sandbox-chain.md "SNIP-29 paymaster"): the
 * SNIP-29 error codes, and `refuse`, which every method module throws through.
 */
import { RpcFailure } from '../jsonrpc.js';

export const PAYMASTER_ERROR = {
  INVALID_ADDRESS: 150,
  TOKEN_NOT_SUPPORTED: 151,
  INVALID_SIGNATURE: 153,
  MAX_AMOUNT_TOO_LOW: 154,
  CLASS_HASH_NOT_SUPPORTED: 155,
  TRANSACTION_EXECUTION_ERROR: 156,
  INVALID_TIME_BOUNDS: 157,
  INVALID_DEPLOYMENT_DATA: 158,
  INVALID_ID: 160,
  UNKNOWN_ERROR: 163,
} as const;

/**
 * A SNIP-29 refusal: the spec's code and message ("An error occurred (NAME)"). `data` is the
 * spec's where it defines one — TRANSACTION_EXECUTION_ERROR's `{execution_error}`, UNKNOWN_ERROR's
 * string — and otherwise a string saying why (the spec defines no `data` for the others; JSON-RPC
 * allows one, and a client is better served by a reason).
 */
export const refuse = (name: keyof typeof PAYMASTER_ERROR, detail: string): RpcFailure =>
  new RpcFailure(
    PAYMASTER_ERROR[name],
    `An error occurred (${name})`,
    name === 'TRANSACTION_EXECUTION_ERROR' ? { execution_error: detail } : detail,
  );
