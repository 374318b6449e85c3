/**
 * The real services port: the TUI over the headless core (cli/core/) — the same functions the
 * commands use. Its methods are modules registered on a small root (cli/ui/services/: connection,
 * session, reads, plans, history, settings; docs/architecture.md "Interactive app"); this file
 * holds how the screens' requests, plans and receipts map to the core's.
 *
 * Heavy modules (ky, TypeBox, starknet helpers) load inside connect(), after Ink has drawn
 * its first frame. Every plan — a send, a trade, a multi-swap, a batch — goes through the core's
 * one pipeline (planAction/executeAction, cli/core/actions); prices, the rules and expiry are the
 * core's, so this adapter only maps shapes.
 */
import { ACTION_KINDS, byKind } from '../core/actions/kinds.js';
import { planLines, receiptLines } from '../core/actions/plan-lines.js';
import type { ActionRequest, ExecutionResult, PlannedWalletAction } from '../core/actions/index.js';
import type { PlanHandle, PlanRequest, PlanView, Receipt, TuiServices } from './services.js';
import { registerConnection } from './services/connection.js';
import { registerHistory } from './services/history.js';
import { registerPlans } from './services/plans.js';
import { registerReads } from './services/reads.js';
import { createServicesRoot, mountServices } from './services/root.js';
import { registerSession } from './services/session.js';
import { registerSettings } from './services/settings.js';

/**
 * The screens' request as the core's typed action request: the values every screen gives by
 * declared parameter name, through the kind's one `request` (cli/core/actions/kinds.ts; an
 * optional parameter not given takes its default).
 */
function actionRequest(request: PlanRequest): ActionRequest {
  return ACTION_KINDS[request.kind].request(request.params as never);
}

/** The core's plan document in the screens' terms; `handle` names the planned transaction. */
export function planView(
  request: PlanRequest,
  planned: Pick<PlannedWalletAction, 'document' | 'slippageBps' | 'confirmBy'>,
  handle: PlanHandle,
): PlanView {
  const { document } = planned;
  const level = document.priceImpact.level;
  return {
    request,
    headline: document.headline,
    lines: planLines(document),
    quotes: document.swaps,
    slippageBps: planned.slippageBps,
    impact: level,
    deploysAccount: document.deploysAccount,
    calls: document.calls.map((c) => ({
      contract: c.contractAddress,
      entrypoint: c.entrypoint,
      description: c.description,
    })),
    simulatedChanges:
      document.simulation.status === 'ok'
        ? document.simulation.balanceChanges.map((c) => ({
            symbol: c.token.symbol,
            decimals: c.token.decimals,
            delta: BigInt(c.change.baseUnits),
          }))
        : [],
    warnings: document.warnings,
    acknowledgments: document.acknowledgments,
    ...(document.rebalance === undefined ? {} : { rebalance: document.rebalance }),
    expiresAt: planned.confirmBy,
    handle,
  };
}

const HEADLINES: Record<ExecutionResult['kind'], string> = byKind((k) => k.done);

/** "Sent 1.5 STRK to 0x…": exact, with the whole recipient address. */
function sentHeadline(result: ExecutionResult): string {
  const [send] = result.sends;
  return send === undefined
    ? HEADLINES.send
    : `${HEADLINES.send} ${send.amount.amount} ${send.amount.symbol} to ${send.to}`;
}

/** An executed plan: the core's receipt lines (each balance change, each output against its confirmed minimum, the gas). */
export function receiptOf(result: ExecutionResult): Receipt {
  return {
    headline: result.kind === 'send' ? sentHeadline(result) : HEADLINES[result.kind],
    transactionHash: result.transaction.hash,
    status: 'succeeded',
    lines: receiptLines(result),
  };
}

/**
 * The port over the core: its service modules registered on one root (cli/ui/services/root.ts;
 * docs/architecture.md "Interactive app"). The plans module maps requests, plans and receipts
 * with this file's actionRequest, planView and receiptOf.
 */
export function createServices(options: { env: NodeJS.ProcessEnv; sandbox: boolean }): TuiServices {
  const root = createServicesRoot(options);
  return mountServices(
    registerConnection(root, undefined),
    registerSession(root, undefined),
    registerReads(root, undefined),
    registerPlans(root, { actionRequest, planView, receiptOf }),
    registerHistory(root, undefined),
    registerSettings(root, undefined),
  );
}
