/**
 * Checks before anything is signed. Each refuses with a stable code (shared/errors.ts) and, where
 * a value differs, `details.field` naming it. Pure: balances, gas, simulation results and the
 * time are passed in.

 * The swap calls' own read-back (the minimum-received rule) is the swap leg's (legs/swap.ts);
 * the balance, spend and simulation checks read the plan's effects (legs/), the same for every leg.
 */
import { formatAmount } from '../../../shared/amount.js';
import type { Erc20Transfer } from '../../../shared/erc20.js';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { feltHex } from '../../../shared/felt.js';
import { formatBpsAsPercent } from '../../../shared/fees.js';
import { addressToBigInt, findToken, sameAddress, type Token } from '../../../shared/tokens.js';
import {
  impactLevel,
  PRICE_IMPACT_HIGH_BPS,
  PRICE_IMPACT_VERY_HIGH_BPS,
} from '../quote-summary.js';
import type { BalanceChange } from '../chain/transfers.js';
import { requireAcknowledgments } from './acknowledgments.js';
import { effectsOf, legAcknowledgments, verifyLegCalls } from './legs/index.js';
import { swapLabel } from './legs/swap.js';
import { exact } from './legs/words.js';
import type { ActionPlan, SwapQuote } from './plan.js';

export { worstCaseArrival } from './legs/swap.js';
import { QUOTE_MAX_AGE_MS } from './rules.js';

/** A quote older than this is re-fetched before signing (the rule: rules.ts). */
export { QUOTE_MAX_AGE_MS };

/** A paymaster build this close to its deadline (seconds) is built again before signing. */
export const EXPIRY_MARGIN_S = 60;
/** How long before a quote turns stale a face stops taking a confirmation of it (the key press must reach executeAction first). */
export const CONFIRM_MARGIN_MS = 2_000;
/** Price impact above this warns (the quote's own 'high' warning). */
const IMPACT_WARN_BPS = PRICE_IMPACT_HIGH_BPS;
/** Price impact above this ('very-high' on a quote) needs the person's acknowledgment ('high-impact'). */
const IMPACT_REFUSE_BPS = PRICE_IMPACT_VERY_HIGH_BPS;

const show = exact;

function refuse(code: ErrorCode, message: string, details: Record<string, unknown>): never {
  throw new AppError(code, message, { details });
}

/**
 * The calls about to be signed, read back leg by leg against what the user confirmed (not
 * against what the builder meant); nothing else (legs/index.ts verifyLegCalls).
 */
export function verifyCalls(plan: ActionPlan): void {
  verifyLegCalls(plan.legs, plan.calls, plan);
}

/** Indexes of the swaps whose executing quote is older than QUOTE_MAX_AGE_MS (or from the future: a clock that jumped). */
export function staleSwaps(plan: ActionPlan, now: number, maxAgeMs = QUOTE_MAX_AGE_MS): number[] {
  return plan.swaps.flatMap((s, i) => {
    const age = now - s.executing.quotedAt;
    return age > maxAgeMs || age < 0 ? [i] : [];
  });
}

const figures = (q: SwapQuote): Record<string, unknown> => ({
  expectedOutput: q.summary.expectedOutput,
  minimumReceived: q.summary.minimumReceived,
  priceImpact: q.summary.priceImpact,
  rate: q.summary.rate,
});

/**
 * A re-fetched quote for a confirmed swap: accepted when it guarantees at least the confirmed
 * minimum (it then executes, and the confirmed minimum stays the floor every later check uses);
 * otherwise QUOTE_CHANGED with both sets of figures, so the user can confirm the new ones.
 */
export function checkRequote(index: number, confirmed: SwapQuote, fresh: SwapQuote): void {
  if (
    !sameAddress(fresh.from.address, confirmed.from.address) ||
    !sameAddress(fresh.to.address, confirmed.to.address) ||
    fresh.amountIn !== confirmed.amountIn
  ) {
    throw new Error('re-quote of a different swap');
  }
  if (fresh.minimumReceived < confirmed.minimumReceived) {
    throw new AppError(
      ErrorCode.QUOTE_CHANGED,
      `${swapLabel(index, confirmed)}: the price moved; the minimum received is now ${show(fresh.minimumReceived, fresh.to)}, below the confirmed ${show(confirmed.minimumReceived, confirmed.to)}. Review the new quote and confirm again`,
      { details: { swap: index + 1, confirmed: figures(confirmed), new: figures(fresh) } },
    );
  }
}

