/**
 * The plan document: one JSON-safe shape (bigints as decimal strings, with human strings beside
 * them) that `--json` prints and the TUI's review screen renders. It says what leaves the
 * account, what arrives at least, at what price impact and gas, what the simulation showed, and
 * the exact calls in plain words: a person should be able to check it in five seconds.
 */
import { formatAmount } from '../../../shared/amount.js';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { formatBpsAsPercent } from '../../../shared/fees.js';
import { type Network, sameAddress, type Token } from '../../../shared/tokens.js';
import type { Money, QuoteSummary } from '../quote-summary.js';
import {
  describeLegCalls,
  effectsOf,
  legHeadline,
  legTerms,
  type LegView,
  legViews,
} from './legs/index.js';
import {
  type GasQuote,
  impactLevel,
  QUOTE_MAX_AGE_MS,
  type ImpactLevel,
  type SpendLine,
  spendByToken,
  type SimulationResult,
} from './checks.js';
import type { Acknowledgment, AcknowledgmentId } from './acknowledgments.js';
import type { PlanKind, ActionPlan } from './plan.js';
import type { RebalanceView } from './rebalance.js';
import { buildPlanLines, jsonLines, type PlanLineJson } from './plan-lines.js';

export interface TokenRef {
  symbol: string;
  address: string;
  decimals: number;
}

export interface PlanSwapView extends QuoteSummary {
  /** the minimum the user confirmed: every check holds the execution to it */
  confirmedMinimumReceived: Money;
  /** ISO time the executing quote was fetched */
  quotedAt: string;
}

interface PlanSendView {
  token: TokenRef;
  amount: Money;
  to: string;
}

export type GasView =
  | { mode: 'sponsored' }
  | { mode: 'default'; token: TokenRef; maxFee: Money; estimatedFee: Money | null }
  | { mode: 'unknown' };

export interface SpendView {
  token: TokenRef;
  /** what leaves: exact, or — when `expected` is set — a bound that at most leaves */
  amount: Money;
  /**
   * when `amount` is a bound (repay all, close: the debt plus a margin for the interest until it
   * runs), what is expected to leave: the debt as read; null when `amount` is exact
   */
  expected: Money | null;
  /** with `expected`: the time it is as of (ISO 8601, the chain's clock at the read); else null */
  expectedAsOf: string | null;
  gas: Money;
  total: Money;
  balance: Money | null;
}

type SimulationView =
  | { status: 'not-run' }
  | { status: 'ok'; balanceChanges: Array<{ token: TokenRef; change: Money }> }
  | { status: 'reverted'; reason: string };

export interface CallView {
  /** "approve 1 ETH to the router 0x00f6…df5a" */
  description: string;
  contractAddress: string;
  entrypoint: string;
  calldata: string[];
}

export interface PlanDocument {
  kind: PlanKind;
  /** the sandbox is mainnet-like but always says "sandbox" */
  network: Network | 'sandbox';
  sandbox: boolean;
  /** one line: what goes out and what comes back at least */
  headline: string;
  account: string;
  router: string;
  slippage: { bps: number; percent: string } | null;
  /** how the routes were fetched: one request, one batch request, or one per pair in parallel */
  quoteMode: 'single' | 'batch' | 'parallel' | 'none';
  /** ISO time the oldest quote turns 30 s old: signing after it re-quotes first; null without swaps */
  quoteValidUntil: string | null;
  /**
   * every leg, in call order: its type and its own exact fields (legs/types.ts LegView; each leg
   * type describes itself). `swaps` and `sends` stay beside it (docs/decisions.md)
   */
  legs: LegView[];
  swaps: PlanSwapView[];
  sends: PlanSendView[];
  priceImpact: { level: ImpactLevel; worst: { bps: number; percent: string } | null };
  gas: GasView;
  /** per token leaving the account: amount, max gas, total, and the balance read before */
  spend: SpendView[];
  /**
   * what the person consents to beyond what leaves, one fact a line, in the words every face
   * shows (docs/commands.md "Review before signing"): what arrives and why, a lending position as
   * it is left (its debt, its collateral, the health factor before → after)
   */
  terms: string[];
  simulation: SimulationView;
  calls: CallView[];
  /** the transaction also deploys the account (its first) */
  deploysAccount: boolean;
  /** ISO time until which this exact build may be confirmed (later, execution re-quotes and rebuilds first); null when not built */
  confirmBy: string | null;
  /** ISO time after which the paymaster refuses this build; null when not built */
  expiresAt: string | null;
  warnings: string[];
  /**
   * what the person must acknowledge explicitly before this plan is signed (acknowledgments.ts):
   * each face asks in its own idiom (a flag, the app's typed word, an elicitation)
   */
  acknowledgments: Array<{ id: AcknowledgmentId; reason: string }>;
  /** a rebalance: the table (token, now %, target %, after % from the simulation) and what the shares are of */
  rebalance?: RebalanceView;
  /**
   * the plan as lines, the one model every face renders (plan-lines.ts; docs/architecture.md
   * "One plan model"): what leaves, what arrives, bounds, recipients, fees, gas, terms and
   * acknowledgments, each with its exact amounts
   */
  lines: PlanLineJson[];
}

