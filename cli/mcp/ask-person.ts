/**
 * What execute_plan asks the person before a plan is signed (docs/architecture.md "Tool server"
 * "Consent, never implicit"): the caps checked first, then a recipient outside the list, the
 * acknowledgments the plan needs, and the plan itself — each through the host where it can ask;
 * where it cannot, only a plan as fresh as a quote.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { printable } from '../../shared/printable.js';
import type { AcknowledgmentId } from '../core/actions/acknowledgments.js';
import type { ActionLimits } from '../core/actions/index.js';
import { QUOTE_MAX_AGE_MS } from '../core/actions/rules.js';
import { acknowledgmentMessage, recipientMessage } from './consent.js';
import { consentMessage } from './plan-view.js';
import type { StoredPlan } from './deps.js';

/** Asks the person one yes/no question through the host; anything but an explicit yes is no (fail closed). */
async function ask(
  ctx: ServerContext,
  message: string,
  title: string,
  description: string,
  refused: AppError,
): Promise<void> {
  const answer = await ctx.mcpReq
    .elicitInput({
      mode: 'form',
      message,
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', title, description } },
        required: ['confirm'],
      },
    })
    .catch((error: unknown) => {
      if (ctx.mcpReq.signal.aborted) throw new AppError(ErrorCode.CANCELLED, 'cancelled');
      throw new AppError(
        ErrorCode.CONFIRMATION_REQUIRED,
        `nothing was signed: the host could not ask the person to confirm (${printable(String((error as Error)?.message ?? error), 120)})`,
      );
    });
  if (answer.action !== 'accept' || answer.content?.confirm !== true) throw refused;
}

/**
 * Asks the person what this plan needs (a plan already sent, or being sent, is refused by the
 * core with its hash before any question: call this only for a ready one). Returns the caps for
 * this plan (a recipient the person accepted is allowed for it only) and what they acknowledged.
 */
export async function askThePerson(
  ctx: ServerContext,
  server: { limits: ActionLimits | undefined; now: () => number },
  stored: StoredPlan,
  canAsk: boolean,
  replan: string,
): Promise<{ limits: ActionLimits | undefined; acknowledged: AcknowledgmentId[] }> {
  const { planned } = stored;
  const o = { limits: server.limits };
  const now = server.now;
  const [{ checkLimits }, { unlistedPayees }] = await Promise.all([
    import('../core/actions/caps.js'),
    import('../core/actions/recipients.js'),
  ]);
  let limits = o.limits;
  let acknowledged: AcknowledgmentId[] = [];
  const unlisted = unlistedPayees(planned.plan, o.limits?.allowRecipients);
  const askRecipients = unlisted.length > 0 && canAsk;
  // the same caps the core enforces before signing, refused before the person is asked
  // anything (a recipient the person may still accept is asked about next)
  await checkLimits(
    planned.plan,
    askRecipients ? { ...o.limits, allowRecipients: undefined } : o.limits,
    planned.context.aggregator,
    { signal: ctx.mcpReq.signal },
    planned.gas,
  );
  if (askRecipients) {
    await ask(
      ctx,
      recipientMessage(unlisted),
      'Pay this recipient',
      'true pays the address(es) above, for this plan only',
      new AppError(
        ErrorCode.RECIPIENT_NOT_ALLOWED,
        'nothing was signed: the person did not accept the recipient outside the server’s list; tell them, do not send elsewhere',
        { details: { recipients: unlisted } },
      ),
    );
    limits = {
      ...o.limits,
      allowRecipients: [...(o.limits?.allowRecipients ?? []), ...unlisted],
    };
  }
  if (ctx.mcpReq.signal.aborted) throw new AppError(ErrorCode.CANCELLED, 'cancelled');
  const needed = planned.document.acknowledgments;
  if (canAsk && needed.length > 0) {
    await ask(
      ctx,
      acknowledgmentMessage(needed),
      'Accept this risk',
      'true accepts what is named above, for this plan only',
      new AppError(
        ErrorCode.ACKNOWLEDGMENT_REQUIRED,
        'nothing was signed: the person did not accept what this plan needs acknowledged',
        { details: { remedy: needed.map((a) => a.id) } },
      ),
    );
    acknowledged = needed.map((a) => a.id);
  }
  if (canAsk) {
    await ask(
      ctx,
      consentMessage(planned.document),
      'Sign and send',
      'true signs and sends exactly this plan',
      new AppError(
        ErrorCode.CONFIRMATION_REQUIRED,
        'nothing was signed: the person did not confirm the plan',
      ),
    );
    if (now() > planned.confirmBy)
      throw new AppError(
        ErrorCode.CONFIRMATION_REQUIRED,
        `nothing was signed: the plan's quote expired before it was confirmed; ${replan}`,
      );
  } else if (now() > Math.min(planned.confirmBy, stored.madeAt + QUOTE_MAX_AGE_MS)) {
    throw new AppError(
      ErrorCode.CONFIRMATION_REQUIRED,
      `nothing was signed: the plan is older than ${QUOTE_MAX_AGE_MS / 1000} s (or its build expired) and this host cannot ask the person to confirm; ${replan}, show it, and execute it at once`,
    );
  }
  return { limits, acknowledged };
}
