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
 * endpoints and the saved session, and maps a refused token to the session's own error. A
 * rebalance is planned from a snapshot of the wallet (every registry balance, and the prices of
 * the tokens held or targeted, asked afresh in one parallel round) taken here first.
 */
import { parseAmount } from '../../../shared/amount.js';
import { resolveToken, type Token } from '../../../shared/tokens.js';
import { aboutField } from '../remedy.js';
import type { CallOptions } from '../call.js';
import type { Endpoints } from '../endpoints.js';
import { openExecutionAccount } from '../execution.js';
import { openHistory } from '../history.js';
import { chainOf } from '../reconcile.js';
import { aggregatorFor } from '../quote.js';
import { mapSessionError, requireSession, type Session } from '../session.js';
import { loadVTokenHints } from '../vtoken-hints.js';
import type {
  ActionContext,
  ActionRequest,
  ExecuteOptions,
  ExecutionResult,
  PlannedAction,
} from './pipeline.js';
import type { AcknowledgmentId } from './acknowledgments.js';
import type { ActionKind } from './kinds.js';
import type { RebalanceRequest, RebalanceSnapshot } from './rebalance.js';

export type {
  ActionRequest,
  ExecuteOptions,
  ExecutionResult,
  PairSpec,
  PlannedAction,
  TransferSpec,
} from './pipeline.js';
export type { RebalanceSpec, RebalanceView } from './rebalance.js';
export type { PlanDocument } from './document.js';
export type { ActionLimits } from './caps.js';
export type { Acknowledgment, AcknowledgmentId } from './acknowledgments.js';
export { ACKNOWLEDGMENT_IDS } from './acknowledgments.js';
export { EXPIRY_MARGIN_S, CONFIRM_MARGIN_MS } from './checks.js';