export interface DocumentExtras {
  gas?: GasQuote | undefined;
  balances?: ReadonlyArray<{ token: string; amount: bigint }> | undefined;
  /** the simulation's parsed transfers, or its revert */
  simulation?: SimulationResult | undefined;
  warnings?: readonly string[];
  quoteMode?: PlanDocument['quoteMode'];
  deploysAccount?: boolean;
  /** epoch ms */
  confirmBy?: number;
  /** epoch ms */
  buildExpiresAt?: number;
  rebalance?: RebalanceView;
  acknowledgments?: readonly Acknowledgment[];
}

const ref = (t: Token): TokenRef => ({
  symbol: t.symbol,
  address: t.address,
  decimals: t.decimals,
});
const money = (value: bigint, t: Token): Money => ({
  amount: formatAmount(value, t.decimals),
  baseUnits: value.toString(),
  symbol: t.symbol,
});

export { describeCall } from './legs/words.js';
export { spendWords } from './spend-words.js';

function headline(plan: ActionPlan): string {
  return (
    legHeadline(plan.legs, plan).join('; ') +
    (plan.calls.length > 1 ? ` (one transaction, ${plan.calls.length} calls)` : '')
  );
}

function gasView(gas: GasQuote | undefined): GasView {
  if (gas === undefined) return { mode: 'unknown' };
  if (gas.mode === 'sponsored') return { mode: 'sponsored' };
  return {
    mode: 'default',
    token: ref(gas.token),
    maxFee: money(gas.maxFee, gas.token),
    estimatedFee: gas.estimatedFee === undefined ? null : money(gas.estimatedFee, gas.token),
  };
}

function spendView(lines: SpendLine[], balances: DocumentExtras['balances']): SpendView[] {
  return lines.map((l) => {
    const balance = balances?.find((b) => sameAddress(b.token, l.token.address))?.amount;
    return {
      token: ref(l.token),
      amount: money(l.amount, l.token),
      expected: l.expected === undefined ? null : money(l.expected, l.token),
      expectedAsOf:
        l.expected === undefined || l.expectedAsOf === undefined
          ? null
          : new Date(l.expectedAsOf * 1000).toISOString(),
      gas: money(l.gas, l.token),
      total: money(l.total, l.token),
      balance: balance === undefined ? null : money(balance, l.token),
    };
  });
}

function simulationView(simulation: DocumentExtras['simulation']): SimulationView {
  if (simulation === undefined) return { status: 'not-run' };
  if (simulation.reverted) return { status: 'reverted', reason: simulation.reason.slice(0, 1000) };
  return {
    status: 'ok',
    balanceChanges: simulation.balanceChanges.map((c) => {
      const token = { symbol: c.symbol, address: c.token, decimals: c.decimals };
      return {
        token,
        change: {
          amount: formatAmount(c.amount, c.decimals),
          baseUnits: c.amount.toString(),
          symbol: c.symbol,
        },
      };
    }),
  };
}

