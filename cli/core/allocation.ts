/**
 * The allocation arithmetic of `portfolio` and `portfolio-rebalance` (docs/portfolio.md), pure
 * and exact: bigint everywhere, no float near an amount, a value or a share.
 *
 * - A share is a whole number of hundredths of a percent (SHARE_SCALE = 10 000 = 100.00 %). The
 *   shares of a set of values are rounded by largest remainder, so the shares shown add up to
 *   exactly 100.00 %.
 * - A target is "50 ETH, 30 USDC, 20 STRK": percentages with at most two decimals, adding up to
 *   exactly 100.
 * - A rebalance is a list of legs (sell token A for token B worth V), chosen by matching the
 *   largest surplus with the largest deficit until none is left: at most sellers + buyers − 1
 *   legs, all of them in one transaction (at most MAX_REBALANCE_LEGS, else the rebalance is
 *   refused: cli/core/actions/rebalance.ts). A leg never sells more than is held. The allocation
 *   the legs would leave at the plan's prices is computed too, so a run that could not end within
 *   its band (legs left out below the minimum trade) is known before anything is asked.
 */
import { AppError, ErrorCode } from '../../shared/errors.js';
import { type Network, resolveToken, sameAddress, type Token } from '../../shared/tokens.js';
import { type Field, fieldError } from './remedy.js';

/** 100.00 % in hundredths of a percent. */
export const SHARE_SCALE = 10_000n;
/** A price's scale: USD × 10^18 per whole token (shared/fees.ts parsePriceScaled). */
export const PRICE_SCALE = 10n ** 18n;
/** Values (USD) carry this scale too. */
export const VALUE_SCALE = PRICE_SCALE;
/** The swaps of one rebalance transaction (cli/core/actions/limits.ts). */
export { MAX_REBALANCE_LEGS } from './actions/limits.js';
/** Default band: 2 percentage points (in hundredths of a percent). */
export const DEFAULT_BAND = 200n;
/** Default minimum trade: 1 USD. */
export const DEFAULT_MIN_TRADE = VALUE_SCALE;

/**
 * Each value's share of their sum in hundredths of a percent, rounded by largest remainder:
 * the shares add up to exactly SHARE_SCALE (all zero when the sum is zero). Ties go to the
 * earlier value. Negative values are refused.
 */
export function shares(values: readonly bigint[]): bigint[] {
  if (values.some((v) => v < 0n)) throw new RangeError('a value is negative');
  const total = values.reduce((s, v) => s + v, 0n);
  if (total === 0n) return values.map(() => 0n);
  const floors = values.map((v) => (v * SHARE_SCALE) / total);
  let left = SHARE_SCALE - floors.reduce((s, v) => s + v, 0n);
  const order = values
    .map((v, i) => ({ i, remainder: (v * SHARE_SCALE) % total }))
    .sort((a, b) => (a.remainder === b.remainder ? a.i - b.i : a.remainder > b.remainder ? -1 : 1));
  const result = [...floors];
  for (const { i } of order) {
    if (left === 0n) break;
    result[i] = (result[i] as bigint) + 1n;
    left -= 1n;
  }
  return result;
}

