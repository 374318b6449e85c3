/**
 * The `rebalance` action kind (docs/portfolio.md, docs/architecture.md "Adding a leg type"):
 * its request (targets, band, minimum trade, whether unlisted tokens are sold) and the wallet's
 * snapshot (balances and prices, taken by the core before planning) resolve into swap legs
 * (cli/core/allocation.ts); everything after — quotes, calls, checks, build, simulation,
 * confirmation, signing, history — is the pipeline's. `rebalanceView` is the preview table
 * (token, now %, target %, after %), the after column from the simulation's balance changes.
 * Pure: no I/O.
 */
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { type Network, sameAddress } from '../../../shared/tokens.js';
import {
  computeRebalance,
  DEFAULT_BAND,
  DEFAULT_MIN_TRADE,
  formatShare,
  type HoldingInput,
  parsePercent,
  parseTargets,
  parseUsd,
  type RebalanceComputation,
  type RebalanceLeg,
  sharesAt,
  VALUE_SCALE,
} from '../allocation.js';
import type { SimulationResult } from './checks.js';
import type { ResolvedPair } from './rules.js';

/** What a face asks for: `portfolio-rebalance --target … [--sell-unlisted] [--band PP] [--min-trade USD]`. */
export interface RebalanceSpec {
  /** "50 ETH, 30 USDC, 20 STRK" */
  target: string;
  sellUnlisted?: boolean | undefined;
  /** percentage points, default "2" */
  band?: string | undefined;
  /** USD, default "1" */
  minTrade?: string | undefined;
}

/** The wallet as the plan saw it: every registry token's balance, and its price where there is one. */
export interface RebalanceSnapshot {
  holdings: HoldingInput[];
  /** epoch ms the prices were taken */
  pricedAt: number;
}

export interface RebalanceRequest {
  kind: 'rebalance';
  rebalance: RebalanceSpec;
  /** filled by the core (cli/core/actions/index.ts) before planning; absent, only the request's own rules are checked */
  snapshot?: RebalanceSnapshot | undefined;
}

export interface RebalanceView {
  /** what the shares are of */
  base: 'named-tokens' | 'whole-wallet';
  baseNote: string;
  baseValueUsd: string;
  band: string;
  minTradeUsd: string;
  rows: Array<{ symbol: string; now: string; target: string; after: string | null }>;
  /** how `after` was found */
  afterFrom: 'simulation' | 'unchanged' | 'not-simulated';
  kept: string[];
  unpriced: string[];
  belowMinimum: Array<{ from: string; to: string; usd: string }>;
  deferred: Array<{ from: string; to: string; usd: string }>;
  notes: string[];
  pricedAt: string;
}

