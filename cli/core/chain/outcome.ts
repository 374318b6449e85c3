/**
 * Whether a receipt's outcome is final (docs/decisions.md "A receipt is checked against the
 * account"; docs/checks.md "What a receipt proves"): a node can say REVERTED for a transaction
 * that ran (and strip its events), or SUCCEEDED for one that did not. So a receipt is believed
 * only when what else the chain says agrees with it, read again after the receipt:
 *
 * - the receipt itself, read a second time, says the same outcome;
 * - the account's outside-execution nonce (SNIP-9, `is_valid_outside_execution_nonce`): a
 *   paymaster transaction is sent by the paymaster's relayer, so the account's own protocol nonce
 *   does not tell; the signed outside execution's nonce is used once it executed and stays unused
 *   when it reverted (a revert undoes it);
 * - each spent token's balance, before signing and after the receipt, against what the plan's
 *   outflows predict: executed, it dropped by at least the plan's exact outflows and at most their
 *   bounds ("all" of a position: its bound) plus the most the fee may take in that token;
 *   reverted, by at most that fee. A token the plan also receives is not checked (its balance
 *   moves both ways).
 *
 * Pure: the reads are the caller's (execute.ts). Anything that disagrees is `unknown`, with why.
 */

/** What a plan's outflows predict for one token's balance. */
export interface OutflowExpectation {
  /** how the token is named to a person (its symbol) */
  symbol: string;
  /** what leaves for certain when it executes (exact amounts) */
  exact: bigint;
  /** the most that may leave when it executes ("all" of a position counts its bound) */
  bound: bigint;
  /** the most the fee may take in this token (the gas token in default mode), else 0 */
  feeMax: bigint;
}

export interface BalanceEvidence extends OutflowExpectation {
  before: bigint;
  after: bigint;
}

export interface OutcomeEvidence {
  /** what the receipt said */
  receipt: 'succeeded' | 'reverted';
  /** what the receipt said when read again (unknown: not a coherent outcome) */
  reread: 'succeeded' | 'reverted' | 'unknown';
  /** whether the signed outside-execution nonce is used now (undefined: not checked, no SNIP-9 identity) */
  nonceUsed: boolean | undefined;
  balances: readonly BalanceEvidence[];
}

type OutcomeVerdict =
  | { outcome: 'succeeded' | 'reverted' }
  | { outcome: 'unknown'; receipt: 'succeeded' | 'reverted'; problem: string };

const unknown = (
  receipt: 'succeeded' | 'reverted',
  problem: string,
): Extract<OutcomeVerdict, { outcome: 'unknown' }> => ({ outcome: 'unknown', receipt, problem });

/** The receipt's outcome when everything read after it agrees; else unknown, naming the first disagreement. */
export function judgeOutcome(evidence: OutcomeEvidence): OutcomeVerdict {
  const said = evidence.receipt;
  const SAID = said.toUpperCase();
  if (evidence.reread !== said)
    return unknown(
      said,
      `the receipt said ${SAID}, and read again it says ${evidence.reread.toUpperCase()}`,
    );
  if (said === 'reverted' && evidence.nonceUsed === true)
    return unknown(
      said,
      "the receipt says REVERTED, but the account's outside-execution nonce is used: it executed",
    );
  if (said === 'succeeded' && evidence.nonceUsed === false)
    return unknown(
      said,
      "the receipt says SUCCEEDED, but the account's outside-execution nonce is still unused: it did not execute",
    );
  for (const b of evidence.balances) {
    const dropped = b.before - b.after;
    if (said === 'reverted' && dropped > b.feeMax)
      return unknown(
        said,
        `the receipt says REVERTED, but the ${b.symbol} balance dropped by more than the fee can take (${dropped} base units)`,
      );
    if (said === 'succeeded' && dropped < b.exact)
      return unknown(
        said,
        `the receipt says SUCCEEDED, but the ${b.symbol} balance dropped by ${dropped} base units, less than the ${b.exact} the plan sends`,
      );
    if (said === 'succeeded' && dropped > b.bound + b.feeMax)
      return unknown(
        said,
        `the receipt says SUCCEEDED, but the ${b.symbol} balance dropped by ${dropped} base units, more than the plan and its fee can take (${b.bound + b.feeMax})`,
      );
  }
  return { outcome: said };
}
