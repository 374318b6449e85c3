/**
 * The action pipeline (docs/architecture.md "The action pipeline"): every action that moves
 * money is one typed request of an action kind (kinds.ts, listed once) that resolves into
 * **legs** (legs/: a swap, a transfer, …, each leg type one module) and goes through the same
 * stages:
 *
 *   resolve (resolve.ts, rules.ts) → the legs' reads (the quotes; the balances and the account's
 *   facts read meanwhile) → build the calls (plan.ts) → check (checks.ts) → paymaster build →
 *   simulate → [the face confirms] → sign → submit → track → record (history.ts)
 *
 * `planPipeline` (plan-action.ts) runs everything up to the confirmation and returns a
 * PlannedAction whose `document` is what a face shows; `executePipeline` (execute.ts) signs
 * exactly what was simulated. Every stage after the legs' own — the balance and gas check, the
 * caps, the fingerprint, the history amounts, the headline, the received amounts, the simulation
 * check — is derived from the legs' effects. Progress is typed (events.ts). Plain functions over
 * an ActionContext: no endpoints, no session file (index.ts's planAction/executeAction open
 * those for a face).
 */
import type { AggregatorClient } from '../../clients/aggregator.js';
import type { ExecutionAccount } from '../chain/account.js';
import type { PreparedExecution } from '../chain/execute.js';
import type { FeeChoice } from '../execution.js';
import type { HistoryStore } from '../history.js';
import type { VTokenHints } from '../lending-pool.js';
import type { AcknowledgmentId } from './acknowledgments.js';
import type { GasQuote } from './checks.js';
import type { PlanDocument } from './document.js';
import type { PlannedLeg } from './legs/index.js';
import type { LegPlan } from './legs/types.js';
import type { ActionPlan } from './plan.js';
import type { RebalanceRequest } from './rebalance.js';

export { planPipeline } from './plan-action.js';
export { executePipeline, type ExecuteOptions } from './execute.js';
export { planFingerprint } from './fingerprint.js';
export { checkActionRequest } from './resolve.js';

export interface ActionContext {
  aggregator: AggregatorClient;
  account: ExecutionAccount;
  sandbox: boolean;
  /** sponsored gas when offered, else paid in the gas token */
  fee: FeeChoice;
  /** when the request names none (settings, 1 %) */
  defaultSlippageBps: number;
  router?: string;
  now?: () => number;
  history?: HistoryStore | undefined;
  /** the chain this runs on: "mainnet", "sepolia" or "sandbox:<id>" (reconcile.ts chainOf) */
  chain?: string | undefined;
  /** the Vesu vToken hints (vtoken-hints.ts): a withdrawal's shares asked in its first round */
  vTokens?: VTokenHints | undefined;
}

/** "100 USDC>ETH" as given: decimal amount in token units, symbols or addresses. */
export interface PairSpec {
  amount: string;
  from: string;
  to: string;
}

/** "5 USDC>0x…": a plain transfer. */
export interface TransferSpec {
  amount: string;
  token: string;
  to: string;
}

/** What a face asks the pipeline to do: one typed request per kind. */
export type ActionRequest =
  | { kind: 'send'; transfer: TransferSpec }
  | { kind: 'trade'; swap: PairSpec }
  | { kind: 'multi-swap'; swaps: PairSpec[] }
  | {
      kind: 'batch';
      swaps: PairSpec[];
      transfers: TransferSpec[];
      /** supplies to the network's main Vesu pool ("100 USDC") */
      supplies?: LendSpec[] | undefined;
      /** stakes ("1000 STRK" with a validator) */
      stakes?: StakeSpec[] | undefined;
    }
  | RebalanceRequest
  | { kind: 'stake'; stake: StakeSpec }
  | { kind: 'unstake'; unstake: { amount: string; validator: string } }
  | { kind: 'unstake-complete'; validator: string }
  | { kind: 'claim-rewards'; validator: string }
  | { kind: 'supply'; supply: LendSpec }
  | { kind: 'withdraw'; withdraw: LendSpec }
  | { kind: 'borrow'; borrow: BorrowSpec }
  | { kind: 'repay'; repay: BorrowSpec }
  | {
      kind: 'close-position';
      close: { collateral: string; debt: string; pool?: string | undefined };
    }
  | { kind: 'add-collateral'; collateral: CollateralSpec }
  | { kind: 'withdraw-collateral'; collateral: CollateralSpec };

/**
 * "0.5 ETH" of collateral in the (ETH, `debt`) position: the amount (withdraw: or "all") and the
 * collateral token, the position's debt token (it names the pair, with or without a debt).
 */