/**
 * A batch's calldata that guarantees less than the routes fetched just before it (the aggregator
 * client's CALLDATA_MISMATCH on min_received, with `pair` and `guaranteed`): the batch endpoint
 * routes again, so this is the price moving between the two requests — QUOTE_CHANGED with both
 * figures, as for a single swap, so the user quotes again rather than suspecting the aggregator.
 * Nothing is signed either way; any other mismatch is returned unchanged.
 */
export function priceMovedInBatch(error: unknown, quotes: readonly SwapQuote[]): unknown {
  if (
    !(error instanceof AppError) ||
    error.code !== ErrorCode.CALLDATA_MISMATCH ||
    error.details?.field !== 'min_received'
  )
    return error;
  const { pair, guaranteed } = error.details;
  const quoted = typeof pair === 'number' ? quotes[pair - 1] : undefined;
  if (quoted === undefined || typeof guaranteed !== 'string' || !/^[0-9]{1,78}$/.test(guaranteed))
    return error;
  const now = BigInt(guaranteed);
  return new AppError(
    ErrorCode.QUOTE_CHANGED,
    `${swapLabel((pair as number) - 1, quoted)}: the price moved while the transaction was being prepared; it now guarantees ${show(now, quoted.to)}, below the quoted ${show(quoted.minimumReceived, quoted.to)}. Quote again`,
    {
      details: {
        swap: pair,
        confirmed: figures(quoted),
        new: {
          minimumReceived: {
            amount: formatAmount(now, quoted.to.decimals),
            baseUnits: guaranteed,
            symbol: quoted.to.symbol,
          },
        },
      },
    },
  );
}

/** The one price-impact vocabulary (quote-summary.ts). */
export { impactLevel, type ImpactLevel } from '../quote-summary.js';

/**
 * Price impact of each executing swap: above 5 % a warning, above 15 % refused unless
 * `allowHighImpact` (the plan's 'high-impact' acknowledgment, acknowledgments.ts). An unknown
 * impact (missing or junk prices) warns: the real API does not always price every token, and
 * refusing would block those swaps outright. Returns the warnings.
 */
export function checkPriceImpact(plan: ActionPlan, allowHighImpact: boolean): string[] {
  requireAcknowledgments(
    legAcknowledgments(plan.legs, plan).filter((a) => a.id === 'high-impact'),
    allowHighImpact ? ['high-impact'] : [],
  );
  const warnings: string[] = [];
  plan.swaps.forEach((swap, i) => {
    const q = swap.executing;
    const level = impactLevel(q.priceImpactBps);
    const percent = q.priceImpactBps === undefined ? '' : formatBpsAsPercent(q.priceImpactBps);
    if (level === 'high' || level === 'warn')
      warnings.push(
        `${swapLabel(i, q)}: price impact ${percent} is above ${formatBpsAsPercent(level === 'high' ? IMPACT_REFUSE_BPS : IMPACT_WARN_BPS)}`,
      );
    if (level === 'unknown')
      warnings.push(
        `${swapLabel(i, q)}: price impact unknown (the aggregator sent no usable prices)`,
      );
  });
  return warnings;
}

/** Who pays for gas: the operator (sponsored) or the user, in `token`, at most `maxFee` (the paymaster's suggested max). */
export type GasQuote =
  | { mode: 'sponsored' }
  | { mode: 'default'; token: Token; maxFee: bigint; estimatedFee?: bigint };

