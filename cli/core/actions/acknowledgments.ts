/**
 * One confirmation level per plan, decided by the core (docs/architecture.md "The action
 * pipeline"): a plan lists the acknowledgments it needs, as data — a swap's price impact above
 * 15 % ('high-impact'), a slippage above 15 % ('high-slippage'), an exit intent that restarts a
 * running exit timer ('exit-restart'), a lending position left with a health factor below the
 * safety margin ('low-health', legs/lending-common.ts), a lending pool named by address that is
 * not a known one ('unknown-pool', legs/index.ts) — each leg type saying which of its legs need which. The
 * pipeline refuses to sign a plan whose acknowledgments were not all given, with a stable code
 * and `details.remedy` = the missing ids; each face words the remedy in its own idiom (a flag,
 * the app's typed word, an elicitation). The core names no flag. Pure.
 */
import { AppError, ErrorCode } from '../../../shared/errors.js';

export const ACKNOWLEDGMENT_IDS = [
  'high-impact',
  'high-slippage',
  'exit-restart',
  'low-health',
  'unknown-pool',
] as const;
export type AcknowledgmentId = (typeof ACKNOWLEDGMENT_IDS)[number];

export interface Acknowledgment {
  id: AcknowledgmentId;
  /** what the person acknowledges, in words (exact figures) */
  reason: string;
  /** figures a face or a script may read (a swap's impact: swap, bps, percent, limitBps) */
  details?: Record<string, unknown>;
}

/** One entry per id, in order of first need; the reasons of one id joined. */
export function mergeAcknowledgments(all: readonly Acknowledgment[]): Acknowledgment[] {
  const merged: Acknowledgment[] = [];
  for (const a of all) {
    const found = merged.find((m) => m.id === a.id);
    if (found === undefined) merged.push({ ...a });
    else found.reason = `${found.reason}; ${a.reason}`;
  }
  return merged;
}

/**
 * Refuses (nothing is signed) when an acknowledgment the plan needs was not given:
 * PRICE_IMPACT_TOO_HIGH when a high impact is among them (its own code, as before), else
 * ACKNOWLEDGMENT_REQUIRED; `details.remedy` lists the missing ids, `details.acknowledgments`
 * them with their reasons.
 */
export function requireAcknowledgments(
  needed: readonly Acknowledgment[],
  given: readonly AcknowledgmentId[],
): void {
  const missing = needed.filter((a) => !given.includes(a.id));
  const first = missing[0];
  if (first === undefined) return;
  const impact = missing.find((a) => a.id === 'high-impact');
  throw new AppError(
    impact === undefined ? ErrorCode.ACKNOWLEDGMENT_REQUIRED : ErrorCode.PRICE_IMPACT_TOO_HIGH,
    `nothing was signed: ${missing.map((a) => a.reason).join('; ')}; this needs your explicit acknowledgment (${missing.map((a) => a.id).join(', ')})`,
    {
      details: {
        ...(impact ?? first).details,
        remedy: missing.map((a) => a.id),
        acknowledgments: missing.map((a) => ({ id: a.id, reason: a.reason })),
      },
    },
  );
}