export interface ActionOptions {
  slippageBps?: number | undefined;
  /** the same as acknowledging 'high-impact' */
  allowHighImpact?: boolean | undefined;
  /** what the person acknowledged up front (acknowledgments.ts): a headless flag per id */
  acknowledged?: readonly AcknowledgmentId[] | undefined;
  /** the face asks for the plan's acknowledgments at confirmation (PlanOptions.askAtConfirmation) */
  askAtConfirmation?: boolean | undefined;
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

type Prepare<R extends ActionRequest> = (
  endpoints: Endpoints,
  request: R,
  options: ActionOptions,
  call: CallOptions,
) => Promise<R>;

/**
 * What a kind reads from the wallet before its legs can be resolved (kinds.ts lists the kinds;
 * most need nothing): a rebalance plans from a snapshot of the wallet.
 */
const PREPARE: { [K in ActionKind]?: Prepare<Extract<ActionRequest, { kind: K }>> } = {
  rebalance: async (endpoints, request, options, call) =>
    request.snapshot === undefined
      ? { ...request, snapshot: await rebalanceSnapshot(endpoints, request, options, call) }
      : request,
};

/** The face's maximum fee in `gasToken`; a refusal is about the `maxFee` field (cli/core/remedy.ts). */
function parseMaxFee(text: string, gasToken: Token): bigint {
  try {
    return parseAmount(text, gasToken.decimals, { label: gasToken.symbol });
  } catch (error) {
    throw aboutField(error, 'maxFee');
  }
}

/** Plans `request` for the session's wallet: checked, built, simulated; nothing is signed. */
export async function planAction(
  endpoints: Endpoints,
  request: ActionRequest,
  options: ActionOptions = {},
  call: CallOptions = {},
): Promise<PlannedWalletAction> {
  const pipeline = await import('./pipeline.js');
  pipeline.checkActionRequest(request, endpoints.network);
  const session = requireSession(endpoints, options.now ? { now: options.now } : {});
  const gasToken = resolveToken(endpoints.network, options.gasToken ?? endpoints.gasToken);
  const maxFee = options.maxFee === undefined ? undefined : parseMaxFee(options.maxFee, gasToken);
  try {
    const [account, vTokens] = await Promise.all([
      openExecutionAccount(endpoints, session, call),
      loadVTokenHints(endpoints.dataDir, endpoints.sandbox ? 'sandbox' : endpoints.network),
    ]);
    const ctx: ActionContext = {
      aggregator: aggregatorFor(endpoints),
      account,
      sandbox: endpoints.sandbox,
      fee: { gasToken, forced: options.gasToken !== undefined },
      defaultSlippageBps: endpoints.settings.slippageBps,
      history: openHistory(endpoints.dataDir),
      chain: chainOf(endpoints),
      vTokens,
      ...(options.now ? { now: options.now } : {}),
    };
    const prepare = PREPARE[request.kind] as Prepare<ActionRequest> | undefined;
    const ready =
      prepare === undefined ? request : await prepare(endpoints, request, options, call);
    const planned = await pipeline.planPipeline(
      ready,
      {
        slippageBps: options.slippageBps,
        allowHighImpact: options.allowHighImpact,
        acknowledged: options.acknowledged,
        askAtConfirmation: options.askAtConfirmation,
        maxFee,
      },
      ctx,
      call,
    );
    return { ...planned, session };
  } catch (error) {
    throw mapSessionError(session, error);
  }
}

/** Signs and sends a plan once (re-quoting first when its quote is older than 30 s); the executed plan document with its receipt. */
export async function executeAction(
  planned: PlannedWalletAction,
  call: CallOptions = {},
  options: ExecuteOptions = {},
): Promise<ExecutionResult> {
  const [pipeline, { isPlanChanged, PlanChangedError }] = await Promise.all([
    import('./pipeline.js'),
    import('./recheck.js'),
  ]);
  try {
    return await pipeline.executePipeline(planned, call, options);
  } catch (error) {
    // the plan made again is the same wallet's (replannedOf)
    if (isPlanChanged(error)) {
      const replanned: PlannedWalletAction = { ...error.replanned, session: planned.session };
      throw new PlanChangedError(replanned, error.changes);
    }
    throw mapSessionError(planned.session, error);
  }
}

/**
 * PLAN_CHANGED from executeAction: the plan made again, for the face to show and confirm
 * (docs/architecture.md "Still true when signed"); undefined for any other error.
 */
export async function replannedOf(error: unknown): Promise<PlannedWalletAction | undefined> {
  const { isPlanChanged } = await import('./recheck.js');
  return isPlanChanged(error) && 'session' in error.replanned
    ? (error.replanned as PlannedWalletAction)
    : undefined;
}

/**
 * The wallet as a rebalance plans from it: every registry token's balance, and a fresh price
 * (one parallel round, no cache: money moves on it) for each token held or named by the target.
 */
async function rebalanceSnapshot(
  endpoints: Endpoints,
  request: RebalanceRequest,
  options: ActionOptions,
  call: CallOptions,
): Promise<RebalanceSnapshot> {
  const [{ balances }, { priceTokens }, { parseTargets }, { listTokens, sameAddress }] =
    await Promise.all([
      import('../funds.js'),
      import('../portfolio.js'),
      import('../allocation.js'),
      import('../../../shared/tokens.js'),
    ]);
  const now = options.now ?? Date.now;
  const targets = parseTargets(request.rebalance.target, endpoints.network);
  const read = await balances(endpoints, options.now ? { now: options.now } : {}, call);
  const holdings = listTokens(endpoints.network).map((token) => ({
    token,
    balance: BigInt(
      read.balances.find((b) => sameAddress(b.address, token.address))?.baseUnits ?? '0',
    ),
  }));
  const wanted = holdings.filter(
    (h) => h.balance > 0n || targets.some((t) => sameAddress(t.token.address, h.token.address)),
  );
  // a target not held is priced on one whole unit
  const prices = await priceTokens(
    endpoints,
    wanted.map((h) => ({
      token: h.token,
      amount: h.balance > 0n ? h.balance : 10n ** BigInt(h.token.decimals),
    })),
    { maxAgeMs: 0, now },
    call,
  );
  return {
    holdings: holdings.map((h) => {
      const i = wanted.indexOf(h);
      const p = i < 0 ? undefined : prices[i];
      return { ...h, price: p?.ok === true ? p.price.scaled : undefined };
    }),
    pricedAt: now(),
  };
}
