/**
 * The swaps of the signed-in wallet (docs/architecture.md "Client behaviour" and "Execution"):
 * `trade`, `multi-swap` and `batch` as two steps a face can put a confirmation between, like
 * `send` (funds.ts):
 *
 * 1. planTrade / planMultiSwap / planBatch: quote, calldata, every pre-sign check, the paymaster
 *    build and a simulation of exactly what would be signed; the plan document to show. Nothing
 *    is signed.
 * 2. executePlan: re-quotes a quote older than 30 s (and checks everything again), signs and
 *    sends exactly what was simulated, waits for the receipt, records it in the history.
 *
 * The work itself is swap/flow.ts over a SwapContext; this module opens that context from the
 * endpoints and the saved session.
 */
import { AppError, ErrorCode } from '../../shared/errors.js';
import { resolveToken } from '../../shared/tokens.js';
import type { CallOptions } from './call.js';
import type { Endpoints } from './endpoints.js';
import { openExecutionAccount } from './execution.js';
import { openHistory } from './history.js';
import { aggregatorFor } from './quote.js';
import { mapSessionError, requireSession, type Session } from './session.js';
import type { ExecutionResult, PairSpec, PlannedExecution, PlanOptions, SendSpec, SwapContext } from './swap/flow.js';

export type { ExecutionResult, PairSpec, SendSpec } from './swap/flow.js';
export type { PlanDocument } from './swap/document.js';
export { EXPIRY_MARGIN_S } from './swap/checks.js';

export interface SwapRequestOptions extends PlanOptions {
  /** pay gas in this token (symbol or address) instead of asking for sponsorship first */
  gasToken?: string | undefined;
  /** the clock (tests): quote age and session expiry */
  now?: () => number;
}

/** A checked, simulated plan of the session's wallet: `document` is what to show. */
export interface PlannedSwaps extends PlannedExecution {
  readonly session: Session;
}

function swapsAllowed(endpoints: Endpoints): void {
  if (endpoints.network !== 'mainnet') {
    throw new AppError(ErrorCode.NETWORK_UNSUPPORTED, `swaps are available on mainnet only (current network: ${endpoints.network})`, { status: 400 });
  }
}

async function withContext(
  endpoints: Endpoints,
  options: SwapRequestOptions,
  call: CallOptions,
  plan: (ctx: SwapContext, flow: typeof import('./swap/flow.js')) => Promise<PlannedExecution>,
): Promise<PlannedSwaps> {
  const session = requireSession(endpoints, options.now ? { now: options.now } : {});
  const gasToken = resolveToken(endpoints.network, options.gasToken ?? endpoints.gasToken);
  try {
    const [flow, account] = await Promise.all([import('./swap/flow.js'), openExecutionAccount(endpoints, session, call)]);
    const ctx: SwapContext = {
      aggregator: aggregatorFor(endpoints),
      account,
      sandbox: endpoints.sandbox,
      fee: { gasToken, forced: options.gasToken !== undefined },
      defaultSlippageBps: endpoints.settings.slippageBps,
      history: openHistory(endpoints.dataDir),
      ...(options.now ? { now: options.now } : {}),
    };
    return { ...(await plan(ctx, flow)), session };
  } catch (error) {
    throw mapSessionError(session, error);
  }
}

/** `trade <amount> <from> <to>`: approve + swap in one transaction. */
export function planTrade(endpoints: Endpoints, pair: PairSpec, options: SwapRequestOptions = {}, call: CallOptions = {}): Promise<PlannedSwaps> {
  swapsAllowed(endpoints);
  return withContext(endpoints, options, call, (ctx, flow) => flow.planTrade(pair, options, ctx, call));
}

/** `multi-swap --pairs`: 2–3 swaps in one transaction. */
export function planMultiSwap(endpoints: Endpoints, pairs: PairSpec[], options: SwapRequestOptions = {}, call: CallOptions = {}): Promise<PlannedSwaps> {
  swapsAllowed(endpoints);
  return withContext(endpoints, options, call, (ctx, flow) => flow.planMultiSwap(pairs, options, ctx, call));
}

/** `batch --swap … --send …`: swaps and transfers in one transaction; transfers only work on any network. */
export function planBatch(endpoints: Endpoints, swaps: PairSpec[], sends: SendSpec[], options: SwapRequestOptions = {}, call: CallOptions = {}): Promise<PlannedSwaps> {
  if (swaps.length > 0) swapsAllowed(endpoints);
  return withContext(endpoints, options, call, (ctx, flow) => flow.planBatch(swaps, sends, options, ctx, call));
}

/** Signs and sends a plan (re-quoting first when its quote is older than 30 s); the executed plan document with its receipt. */
export async function executePlan(planned: PlannedSwaps, call: CallOptions = {}): Promise<ExecutionResult> {
  const flow = await import('./swap/flow.js');
  try {
    return await flow.executePlan(planned, call);
  } catch (error) {
    throw mapSessionError(planned.session, error);
  }
}
