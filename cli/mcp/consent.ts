/**
 * What execute_plan asks the person through the host (docs/architecture.md "Tool server"
 * "Consent, never implicit"): the plan to confirm, the acknowledgments it needs, the recipients
 * outside the server's list.
 */
import type { PlannedWalletAction } from '../core/actions/index.js';
import { spendWords } from '../core/actions/spend-words.js';
import { checksumForm, RECIPIENT_FLAG } from './guards.js';

/**
 * What the person is asked to confirm: what leaves ("at most" a bound), the minimum received,
 * the fee, the recipients, and the plan's terms (what arrives, a lending position as it is left).
 */
export function consentMessage(planned: PlannedWalletAction): string {
  const d = planned.document;
  const lines = [`Sign this ${d.kind} on ${d.network}? ${d.headline}`];
  for (const s of d.spend)
    lines.push(
      `leaves the wallet: ${spendWords(s, false)}${s.gas.baseUnits !== '0' ? ` (+ up to ${s.gas.amount} ${s.token.symbol} gas)` : ''}`,
    );
  lines.push(...d.terms);
  for (const s of d.swaps)
    lines.push(
      `receive at least ${s.confirmedMinimumReceived.amount} ${s.confirmedMinimumReceived.symbol} (service fee ${s.fee.amount.amount} ${s.fee.amount.symbol}, ${s.fee.percent})`,
    );
  for (const s of d.sends)
    lines.push(
      `send ${s.amount.amount} ${s.amount.symbol} to ${s.to} (checksum form ${checksumForm(s.to)})`,
    );
  if (d.rebalance !== undefined)
    lines.push(
      `allocation (now → after, target): ${d.rebalance.rows.map((r) => `${r.symbol} ${r.now} → ${r.after ?? '?'} % (${r.target} %)`).join(', ')}`,
    );
  lines.push(
    d.gas.mode === 'sponsored'
      ? 'gas: sponsored'
      : d.gas.mode === 'default'
        ? `gas: at most ${d.gas.maxFee.amount} ${d.gas.maxFee.symbol}`
        : 'gas: unknown',
  );
  return lines.join('\n').slice(0, 4000);
}

/** What the person is asked to acknowledge: each risk the core named, in its words. */
export function acknowledgmentMessage(
  needed: ReadonlyArray<{ id: string; reason: string }>,
): string {
  return [
    'This plan needs your explicit acknowledgment before it is signed:',
    ...needed.map((a) => `- ${a.reason} (${a.id})`),
    'Accepting acknowledges it for this plan only.',
  ].join('\n');
}

/** What the person is asked about recipients outside the list: each address in full and in its checksum form. */
export function recipientMessage(unlisted: readonly string[]): string {
  return [
    `This plan pays ${unlisted.length === 1 ? 'an address' : 'addresses'} not on this server's recipient list (${RECIPIENT_FLAG}). Check each one in full against where you got it:`,
    ...unlisted.map((a) => `${a}\n  checksum form: ${checksumForm(a)}`),
    'Accepting allows it for this plan only.',
  ].join('\n');
}
