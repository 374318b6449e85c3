/**
 * The trade form, pure: fields, focus order, slippage presets, which request (if any) the live
 * quote should follow, and how loud the price impact is.
 */
import { isAppError } from '../../../shared/errors.js';
import { parseSlippageBps } from '../../../shared/slippage.js';
import { impactLevel, type ImpactLevel, type QuoteSummary } from '../../core/quote-summary.js';
import type { QuoteRequest } from '../services.js';
import { amountProblem, DEFAULT_PAIR, pairProblem } from './form-fields.js';

export const FIELDS = ['from', 'to', 'amount', 'slippage'] as const;
export type Field = (typeof FIELDS)[number];

/** Slippage presets in bps; the last choice is "custom" (typed). */
export const SLIPPAGE_PRESETS = [10, 50, 100, 200] as const;

/** The word a very high price impact needs typed before it is signed. */
export const CONFIRM_WORD = 'SWAP';

/** The slippage of a swap form: a preset, or a typed percent. */
export interface SlippageChoice {
  /** index into SLIPPAGE_PRESETS, or SLIPPAGE_PRESETS.length for custom */
  slippageChoice: number;
  customSlippage: string;
}

export interface TradeForm extends SlippageChoice {
  from: string;
  to: string;
  amount: string;
  focus: Field;
}

/** The settings' default slippage: its preset, else typed as a custom percent. */
export function initialSlippage(defaultSlippageBps: number): SlippageChoice {
  const preset = SLIPPAGE_PRESETS.indexOf(defaultSlippageBps as (typeof SLIPPAGE_PRESETS)[number]);
  return {
    slippageChoice: preset >= 0 ? preset : SLIPPAGE_PRESETS.length,
    customSlippage: preset >= 0 ? '' : (defaultSlippageBps / 100).toString(),
  };
}

export function initialTrade(defaultSlippageBps: number): TradeForm {
  return { ...DEFAULT_PAIR, amount: '', ...initialSlippage(defaultSlippageBps), focus: 'amount' };
}

export function nextFocus(focus: Field, step = 1): Field {
  const i = FIELDS.indexOf(focus);
  return FIELDS[(i + step + FIELDS.length) % FIELDS.length] ?? 'amount';
}

export function cycleSlippage(choice: number, step: number): number {
  const n = SLIPPAGE_PRESETS.length + 1;
  return (((choice + step) % n) + n) % n;
}

/** The slippage in bps, or a problem with the custom value. */
export function slippageOf(form: SlippageChoice): { bps: number } | { problem: string } {
  const preset = SLIPPAGE_PRESETS[form.slippageChoice];
  if (preset !== undefined) return { bps: preset };
  try {
    return { bps: parseSlippageBps(form.customSlippage) };
  } catch (error) {
    return { problem: isAppError(error) ? error.message : 'invalid slippage' };
  }
}

/** The request to quote, or why there is none yet (an empty amount is not a problem to show). */
export function requestOf(
  form: TradeForm,
  decimalsOf: (symbol: string) => number | undefined,
): { request: QuoteRequest } | { problem: string | undefined } {
  const problem =
    pairProblem(form.from, form.to) ?? amountProblem(form.amount, form.from, decimalsOf(form.from));
  if (problem !== undefined || form.amount.trim() === '') return { problem };
  const slippage = slippageOf(form);
  if ('problem' in slippage) return { problem: slippage.problem };
  return {
    request: {
      amount: form.amount.trim(),
      from: form.from,
      to: form.to,
      slippageBps: slippage.bps,
    },
  };
}

/**
 * How loud a quote's price impact is: the core's own rating (quote-summary.ts impactLevel), so
 * the app, the plans and the headless output never disagree on where "high" starts.
 */
export function quoteImpactLevel(quote: Pick<QuoteSummary, 'priceImpact'>): ImpactLevel {
  return impactLevel(quote.priceImpact?.bps);
}
