/**
 * The app's plans (docs/architecture.md "Interactive app"): a plan through the core's one
 * pipeline (planAction, cli/core/actions) behind a handle the screens hold, and its execution
 * (executeAction); a plan the core made again on the way goes back to the review (PlanChanged).
 * How a request, a plan and a receipt are mapped is the adapter's (cli/ui/adapter.ts), given as
 * deps.
 */
import { AppError, ErrorCode } from '../../../shared/errors.js';
import type {
  ActionRequest,
  ExecutionResult,
  PlannedWalletAction,
} from '../../core/actions/index.js';
import { PlanChanged } from '../plan-changed.js';
import type { PlanHandle, PlanRequest, PlanView, Receipt } from '../services.js';
import type { ServicesModule } from './root.js';

interface PlanMapping {
  /** the screens' request as the core's typed action request */
  actionRequest(request: PlanRequest): ActionRequest;
  planView(
    request: PlanRequest,
    planned: Pick<PlannedWalletAction, 'document' | 'slippageBps' | 'gas' | 'confirmBy'>,
    handle: PlanHandle,
  ): PlanView;
  receiptOf(result: ExecutionResult): Receipt;
}

export const registerPlans: ServicesModule<'plan' | 'execute', PlanMapping> = (root, mapping) => {
  // the core's plans behind the handles the screens hold
  const plans = new WeakMap<PlanHandle, PlannedWalletAction>();
  return {
    async plan(request, _session, { signal, onProgress }) {
      const { e } = root.ready();
      const [actions, { describeEvent }] = await Promise.all([
        import('../../core/actions/index.js'),
        import('../../core/events.js'),
      ]);
      // the review asks for the typed word for each acknowledgment the plan lists (a price impact
      // or a slippage above 15 %, …) before anything is signed, so the core lists them instead
      // of refusing (the headless flags give them up front)
      const planned = await actions.planAction(
        e,
        mapping.actionRequest(request),
        { slippageBps: request.slippageBps, askAtConfirmation: true },
        { signal, onProgress: (event) => onProgress?.(describeEvent(event)) },
      );
      const handle = Object.freeze({}) as PlanHandle;
      plans.set(handle, planned);
      return mapping.planView(request, planned, handle);
    },

    async execute(plan, _session, { signal, onStep }) {
      const planned = plans.get(plan.handle);
      if (planned === undefined)
        throw new AppError(ErrorCode.INTERNAL_ERROR, 'this plan was not made here: plan it again');
      const { executeAction, replannedOf } = await import('../../core/actions/index.js');
      // The review took the typed word for exactly the acknowledgments this plan listed; one a
      // re-quote adds on the way (an impact that crossed 15 %) is refused by the core.
      const result = await executeAction(
        planned,
        {
          signal,
          onProgress: (event) =>
            event.kind !== 'sandbox-start' && event.kind !== 'server-start' && onStep(event),
        },
        { acknowledged: plan.acknowledgments.map((a) => a.id) },
      ).catch(async (error: unknown) => {
        const replanned = await replannedOf(error);
        if (replanned === undefined || !(error instanceof AppError)) throw error;
        // nothing was signed: the plan made again goes back to the review, what moved said
        const handle = Object.freeze({}) as PlanHandle;
        plans.set(handle, replanned);
        const changes = Array.isArray(error.details?.changes)
          ? error.details.changes.map(String)
          : [];
        throw new PlanChanged(
          {
            ...mapping.planView(plan.request, replanned, handle),
            changed: { changes, before: [plan.headline, ...plan.lines.map((l) => l.words)] },
          },
          error.message,
        );
      });
      return mapping.receiptOf(result);
    },
  };
};
