/**
 * What a receipt proves (docs/architecture.md "History", "When a transaction has left"): the one
 * reading of a node's receipt that execution (execute.ts), the history's settling (reconcile.ts)
 * and `tx` (transaction.ts) share. A node's answer is outside data and is believed only as far
 * as it is coherent:
 *
 * - it must name the transaction asked about (`transaction_hash`, compared as a number): a receipt
 *   of another transaction, or of none, says nothing about this one;
 * - only `SUCCEEDED` and `REVERTED` are outcomes; a missing or unknown `execution_status` is not
 *   known;
 * - a `REVERTED` receipt whose Transfer events move the account's tokens (anything but the fee to
 *   the paymaster's fee recipient) contradicts itself — a revert undoes every transfer of the
 *   execution — and is not known either, so an entry stays unresolved and a retry is refused
 *   (the retry guard, pipeline.ts) rather than paying twice.
 *
 * Fails closed: whatever is not one of the two coherent outcomes is `unknown`, with why.
 */
import { parseHexFelt } from '../../../shared/felt.js';
import type { RawEvent } from '../../../shared/erc20.js';
import type { Network } from '../../../shared/tokens.js';
import { type FeeParty, summarizeTransfers } from './transfers.js';

interface RawReceiptFields {
  transaction_hash?: unknown;
  execution_status?: unknown;
  revert_reason?: unknown;
  events?: unknown;
}

type ReceiptOutcome =
  | { outcome: 'succeeded' }
  | { outcome: 'reverted' }
  | {
      outcome: 'unknown';
      /** hash: not this transaction's receipt; status: no outcome; contradiction: REVERTED with the account's tokens moving */
      reason: 'hash' | 'status' | 'contradiction';
      problem: string;
    };

/** The felt `value` names, or undefined when it is not one (shared/felt.ts, the one format). */
const feltOf = (value: unknown): bigint | undefined => parseHexFelt(value);

/** Whether the events move the account's registry tokens, the fee to `fee`'s recipient aside. */
function accountTokensMoved(
  events: unknown,
  account: string,
  network: Network,
  fee: FeeParty | undefined,
): boolean {
  if (!Array.isArray(events)) return false;
  const raw = events.filter(
    (e): e is RawEvent =>
      typeof e === 'object' &&
      e !== null &&
      Array.isArray((e as RawEvent).keys) &&
      Array.isArray((e as RawEvent).data),
  );
  const { transfers } = summarizeTransfers(
    raw.map((event) => ({ event })),
    account,
    network,
    undefined,
  );
  const me = BigInt(account);
  return transfers.some((t) => {
    if (BigInt(t.from) === me && BigInt(t.to) === me) return false;
    const counterparty = BigInt(BigInt(t.from) === me ? t.to : t.from);
    const isFee =
      fee !== undefined &&
      counterparty === BigInt(fee.recipient) &&
      BigInt(t.token) === BigInt(fee.gasToken);
    return !isFee;
  });
}

/**
 * How the transaction `hash` ended, by its receipt `raw` as a node sent it. `account` (with
 * `network` and the fee party when known) lets a REVERTED receipt be checked against its events.
 */
export function receiptOutcome(
  raw: RawReceiptFields,
  hash: string,
  scope: { account: string; network: Network; fee?: FeeParty | undefined },
): ReceiptOutcome {
  const named = feltOf(raw.transaction_hash);
  if (named === undefined)
    return { outcome: 'unknown', reason: 'hash', problem: 'the receipt names no transaction hash' };
  if (named !== BigInt(hash))
    return {
      outcome: 'unknown',
      reason: 'hash',
      problem: 'the receipt names another transaction',
    };
  if (raw.execution_status === 'SUCCEEDED') return { outcome: 'succeeded' };
  if (raw.execution_status === 'REVERTED') {
    if (accountTokensMoved(raw.events, scope.account, scope.network, scope.fee))
      return {
        outcome: 'unknown',
        reason: 'contradiction',
        problem: "the receipt says REVERTED, but its events show the account's tokens moving",
      };
    return { outcome: 'reverted' };
  }
  return {
    outcome: 'unknown',
    reason: 'status',
    problem:
      raw.execution_status === undefined
        ? 'the receipt has no execution status'
        : 'the receipt has an execution status that is neither SUCCEEDED nor REVERTED',
  };
}
