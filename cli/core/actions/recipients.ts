/**
 * Who a plan pays (docs/architecture.md "Tool server"): the third parties its legs send money to,
 * and the recipient list a face may set once for every plan it executes (the tool server's
 * `--allow-recipient`). Today the legs that pay a third party are the transfers of a send or a
 * batch (an `out` effect with a `to`) and a claim paid to a reward address other than the account
 (an `in` effect with a `to`); a swap pays the account itself. `payees` is the one place that answers "who is paid".
 */
import { feltHex } from '../../../shared/felt.js';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { sameAddress } from '../../../shared/tokens.js';
import { effectsOf } from './legs/index.js';
import type { ActionPlan } from './plan.js';

/** 0x + 64 lower-case hex (the form the plan's addresses are in). */
const canonical = (address: string): string => feltHex(BigInt(address));

/** The third parties the plan pays (never the account itself), once each, in the plan's order. */
export function payees(
  plan: Pick<ActionPlan, 'account' | 'legs' | 'network' | 'router'>,
): string[] {
  const out: string[] = [];
  const effects = effectsOf(plan.legs, plan);
  for (const e of [...effects.out, ...effects.in]) {
    if (e.to === undefined || sameAddress(e.to, plan.account)) continue;
    const to = canonical(e.to);
    if (!out.includes(to)) out.push(to);
  }
  return out;
}

/** The payees not in `allowed`; all of none when there is no list (undefined: any recipient). */
export function unlistedPayees(
  plan: Pick<ActionPlan, 'account' | 'legs' | 'network' | 'router'>,
  allowed: readonly string[] | undefined,
): string[] {
  if (allowed === undefined) return [];
  return payees(plan).filter((p) => !allowed.some((a) => sameAddress(a, p)));
}

/** Pure: refuses (before signing) a plan that pays a third party outside `allowed`. */
export function checkRecipients(
  plan: Pick<ActionPlan, 'account' | 'legs' | 'network' | 'router'>,
  allowed: readonly string[] | undefined,
): void {
  const refused = unlistedPayees(plan, allowed);
  if (refused.length === 0) return;
  throw new AppError(
    ErrorCode.RECIPIENT_NOT_ALLOWED,
    `nothing was signed: this plan pays ${refused.join(', ')}, which the server's recipient list does not include`,
    { details: { recipients: refused } },
  );
}
