/**
 * The independent price (docs/checks.md "The oracle's price", issue 33): Pragma's median of each
 * token's USD spot pair (shared/pragma.ts), read from the chain in the plan's own read round, and
 * the pure rules that judge it. The aggregator does not control it; the caps and the budget count
 * the larger of its value and the aggregator's (actions/value.ts), a swap's minimum received is
 * held against it (actions/legs/swap.ts), and a lending pool's prices must agree with it
 * (actions/legs/lending-read.ts).
 *
 * A price is usable when the oracle answers a well-formed median with at least one source, a
 * positive price and a timestamp no older than ORACLE_MAX_AGE_S; anything else is a quote that
 * says why not (never a price of zero).
 */
import { formatAmount } from '../../shared/amount.js';
import { AppError, ErrorCode } from '../../shared/errors.js';
import {
  decodePragmaResponse,
  PRAGMA_ENTRYPOINT,
  PRAGMA_ORACLE,
  type PragmaPrice,
  pragmaPairOf,
  spotEntryCalldata,
} from '../../shared/pragma.js';
import { sameAddress, type Token } from '../../shared/tokens.js';
import type { ChainReader } from './chain/account.js';
import { batchedViews } from './chain/views.js';

/** A median older than this (seconds, by the client's clock) is stale: 1 hour (docs/decisions.md "The oracle's price"). */
export const ORACLE_MAX_AGE_S = 3600;

export type OracleQuote =
  | {
      ok: true;
      token: Token;
      /** USD per whole token, 18 decimals */
      usd: bigint;
      /** unix seconds */
      lastUpdated: number;
    }
  | {
      ok: false;
      token: Token;
      /** no-pair: Pragma has no pair for it; no-price: no entries; stale: older than the bound; unreadable: the read failed or was garbled */
      why: 'no-pair' | 'no-price' | 'stale' | 'unreadable';
      /** stale: how old, in seconds */
      ageS?: number;
    };

/** The oracle's quotes of a plan's tokens (one per token). */
export type OraclePrices = readonly OracleQuote[];

const E18 = 10n ** 18n;

/** Pure: a decoded median (undefined: garbled) judged at `nowS`. */
export function judgePragma(
  token: Token,
  median: PragmaPrice | undefined,
  nowS: number,
): OracleQuote {
  if (median === undefined) return { ok: false, token, why: 'unreadable' };
  if (median.price === 0n || median.sources === 0 || median.decimals > 36)
    return { ok: false, token, why: 'no-price' };
  const age = nowS - Number(median.lastUpdated);
  if (age > ORACLE_MAX_AGE_S) return { ok: false, token, why: 'stale', ageS: age };
  const usd =
    median.decimals <= 18
      ? median.price * 10n ** BigInt(18 - median.decimals)
      : median.price / 10n ** BigInt(median.decimals - 18);
  if (usd === 0n) return { ok: false, token, why: 'no-price' };
  return { ok: true, token, usd, lastUpdated: Number(median.lastUpdated) };
}

/**
 * Pragma's median of each of `tokens` (once each), asked in one round of views on the reader's
 * node; never throws: a failed read is an `unreadable` quote (cancellation aside).
 */
export async function readOraclePrices(
  reader: ChainReader,
  tokens: readonly Token[],
  options: { signal?: AbortSignal | undefined; now?: () => number } = {},
): Promise<OracleQuote[]> {
  const unique: Token[] = [];
  for (const t of tokens)
    if (!unique.some((u) => sameAddress(u.address, t.address))) unique.push(t);
  const views = batchedViews(reader);
  const oracle = PRAGMA_ORACLE[reader.network];
  return Promise.all(
    unique.map(async (token): Promise<OracleQuote> => {
      const pair = pragmaPairOf(token);
      if (pair === undefined) return { ok: false, token, why: 'no-pair' };
      try {
        const felts = await views({
          contractAddress: oracle,
          entrypoint: PRAGMA_ENTRYPOINT.get_data_median,
          calldata: spotEntryCalldata(pair).map((f) => `0x${f.toString(16)}`),
        });
        const nowS = Math.floor((options.now ?? Date.now)() / 1000);
        return judgePragma(token, decodePragmaResponse(felts), nowS);
      } catch (error) {
        if (options.signal?.aborted) throw error;
        return { ok: false, token, why: 'unreadable' };
      }
    }),
  );
}

/** The quote of `token` among `prices`, if it was asked. */
export function oracleQuoteOf(prices: OraclePrices, token: Token): OracleQuote | undefined {
  return prices.find((q) => sameAddress(q.token.address, token.address));
}

/** USD (18 decimals) of `amount` base units at `usd` per whole token, rounded down. */
export const oracleUsdOf = (amount: bigint, token: Token, usd: bigint): bigint =>
  (amount * usd) / 10n ** BigInt(token.decimals);

/** Cents of `amount` base units at `usd` (18 decimals) per whole token, rounded down. */
export const oracleCentsOf = (amount: bigint, token: Token, usd: bigint): bigint =>
  (oracleUsdOf(amount, token, usd) * 100n) / E18;

/** Why a quote has no price, in words. */
export function unpricedWords(q: Extract<OracleQuote, { ok: false }>): string {
  switch (q.why) {
    case 'no-pair':
      return `Pragma's oracle has no USD pair for ${q.token.symbol}`;
    case 'no-price':
      return `Pragma's oracle has no price for ${q.token.symbol}`;
    case 'stale':
      return `Pragma's price of ${q.token.symbol} is ${Math.round((q.ageS ?? 0) / 60)} minutes old (older than ${ORACLE_MAX_AGE_S / 60} minutes is not used)`;
    case 'unreadable':
      return `Pragma's price of ${q.token.symbol} could not be read`;
  }
}

/**
 * Refuses (ORACLE_PRICE_UNAVAILABLE) when one of `tokens` has no usable oracle price among
 * `prices`; `what` says what needed it. For a host that cannot ask: a face that can ask uses the
 * acknowledgment instead (legs/swap.ts).
 */
export function requireOraclePrices(
  prices: OraclePrices,
  tokens: readonly Token[],
  what: string,
): void {
  const missing = tokens
    .map((t) => oracleQuoteOf(prices, t) ?? ({ ok: false, token: t, why: 'unreadable' } as const))
    .filter((q): q is Extract<OracleQuote, { ok: false }> => !q.ok);
  if (missing.length === 0) return;
  throw new AppError(
    ErrorCode.ORACLE_PRICE_UNAVAILABLE,
    `nothing was signed: ${missing.map(unpricedWords).join('; ')}, so ${what} cannot be checked against an independent price`,
    {
      details: {
        tokens: [...new Set(missing.map((q) => q.token.symbol))],
        reasons: missing.map((q) => q.why),
      },
    },
  );
}

/** `usd` (18 decimals) as dollars with cents. */
export const dollarsOf = (usd: bigint): string => `$${formatAmount((usd * 100n) / E18, 2)}`;