export interface SpendLine {
  token: Token;
  /** swapped away and sent */
  amount: bigint;
  /**
   * what `amount` is expected to be when part of it is a bound (repay all, close: the debt as
   * read, not the approve's margin); undefined when `amount` is exact
   */
  expected: bigint | undefined;
  /** with `expected`: the chain time (seconds) it is as of (the earliest read among its legs) */
  expectedAsOf: number | undefined;
  /** the max gas fee, when this token pays it */
  gas: bigint;
  total: bigint;
}

/** What leaves the account per token (the plan's `out` effects), in order of first appearance; the gas token is included even when nothing else spends it. */
export function spendByToken(plan: ActionPlan, gas: GasQuote): SpendLine[] {
  const lines: SpendLine[] = [];
  const line = (token: Token): SpendLine => {
    let found = lines.find((l) => sameAddress(l.token.address, token.address));
    if (found === undefined) {
      found = {
        token,
        amount: 0n,
        expected: undefined,
        expectedAsOf: undefined,
        gas: 0n,
        total: 0n,
      };
      lines.push(found);
    }
    return found;
  };
  const outs = effectsOf(plan.legs, plan).out;
  for (const out of outs) line(out.token).amount += out.amount;
  // a bound's line: what it is expected to take, the exact outflows of the token beside it
  for (const l of lines)
    if (outs.some((o) => o.all === true && sameAddress(o.token.address, l.token.address))) {
      const mine = outs.filter((o) => sameAddress(o.token.address, l.token.address));
      l.expected = mine.reduce(
        (sum, o) => sum + (o.all === true ? (o.expected ?? o.amount) : o.amount),
        0n,
      );
      const times = mine.flatMap((o) => (o.expectedAsOf === undefined ? [] : [o.expectedAsOf]));
      l.expectedAsOf = times.length === 0 ? undefined : Math.min(...times);
    }
  if (gas.mode === 'default') line(gas.token).gas += gas.maxFee;
  for (const l of lines) l.total = l.amount + l.gas;
  return lines;
}

export interface Balance {
  token: string;
  amount: bigint;
}

/**
 * Every token that leaves the account (amounts plus the max gas fee when it is the gas token)
 * against the balances read just before: short → INSUFFICIENT_BALANCE naming the token. A
 * token with no balance read counts as zero.
 */
export function checkBalances(
  plan: ActionPlan,
  gas: GasQuote,
  balances: readonly Balance[],
): Array<SpendLine & { balance: bigint }> {
  return spendByToken(plan, gas).map((l) => {
    const balance = balances.find((b) => sameAddress(b.token, l.token.address))?.amount ?? 0n;
    if (balance < l.total) {
      const withGas =
        l.gas > 0n ? ` (${show(l.amount, l.token)} plus up to ${show(l.gas, l.token)} of gas)` : '';
      refuse(
        ErrorCode.INSUFFICIENT_BALANCE,
        `not enough ${l.token.symbol}: this needs ${show(l.total, l.token)}${withGas}, the account holds ${show(balance, l.token)}`,
        {
          token: l.token.symbol,
          address: l.token.address,
          needed: l.total.toString(),
          amount: l.amount.toString(),
          gas: l.gas.toString(),
          available: balance.toString(),
        },
      );
    }
    return { ...l, balance };
  });
}

/**
 * A simulation as the checks and the plan document use it: its revert, or the registry-token
 * transfers to and from the account (the fee transfer included) and the net balance changes
 * (the fee excluded), as the chain library's simulation reports them.
 */
export type SimulationResult =
  | { reverted: true; reason: string }
  | {
      reverted: false;
      transfers: readonly Erc20Transfer[];
      balanceChanges: readonly BalanceChange[];
    };

/**
 * A simulated revert (ours, or the paymaster's at build): SIMULATION_REVERTED with its reason,
 * nothing signed.
 */
export function refuseReverted(reason: string): never {
  return refuse(
    ErrorCode.SIMULATION_REVERTED,
    `the simulated transaction reverts: ${reason.slice(0, 300)}; nothing was signed`,
    { reason: reason.slice(0, 1000) },
  );
}

