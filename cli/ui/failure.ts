/**
 * An error in plain words, with what to do next: what the failure and error lines show.
 * Only AppError messages are shown (they are written to be safe to show); anything else is a
 * bug and says so without internals.
 */
import { ErrorCode, isAppError } from '../../shared/errors.js';
import { type Field, fieldOf, remediesOf } from '../core/remedy.js';

/** The app's name for each request parameter a refusal can be about: its form field's label. */
const FIELD_WORDS: Record<Field, string> = {
  target: 'Target',
  band: 'Band',
  minTrade: 'Minimum trade',
  validator: 'Validator',
  maxFee: 'Maximum fee',
  daily: 'Daily amount',
  allowRecipient: 'Allowed recipient',
  expires: 'Expires',
  out: 'Grant file',
};

export interface Failure {
  code: string;
  title: string;
  message: string;
  next: string;
  /** the session is gone (expired, revoked, signed out elsewhere): the way on is signing in again */
  signIn: boolean;
}

/** Codes that mean the saved session can no longer be used. */
const SESSION_LOST: ReadonlySet<string> = new Set([
  ErrorCode.SESSION_EXPIRED,
  ErrorCode.AUTH_REQUIRED,
  ErrorCode.TOKEN_EXPIRED,
  ErrorCode.TOKEN_REVOKED,
  ErrorCode.UNAUTHORIZED,
]);