export function planDocument(plan: ActionPlan, extras: DocumentExtras = {}): PlanDocument {
  const swaps: PlanSwapView[] = plan.swaps.map((s) => ({
    ...s.executing.summary,
    confirmedMinimumReceived: money(s.confirmed.minimumReceived, s.confirmed.to),
    quotedAt: new Date(s.executing.quotedAt).toISOString(),
  }));
  const order: ImpactLevel[] = ['ok', 'unknown', 'warn', 'high'];
  const worst = plan.swaps.reduce<number | undefined>((w, s) => {
    const bps = s.executing.priceImpactBps;
    return bps === undefined ? w : w === undefined || bps > w ? bps : w;
  }, undefined);
  const level = plan.swaps.reduce<ImpactLevel>((l, s) => {
    const next = impactLevel(s.executing.priceImpactBps);
    return order.indexOf(next) > order.indexOf(l) ? next : l;
  }, 'ok');
  const words = describeLegCalls(plan.legs, plan.calls, plan);
  const calls = plan.calls.map((call, i) => ({
    description: words[i] ?? '',
    contractAddress: call.contractAddress,
    entrypoint: call.entrypoint,
    calldata: [...call.calldata],
  }));
  const slippageBps = plan.swaps[0]?.confirmed.slippageBps;
  const oldest = plan.swaps.reduce<number | undefined>(
    (t, s) => (t === undefined || s.executing.quotedAt < t ? s.executing.quotedAt : t),
    undefined,
  );
  const document: Omit<PlanDocument, 'lines'> = {
    kind: plan.kind,
    network: plan.sandbox ? 'sandbox' : plan.network,
    sandbox: plan.sandbox,
    headline: headline(plan),
    account: plan.account,
    router: plan.router,
    slippage:
      slippageBps === undefined
        ? null
        : { bps: slippageBps, percent: formatBpsAsPercent(slippageBps) },
    quoteMode:
      plan.swaps.length === 0
        ? 'none'
        : (extras.quoteMode ?? (plan.swaps.length === 1 ? 'single' : 'parallel')),
    quoteValidUntil:
      oldest === undefined ? null : new Date(oldest + QUOTE_MAX_AGE_MS).toISOString(),
    legs: legViews(plan.legs, plan),
    swaps,
    sends: plan.sends.map((s) => ({
      token: ref(s.token),
      amount: money(s.amount, s.token),
      to: s.to,
    })),
    priceImpact: {
      level,
      worst: worst === undefined ? null : { bps: worst, percent: formatBpsAsPercent(worst) },
    },
    gas: gasView(extras.gas),
    spend: spendView(spendByToken(plan, extras.gas ?? { mode: 'sponsored' }), extras.balances),
    terms: legTerms(plan.legs, plan),
    simulation: simulationView(extras.simulation),
    calls,
    deploysAccount: extras.deploysAccount === true,
    confirmBy: extras.confirmBy === undefined ? null : new Date(extras.confirmBy).toISOString(),
    expiresAt:
      extras.buildExpiresAt === undefined ? null : new Date(extras.buildExpiresAt).toISOString(),
    warnings: [...(extras.warnings ?? [])],
    acknowledgments: (extras.acknowledgments ?? []).map((a) => ({ id: a.id, reason: a.reason })),
    ...(extras.rebalance === undefined ? {} : { rebalance: extras.rebalance }),
  };
  // every token the plan moves or pays gas in, with its decimals (the lines' amounts are exact)
  const effects = effectsOf(plan.legs, plan);
  const book = [
    ...[...effects.out, ...effects.in, ...effects.positions].map((e) => ref(e.token)),
    ...plan.swaps.flatMap((s) => [s.executing.summary.from, s.executing.summary.to]),
    ...(extras.gas !== undefined && extras.gas.mode !== 'sponsored' ? [ref(extras.gas.token)] : []),
  ];
  return { ...document, lines: jsonLines(buildPlanLines(document, book)) };
}

/**
 * Not confirmed: nothing is signed; the plan travels in the error document (details.plan) and
 * `details.remedy` is 'confirm' — each face words it (headless: run again with --yes).
 */
export function requireConfirmation(confirmed: boolean, document: PlanDocument): void {
  if (confirmed) return;
  throw new AppError(
    ErrorCode.CONFIRMATION_REQUIRED,
    `nothing was signed: ${document.headline}. Check the plan`,
    { details: { plan: document, remedy: ['confirm'] } },
  );
}
