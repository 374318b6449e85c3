/**
 * Checks before anything is signed. Each refuses with a stable code (shared/errors.ts) and, where
 * a value differs, `details.field` naming it. Pure: balances, gas, simulation results and the
 * time are passed in.
 *
 * The minimum-received rule, precisely. The user confirmed S = the shown minimum
 * (guaranteedMinimum in shared/fees.ts, net of the service fee). The router enforces the
 * calldata's min_received c, and it is not documented whether it checks c before or after it
 * takes its fee. In the worst order (check, then fee) what arrives is at least
 * c − ceil(c × fee / 10000). So a swap call is accepted only when
 *
 *     c − ceil(c × fee / 10000) ≥ S
 *
 * with `fee` the larger of the executing route's fee and the fee the calldata's own swap list
 * implies (15 bps unless every swap goes straight from the input to the output token): under
 * either order, what the router lets through is at least what the user was shown. For honest
 * calldata of the confirmed quote (c = calldataMinimumReceived) this holds by construction.
 */
import { formatAmount } from '../../../shared/amount.js';
import type { Erc20Transfer } from '../../../shared/erc20.js';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { feltHex } from '../../../shared/felt.js';
import {
  applyServiceFee,
  DIRECT_FEE_BPS,
  formatBpsAsPercent,
  ROUTED_FEE_BPS,
} from '../../../shared/fees.js';
import { type CalldataTail, decodeSwapCalldata } from '../../../shared/swap-calldata.js';
import { addressToBigInt, findToken, sameAddress, type Token } from '../../../shared/tokens.js';
import {
  impactLevel,
  PRICE_IMPACT_HIGH_BPS,
  PRICE_IMPACT_VERY_HIGH_BPS,
} from '../quote-summary.js';
import type { ChainCall } from '../chain/calls.js';
import type { BalanceChange } from '../chain/transfers.js';
import { decodeAddressAmount } from './calls.js';
import type { PlannedSwap, ActionPlan, SwapQuote } from './plan.js';
import { QUOTE_MAX_AGE_MS } from './rules.js';

/** A quote older than this is re-fetched before signing (the rule: rules.ts). */
export { QUOTE_MAX_AGE_MS };

/** A paymaster build this close to its deadline (seconds) is built again before signing. */
export const EXPIRY_MARGIN_S = 60;
/** How long before a quote turns stale a face stops taking a confirmation of it (the key press must reach executeAction first). */
export const CONFIRM_MARGIN_MS = 2_000;
/** Price impact above this warns (the quote's own 'high' warning). */
const IMPACT_WARN_BPS = PRICE_IMPACT_HIGH_BPS;
/** Price impact above this ('very-high' on a quote) is refused unless the user allows it (--allow-high-impact). */
const IMPACT_REFUSE_BPS = PRICE_IMPACT_VERY_HIGH_BPS;

const show = (amount: bigint, token: Token): string =>
  `${formatAmount(amount, token.decimals)} ${token.symbol}`;
const swapLabel = (i: number, q: SwapQuote): string =>
  `swap ${i + 1} (${show(q.amountIn, q.from)} → ${q.to.symbol})`;

function refuse(code: ErrorCode, message: string, details: Record<string, unknown>): never {
  throw new AppError(code, message, { details });
}

/** The worst case that arrives when the router enforces `minReceived` and then takes `feeBps`. */
export function worstCaseArrival(minReceived: bigint, feeBps: number): bigint {
  return applyServiceFee(minReceived, feeBps).net;
}

/** The service fee the calldata's swap list implies: direct only when every swap is input → output. */
function calldataFeeBps(
  swaps: ReadonlyArray<{ tokenIn: bigint; tokenOut: bigint }>,
  tail: CalldataTail,
): number {
  const direct = swaps.every((s) => s.tokenIn === tail.tokenIn && s.tokenOut === tail.tokenOut);
  return direct ? DIRECT_FEE_BPS : ROUTED_FEE_BPS;
}

function checkApprove(
  call: ChainCall | undefined,
  swap: PlannedSwap,
  i: number,
  at: number,
  router: string,
): void {
  const q = swap.confirmed;
  const fail = (field: string, why: string): never =>
    refuse(ErrorCode.APPROVAL_MISMATCH, `${swapLabel(i, q)}: ${why}; refusing to sign`, {
      field,
      swap: i + 1,
      call: at + 1,
    });
  if (call === undefined || call.entrypoint !== 'approve')
    return fail('missing', `call ${at + 1} must be the approve of ${q.from.symbol} for this swap`);
  if (!sameAddress(call.contractAddress, q.from.address))
    return fail('token', `the approve is on ${call.contractAddress}, not on ${q.from.symbol}`);
  const args = decodeAddressAmount(call.calldata);
  if (args === undefined) return fail('calldata', 'the approve is not (spender, u256 amount)');
  if (args.address !== addressToBigInt(router))
    return fail(
      'spender',
      `the approve names spender 0x${args.address.toString(16)}, not the router ${router}`,
    );
  if (args.amount !== q.amountIn) {
    const more = args.amount > q.amountIn;
    return fail(
      'amount',
      `the approve is for ${show(args.amount, q.from)}, ${more ? 'more' : 'less'} than the ${show(q.amountIn, q.from)} the swap spends`,
    );
  }
}