const NEXT: Partial<Record<string, { title: string; next: string }>> = {
  [ErrorCode.NETWORK_ERROR]: {
    title: 'Could not reach the service',
    next: 'Check your connection, then try again.',
  },
  [ErrorCode.SERVER_UNREACHABLE]: {
    title: 'The auth server is not reachable',
    next: 'Check the server URL in settings, or start it; then try again.',
  },
  [ErrorCode.INVALID_RESPONSE]: {
    title: 'A service answered something unexpected',
    next: 'Nothing was signed. Try again; if it persists, check status.',
  },
  [ErrorCode.NO_ROUTE_FOUND]: {
    title: 'No route for this swap',
    next: 'Try a smaller amount or another pair.',
  },
  [ErrorCode.INVALID_OTP]: {
    title: 'Wrong or expired code',
    next: 'Check the code, or press Ctrl+R for a new one.',
  },
  [ErrorCode.RATE_LIMITED]: {
    title: 'Too many attempts',
    next: 'Wait for the countdown, then try again.',
  },
  [ErrorCode.UNAUTHORIZED]: { title: 'Your session is no longer valid', next: 'Sign in again.' },
  [ErrorCode.TOKEN_EXPIRED]: { title: 'Your session has expired', next: 'Sign in again.' },
  [ErrorCode.TOKEN_REVOKED]: { title: 'This session was signed out', next: 'Sign in again.' },
  [ErrorCode.NETWORK_UNSUPPORTED]: {
    title: 'Not available on this network',
    next: 'Swaps run on mainnet only: change the network in settings.',
  },
  [ErrorCode.INVALID_AMOUNT]: { title: 'Invalid amount', next: 'Fix the amount.' },
  [ErrorCode.CONFIG_ERROR]: {
    title: 'Configuration problem',
    next: 'Fix the setting named above.',
  },
  [ErrorCode.IDENTITY_PROVIDER_ERROR]: {
    title: 'The identity provider failed',
    next: 'Try again in a moment.',
  },
  [ErrorCode.UPSTREAM_TIMEOUT]: {
    title: 'A service did not answer in time',
    next: 'Try again in a moment.',
  },
  [ErrorCode.PAYMASTER_ERROR]: {
    title: 'The paymaster failed',
    next: 'Nothing was sent. Try again in a moment.',
  },
  [ErrorCode.PAYMASTER_REFUSED]: {
    title: 'The paymaster refused the transaction',
    next: 'Nothing was sent. Check the amounts and try again.',
  },
  [ErrorCode.FEE_ABOVE_MAX]: {
    title: 'The fee is above your maximum',
    next: 'Nothing was sent. Try again later, or accept a higher fee.',
  },
  [ErrorCode.TAMPERED_TRANSACTION]: {
    title: 'The transaction is not the one asked for',
    next: 'Nothing was signed. Do not retry against this paymaster; check the server URL in settings.',
  },
  [ErrorCode.INSUFFICIENT_BALANCE]: {
    title: 'Not enough funds',
    next: 'Nothing was signed. Lower the amount.',
  },
  [ErrorCode.SIMULATION_REVERTED]: {
    title: 'The transaction would fail',
    next: 'Nothing was signed. Check the amounts and try again.',
  },
  [ErrorCode.CONFIRMATION_REQUIRED]: {
    title: 'The plan expired before it was signed',
    next: 'Nothing was signed. Plan it again and confirm the new one.',
  },
  [ErrorCode.TRANSACTION_REVERTED]: {
    title: 'The transaction reverted',
    next: 'Only the fee (if you paid one) left the wallet. Check the amounts and try again.',
  },
  [ErrorCode.BATCH_LIMIT_EXCEEDED]: {
    title: 'Too many items in one transaction',
    next: 'Remove a row and try again.',
  },
  [ErrorCode.UNKNOWN_TOKEN]: { title: 'Unknown token', next: 'Pick a token from the list.' },
  [ErrorCode.INVALID_SLIPPAGE]: {
    title: 'Invalid slippage',
    next: 'Pick a preset or type a percent.',
  },
  [ErrorCode.INVALID_RECIPIENT]: { title: 'Invalid recipient', next: 'Check the address.' },
  [ErrorCode.INVALID_ADDRESS]: { title: 'Not an address', next: 'Check the address.' },
  [ErrorCode.QUOTE_CHANGED]: {
    title: 'The price moved',
    next: 'Nothing was signed. Review the new quote and confirm it again.',
  },
  [ErrorCode.PRICE_IMPACT_TOO_HIGH]: {
    title: 'Price impact too high',
    next: 'Nothing was signed. Try a smaller amount.',
  },
  [ErrorCode.CALLDATA_MISMATCH]: {
    title: 'The aggregator sent a swap that is not the one you confirmed',
    next: 'Nothing was signed. Try again; if it persists, check status.',
  },
  [ErrorCode.APPROVAL_MISMATCH]: {
    title: 'The approval is not the one expected',
    next: 'Nothing was signed. Try again; if it persists, check status.',
  },
  [ErrorCode.CALLS_MISMATCH]: {
    title: 'The transaction is not the one planned',
    next: 'Nothing was signed. Try again; if it persists, check status.',
  },
  [ErrorCode.SIMULATION_BELOW_MINIMUM]: {
    title: 'The simulation received less than the minimum',
    next: 'Nothing was signed. Re-quote, or raise the slippage.',
  },
  [ErrorCode.SIMULATION_OVERSPEND]: {
    title: 'The simulation spent more than planned',
    next: 'Nothing was signed. Do not retry against this service; check status.',
  },
  [ErrorCode.CHAIN_UNREACHABLE]: {
    title: 'The chain is not reachable',
    next: 'Check the RPC URL or your connection, then try again.',
  },
  [ErrorCode.SESSION_EXPIRED]: { title: 'Your session has expired', next: 'Sign in again.' },
  [ErrorCode.AUTH_REQUIRED]: { title: 'You are not signed in here', next: 'Sign in again.' },
  [ErrorCode.TRANSACTION_PENDING]: {
    title: 'Sent, not confirmed yet',
    next: 'Do not send it again: it may still be confirmed. Check your balances on the home screen in a moment.',
  },
  [ErrorCode.SUBMITTED_UNCONFIRMED]: {
    title: 'Sent, but how it ended is not known',
    next: 'Do not send it again: it may have been executed. The history asks the chain; the same plan is refused until it is settled.',
  },
  [ErrorCode.ALREADY_SUBMITTED]: {
    title: 'The same transaction is already on its way',
    next: 'Nothing was signed. Check the history; once it has settled you can send it again.',
  },
  [ErrorCode.HEALTH_TOO_LOW]: {
    title: 'The health factor would be too low',
    next: 'Nothing was signed. Borrow or withdraw less, add collateral, or repay first.',
  },
  [ErrorCode.LENDING_LIMIT]: {
    title: "The pool's limits refuse it",
    next: 'Nothing was signed. Change the amount as said above.',
  },
  [ErrorCode.POOL_PRICE_DISAGREES]: {
    title: "The pool's price disagrees with the oracle",
    next: 'Nothing was signed. The health factor cannot be trusted while they disagree; try again later.',
  },
  [ErrorCode.PINNED_ADDRESS_MISMATCH]: {
    title: 'The chain named an unexpected contract',
    next: 'Nothing was signed. The node answered an address other than the pinned one: use another node.',
  },
  [ErrorCode.ORACLE_PRICE_UNAVAILABLE]: {
    title: 'No independent price',
    next: 'Nothing was signed. The oracle has no usable price for a token this moves.',
  },
  [ErrorCode.SWAP_BELOW_ORACLE]: {
    title: 'The swap returns far less than it is worth',
    next: "Nothing was signed. Its minimum is worth less than half of what leaves at the oracle's prices.",
  },
  [ErrorCode.NO_POSITION]: {
    title: 'No such position',
    next: 'Nothing was signed. Check the tokens against the positions above.',
  },
  [ErrorCode.UNKNOWN_POOL]: { title: 'Unknown lending pool', next: 'Check the pool name.' },
  [ErrorCode.REBALANCE_OUTSIDE_BAND]: {
    title: 'This rebalance would not reach its band',
    next: 'Nothing was signed. Widen the band, or rebalance a smaller part of the wallet.',
  },
  [ErrorCode.USAGE_ERROR]: {
    title: 'Not a request that can be planned',
    next: 'Nothing was signed. Change what is named above.',
  },
  [ErrorCode.PLAN_CHANGED]: {
    title: 'The plan changed before it was signed',
    next: 'Nothing was signed. Review the new terms and confirm them, or go back.',
  },
  [ErrorCode.ACKNOWLEDGMENT_REQUIRED]: {
    title: 'This plan needs your acknowledgment',
    next: 'Nothing was signed. Plan it again and type the word its review asks for.',
  },
  [ErrorCode.UNKNOWN_VALIDATOR]: {
    title: 'No such validator',
    next: 'Nothing was signed. Pick a validator from the list on the Staking screen.',
  },
  [ErrorCode.VALIDATOR_INACTIVE]: {
    title: 'This validator takes no new stake',
    next: 'Nothing was signed. Stake with another validator.',
  },
  [ErrorCode.NOTHING_STAKED]: {
    title: 'Nothing to do with this validator',
    next: 'Nothing was signed. Check your stakes on the Staking screen.',
  },
  [ErrorCode.EXIT_NOT_READY]: {
    title: 'Not withdrawable yet',
    next: 'Nothing was signed. The exit window has not passed: withdraw at the time above.',
  },
  [ErrorCode.EXIT_IN_PROGRESS]: {
    title: 'An exit is already running',
    next: 'Nothing was signed. Withdraw it first, at the time above.',
  },
  [ErrorCode.POSITION_HEALTHY]: {
    title: 'This position cannot be liquidated',
    next: 'Nothing was signed: its health factor is above 1.',
  },
  [ErrorCode.ALREADY_BALANCED]: {
    title: 'Already balanced',
    next: 'Nothing to sign: every token is within the band of its target.',
  },
  [ErrorCode.CANCELLED]: { title: 'Cancelled', next: 'Nothing more was done.' },
  [ErrorCode.CHAIN_ERROR]: {
    title: 'The chain answered an error',
    next: 'Nothing was signed. Check status; try again in a moment.',
  },
  [ErrorCode.SIGNATURE_REFUSED]: {
    title: 'The signature was refused',
    next: 'Nothing was sent. Sign in again, then plan it again.',
  },
  [ErrorCode.ACCOUNT_UNSUPPORTED]: {
    title: 'This account cannot sign here',
    next: 'Nothing was signed. Check the wallet in Info.',
  },
  [ErrorCode.ADDRESS_MISMATCH]: {
    title: 'The session is for another wallet',
    next: 'Nothing was signed. Sign in again.',
  },
  [ErrorCode.SPONSORED_DISABLED]: {
    title: 'Sponsored gas is off on this server',
    next: 'Nothing was sent. Pay the gas in a token: change it in settings.',
  },
  [ErrorCode.SPONSORED_LIMIT_REACHED]: {
    title: 'The sponsored gas limit is reached',
    next: 'Nothing was sent. Pay the gas in a token (settings), or wait for the countdown.',
  },
  [ErrorCode.HISTORY_ERROR]: {
    title: 'The history file cannot be used',
    next: 'Nothing was signed. Check the file named above.',
  },
  [ErrorCode.SERVER_ERROR]: {
    title: 'The auth server failed',
    next: 'Try again in a moment; if it persists, check status.',
  },
  [ErrorCode.INTERNAL_ERROR]: {
    title: 'The server failed',
    next: 'Try again in a moment; if it persists, check status.',
  },
};

