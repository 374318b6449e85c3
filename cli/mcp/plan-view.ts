/**
 * How the tool server words a plan for the person (docs/architecture.md "One plan model"): the
 * question the host shows before anything is signed is the core's plan lines (plan-lines.ts),
 * the same lines the headless text and the app's review show; this face adds only the checksum
 * form of each recipient and the allocation of a rebalance.
 */
import type { PlanDocument } from '../core/actions/document.js';
import { planLines } from '../core/actions/plan-lines.js';
import { checksumForm } from './guards.js';

/** The most an elicitation message holds. */
const MAX_MESSAGE = 4000;

/**
 * What the person is asked to confirm: the headline, then each line of the plan (what leaves,
 * "at most" a bound, what arrives at least, the fees, the recipients, the terms, the gas).
 */
export function consentMessage(d: PlanDocument): string {
  const lines = [`Sign this ${d.kind} on ${d.network}? ${d.headline}`];
  for (const l of planLines(d))
    lines.push(l.to === null ? l.words : `${l.words} (checksum form ${checksumForm(l.to)})`);
  if (d.rebalance !== undefined)
    lines.push(
      `allocation (now → after, target): ${d.rebalance.rows.map((r) => `${r.symbol} ${r.now} → ${r.after ?? '?'} % (${r.target} %)`).join(', ')}`,
    );
  return lines.join('\n').slice(0, MAX_MESSAGE);
}