function checkSwap(
  call: ChainCall | undefined,
  swap: PlannedSwap,
  i: number,
  at: number,
  plan: ActionPlan,
): void {
  const q = swap.confirmed;
  const fail = (field: string, why: string, extra: Record<string, unknown> = {}): never =>
    refuse(ErrorCode.CALLDATA_MISMATCH, `${swapLabel(i, q)}: ${why}; refusing to sign`, {
      field,
      swap: i + 1,
      call: at + 1,
      ...extra,
    });
  if (call === undefined || call.entrypoint !== 'swap')
    return fail('entrypoint', `call ${at + 1} must be the router's swap`);
  if (!sameAddress(call.contractAddress, plan.router))
    return fail('router', `the swap calls ${call.contractAddress}, not the router ${plan.router}`);
  let decoded: ReturnType<typeof decodeSwapCalldata>;
  try {
    decoded = decodeSwapCalldata(call.calldata);
  } catch (error) {
    return fail(
      'layout',
      `the calldata is not in the router layout (${error instanceof Error ? error.message : 'undecodable'})`,
    );
  }
  const { tail, swaps } = decoded;
  if (swaps.length === 0) return fail('layout', 'the calldata holds no swap');
  if (tail.tokenIn !== addressToBigInt(q.from.address))
    return fail(
      'token_in',
      `the calldata swaps 0x${tail.tokenIn.toString(16)}, not ${q.from.symbol}`,
    );
  if (tail.tokenOut !== addressToBigInt(q.to.address))
    return fail(
      'token_out',
      `the calldata swaps to 0x${tail.tokenOut.toString(16)}, not ${q.to.symbol}`,
    );
  if (tail.amountIn !== q.amountIn)
    return fail(
      'amount_in',
      `the calldata spends ${show(tail.amountIn, q.from)}, not the confirmed ${show(q.amountIn, q.from)}`,
    );
  if (tail.destination !== addressToBigInt(plan.account)) {
    return fail(
      'destination',
      `the calldata sends the output to 0x${tail.destination.toString(16)}, not to your account ${plan.account}`,
    );
  }
  const feeBps = Math.max(swap.executing.feeBps, calldataFeeBps(swaps, tail));
  const arrives = worstCaseArrival(tail.minReceived, feeBps);
  if (arrives < q.minimumReceived) {
    return fail(
      'min_received',
      `the calldata guarantees ${show(arrives, q.to)} after a ${formatBpsAsPercent(feeBps)} fee (min_received ${tail.minReceived}), less than the confirmed minimum ${show(q.minimumReceived, q.to)}`,
      {
        minReceived: tail.minReceived.toString(),
        guaranteed: arrives.toString(),
        confirmedMinimum: q.minimumReceived.toString(),
        feeBps,
      },
    );
  }
}

function checkTransfer(
  call: ChainCall | undefined,
  send: ActionPlan['sends'][number],
  n: number,
  at: number,
): void {
  const fail = (field: string, why: string): never =>
    refuse(
      ErrorCode.CALLS_MISMATCH,
      `transfer ${n + 1} (${show(send.amount, send.token)} to ${send.to}): ${why}; refusing to sign`,
      {
        field,
        send: n + 1,
        call: at + 1,
      },
    );
  if (call === undefined || call.entrypoint !== 'transfer')
    return fail('entrypoint', `call ${at + 1} must be this transfer`);
  if (!sameAddress(call.contractAddress, send.token.address))
    return fail('token', `the transfer is on ${call.contractAddress}, not on ${send.token.symbol}`);
  const args = decodeAddressAmount(call.calldata);
  if (args === undefined) return fail('calldata', 'the transfer is not (recipient, u256 amount)');
  if (args.address !== addressToBigInt(send.to))
    return fail('recipient', `the transfer pays 0x${args.address.toString(16)}`);
  if (args.amount !== send.amount)
    return fail('amount', `the transfer is for ${show(args.amount, send.token)}`);
}

