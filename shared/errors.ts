/**
 * Stable error codes shared by the auth server, the client and the sandbox.
 * A code, once published, keeps its meaning: scripts match on it.
 */
import { ExitCode, type ExitCode as ExitCodeValue } from './exit-codes.js';

export const ErrorCode = {
  // generic request errors (server)
  VALIDATION_ERROR: 'VALIDATION_ERROR',
  UNAUTHORIZED: 'UNAUTHORIZED',
  TOKEN_EXPIRED: 'TOKEN_EXPIRED',
  /** the token was signed out (POST /auth/logout of it or of a later token of the same user) */
  TOKEN_REVOKED: 'TOKEN_REVOKED',
  /** a sign-out could not be recorded (store full or unavailable): the token still works */
  REVOCATION_UNAVAILABLE: 'REVOCATION_UNAVAILABLE',
  /** a store the request needs (Redis: limits, sign-outs, locks) is unreachable; details.dependency names it */
  DEPENDENCY_UNAVAILABLE: 'DEPENDENCY_UNAVAILABLE',
  FORBIDDEN: 'FORBIDDEN',
  WALLET_MISMATCH: 'WALLET_MISMATCH',
  // the account already has a usable wallet: creating another would unlink it (and its funds)
  WALLET_EXISTS: 'WALLET_EXISTS',
  // /wallet/find named an e-mail that is not the token's
  EMAIL_MISMATCH: 'EMAIL_MISMATCH',
  // another request is creating this account's wallet right now
  PROVISIONING_IN_PROGRESS: 'PROVISIONING_IN_PROGRESS',
  // sponsored gas (the operator pays) is off on this server, or this user's daily quota is used
  SPONSORED_DISABLED: 'SPONSORED_DISABLED',
  SPONSORED_LIMIT_REACHED: 'SPONSORED_LIMIT_REACHED',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  RATE_LIMITED: 'RATE_LIMITED',
  INTERNAL_ERROR: 'INTERNAL_ERROR',
  // refused by the HTTP parser, before any route: the request missed its deadline (408), its
  // headers are over 16 KB (431), or it is not valid HTTP (400)
  REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  HEADERS_TOO_LARGE: 'HEADERS_TOO_LARGE',
  MALFORMED_REQUEST: 'MALFORMED_REQUEST',
  // auth flow
  INVALID_OTP: 'INVALID_OTP',
  // upstreams
  IDENTITY_PROVIDER_ERROR: 'IDENTITY_PROVIDER_ERROR',
  PAYMASTER_ERROR: 'PAYMASTER_ERROR',
  UPSTREAM_TIMEOUT: 'UPSTREAM_TIMEOUT',
  // configuration / process
  CONFIG_ERROR: 'CONFIG_ERROR',
  // client: usage and input
  USAGE_ERROR: 'USAGE_ERROR',
  UNKNOWN_TOKEN: 'UNKNOWN_TOKEN',
  INVALID_AMOUNT: 'INVALID_AMOUNT',
  INVALID_SLIPPAGE: 'INVALID_SLIPPAGE',
  // client: aggregator
  NO_ROUTE_FOUND: 'NO_ROUTE_FOUND',
  BATCH_LIMIT_EXCEEDED: 'BATCH_LIMIT_EXCEEDED',
  NETWORK_ERROR: 'NETWORK_ERROR',
  INVALID_RESPONSE: 'INVALID_RESPONSE',
  NETWORK_UNSUPPORTED: 'NETWORK_UNSUPPORTED',
  // client: swap execution, before anything is signed (details.field names what differs)
  /** a swap call's calldata (router, tokens, amount, min_received, destination) is not what was confirmed */
  CALLDATA_MISMATCH: 'CALLDATA_MISMATCH',
  /** an approve is missing, on another token, to another spender, or not exactly the swap's amount */
  APPROVAL_MISMATCH: 'APPROVAL_MISMATCH',
  /** the calls to sign are not the plan's (count, kind, or a transfer's token/recipient/amount) */
  CALLS_MISMATCH: 'CALLS_MISMATCH',
  /** a re-fetched quote guarantees less than the confirmed one: confirm the new figures */
  QUOTE_CHANGED: 'QUOTE_CHANGED',
  PRICE_IMPACT_TOO_HIGH: 'PRICE_IMPACT_TOO_HIGH',
  /** the wallet holds less than what leaves it (plus the maximum fee when paid in the same token) */
  INSUFFICIENT_BALANCE: 'INSUFFICIENT_BALANCE',
  /** the simulation of exactly what would be signed reverts: nothing was signed */
  SIMULATION_REVERTED: 'SIMULATION_REVERTED',
  SIMULATION_BELOW_MINIMUM: 'SIMULATION_BELOW_MINIMUM',
  /** the simulation takes more of a token from the account than the plan spends (plus the max fee) */
  SIMULATION_OVERSPEND: 'SIMULATION_OVERSPEND',
  /** the plan was shown and nothing was signed: --yes (headless) signs it; or the confirmed plan expired */
  CONFIRMATION_REQUIRED: 'CONFIRMATION_REQUIRED',
  /**
   * what a plan's terms depend on (a debt with its interest, unclaimed rewards, an exit, a
   * position) moved between the review and the signature so that the signed calls would revert
   * or do something else than reviewed: nothing was signed; details.plan is the new plan (to
   * review and confirm), details.changes what moved
   */
  PLAN_CHANGED: 'PLAN_CHANGED',
  // the plan needs an acknowledgment the person has not given (details.remedy: the ids)
  ACKNOWLEDGMENT_REQUIRED: 'ACKNOWLEDGMENT_REQUIRED',
  // staking: no such validator (name or staker address) on the network
  UNKNOWN_VALIDATOR: 'UNKNOWN_VALIDATOR',
  // staking: the validator is leaving (exit announced) or removed: it takes no new stake
  VALIDATOR_INACTIVE: 'VALIDATOR_INACTIVE',
  // staking: the account is not staked with the validator, or has nothing to exit, withdraw or claim
  NOTHING_STAKED: 'NOTHING_STAKED',
  // staking: the exit window has not passed yet (details.withdrawableAt, details.secondsLeft)
  EXIT_NOT_READY: 'EXIT_NOT_READY',
  // staking: a removed staker's pool cannot change an exit already running: withdraw it first (details.withdrawableAt)
  EXIT_IN_PROGRESS: 'EXIT_IN_PROGRESS',
  // lending: no such pool on the network (a name or address not in shared/vesu.ts)
  UNKNOWN_POOL: 'UNKNOWN_POOL',
  // lending: nothing supplied, no position to repay or close
  NO_POSITION: 'NO_POSITION',
  // lending: the health factor after the action would be at or below 1 (details.healthFactor)
  HEALTH_TOO_LOW: 'HEALTH_TOO_LOW',
  // lending: a pool rule refuses it before signing (details.reason: debt-floor, debt-cap, utilization, invalid-price, not-listed)
  LENDING_LIMIT: 'LENDING_LIMIT',
  // lending: the pool's price of an asset is more than the tolerance away from Pragma's (details.token, poolUsd, oracleUsd, toleranceBps)
  POOL_PRICE_DISAGREES: 'POOL_PRICE_DISAGREES',
  // lending: the pool factory named a vToken other than the one pinned for the pool and asset (details.pinned, answered)
  PINNED_ADDRESS_MISMATCH: 'PINNED_ADDRESS_MISMATCH',
  // Pragma's oracle has no usable price (no pair, no entries, stale, unreadable) where one is required (details.tokens, reason)
  ORACLE_PRICE_UNAVAILABLE: 'ORACLE_PRICE_UNAVAILABLE',
  // a swap's minimum received is worth far less than what leaves, at Pragma's prices (details.swap, percent)
  SWAP_BELOW_ORACLE: 'SWAP_BELOW_ORACLE',
  // sandbox liquidate: the pool refuses to liquidate a collateralised position (not-undercollateralized)
  POSITION_HEALTHY: 'POSITION_HEALTHY',
  /** a transfer to the zero address, a token contract or the router: funds would be lost */
  INVALID_RECIPIENT: 'INVALID_RECIPIENT',
  /** the local transaction history could not be read or written (the transaction itself is unaffected) */
  HISTORY_ERROR: 'HISTORY_ERROR',
  // client: auth server reachability
  SERVER_UNREACHABLE: 'SERVER_UNREACHABLE',
  // our server answered an error code this client does not know (a newer server)
  SERVER_ERROR: 'SERVER_ERROR',
  CANCELLED: 'CANCELLED',
  // client: chain and execution (cli/core/chain)
  // a recipient or contract address that is not a usable Starknet address
  INVALID_ADDRESS: 'INVALID_ADDRESS',
  // the Starknet JSON-RPC endpoint did not answer (refused, timed out, 5xx, not JSON-RPC)
  CHAIN_UNREACHABLE: 'CHAIN_UNREACHABLE',
  // the Starknet JSON-RPC endpoint answered an error the client does not expect
  CHAIN_ERROR: 'CHAIN_ERROR',
  // the paymaster refused the transaction (its SNIP-29 code and message in details)
  PAYMASTER_REFUSED: 'PAYMASTER_REFUSED',
  // the paymaster says the signature does not verify (SNIP-29 153)
  SIGNATURE_REFUSED: 'SIGNATURE_REFUSED',
  // the fee is above the maximum the user accepted (client check, or SNIP-29 154)
  FEE_ABOVE_MAX: 'FEE_ABOVE_MAX',
  // the paymaster's typed data is not the transaction asked for: refused before signing
  TAMPERED_TRANSACTION: 'TAMPERED_TRANSACTION',
  // the transaction was included and reverted: nothing changed (receipt in details)
  TRANSACTION_REVERTED: 'TRANSACTION_REVERTED',
  // submitted, but not confirmed within the wait: its hash is in details, check it later
  TRANSACTION_PENDING: 'TRANSACTION_PENDING',
  // the signed transaction left the client but how it ended is not known (interrupted, or the
  // answer was lost): details.transactionHash when known; never retry blindly, check the history
  SUBMITTED_UNCONFIRMED: 'SUBMITTED_UNCONFIRMED',
  // this plan (or the same transaction) was already submitted: it is never signed twice
  ALREADY_SUBMITTED: 'ALREADY_SUBMITTED',
  // a rebalance with nothing to do: every token is within the band of its target (not a failure:
  // portfolio-rebalance exits 0 with the allocation; nothing is signed)
  ALREADY_BALANCED: 'ALREADY_BALANCED',
  // a rebalance this run could not bring within its band: more legs than one transaction holds,
  // legs left out below the minimum trade, or the simulated allocation after it outside the band
  // (details.reason, details.rebalance): nothing is signed
  REBALANCE_OUTSIDE_BAND: 'REBALANCE_OUTSIDE_BAND',
  // the deployed account does not support outside execution (SNIP-9), which the paymaster needs
  ACCOUNT_UNSUPPORTED: 'ACCOUNT_UNSUPPORTED',
  // a cap set at start (`mcp --max-usd`) refuses the plan before signing, or its value cannot be known
  LIMIT_EXCEEDED: 'LIMIT_EXCEEDED',
  // a token the plan moves is not in the allow-list set at start (`mcp --allow-token`)
  TOKEN_NOT_ALLOWED: 'TOKEN_NOT_ALLOWED',
  // the plan's value would take the rolling 24 h budget set at start (`mcp --budget-usd`) over it
  BUDGET_EXCEEDED: 'BUDGET_EXCEEDED',
  // a leg pays a third party outside the recipient list set at start (`mcp --allow-recipient`)
  RECIPIENT_NOT_ALLOWED: 'RECIPIENT_NOT_ALLOWED',
  // the tool server was started without --allow-execute: it plans, it never signs
  EXECUTION_DISABLED: 'EXECUTION_DISABLED',
  // no plan with this id (never made by this server, or forgotten after its expiry)
  PLAN_NOT_FOUND: 'PLAN_NOT_FOUND',
  // agent grants (docs/server-api.md "Agent grants"): the server refuses before signing
  /** what a request signed under a grant would move takes a token over the grant's rolling 24 h amount */
  GRANT_EXCEEDED: 'GRANT_EXCEEDED',
  /** a transfer under a grant pays an address outside the grant's recipients */
  GRANT_RECIPIENT_NOT_ALLOWED: 'GRANT_RECIPIENT_NOT_ALLOWED',
  /** a call under a grant the server does not understand, or to a contract or spender the product does not know */
  GRANT_CALL_NOT_ALLOWED: 'GRANT_CALL_NOT_ALLOWED',
  /** a grant token on a route a grant cannot use (raw hash signing, grants, sign-out, wallets) */
  GRANT_FORBIDDEN: 'GRANT_FORBIDDEN',
  /** the grant's expiry has passed */
  GRANT_EXPIRED: 'GRANT_EXPIRED',
  /** the person revoked the grant */
  GRANT_REVOKED: 'GRANT_REVOKED',
  /** no grant with this id among the person's */
  GRANT_NOT_FOUND: 'GRANT_NOT_FOUND',
  /** the person holds as many live grants as a user may */
  GRANT_LIMIT_REACHED: 'GRANT_LIMIT_REACHED',
  // client: session
  AUTH_REQUIRED: 'AUTH_REQUIRED',
  SESSION_EXPIRED: 'SESSION_EXPIRED',
  // a wallet address that is not the ArgentX account of its public key (a saved session or a server answer)
  ADDRESS_MISMATCH: 'ADDRESS_MISMATCH',
  // a server (serve, sandbox) did not close within its bound after the stop signal
  SHUTDOWN_TIMEOUT: 'SHUTDOWN_TIMEOUT',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export { ExitCode } from './exit-codes.js';

/** Usage errors are the caller's mistake in flags or arguments. */
const USAGE_CODES: ReadonlySet<string> = new Set<string>([
  ErrorCode.USAGE_ERROR,
  ErrorCode.UNKNOWN_TOKEN,
  ErrorCode.INVALID_AMOUNT,
  ErrorCode.INVALID_SLIPPAGE,
  ErrorCode.BATCH_LIMIT_EXCEEDED,
  ErrorCode.NETWORK_UNSUPPORTED,
  ErrorCode.INVALID_ADDRESS,
  ErrorCode.INVALID_RECIPIENT,
]);

/** The transaction exists (or may): the outcome is not known yet. */
const SUBMITTED_CODES: ReadonlySet<string> = new Set<string>([
  ErrorCode.TRANSACTION_PENDING,
  ErrorCode.SUBMITTED_UNCONFIRMED,
]);

const AUTH_CODES: ReadonlySet<string> = new Set<string>([
  ErrorCode.UNAUTHORIZED,
  ErrorCode.TOKEN_EXPIRED,
  ErrorCode.TOKEN_REVOKED,
  ErrorCode.GRANT_EXPIRED,
  ErrorCode.GRANT_REVOKED,
  ErrorCode.INVALID_OTP,
  ErrorCode.AUTH_REQUIRED,
  ErrorCode.SESSION_EXPIRED,
  ErrorCode.ADDRESS_MISMATCH,
]);

/**
 * An error we expect and can explain: it carries a stable code and a message that is safe to
 * show (never a secret, never a stack). Anything that is not an AppError is a bug and is shown
 * as INTERNAL_ERROR. It carries no HTTP status: a code is the whole meaning, and the auth server
 * alone maps codes to statuses (HTTP_STATUS in server/plugins/errors.ts).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.details = options.details;
  }

  get isUsage(): boolean {
    return USAGE_CODES.has(this.code);
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

/** Whether `code` is one of ours (a server may answer codes a client version does not know). */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ErrorCode, code);
}