const usd = (value: bigint): string => {
  const cents = (value * 100n) / VALUE_SCALE;
  return `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
};

function settings(spec: RebalanceSpec, network: Network) {
  if (spec === null || typeof spec !== 'object')
    throw new AppError(ErrorCode.USAGE_ERROR, 'a rebalance needs its targets');
  return {
    targets: parseTargets(spec.target, network),
    band: spec.band === undefined ? DEFAULT_BAND : parsePercent(spec.band, '--band'),
    minTrade:
      spec.minTrade === undefined ? DEFAULT_MIN_TRADE : parseUsd(spec.minTrade, '--min-trade'),
    sellUnlisted: spec.sellUnlisted === true,
  };
}

/** The request's own rules (targets, band, minimum), before anything is read. */
export function checkRebalanceSpec(spec: RebalanceSpec, network: Network): void {
  settings(spec, network);
}

export function computeFor(request: RebalanceRequest, network: Network): RebalanceComputation {
  const s = settings(request.rebalance, network);
  if (request.snapshot === undefined)
    throw new AppError(
      ErrorCode.INTERNAL_ERROR,
      'a rebalance is planned from a snapshot of the wallet',
    );
  return computeRebalance({
    holdings: request.snapshot.holdings,
    targets: s.targets,
    sellUnlisted: s.sellUnlisted,
    band: s.band,
    minTrade: s.minTrade,
  });
}

const legText = (l: RebalanceLeg) => ({ from: l.from.symbol, to: l.to.symbol, usd: usd(l.value) });

/**
 * The preview table. `simulation`: the balance changes of exactly what would be signed give the
 * after column; 'unchanged' (already balanced) repeats now.
 */
export function rebalanceView(
  request: RebalanceRequest,
  network: Network,
  simulation: SimulationResult | 'unchanged' | undefined,
): RebalanceView {
  const s = settings(request.rebalance, network);
  const c = computeFor(request, network);
  const snapshot = request.snapshot as RebalanceSnapshot;
  let after: Array<string | null> = c.rows.map(() => null);
  let afterFrom: RebalanceView['afterFrom'] = 'not-simulated';
  if (simulation === 'unchanged') {
    after = c.rows.map((r) => formatShare(r.now));
    afterFrom = 'unchanged';
  } else if (simulation !== undefined && !simulation.reverted) {
    const balances = c.rows.map(
      (r) =>
        r.balance +
        simulation.balanceChanges
          .filter((ch) => sameAddress(ch.token, r.token.address))
          .reduce((sum, ch) => sum + ch.amount, 0n),
    );
    const prices = c.rows.map(
      (r) =>
        snapshot.holdings.find((h) => sameAddress(h.token.address, r.token.address))?.price ?? 0n,
    );
    after = sharesAt(c.rows, balances, prices).map(formatShare);
    afterFrom = 'simulation';
  }
  const notes: string[] = [];
  if (c.deferred.length > 0)
    notes.push(
      `${c.deferred.length} more leg(s) needed: one transaction holds at most ${c.legs.length} swaps (the largest first); run portfolio-rebalance again for the rest`,
    );
  if (c.belowMinimum.length > 0)
    notes.push(
      `${c.belowMinimum.length} leg(s) below the minimum trade of ${usd(s.minTrade)} USD are not made`,
    );
  if (c.unpriced.length > 0)
    notes.push(
      `${c.unpriced.map((t) => t.symbol).join(', ')} unpriced: left alone and outside the shares`,
    );
  return {
    base: c.base,
    baseNote:
      c.base === 'whole-wallet'
        ? 'target shares are of the whole (priced) wallet; tokens the target does not name are sold'
        : `target shares are of what the named tokens are worth together; ${c.kept.length === 0 ? 'no other token is held' : `${c.kept.map((t) => t.symbol).join(', ')} kept as they are`} (--sell-unlisted sells them)`,
    baseValueUsd: usd(c.baseValue),
    band: formatShare(s.band),
    minTradeUsd: usd(s.minTrade),
    rows: c.rows.map((r, i) => ({
      symbol: r.token.symbol,
      now: formatShare(r.now),
      target: formatShare(r.target),
      after: after[i] ?? null,
    })),
    afterFrom,
    kept: c.kept.map((t) => t.symbol),
    unpriced: c.unpriced.map((t) => t.symbol),
    belowMinimum: c.belowMinimum.map(legText),
    deferred: c.deferred.map(legText),
    notes,
    pricedAt: new Date(snapshot.pricedAt).toISOString(),
  };
}

/**
 * The kind's resolve: its rules, then (with the snapshot) the legs. Nothing to do is
 * ALREADY_BALANCED, with the table in details.rebalance; a face shows it and exits 0.
 */
export function resolveRebalance(request: RebalanceRequest, network: Network): ResolvedPair[] {
  settings(request.rebalance, network);
  if (request.snapshot === undefined) return [];
  const c = computeFor(request, network);
  if (c.legs.length === 0) {
    const view = rebalanceView(request, network, 'unchanged');
    throw new AppError(
      ErrorCode.ALREADY_BALANCED,
      `already balanced: every token is within ${view.band} percentage points of its target; nothing to sign`,
      { details: { rebalance: view } },
    );
  }
  return c.legs.map((l) => ({ from: l.from, to: l.to, amount: l.amount }));
}
