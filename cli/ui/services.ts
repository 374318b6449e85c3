/**
 * The TUI's port to the headless core: everything a screen may ask of the outside world.
 * Screens and hooks see only this interface; `adapter.ts` is the one real implementation
 * (over the same functions the headless commands use), and screen tests use a fake.
 *
 * Every call that leaves the process takes an AbortSignal: a screen aborts its request when the
 * input changes, when it is left, and on Ctrl+C.
 */
import type { ImpactLevel, QuoteSummary } from '../core/quote-summary.js';
import type { StatusResult } from '../core/status.js';
import type { ActionEvent } from '../core/events.js';
import type { Network } from '../../shared/tokens.js';
import type { Portfolio } from '../core/portfolio.js';
import type { LendingDocument } from '../core/lending.js';
import type { Liquidation } from '../core/liquidations.js';
import type { StakingDocument } from '../core/staking.js';
import type { RebalanceView } from '../core/actions/rebalance.js';
import type { ActionKind, ParamsOf } from '../core/actions/kinds.js';
import type { AcknowledgmentId } from '../core/actions/acknowledgments.js';
import type { PlanLine } from '../core/actions/plan-lines.js';

export type { Portfolio, RebalanceView };

export interface Call {
  signal: AbortSignal;
}

export interface Session {
  email: string;
  userId: string;
  walletId: string;
  walletAddress: string;
  expiresAt: string;
  /** true when the account already had a wallet (false: created at this sign-in) */
  isExisting: boolean;
}

export interface TokenBalance {
  symbol: string;
  decimals: number;
  /** base units */
  amount: bigint;
  /** cents at the aggregator's price; undefined when it has no price for the token */
  usdCents: bigint | undefined;
}

export type Balances =
  | { available: true; tokens: TokenBalance[]; totalUsdCents: bigint; asOf: string }
  /** why balances cannot be read (e.g. no chain reader configured) */
  | { available: false; reason: string };

export interface QuoteRequest {
  amount: string;
  from: string;
  to: string;
  slippageBps: number;
}

/** One contract call as a person reads it. */
export interface CallView {
  contract: string;
  entrypoint: string;
  /** e.g. "approve the router to take exactly 100 USDC" */
  description: string;
}

export interface BalanceChange {
  symbol: string;
  decimals: number;
  /** signed base units */
  delta: bigint;
}

/**
 * What a person asks the core to plan: a kind and its declared parameters' values by name
 * (cli/core/actions/kinds.ts), as every screen gives them — the send, trade, multi-swap, batch
 * and rebalance screens and the Staking and Lending forms alike; the adapter hands them to the
 * kind's one `request`. Typed per kind: a screen that does not give a required parameter of its
 * kind fails typecheck.
 */
export type PlanRequest = {
  [K in ActionKind]: { kind: K; slippageBps: number; params: ParamsOf<K> };
}[ActionKind];

declare const planHandle: unique symbol;
/** The core's planned transaction behind a view: opaque to the screens, what execute signs. */
export interface PlanHandle {
  readonly [planHandle]: true;
}

/**
 * A checked, quoted, built and simulated transaction (a send, a trade, a multi-swap or a batch),
 * waiting for the confirmation. Nothing is signed. The core's plan document, in the screens'
 * terms.
 */
export interface PlanView {
  /** what was asked: re-planning asks the same again */
  request: PlanRequest;
  /** one line: what goes out and what comes back at least */
  headline: string;
  /**
   * the plan as lines, the core's one model (plan-lines.ts; docs/architecture.md "One plan
   * model"): what leaves ("at most" a bound), what arrives, fees, gas, recipients, terms — the
   * review only styles them
   */
  lines: PlanLine[];
  /** each swap's quote, as executed (its price impact and age: the review's warnings) */
  quotes: QuoteSummary[];
  slippageBps: number;
  /** the worst price impact of the plan's swaps, as the core rates it */
  impact: ImpactLevel;
  /** what the person must acknowledge (the typed word) before this plan is signed: the core's list */
  acknowledgments: Array<{ id: AcknowledgmentId; reason: string }>;
  deploysAccount: boolean;
  calls: CallView[];
  /** from the simulation of exactly what will be signed, the fee apart */
  simulatedChanges: BalanceChange[];
  /** the core's warnings (price impact, unknown prices) */
  warnings: string[];
  /** a rebalance: token, now %, target %, after % (simulated), and what the shares are of */
  rebalance?: RebalanceView;
  /** epoch ms until which the core takes a confirmation of exactly this plan (PlannedAction.confirmBy): plan again after */
  expiresAt: number;
  /**
   * this plan was made again because what the reviewed one depended on moved before signing
   * (PLAN_CHANGED): what moved, in the core's words, and the reviewed plan's headline and the
   * words of its lines (a line not among them is new: the review highlights it)
   */
  changed?: { changes: string[]; before: string[] };
  readonly handle: PlanHandle;
}

/** The core's typed progress of an execution: the screens switch on `kind` (a hash is `hash`). */
export type ExecutionStep = ActionEvent;

export interface Receipt {
  /** the first line: "Swap confirmed", "Sent 1 STRK to 0x…" */
  headline?: string;
  transactionHash: string;
  status: 'succeeded' | 'reverted';
  /**
   * the core's receipt lines (plan-lines.ts receiptLines): each balance change, what each output
   * brought against its confirmed minimum, the gas paid
   */
  lines: PlanLine[];
  /** why it reverted, in plain words */
  revertReason?: string;
}

export interface SendRequest {
  /** a registry symbol */
  token: string;
  /** decimal in token units */
  amount: string;
  /** recipient address as typed */
  to: string;
}