/** The one CANCELLED error: Ctrl+C or SIGTERM stopped the command (exit 2). */
export function cancelledError(cause?: unknown): AppError {
  return new AppError(ErrorCode.CANCELLED, 'cancelled', {
    ...(cause === undefined ? {} : { cause }),
  });
}

export function usageError(message: string, code: ErrorCode = ErrorCode.USAGE_ERROR): AppError {
  return new AppError(code, message);
}

/** Exit code for a failed command (docs/architecture.md "Headless output"). */
export function exitCodeFor(error: unknown): ExitCodeValue {
  if (isAppError(error)) {
    if (error.code === ErrorCode.CANCELLED) return ExitCode.CANCELLED;
    if (SUBMITTED_CODES.has(error.code)) return ExitCode.SUBMITTED;
    if (AUTH_CODES.has(error.code)) return ExitCode.AUTH;
    if (error.code === ErrorCode.PLAN_CHANGED) return ExitCode.PLAN_CHANGED;
  }
  return ExitCode.ERROR;
}

/**
 * JSON-RPC error codes of the auth server's own refusals on POST /paymaster (docs/server-api.md
 * "The /paymaster relay"): clients of the relay (starknet.js PaymasterRpc) read only JSON-RPC error objects, so
 * every refusal there is one, with the stable code in `data.code` and at the head of `message`.
 * The standard codes where JSON-RPC has one; ours in its implementation-defined range
 * -32000..-32099, clear of SNIP-29's positive paymaster codes.
 */
