/**
 * The TUI's port to the headless core: everything a screen may ask of the outside world.
 * Screens and hooks see only this interface; `adapter.ts` is the one real implementation
 * (over the same functions the headless commands use), and screen tests use a fake.
 *
 * Every call that leaves the process takes an AbortSignal: a screen aborts its request when the
 * input changes, when it is left, and on Ctrl+C.
 */
import type { QuoteSummary } from '../services/quote-summary.js';
import type { StatusResult } from '../core/status.js';
import type { Network } from '../../shared/tokens.js';

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

export interface TradePlan {
  quote: QuoteSummary;
  slippageBps: number;
  calls: CallView[];
  /** from the simulation of the whole multicall */
  simulatedChanges: BalanceChange[];
  /** when the plan's quote expires and must be re-quoted */
  expiresAt: number;
}

export interface ExecutionStep {
  step: 'signing' | 'submitting' | 'waiting' | 'confirmed';
  detail?: string;
}

export interface Receipt {
  /** the first line: "Swap confirmed", "Sent 1 STRK to 0x…" */
  headline?: string;
  transactionHash: string;
  status: 'succeeded' | 'reverted';
  changes: BalanceChange[];
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

/** A checked, built and simulated transfer, waiting for the confirmation. Nothing is signed. */
export interface SendPlanView {
  token: { symbol: string; decimals: number };
  /** base units leaving the wallet */
  amount: bigint;
  /** the recipient, normalised */
  to: string;
  deploysAccount: boolean;
  calls: CallView[];
  fee: { mode: 'sponsored' } | { mode: 'default'; symbol: string; decimals: number; estimated: bigint; max: bigint };
  /** from the simulation of exactly what will be signed, the fee apart */
  simulatedChanges: BalanceChange[];
  /** epoch ms after which the paymaster refuses it: plan again */
  expiresAt: number;
  /** the core's planned transaction, opaque to the screens: what executeSend signs */
  readonly handle: unknown;
}

export interface HistoryEntry {
  transactionHash: string;
  at: string;
  summary: string;
  status: 'succeeded' | 'reverted' | 'pending';
}

export interface SettingsView {
  slippageBps: number;
  network: Network;
  serverUrl: string;
  gasToken: string;
}

export type SettingsPatch = Partial<Pick<SettingsView, 'slippageBps' | 'network' | 'serverUrl' | 'gasToken'>>;

/** What this build of the core can do; the menu shows the rest as not available yet. */
export interface Features {
  balances: boolean;
  trade: boolean;
  multiSwap: boolean;
  batch: boolean;
  send: boolean;
  history: boolean;
}

export interface Environment {
  sandbox: boolean;
  network: Network;
  serverUrl: string;
  /** the core started a sandbox/server child for this session: where its logs go */
  startedChild?: { what: string; logFile: string };
}

export interface TuiServices {
  readonly features: Features;
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
  quote(request: QuoteRequest, call: Call): Promise<QuoteSummary>;
  plan(request: QuoteRequest, session: Session, call: Call): Promise<TradePlan>;
  execute(plan: TradePlan, session: Session, call: Call & { onStep: (step: ExecutionStep) => void }): Promise<Receipt>;
  history(session: Session, call: Call): Promise<HistoryEntry[]>;
  /** the recipient as the core reads it (normalised), or why it is not an address */
  checkRecipient(text: string, session: Session): { address: string } | { problem: string };
  /** checks, builds and simulates a transfer; progress lines for the spinner */
  planSend(request: SendRequest, session: Session, call: Call & { onProgress?: (message: string) => void }): Promise<SendPlanView>;
  /** signs and sends exactly the planned transfer; the receipt carries the exact balance changes */
  executeSend(plan: SendPlanView, session: Session, call: Call & { onStep: (step: ExecutionStep) => void }): Promise<Receipt>;
  status(call: Call): Promise<StatusResult>;
  settings(): SettingsView;
  updateSettings(patch: SettingsPatch): SettingsView;
  /** the tokens the pickers offer */
  tokens(): Array<{ symbol: string; name: string; decimals: number }>;
  /** stop whatever connect started (a child sandbox), within a bounded time */
  close(): Promise<void>;
}
