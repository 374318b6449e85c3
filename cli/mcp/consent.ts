/**
 * What execute_plan asks the person through the host (docs/architecture.md "Tool server"
 * "Consent, never implicit"): the acknowledgments a plan needs, the recipients outside the
 * server's list; the plan itself is worded by plan-view.ts (the core's plan lines).
 */
import { checksumForm, RECIPIENT_FLAG } from './guards.js';

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