/**
 * The app's words for a refusal's remedies (`details.remedy`: cli/core/remedy.ts and the
 * acknowledgment ids of cli/core/actions/acknowledgments.ts): the key or screen that does it.
 * Each replaces the code's generic next step, so no remedy the core names is lost to "try again".
 */
const REMEDY_WORDS: Record<string, string> = {
  confirm: 'Nothing was signed. Plan it again and confirm the new one (y on the review).',
  history:
    'Do not send it again: open History (it asks the chain how it ended); once it has settled you can send it again.',
  'start-sandbox':
    'Start the sandbox in another terminal (npm run sandbox) and keep it running, then try again.',
  sandbox: 'Turn the sandbox on in Settings, or set the server URL there.',
  band: 'Nothing was signed. Widen the band and review again.',
  'min-trade':
    'Nothing was signed. Swaps worth less than the minimum trade were left out: rebalance a larger part, or widen the band.',
  'high-impact': 'Nothing was signed. Plan it again and type the word the review asks for.',
  'high-slippage': 'Nothing was signed. Plan it again and type the word the review asks for.',
  'exit-restart': 'Nothing was signed. Plan it again and type RESTART on the review.',
  'low-health': 'Nothing was signed. Plan it again and type RISK on the review.',
};

/** The app's next step for the remedies a refusal names, when it knows every one. */
function remedyNext(details: Record<string, unknown> | undefined): string | undefined {
  const words = [...new Set(remediesOf(details).map((r) => REMEDY_WORDS[r]))];
  return words.length > 0 && words.every((w) => w !== undefined) ? words.join(' ') : undefined;
}

