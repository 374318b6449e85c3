/**
 * The `rebalance` action kind (docs/portfolio.md, docs/architecture.md "Adding a leg type"):
 * its request (targets, band, minimum trade, whether unlisted tokens are sold) and the wallet's
 * snapshot (balances and prices, taken by the core before planning) resolve into swap legs
 * (cli/core/allocation.ts); everything after — quotes, calls, checks, build, simulation,
 * confirmation, signing, history — is the pipeline's. `rebalanceView` is the preview table
 * (token, now %, target %, after %), the after column from the simulation's balance changes.
 * One run ends within the band or is refused before signing (REBALANCE_OUTSIDE_BAND): more legs
 * than one transaction holds (MAX_REBALANCE_LEGS) or legs left out below the minimum trade are
 * refused when resolving, a simulated allocation outside the band after the simulation
 * (`checkRebalanceAfter`). Pure: no I/O.
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
  valueOf,
  withinBand,
} from '../allocation.js';
import { MAX_REBALANCE_LEGS } from './limits.js';
import type { SimulationResult } from './checks.js';
import type { ResolvedPair } from './rules.js';

/** What a face asks for: the targets, whether unlisted tokens are sold, the band, the minimum trade. */
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
    band: spec.band === undefined ? DEFAULT_BAND : parsePercent(spec.band, 'band'),
    minTrade: spec.minTrade === undefined ? DEFAULT_MIN_TRADE : parseUsd(spec.minTrade, 'minTrade'),
    sellUnlisted: spec.sellUnlisted === true,
  };
}

function computeFor(request: RebalanceRequest, network: Network): RebalanceComputation {
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

/** The rows' balances after the simulated transaction, and the plan's prices of them. */
function simulatedAfter(
  c: RebalanceComputation,
  snapshot: RebalanceSnapshot,
  simulation: Extract<SimulationResult, { reverted: false }>,
): { balances: bigint[]; prices: bigint[] } {
  return {
    balances: c.rows.map(
      (r) =>
        r.balance +
        simulation.balanceChanges
          .filter((ch) => sameAddress(ch.token, r.token.address))
          .reduce((sum, ch) => sum + ch.amount, 0n),
    ),
    prices: c.rows.map(
      (r) =>
        snapshot.holdings.find((h) => sameAddress(h.token.address, r.token.address))?.price ?? 0n,
    ),
  };
}

/** A run that would not end within the band: refused before signing, the table in details.rebalance. */
function outsideBand(
  request: RebalanceRequest,
  network: Network,
  reason: 'legs' | 'minimum-trade' | 'simulation',
  message: string,
  simulation?: SimulationResult,
  extra: Record<string, unknown> = {},
): AppError {
  return new AppError(ErrorCode.REBALANCE_OUTSIDE_BAND, `${message}; nothing is signed`, {
    details: {
      reason,
      ...extra,
      // the face words each remedy (the core names no flag)
      remedy: reason === 'legs' ? [] : reason === 'minimum-trade' ? ['min-trade'] : ['band'],
      rebalance: rebalanceView(request, network, simulation),
    },
  });
}

/** "USDC 26.10 % (target 30.00 %)" for every row outside the band. */
function offRows(
  c: RebalanceComputation,
  shown: readonly bigint[],
  values: readonly bigint[],
  base: bigint,
  band: bigint,
): string {
  return c.rows
    .map((r, i) =>
      withinBand([values[i] as bigint], [r.target], base, band)
        ? ''
        : `${r.token.symbol} ${formatShare(shown[i] as bigint)} % (target ${formatShare(r.target)} %)`,
    )
    .filter((text) => text !== '')
    .join(', ');
}

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
    const { balances, prices } = simulatedAfter(c, snapshot, simulation);
    after = sharesAt(c.rows, balances, prices).map(formatShare);
    afterFrom = 'simulation';
  }
  const notes: string[] = [];
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
        : `target shares are of what the named tokens are worth together; ${c.kept.length === 0 ? 'no other token is held' : `${c.kept.map((t) => t.symbol).join(', ')} kept as they are`}`,
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
    notes,
    pricedAt: new Date(snapshot.pricedAt).toISOString(),
  };
}

/**
 * The kind's resolve: its rules, then (with the snapshot) the legs. Nothing to do is
 * ALREADY_BALANCED, with the table in details.rebalance; a face shows it and exits 0.
 */
export function resolveRebalance(request: RebalanceRequest, network: Network): ResolvedPair[] {
  const s = settings(request.rebalance, network);
  if (request.snapshot === undefined) return [];
  const c = computeFor(request, network);
  if (c.balanced) {
    const view = rebalanceView(request, network, 'unchanged');
    throw new AppError(
      ErrorCode.ALREADY_BALANCED,
      `already balanced: every token is within ${view.band} percentage points of its target; nothing to sign`,
      { details: { rebalance: view } },
    );
  }
  if (c.legs.length > MAX_REBALANCE_LEGS)
    throw outsideBand(
      request,
      network,
      'legs',
      `this rebalance needs ${c.legs.length} swaps; one transaction holds at most ${MAX_REBALANCE_LEGS}, so one run cannot reach the band`,
      undefined,
      { legs: c.legs.length, maxLegs: MAX_REBALANCE_LEGS },
    );
  if (!c.expectedWithinBand) {
    throw outsideBand(
      request,
      network,
      'minimum-trade',
      `the swaps below the minimum trade of ${usd(s.minTrade)} USD are left out, and without them ${offRows(c, c.expected, c.expectedValues, c.baseValue, s.band)} would stay outside the band of ${formatShare(s.band)} points`,
    );
  }
  return c.legs.map((l) => ({ from: l.from, to: l.to, amount: l.amount }));
}

/**
 * The simulation's check of a rebalance: the allocation after exactly what would be signed (the
 * simulated balance changes, valued at the plan's prices) must be within the band of every
 * target; else REBALANCE_OUTSIDE_BAND before signing (price impact and fees moved it).
 */
export function checkRebalanceAfter(
  request: RebalanceRequest,
  network: Network,
  simulation: SimulationResult,
): void {
  if (simulation.reverted || request.snapshot === undefined) return;
  const s = settings(request.rebalance, network);
  const c = computeFor(request, network);
  if (c.balanced) return;
  const { balances, prices } = simulatedAfter(c, request.snapshot, simulation);
  const values = c.rows.map((r, i) =>
    valueOf(balances[i] as bigint, prices[i] as bigint, r.token.decimals),
  );
  const base = values.reduce((sum, v) => sum + v, 0n);
  const targets = c.rows.map((r) => r.target);
  if (base > 0n && withinBand(values, targets, base, s.band)) return;
  throw outsideBand(
    request,
    network,
    'simulation',
    `the simulated allocation after this rebalance is outside the band of ${formatShare(s.band)} points: ${offRows(c, sharesAt(c.rows, balances, prices), values, base, s.band)} (price impact and fees)`,
    simulation,
  );
}
