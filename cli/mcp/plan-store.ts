/**
 * The plans this server made (docs/architecture.md "Tool server"): kept in memory for
 * execute_plan (at most 32, for 10 minutes), each answered with its id, until when it may be
 * executed and whether a cap the server holds would refuse it.
 */
import { randomUUID } from 'node:crypto';
import type { ServerContext } from '@modelcontextprotocol/server';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { printable } from '../../shared/printable.js';
import type { PlannedWalletAction } from '../core/actions/index.js';
import { QUOTE_MAX_AGE_MS } from '../core/actions/rules.js';
import type { StoredPlan, ToolDeps } from './deps.js';
import { humanlessRefusal } from './guards.js';

/** Plans kept at once; the oldest goes first. A plan past its expiry is of no use anyway. */
const MAX_PLANS = 32;

export type PlanStore = ReturnType<typeof planStore>;

export function planStore({ server, options: o, endpoints: ep, now }: ToolDeps) {
  const plans = new Map<string, StoredPlan>();
  const keep = (planned: PlannedWalletAction): string => {
    const cutoff = now() - 10 * 60_000;
    for (const [id, p] of plans) if (p.madeAt < cutoff || plans.size >= MAX_PLANS) plans.delete(id);
    const id = randomUUID();
    plans.set(id, { planned, madeAt: now() });
    return id;
  };

  /**
   * Why execute_plan would refuse this plan for a cap the server holds (issue 32 item 6), or
   * undefined: the same checks execute_plan makes before it asks anything (humanlessRefusal, the
   * core's checkLimits; a budget is checked, not reserved). A recipient outside the list is not a
   * refusal where the host can ask the person about it.
   */
  const capRefusal = async (
    planned: PlannedWalletAction,
    canAsk: boolean,
    signal: AbortSignal,
  ): Promise<AppError | undefined> => {
    const [{ checkLimits }, { payees }] = await Promise.all([
      import('../core/actions/caps.js'),
      import('../core/actions/recipients.js'),
    ]);
    try {
      if (!canAsk) {
        const refusal = humanlessRefusal(
          o.limits,
          payees(planned.plan).length > 0,
          ep.grant !== undefined,
        );
        if (refusal !== undefined) return refusal;
      }
      const limits = canAsk && o.limits ? { ...o.limits, allowRecipients: undefined } : o.limits;
      await checkLimits(planned.plan, limits, planned.context.aggregator, { signal }, planned.gas);
      return undefined;
    } catch (error) {
      if (error instanceof AppError && error.code !== ErrorCode.CANCELLED) return error;
      throw error;
    }
  };

  /** A plan kept for execute_plan: its id, until when it may be executed, and the document to show. */
  const planResult = async (planned: PlannedWalletAction, ctx: ServerContext) => {
    const planId = keep(planned);
    // without the person's confirmation through the host, only a plan as fresh as a quote holds
    const confirmBy = Math.min(planned.confirmBy, now() + QUOTE_MAX_AGE_MS);
    const canAsk = server.server.getClientCapabilities()?.elicitation !== undefined;
    const refused = o.allowExecute
      ? await capRefusal(planned, canAsk, ctx.mcpReq.signal)
      : undefined;
    const executable = o.allowExecute && refused === undefined;
    return {
      planId,
      confirmBy: new Date(confirmBy).toISOString(),
      executable,
      ...(refused === undefined
        ? {}
        : {
            notExecutable: {
              code: refused.code,
              message: printable(refused.message),
              ...(refused.details === undefined ? {} : { details: refused.details }),
            },
          }),
      next: executable
        ? 'show the person the plan and get their confirmation, then call execute_plan(planId) before confirmBy'
        : refused !== undefined
          ? 'execute_plan would refuse this plan (notExecutable says why and names the cap): show the person the plan and the reason; plan a smaller amount or another recipient'
          : 'this server is read-only: show the plan; executing it needs the server started with --allow-execute',
      plan: planned.document,
    };
  };

  return { get: (id: string) => plans.get(id), keep, planResult };
}
