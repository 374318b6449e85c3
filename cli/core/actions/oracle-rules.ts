/**
 * A swap held against the independent price (docs/checks.md "The oracle's price";
 * docs/decisions.md "The oracle's price"): what it returns, at Pragma's prices, as a share of what
 * leaves at Pragma's prices. Its expected output (the route's rate, net of the fee) below
 * ORACLE_ACK_BPS (90 %) needs the person's 'high-impact' acknowledgment (the slippage the person
 * chose is its own acknowledgment, 'high-slippage'); its minimum received below ORACLE_REFUSE_BPS
 * (50 %) is refused (SWAP_BELOW_ORACLE) whoever asks. A swap whose tokens the oracle cannot price needs the same
 * acknowledgment (a person may accept an unchecked price; a host that cannot ask cannot). Pure:
 * the prices were read with the plan (plan.oracle).
 */
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { formatBpsAsPercent } from '../../../shared/fees.js';
import {
  dollarsOf,
  type OraclePrices,
  oracleQuoteOf,
  oracleUsdOf,
  requireOraclePrices,
  unpricedWords,
} from '../oracle.js';
import type { Acknowledgment } from './acknowledgments.js';
import type { SwapQuote } from './legs/swap.js';
import { exact } from './legs/words.js';

/** An expected output worth less than this share (bps) of what leaves, at the oracle's prices, needs 'high-impact'. */
const ORACLE_ACK_BPS = 9000n;
/** A minimum worth less than this share (bps) of what leaves, at the oracle's prices, is refused. */
const ORACLE_REFUSE_BPS = 5000n;

type OracleJudgement =
  | {
      priced: true;
      inUsd: bigint;
      /** the expected output's worth, and its share (bps) of what leaves */
      expectedUsd: bigint;
      expectedBps: bigint;
      /** the minimum's worth, and its share (bps) of what leaves */
      minUsd: bigint;
      bps: bigint;
    }
  | { priced: false; why: string };

const label = (i: number, q: SwapQuote): string =>
  `swap ${i + 1} (${exact(q.amountIn, q.from)} → ${q.to.symbol})`;

/** What the swap's minimum is worth against what leaves, at the oracle's prices. */
export function judgeSwap(q: SwapQuote, prices: OraclePrices): OracleJudgement {
  const from = oracleQuoteOf(prices, q.from);
  const to = oracleQuoteOf(prices, q.to);
  const missing = [from, to].find((p) => p !== undefined && !p.ok);
  if (missing !== undefined && !missing.ok) return { priced: false, why: unpricedWords(missing) };
  if (from === undefined || to === undefined || !from.ok || !to.ok)
    return { priced: false, why: "Pragma's prices were not read" };
  const inUsd = oracleUsdOf(q.amountIn, q.from, from.usd);
  const minUsd = oracleUsdOf(q.minimumReceived, q.to, to.usd);
  const expectedUsd = oracleUsdOf(q.expectedOutput, q.to, to.usd);
  const share = (usd: bigint): bigint => (inUsd === 0n ? 10_000n : (usd * 10_000n) / inUsd);
  return {
    priced: true,
    inUsd,
    expectedUsd,
    expectedBps: share(expectedUsd),
    minUsd,
    bps: share(minUsd),
  };
}

const percentOf = (bps: bigint): string => formatBpsAsPercent(Number(bps));

/** The swap's acknowledgment the oracle asks for, if any (legs/swap.ts adds it to the swap's). */
export function oracleAcknowledgment(
  q: SwapQuote,
  index: number,
  prices: OraclePrices | undefined,
): Acknowledgment | undefined {
  if (prices === undefined) return undefined;
  const j = judgeSwap(q, prices);
  if (!j.priced)
    return {
      id: 'high-impact',
      reason: `${label(index, q)}: ${j.why}, so its minimum received cannot be checked against an independent price`,
      details: { swap: index + 1, reason: 'oracle-unpriced' },
    };
  if (j.expectedBps >= ORACLE_ACK_BPS) return undefined;
  return {
    id: 'high-impact',
    reason: `${label(index, q)}: its expected output is worth ${dollarsOf(j.expectedUsd)} at Pragma's prices, ${percentOf(j.expectedBps)} of the ${dollarsOf(j.inUsd)} that leaves (below ${percentOf(ORACLE_ACK_BPS)})`,
    details: {
      swap: index + 1,
      reason: 'below-oracle',
      percent: percentOf(j.expectedBps),
      limitBps: Number(ORACLE_ACK_BPS),
    },
  };
}

/** Refuses (SWAP_BELOW_ORACLE) a swap whose minimum is worth below ORACLE_REFUSE_BPS of what leaves. */
export function checkSwapsAgainstOracle(
  swaps: ReadonlyArray<{ executing: SwapQuote }>,
  prices: OraclePrices | undefined,
): void {
  if (prices === undefined) return;
  swaps.forEach((s, i) => {
    const j = judgeSwap(s.executing, prices);
    if (!j.priced || j.bps >= ORACLE_REFUSE_BPS) return;
    throw new AppError(
      ErrorCode.SWAP_BELOW_ORACLE,
      `nothing was signed: ${label(i, s.executing)} guarantees a minimum worth ${dollarsOf(j.minUsd)} at Pragma's prices, ${percentOf(j.bps)} of the ${dollarsOf(j.inUsd)} that leaves; below ${percentOf(ORACLE_REFUSE_BPS)} a swap is refused (the aggregator's price may not be true)`,
      {
        details: {
          swap: i + 1,
          percent: percentOf(j.bps),
          limitBps: Number(ORACLE_REFUSE_BPS),
          minimumUsd: dollarsOf(j.minUsd),
          spentUsd: dollarsOf(j.inUsd),
        },
      },
    );
  });
}

/** How far a lending pool's price may be from Pragma's before its health factor is not used: 2 %. */
const POOL_PRICE_TOLERANCE_BPS = 200n;

/**
 * A lending pair's prices as the pool gives them (USD, 18 decimals) held against Pragma's: each
 * must be within POOL_PRICE_TOLERANCE_BPS of it, else the health factor computed from them is not
 * used (POOL_PRICE_DISAGREES); an asset Pragma cannot price refuses too
 * (ORACLE_PRICE_UNAVAILABLE): a node that lies about the pool's context must not decide the
 * health factor (docs/checks.md "Lending").
 */
export function checkPoolPrices(
  assets: ReadonlyArray<{ token: SwapQuote['from']; poolUsd: bigint; valid: boolean }>,
  prices: OraclePrices,
): void {
  requireOraclePrices(
    prices,
    assets.map((a) => a.token),
    "the position's health factor",
  );
  for (const a of assets) {
    const q = oracleQuoteOf(prices, a.token);
    if (q === undefined || !q.ok || !a.valid) continue;
    const diff = a.poolUsd > q.usd ? a.poolUsd - q.usd : q.usd - a.poolUsd;
    if (diff * 10_000n <= q.usd * POOL_PRICE_TOLERANCE_BPS) continue;
    throw new AppError(
      ErrorCode.POOL_PRICE_DISAGREES,
      `nothing was signed: the pool prices ${a.token.symbol} at ${dollarsOf(a.poolUsd)} but Pragma's oracle at ${dollarsOf(q.usd)} (more than ${percentOf(POOL_PRICE_TOLERANCE_BPS)} apart), so the position's health factor cannot be trusted`,
      {
        details: {
          token: a.token.symbol,
          poolUsd: dollarsOf(a.poolUsd),
          oracleUsd: dollarsOf(q.usd),
          toleranceBps: Number(POOL_PRICE_TOLERANCE_BPS),
        },
      },
    );
  }
}
