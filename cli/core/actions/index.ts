/**
 * The actions of the signed-in wallet (docs/architecture.md "The action pipeline"): every action
 * that moves money — `send`, `trade`, `multi-swap`, `batch` — as two steps a face can put a
 * confirmation between:
 *
 * 1. planAction: the request resolved by its kind's rules, quoted, built, checked and simulated;
 *    `document` is what to show. Nothing is signed.
 * 2. executeAction: signs and sends exactly what was simulated (re-quoting first when a quote
 *    went stale), once; the executed plan document with its receipt.
 *
 * The work is pipeline.ts over an ActionContext; this module opens that context from the
 * endpoints and the saved session, and maps a refused token to the session's own error.
 */
import { parseAmount } from '../../../shared/amount.js';
import { resolveToken } from '../../../shared/tokens.js';
import type { CallOptions } from '../call.js';
import type { Endpoints } from '../endpoints.js';
import { openExecutionAccount } from '../execution.js';
import { openHistory } from '../history.js';
import { chainOf } from '../reconcile.js';
import { aggregatorFor } from '../quote.js';
import { mapSessionError, requireSession, type Session } from '../session.js';
import type { ActionContext, ActionRequest, ExecuteOptions, ExecutionResult, PlannedAction } from './pipeline.js';

export type { ActionRequest, ExecuteOptions, ExecutionResult, PairSpec, PlannedAction, TransferSpec } from './pipeline.js';
export type { PlanDocument } from './document.js';
export { EXPIRY_MARGIN_S, CONFIRM_MARGIN_MS } from './checks.js';

export interface ActionOptions {
  slippageBps?: number | undefined;
  allowHighImpact?: boolean | undefined;
  /** pay gas in this token (symbol or address) instead of asking for sponsorship first */
  gasToken?: string | undefined;
  /** refuse a plan whose maximum gas fee is above this, in gas-token units ("0.5") */
  maxFee?: string | undefined;
  /** the clock (tests): quote age and session expiry */
  now?: () => number;
}

/** A checked, simulated plan of the session's wallet: `document` is what to show. */
export interface PlannedWalletAction extends PlannedAction {
  readonly session: Session;
}

/** Plans `request` for the session's wallet: checked, built, simulated; nothing is signed. */
export async function planAction(endpoints: Endpoints, request: ActionRequest, options: ActionOptions = {}, call: CallOptions = {}): Promise<PlannedWalletAction> {
  const pipeline = await import('./pipeline.js');
  pipeline.checkActionRequest(request, endpoints.network);
  const session = requireSession(endpoints, options.now ? { now: options.now } : {});
  const gasToken = resolveToken(endpoints.network, options.gasToken ?? endpoints.gasToken);
  const maxFee = options.maxFee === undefined ? undefined : parseAmount(options.maxFee, gasToken.decimals, { label: `--max-fee (${gasToken.symbol})` });
  try {
    const account = await openExecutionAccount(endpoints, session, call);
    const ctx: ActionContext = {
      aggregator: aggregatorFor(endpoints),
      account,
      sandbox: endpoints.sandbox,
      fee: { gasToken, forced: options.gasToken !== undefined },
      defaultSlippageBps: endpoints.settings.slippageBps,
      history: openHistory(endpoints.dataDir),
      chain: chainOf(endpoints),
      ...(options.now ? { now: options.now } : {}),
    };
    const planned = await pipeline.planAction(request, { slippageBps: options.slippageBps, allowHighImpact: options.allowHighImpact, maxFee }, ctx, call);
    return { ...planned, session };
  } catch (error) {
    throw mapSessionError(session, error);
  }
}

/** Signs and sends a plan once (re-quoting first when its quote is older than 30 s); the executed plan document with its receipt. */
export async function executeAction(planned: PlannedWalletAction, call: CallOptions = {}, options: ExecuteOptions = {}): Promise<ExecutionResult> {
  const pipeline = await import('./pipeline.js');
  try {
    return await pipeline.executeAction(planned, call, options);
  } catch (error) {
    throw mapSessionError(planned.session, error);
  }
}