/** 1234n → "12.34 %" style text without the sign: "12.34". */
export function formatShare(units: bigint): string {
  const sign = units < 0n ? '-' : '';
  const abs = units < 0n ? -units : units;
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/**
 * "2.5" (percentage points or percent, at most two decimals) → 250n. A refusal is about `field`
 * (cli/core/remedy.ts: each face names it); `what` begins the message when the field holds more
 * than one value (the ETH of a target allocation).
 */
export function parsePercent(text: string, field: Field, what?: string): bigint {
  const lead = what === undefined ? '' : `${what} `;
  const t = text.trim().replace(/\s*%$/, '');
  if (!/^[0-9]{1,3}(\.[0-9]{1,2})?$/.test(t))
    throw fieldError(
      field,
      `${lead}must be a percentage with at most two decimals, like 2 or 2.5 (got "${text.slice(0, 20)}")`,
    );
  const [whole = '0', fraction = ''] = t.split('.');
  const value = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  if (value > SHARE_SCALE)
    throw fieldError(field, `${lead}is at most 100 (got "${text.slice(0, 20)}")`);
  return value;
}

/** "10" or "10.50" USD → value units (VALUE_SCALE); a refusal is about `field`. */
export function parseUsd(text: string, field: Field): bigint {
  const t = text.trim();
  if (!/^[0-9]{1,12}(\.[0-9]{1,2})?$/.test(t))
    throw fieldError(field, `must be a USD amount like 10 or 10.50 (got "${text.slice(0, 20)}")`);
  const [whole = '0', fraction = ''] = t.split('.');
  return ((BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'))) * VALUE_SCALE) / 100n;
}

interface Target {
  token: Token;
  /** hundredths of a percent */
  share: bigint;
}

/** The most targets one rebalance takes: bounded work, and every registry token fits. */
const MAX_TARGETS = 16;

/**
 * "50 ETH, 30 USDC, 20 STRK" (a "%" after a number is allowed): registry tokens, each once,
 * percentages with at most two decimals adding up to exactly 100 — else a usage error saying
 * what they add up to.
 */
export function parseTargets(text: string, network: Network): Target[] {
  if (typeof text !== 'string' || text.trim() === '')
    throw fieldError('target', 'required, e.g. "50 ETH, 30 USDC, 20 STRK"');
  if (text.length > 1000) throw fieldError('target', 'too long');
  const items = text.split(',').map((s) => s.trim());
  if (items.length > MAX_TARGETS) throw fieldError('target', `at most ${MAX_TARGETS} tokens`);
  const targets: Target[] = [];
  for (const item of items) {
    const match = /^([0-9.]+)\s*%?\s+(\S+)$/.exec(item);
    if (match === null)
      throw fieldError('target', `"${item.slice(0, 40)}" is not "PERCENT TOKEN" (e.g. "50 ETH")`);
    const token = resolveToken(network, match[2] as string);
    if (targets.some((t) => sameAddress(t.token.address, token.address)))
      throw fieldError('target', `names ${token.symbol} twice`);
    targets.push({ token, share: parsePercent(match[1] as string, 'target', token.symbol) });
  }
  const sum = targets.reduce((s, t) => s + t.share, 0n);
  if (sum !== SHARE_SCALE) {
    throw fieldError(
      'target',
      `percentages must add up to 100; they add up to ${formatShare(sum).replace(/\.00$/, '')}`,
      ErrorCode.USAGE_ERROR,
      { sum: formatShare(sum) },
    );
  }
  return targets;
}

export interface HoldingInput {
  token: Token;
  balance: bigint;
  /** USD per whole token × 10^18; undefined when unpriced */
  price: bigint | undefined;
}

interface RebalanceInput {
  holdings: readonly HoldingInput[];
  targets: readonly Target[];
  /** the targets are shares of the whole (priced) wallet and every other token is sold */
  sellUnlisted: boolean;
  /** hundredths of a percent: no trade when every token is within this of its target */
  band: bigint;
  /** value units: a leg worth less is not made */
  minTrade: bigint;
}

interface RebalanceRow {
  token: Token;
  balance: bigint;
  value: bigint;
  /** hundredths of a percent of the base */
  now: bigint;
  target: bigint;
}

export interface RebalanceLeg {
  from: Token;
  to: Token;
  /** base units of `from` */
  amount: bigint;
  /** value units */
  value: bigint;
}

export interface RebalanceComputation {
  /** the tokens the shares are of, in target order then the unlisted ones sold */
  rows: RebalanceRow[];
  base: 'named-tokens' | 'whole-wallet';
  baseValue: bigint;
  balanced: boolean;
  /** every leg at or above the minimum trade, the largest first: one transaction */
  legs: RebalanceLeg[];
  /** legs below the minimum trade, not made */
  belowMinimum: RebalanceLeg[];
  /**
   * the shares (aligned with rows) the legs would leave at the plan's prices, and whether every
   * one is within the band: false only when legs left out below the minimum trade keep a token
   * outside it
   */
  expected: bigint[];
  /** the values behind `expected` (value units) */
  expectedValues: bigint[];
  expectedWithinBand: boolean;
  /** held tokens that are neither targets nor sold (kept), and unpriced tokens left alone */
  kept: Token[];
  unpriced: Token[];
}

const valueOf = (balance: bigint, price: bigint, decimals: number): bigint =>
  (balance * price) / 10n ** BigInt(decimals);

/**
 * The rebalance plan, exact. Tokens in play: every target (held or not) and, with sellUnlisted,
 * every other held priced token (target 0). Balanced when every token's share is within `band`
 * of its target (compared exactly, not on rounded shares); otherwise every token is moved to its
 * target (threshold rebalancing: once one drifts out of the band, all go back to target).
 * A target without a price is refused (its value is unknown).
 */
export function computeRebalance(input: RebalanceInput): RebalanceComputation {
  const find = (t: Token): HoldingInput | undefined =>
    input.holdings.find((h) => sameAddress(h.token.address, t.address));
  const unpriced: Token[] = [];
  const kept: Token[] = [];
  const inPlay: Array<{ token: Token; balance: bigint; price: bigint; target: bigint }> = [];
  for (const t of input.targets) {
    const h = find(t.token);
    if (h?.price === undefined) {
      throw new AppError(
        ErrorCode.NO_ROUTE_FOUND,
        `cannot rebalance: no price for ${t.token.symbol} (the aggregator has no route for it), so its value is unknown`,
        { details: { token: t.token.symbol } },
      );
    }
    inPlay.push({ token: t.token, balance: h.balance, price: h.price, target: t.share });
  }
  for (const h of input.holdings) {
    if (
      h.balance === 0n ||
      input.targets.some((t) => sameAddress(t.token.address, h.token.address))
    )
      continue;
    if (h.price === undefined) unpriced.push(h.token);
    else if (input.sellUnlisted)
      inPlay.push({ token: h.token, balance: h.balance, price: h.price, target: 0n });
    else kept.push(h.token);
  }
  const values = inPlay.map((p) => valueOf(p.balance, p.price, p.token.decimals));
  const baseValue = values.reduce((s, v) => s + v, 0n);
  const now = shares(values);
  const rows: RebalanceRow[] = inPlay.map((p, i) => ({
    token: p.token,
    balance: p.balance,
    value: values[i] as bigint,
    now: now[i] as bigint,
    target: p.target,
  }));
  const base: RebalanceComputation['base'] = input.sellUnlisted ? 'whole-wallet' : 'named-tokens';
  const empty = {
    rows,
    base,
    baseValue,
    legs: [] as RebalanceLeg[],
    belowMinimum: [] as RebalanceLeg[],
    expected: now,
    expectedValues: values,
    expectedWithinBand: true,
    kept,
    unpriced,
  };
  if (baseValue === 0n) {
    throw new AppError(
      ErrorCode.INSUFFICIENT_BALANCE,
      'nothing to rebalance: the tokens in play are worth nothing',
    );
  }
  const targets = inPlay.map((p) => p.target);
  if (withinBand(values, targets, baseValue, input.band)) return { ...empty, balanced: true };

  const sellers = inPlay
    .map((p, i) => ({
      p,
      left: (values[i] as bigint) - (p.target * baseValue) / SHARE_SCALE,
      units: p.balance,
    }))
    .filter((s) => s.left > 0n)
    .sort((a, b) => (a.left === b.left ? 0 : a.left > b.left ? -1 : 1));
  const buyers = inPlay
    .map((p, i) => ({ p, left: (p.target * baseValue) / SHARE_SCALE - (values[i] as bigint) }))
    .filter((b) => b.left > 0n)
    .sort((a, b) => (a.left === b.left ? 0 : a.left > b.left ? -1 : 1));
  const all: RebalanceLeg[] = [];
  let s = 0;
  let b = 0;
  while (s < sellers.length && b < buyers.length) {
    const seller = sellers[s] as (typeof sellers)[number];
    const buyer = buyers[b] as (typeof buyers)[number];
    const move = seller.left < buyer.left ? seller.left : buyer.left;
    seller.left -= move;
    buyer.left -= move;
    const sellsAll = seller.p.target === 0n && seller.left === 0n;
    let amount = sellsAll
      ? seller.units
      : (move * 10n ** BigInt(seller.p.token.decimals)) / seller.p.price;
    if (amount > seller.units) amount = seller.units;
    seller.units -= amount;
    if (amount > 0n) all.push({ from: seller.p.token, to: buyer.p.token, amount, value: move });
    if (seller.left === 0n) s += 1;
    if (buyer.left === 0n) b += 1;
  }
  const belowMinimum = all.filter((l) => l.value < input.minTrade);
  const legs = all
    .filter((l) => l.value >= input.minTrade)
    .sort((x, y) => (x.value === y.value ? 0 : x.value > y.value ? -1 : 1));
  // what the legs made leave, each moving its value at the plan's prices
  const after = [...values];
  const at = (t: Token): number => inPlay.findIndex((p) => sameAddress(p.token.address, t.address));
  for (const l of legs) {
    after[at(l.from)] = (after[at(l.from)] as bigint) - l.value;
    after[at(l.to)] = (after[at(l.to)] as bigint) + l.value;
  }
  return {
    ...empty,
    balanced: false,
    legs,
    belowMinimum,
    expected: shares(after.map((v) => (v < 0n ? 0n : v))),
    expectedValues: after,
    expectedWithinBand: withinBand(after, targets, baseValue, input.band),
  };
}

/** Every value within `band` of its target share of `base`: |value × 100 % − target × base| ≤ band × base, exactly. */
export function withinBand(
  values: readonly bigint[],
  targets: readonly bigint[],
  base: bigint,
  band: bigint,
): boolean {
  return values.every((v, i) => {
    const diff = v * SHARE_SCALE - (targets[i] ?? 0n) * base;
    return (diff < 0n ? -diff : diff) <= band * base;
  });
}

/** Shares of `balances` (aligned with `rows`) at the rows' prices: the allocation after. */
export function sharesAt(
  rows: ReadonlyArray<{ token: Token }>,
  balances: readonly bigint[],
  prices: readonly bigint[],
): bigint[] {
  return shares(rows.map((r, i) => valueOf(balances[i] ?? 0n, prices[i] ?? 0n, r.token.decimals)));
}

/** A token's price from a row (value / balance), for tests and the after-shares: held by the caller. */
export { valueOf };