/**
 * A refusal of a code the app has no words for: said as what it is, with its code, and never
 * "try again" — nothing says trying again could help.
 */
const UNKNOWN = {
  title: 'Refused',
  next: 'Nothing in the app can change this; check status if it seems wrong.',
};

/** What the app says of a receipt the chain's other answers contradict. */
const CONTRADICTED = {
  title: 'Sent, but how it ended is not known: the chain contradicts itself',
  next: 'Do not send it again: it may have been executed. The history asks the chain again; the same plan is refused until its answers agree.',
};

/**
 * A failure after the transaction left (its hash is known): whatever went wrong, it may still
 * be confirmed, so the advice is never "try again".
 */
export function describeFailureAfterSending(error: unknown, transactionHash: string): Failure {
  const failure = describeFailure(error);
  if (failure.code === ErrorCode.TRANSACTION_REVERTED) return failure;
  return {
    ...failure,
    title:
      failure.code === ErrorCode.TRANSACTION_PENDING
        ? failure.title
        : `Sent as ${transactionHash}, but: ${failure.title.toLowerCase()}`,
    next: `Do not send it again: transaction ${transactionHash} may still be confirmed. Check your balances on the home screen in a moment.`,
  };
}

export function describeFailure(error: unknown): Failure {
  if (isAppError(error)) {
    // a receipt the account contradicts (core/chain/outcome.ts): not "not confirmed yet", not known
    const known =
      error.code === ErrorCode.TRANSACTION_PENDING &&
      typeof error.details?.contradiction === 'string'
        ? CONTRADICTED
        : NEXT[error.code];
    const signIn = SESSION_LOST.has(error.code);
    // the parameter a refusal is about, by its field's label (the core names no flag: core/remedy.ts)
    const field = fieldOf(error.details);
    return {
      code: error.code,
      title: known?.title ?? UNKNOWN.title,
      message: field === undefined ? error.message : `${FIELD_WORDS[field]}: ${error.message}`,
      next: signIn
        ? 'Press Enter to sign in again.'
        : (remedyNext(error.details) ?? known?.next ?? UNKNOWN.next),
      signIn,
    };
  }
  return {
    code: ErrorCode.INTERNAL_ERROR,
    title: 'Unexpected internal error',
    message: 'unexpected internal error (run with FINANCE_TUI_DEBUG=1 for details)',
    next: 'Please report it; nothing was signed.',
    signIn: false,
  };
}

/** Seconds from a RATE_LIMITED error's details (Retry-After), if it has them. */
export function retryAfterSeconds(error: unknown): number | undefined {
  if (!isAppError(error) || error.code !== ErrorCode.RATE_LIMITED) return undefined;
  const seconds = error.details?.retryAfterSeconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0
    ? seconds
    : undefined;
}