export interface HistoryView {
  entries: HistoryEntry[];
  setAside: string | null;
  liquidations?: Liquidation[];
  liquidationsNote?: string | null;
}

export interface HistoryEntry {
  transactionHash: string;
  /** ISO time it was sent */
  at: string;
  kind: ActionKind;
  summary: string;
  /** pending: no receipt yet; unknown: the answer was lost, may have executed; not-sent: provably never executed */
  status: 'succeeded' | 'reverted' | 'pending' | 'unknown' | 'not-sent';
  revertReason?: string;
  /** the gas fee the account paid, from the receipt ("0.01 STRK"); absent: sponsored or not known */
  fee?: string;
  /** the chain's answers about it contradict each other: how it ended is not known (core/history.ts) */
  contradiction?: string;
}

export interface SettingsView {
  slippageBps: number;
  network: Network;
  serverUrl: string;
  gasToken: string;
}

export type SettingsPatch = Partial<
  Pick<SettingsView, 'slippageBps' | 'network' | 'serverUrl' | 'gasToken'>
>;

/** What this build of the core can do; the menu shows the rest as not available yet. */
export interface Features {
  balances: boolean;
  trade: boolean;
  multiSwap: boolean;
  batch: boolean;
  send: boolean;
  history: boolean;
  portfolio: boolean;
}

export interface Environment {
  sandbox: boolean;
  network: Network;
  serverUrl: string;
  /** what this session talks to, as resolved (the sandbox's own ports, not the saved settings) */
  urls?: EnvironmentUrls;
  /** the core started a sandbox/server child for this session: where its logs go */
  startedChild?: { what: string; logFile: string };
}

interface EnvironmentUrls {
  server: string;
  aggregator: string;
  /** Starknet JSON-RPC; undefined: starknet.js's public node for the network */
  chain: string | undefined;
  /** the sandbox's paymaster emulator */
  paymaster: string | undefined;
  /** the sandbox's identity-provider emulator (its outbox) */
  identity: string | undefined;
}

export interface TuiServices {
  readonly features: Features;
  /**
   * how often an open Lending or Staking screen reads again, when the run says
   * (`FINANCE_TUI_LIVE_READ_MS`); undefined: the screens' LIVE_READ_MS
   */
  readonly liveReadMs?: number | undefined;
  /** find or start what the client talks to (may start the sandbox as a child) */
  connect(call: Call): Promise<Environment>;
  /** the stored session, if one is valid */
  currentSession(): Promise<Session | null>;
  /** sends a code by e-mail; RATE_LIMITED carries details.retryAfterSeconds */
  requestCode(email: string, call: Call): Promise<void>;
  /** INVALID_OTP for a wrong or expired code */
  verifyCode(email: string, code: string, call: Call): Promise<Session>;
  /** sandbox only: the last code sent to `email`, read from the emulated mailbox */
  sandboxCode?(email: string, call: Call): Promise<string | null>;
  logout(): Promise<void>;
  balances(session: Session, call: Call): Promise<Balances>;
  /** the core's portfolio: balances, prices, values, shares (to exactly 100.00 %), the total; `fresh` skips the price cache */
  portfolio(call: Call & { fresh?: boolean }): Promise<Portfolio>;
  /** the validators known for the network and the session wallet's staking positions (absent: not offered) */
  staking?(call: Call): Promise<StakingDocument>;
  /** the session wallet's lending positions in the network's pool: supplies, borrows with their health factor (absent: not offered) */
  lending?(call: Call): Promise<LendingDocument & { liquidations?: Liquidation[] }>;
  quote(request: QuoteRequest, call: Call): Promise<QuoteSummary>;
  /** quotes, checks, builds and simulates a send, trade, multi-swap or batch; progress lines for the spinner */
  plan(
    request: PlanRequest,
    session: Session,
    call: Call & { onProgress?: (message: string) => void },
  ): Promise<PlanView>;
  /**
   * signs and sends exactly the planned transaction, once (re-quoting first if it went stale);
   * the receipt. What the plan depends on moved since the review: nothing is signed, and it
   * rejects with PlanChanged (plan-changed.ts), the plan made again
   */
  execute(
    plan: PlanView,
    session: Session,
    call: Call & { onStep: (step: ExecutionStep) => void },
  ): Promise<Receipt>;
  /**
   * the transactions this client sent from the session's wallet, newest first; `setAside`: where
   * an unreadable history file was moved (it starts again empty), when that just happened;
   * `liquidations`: the wallet's, read from the chain (not sent by this client), newest first,
   * and `liquidationsNote` why they could not be read
   */
  history(session: Session, call: Call): Promise<HistoryView>;
  /** the recipient as the core's rule reads it (normalised), or why it is refused */
  checkRecipient(text: string, session: Session): { address: string } | { problem: string };
  status(call: Call): Promise<StatusResult>;
  settings(): SettingsView;
  /** saved under the file's lock, waited for without blocking (the root says it is waiting) */
  updateSettings(patch: SettingsPatch): Promise<SettingsView>;
  /**
   * Be told while this process waits for a file lock another finance-tui holds (`what` names the
   * file: "the settings file"), and when the wait ends; returns the unsubscription.
   */
  watchLockWaits(watcher: (wait: { what: string }, waiting: boolean) => void): () => void;
  /** the tokens the pickers offer */
  tokens(): Array<{ symbol: string; name: string; decimals: number }>;
  /** stop whatever connect started (a child sandbox), within a bounded time */
  close(): Promise<void>;
}
