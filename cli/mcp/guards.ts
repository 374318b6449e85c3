/**
 * The tool server's consent rules that are about its flags (docs/architecture.md "Tool server"):
 * with no person in the loop (a host without elicitation) a plan is executed only under caps, and
 * an address outside the recipient list is shown to the person in full and in its checksum form.
 * The rules on money themselves are the core's (actions/caps.ts, actions/recipients.ts, budget.ts).
 */
import { getChecksumAddress, validateChecksumAddress } from 'starknet';
import { AppError, ErrorCode, usageError } from '../../shared/errors.js';
import type { ActionLimits } from '../core/actions/index.js';
import { parseAddress } from '../../shared/tokens.js';
import { usdText } from '../core/budget.js';

export const RECIPIENT_FLAG = '--allow-recipient';

/** The address's checksum form (starknet.js): mixed case that a typo would break. */
export function checksumForm(address: string): string {
  return getChecksumAddress(address);
}

/**
 * A `--allow-recipient` value: a Starknet address; one typed in mixed case must be exactly its
 * checksum form (a changed letter is refused rather than trusted).
 */
export function parseRecipientFlag(text: string): string {
  const address = parseAddress(text.trim(), RECIPIENT_FLAG);
  const hex = text.trim().slice(2);
  if (/[a-f]/.test(hex) && /[A-F]/.test(hex) && !validateChecksumAddress(text.trim()))
    throw usageError(
      `${RECIPIENT_FLAG} ${text.trim().slice(0, 80)} is in mixed case but not its checksum form (${checksumForm(address)}): check the address`,
    );
  return address;
}

/**
 * Why execution is refused on a host that cannot ask the person, or undefined when the caps
 * allow it: a per-plan cap and a budget, and a recipient list when the plan pays someone. Under
 * an agent grant (`--grant FILE`) the auth server holds the caps — daily amounts, recipients,
 * expiry — and refuses before signing (docs/commands.md "Agent grants"), so none is needed here.
 */
export function humanlessRefusal(
  limits: ActionLimits | undefined,
  paysSomeone: boolean,
  underGrant = false,
): AppError | undefined {
  if (underGrant) return undefined;
  const missing = [
    limits?.maxUsdCents === undefined ? '--max-usd N' : '',
    limits?.budget === undefined ? '--budget-usd N' : '',
    paysSomeone && limits?.allowRecipients === undefined ? `${RECIPIENT_FLAG} ADDRESS` : '',
  ].filter(Boolean);
  if (missing.length === 0) return undefined;
  return new AppError(
    ErrorCode.EXECUTION_DISABLED,
    `nothing was signed: this host cannot ask the person to confirm, so this server executes plans only under caps set at start; the person can restart it with ${missing.join(' and ')}`,
    { details: { missing: missing.map((m) => m.split(' ')[0]) } },
  );
}

/** The budget for get_status: limit, spent, left and the window; null without one. */
export async function budgetView(
  limits: ActionLimits | undefined,
): Promise<Record<string, unknown> | null> {
  const budget = limits?.budget;
  if (budget === undefined) return null;
  try {
    const s = await budget.status();
    return {
      limitUsd: usdText(s.limitCents),
      spentUsd: usdText(s.spentCents),
      leftUsd: usdText(s.leftCents),
      windowHours: Math.round(s.windowMs / 3_600_000),
      nextReleaseAt: s.nextReleaseAt === null ? null : new Date(s.nextReleaseAt).toISOString(),
    };
  } catch (error) {
    // an unreadable record refuses every spend; the status says so rather than failing
    return {
      limitUsd: usdText(budget.limitCents),
      spentUsd: null,
      leftUsd: null,
      error: error instanceof AppError ? error.message : 'the budget record cannot be read',
    };
  }
}