/**
 * The calls about to be signed, read back felt by felt against what the user confirmed (not
 * against what the builder meant): per swap an approve of exactly its amount to the router on
 * its input token, directly followed by the router's swap whose calldata tail names the
 * confirmed tokens, amount, the user's own account and an acceptable min_received; then the
 * batch's transfers; nothing else.
 */
export function verifyCalls(plan: ActionPlan): void {
  let at = 0;
  plan.swaps.forEach((swap, i) => {
    checkApprove(plan.calls[at], swap, i, at, plan.router);
    checkSwap(plan.calls[at + 1], swap, i, at + 1, plan);
    at += 2;
  });
  plan.sends.forEach((send, n) => {
    checkTransfer(plan.calls[at], send, n, at);
    at += 1;
  });
  if (plan.calls.length !== at) {
    refuse(
      ErrorCode.CALLS_MISMATCH,
      `the plan has ${plan.calls.length} calls where ${at} were confirmed; refusing to sign`,
      {
        field: 'count',
        expected: at,
        actual: plan.calls.length,
      },
    );
  }
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
 * `allowHighImpact`. An unknown impact (missing or junk prices) warns: the real API does not
 * always price every token, and refusing would block those swaps outright. Returns the warnings.
 */
export function checkPriceImpact(plan: ActionPlan, allowHighImpact: boolean): string[] {
  const warnings: string[] = [];
  plan.swaps.forEach((swap, i) => {
    const q = swap.executing;
    const level = impactLevel(q.priceImpactBps);
    const percent = q.priceImpactBps === undefined ? '' : formatBpsAsPercent(q.priceImpactBps);
    if (level === 'high' && !allowHighImpact) {
      refuse(
        ErrorCode.PRICE_IMPACT_TOO_HIGH,
        `${swapLabel(i, q)}: price impact ${percent} is above ${formatBpsAsPercent(IMPACT_REFUSE_BPS)}; pass --allow-high-impact to accept it`,
        { swap: i + 1, bps: q.priceImpactBps, percent, limitBps: IMPACT_REFUSE_BPS },
      );
    }
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
  { mode: 'sponsored' } | { mode: 'default'; token: Token; maxFee: bigint; estimatedFee?: bigint };

export interface SpendLine {
  token: Token;
  /** swapped away and sent */
  amount: bigint;
  /** the max gas fee, when this token pays it */
  gas: bigint;
  total: bigint;
}

/** What leaves the account per token, in order of first appearance; the gas token is included even when nothing else spends it. */
export function spendByToken(plan: ActionPlan, gas: GasQuote): SpendLine[] {
  const lines: SpendLine[] = [];
  const line = (token: Token): SpendLine => {
    let found = lines.find((l) => sameAddress(l.token.address, token.address));
    if (found === undefined) {
      found = { token, amount: 0n, gas: 0n, total: 0n };
      lines.push(found);
    }
    return found;
  };
  for (const s of plan.swaps) line(s.confirmed.from).amount += s.confirmed.amountIn;
  for (const s of plan.sends) line(s.token).amount += s.amount;
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
  if (simulation.reverted) {
    refuse(
      ErrorCode.SIMULATION_REVERTED,
      `the simulated transaction reverts: ${simulation.reason.slice(0, 300)}; nothing was signed`,
      {
        reason: simulation.reason.slice(0, 1000),
      },
    );
  }
  const flow = (token: string, direction: 'in' | 'out'): bigint =>
    simulation.transfers
      .filter((t) => sameAddress(t.token, token) && !sameAddress(t.from, t.to))
      .filter((t) => sameAddress(direction === 'in' ? t.to : t.from, plan.account))
      .reduce((sum, t) => sum + t.amount, 0n);
  const outputs: Token[] = [];
  for (const s of plan.swaps)
    if (!outputs.some((t) => sameAddress(t.address, s.confirmed.to.address)))
      outputs.push(s.confirmed.to);
  for (const token of outputs) {
    const minimum = plan.swaps
      .filter((s) => sameAddress(s.confirmed.to.address, token.address))
      .reduce((sum, s) => sum + s.confirmed.minimumReceived, 0n);
    const received = flow(token.address, 'in');
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
  plan.sends.forEach((send, n) => {
    const paid = simulation.transfers
      .filter(
        (t) =>
          sameAddress(t.token, send.token.address) &&
          sameAddress(t.from, plan.account) &&
          sameAddress(t.to, send.to),
      )
      .reduce((sum, t) => sum + t.amount, 0n);
    if (paid < send.amount) {
      refuse(
        ErrorCode.TAMPERED_TRANSACTION,
        `the simulation does not pay ${show(send.amount, send.token)} to ${send.to} (it pays ${show(paid, send.token)}); nothing was signed`,
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