export const JSON_RPC_ERROR_CODES: Readonly<Partial<Record<ErrorCode, number>>> = {
  [ErrorCode.VALIDATION_ERROR]: -32602,
  [ErrorCode.INTERNAL_ERROR]: -32603,
  [ErrorCode.UNAUTHORIZED]: -32001,
  [ErrorCode.TOKEN_EXPIRED]: -32002,
  [ErrorCode.FORBIDDEN]: -32003,
  [ErrorCode.WALLET_MISMATCH]: -32004,
  [ErrorCode.RATE_LIMITED]: -32005,
  [ErrorCode.SPONSORED_DISABLED]: -32006,
  [ErrorCode.SPONSORED_LIMIT_REACHED]: -32007,
  [ErrorCode.PAYLOAD_TOO_LARGE]: -32008,
  [ErrorCode.UNSUPPORTED_MEDIA_TYPE]: -32009,
  [ErrorCode.PAYMASTER_ERROR]: -32010,
  [ErrorCode.UPSTREAM_TIMEOUT]: -32011,
  [ErrorCode.TOKEN_REVOKED]: -32012,
  [ErrorCode.DEPENDENCY_UNAVAILABLE]: -32013,
  [ErrorCode.GRANT_FORBIDDEN]: -32014,
  [ErrorCode.GRANT_EXPIRED]: -32015,
  [ErrorCode.GRANT_REVOKED]: -32016,
};
export const JSON_RPC_PARSE_ERROR = -32700;
export const JSON_RPC_INVALID_REQUEST = -32600;
export const JSON_RPC_METHOD_NOT_FOUND = -32601;
/** any other code of ours */
export const JSON_RPC_SERVER_ERROR = -32000;

/** `data` of our JSON-RPC refusals */
export interface JsonRpcRefusalData {
  code: ErrorCode;
  requestId: string;
  /** seconds, on RATE_LIMITED and SPONSORED_LIMIT_REACHED */
  retryAfter?: number;
}

/**
 * The stable code of a JSON-RPC error object from our /paymaster (starknet.js RpcError's
 * `baseError`), or undefined when it is not one of ours (a paymaster's own error is relayed as
 * the paymaster sent it).
 */
export function stableCodeOfJsonRpcError(error: unknown): ErrorCode | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const data = (error as { data?: unknown }).data;
  const code =
    typeof data === 'object' && data !== null ? (data as { code?: unknown }).code : undefined;
  return typeof code === 'string' && (Object.values(ErrorCode) as string[]).includes(code)
    ? (code as ErrorCode)
    : undefined;
}

/** The wire shape of every error, from the server and from `--json`. */
export interface ErrorBody {
  error: { code: string; message: string; requestId?: string; details?: Record<string, unknown> };
}