/**
 * The simulated multicall against the plan: a revert is SIMULATION_REVERTED with its reason;
 * for each output token, what the account receives from others must be at least the sum of the
 * confirmed minimums of the swaps into it (SIMULATION_BELOW_MINIMUM); each planned transfer must
 * pay its recipient its whole amount from the account (TAMPERED_TRANSACTION); and no token may
 * leave the account beyond the plan's spend plus the max gas fee (SIMULATION_OVERSPEND).
 */
export function checkSimulation(
  plan: ActionPlan,
  gas: GasQuote,
  simulation: SimulationResult,
): void {
  if (simulation.reverted) refuseReverted(simulation.reason);
  const effects = effectsOf(plan.legs, plan);
  const flowTo = (token: string, to: string): bigint =>
    simulation.transfers
      .filter((t) => sameAddress(t.token, token) && !sameAddress(t.from, t.to))
      .filter((t) => sameAddress(t.to, to))
      .reduce((sum, t) => sum + t.amount, 0n);
  const flow = (token: string, direction: 'in' | 'out'): bigint =>
    direction === 'in'
      ? flowTo(token, plan.account)
      : simulation.transfers
          .filter((t) => sameAddress(t.token, token) && !sameAddress(t.from, t.to))
          .filter((t) => sameAddress(t.from, plan.account))
          .reduce((sum, t) => sum + t.amount, 0n);
  // per token and recipient: at least the sum of the minimums (exact amounts included) arrives
  const arrivals: Array<{ token: Token; to: string; minimum: bigint }> = [];
  for (const e of effects.in) {
    const to = e.to ?? plan.account;
    const found = arrivals.find(
      (a) => sameAddress(a.token.address, e.token.address) && sameAddress(a.to, to),
    );
    if (found === undefined) arrivals.push({ token: e.token, to, minimum: e.amount });
    else found.minimum += e.amount;
  }
  for (const { token, to, minimum } of arrivals) {
    const received = sameAddress(to, plan.account)
      ? flow(token.address, 'in')
      : flowTo(token.address, to);
    if (received < minimum) {
      refuse(
        ErrorCode.SIMULATION_BELOW_MINIMUM,
        `the simulation delivers ${show(received, token)}, below the confirmed minimum ${show(minimum, token)}; nothing was signed`,
        {
          token: token.symbol,
          received: received.toString(),
          minimum: minimum.toString(),
        },
      );
    }
  }
  // each third party named by an outflow (a transfer's recipient) is paid its whole amount
  effects.out
    .filter((e) => e.to !== undefined)
    .forEach((send, n) => {
      const to = send.to as string;
      const paid = simulation.transfers
        .filter(
          (t) =>
            sameAddress(t.token, send.token.address) &&
            sameAddress(t.from, plan.account) &&
            sameAddress(t.to, to),
        )
        .reduce((sum, t) => sum + t.amount, 0n);
      if (paid < send.amount) {
        refuse(
          ErrorCode.TAMPERED_TRANSACTION,
          `the simulation does not pay ${show(send.amount, send.token)} to ${to} (it pays ${show(paid, send.token)}); nothing was signed`,
          {
            send: n + 1,
            expected: send.amount.toString(),
            simulated: paid.toString(),
          },
        );
      }
    });
  const allowed = spendByToken(plan, gas);
  const spentTokens = new Set(
    simulation.transfers
      .filter((t) => sameAddress(t.from, plan.account))
      .map((t) => addressToBigInt(t.token)),
  );
  for (const value of spentTokens) {
    if (value === undefined) continue;
    const address = feltHex(value);
    const spent = flow(address, 'out');
    const limit = allowed.find((l) => sameAddress(l.token.address, address))?.total ?? 0n;
    if (spent > limit) {
      const token = findToken(plan.network, address);
      const amount = (v: bigint): string =>
        token ? show(v, token) : `${v} base units of ${address}`;
      refuse(
        ErrorCode.SIMULATION_OVERSPEND,
        `the simulation takes ${amount(spent)} from the account, more than the planned ${amount(limit)}; nothing was signed`,
        {
          token: token?.symbol ?? address,
          spent: spent.toString(),
          planned: limit.toString(),
        },
      );
    }
  }
}