interface CollateralSpec {
  amount: string;
  token: string;
  debt: string;
  pool?: string | undefined;
}

/** "100 USDC" in a Vesu pool (default: the network's documented main pool); withdraw takes "all". */
interface LendSpec {
  amount: string;
  token: string;
  pool?: string | undefined;
}

/** "500 USDC against 1 ETH": the debt amount (repay: or "all") and token, the collateral (and for a borrow, how much to deposit with it). */
interface BorrowSpec {
  amount: string;
  token: string;
  collateral: string;
  collateralAmount?: string | undefined;
  pool?: string | undefined;
}

/** "1000 STRK with Braavos": the amount, the token (default STRK), the validator (name or staker address). */
export interface StakeSpec {
  amount: string;
  token?: string | undefined;
  validator: string;
}

/**
 * A kind's checks after the legs' reads, before the build (docs/architecture.md "Adding a leg
 * type"): the request, its legs as read (in call order) and the plan around them (the oracle's
 * prices included). Throws a stable code to refuse; nothing has been built or signed.
 */
export type AfterReads<R extends ActionRequest = ActionRequest> = (
  request: R,
  legs: readonly PlannedLeg[],
  plan: LegPlan,
) => void;

export interface PlanOptions {
  slippageBps?: number | undefined;
  /** the same as acknowledging 'high-impact' */
  allowHighImpact?: boolean | undefined;
  /** what the person acknowledged up front (acknowledgments.ts) */
  acknowledged?: readonly AcknowledgmentId[] | undefined;
  /**
   * the face asks for the plan's acknowledgments at confirmation (the app's typed word, an
   * elicitation): planning lists them instead of refusing; executePipeline still requires them
   */
  askAtConfirmation?: boolean | undefined;
  /** refuse (FEE_ABOVE_MAX) a paymaster build whose maximum fee is above this, in gas-token base units */
  maxFee?: bigint | undefined;
}

/** How the routes were fetched, which is how a re-quote fetches them again. */
export type QuoteMode = 'single' | 'batch' | 'parallel';

/**
 * One plan's execution, shared by every copy of its PlannedAction: a plan is signed at most
 * once. `ready` until executeAction starts; `submitting` from the moment the signed transaction
 * leaves the client; `submitted` once its hash is known; `done` with a receipt. A failure before
 * anything left the client returns it to `ready`.
 */
export interface ExecutionTicket {
  state: 'ready' | 'executing' | 'submitting' | 'submitted' | 'done';
  hash: string | undefined;
}

/** A checked, simulated plan, ready to sign (executeAction) or to show (document). */
export interface PlannedAction {
  readonly request: ActionRequest;
  plan: ActionPlan;
  document: PlanDocument;
  mode: QuoteMode;
  slippageBps: number;
  /** what the person acknowledged when planning (acknowledgments.ts) */
  acknowledged: readonly AcknowledgmentId[];
  gas: GasQuote;
  /**
   * the most any build of this plan may ask in fees, in gas-token base units: the person's
   * maximum (PlanOptions.maxFee) when planning; a build again is also held to the confirmed `gas`
   */
  feeCap?: bigint | undefined;
  /** the paymaster's build that was simulated: what executeAction signs */
  prepared: PreparedExecution;
  /**
   * epoch ms until which a face may take a confirmation of exactly this build: before the
   * quote's 30 s (less CONFIRM_MARGIN_MS for the key press to reach it) and before the paymaster
   * build's margin. Confirmed later, executeAction re-quotes and rebuilds first.
   */
  confirmBy: number;
  /** where it was planned: executeAction signs with the same account and clients */
  readonly context: ActionContext;
  readonly ticket: ExecutionTicket;
}

export interface ExecutionResult extends PlanDocument {
  transaction: {
    hash: string;
    status: 'SUCCEEDED';
    blockNumber: number | null;
    /** what each output token actually brought, against the confirmed minimum */
    received: Array<{
      symbol: string;
      address: string;
      amount: string;
      baseUnits: string;
      minimum: { amount: string; baseUnits: string };
    }>;
    balanceChanges: Array<{
      symbol: string;
      address: string;
      decimals: number;
      amount: string;
      baseUnits: string;
    }>;
    feePaid: { symbol: string; amount: string; baseUnits: string } | null;
    /** the transaction deployed the account (its first) */
    deployedAccount: boolean;
    /** history could not be written (the transaction is unaffected) */
    historyWarning?: string;
  };
}
