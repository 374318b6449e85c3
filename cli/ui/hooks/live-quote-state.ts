/**
 * The live quote's state machine, pure: a new request supersedes the old one (its answer is
 * never shown: each answer carries the sequence number it was asked under); the spinner shows
 * only once a request has run SPINNER_AFTER_MS; a quote is refreshed every REFRESH_MS and
 * stays on screen while its refresh runs.
 */
import type { QuoteSummary } from '../../core/quote-summary.js';
import { describeFailure, type Failure } from '../failure.js';

export const DEBOUNCE_MS = 300;
export const SPINNER_AFTER_MS = 200;
export const REFRESH_MS = 15_000;

export interface LiveQuoteState {
  seq: number;
  /** idle: nothing to quote; waiting: debouncing; loading: asked; ready/failed: answered */
  status: 'idle' | 'waiting' | 'loading' | 'ready' | 'failed';
  quote: QuoteSummary | undefined;
  failure: Failure | undefined;
  spinner: boolean;
  /** when the shown quote is refreshed (ms) */
  refreshAt: number | undefined;
}

type LiveQuoteAction =
  | { type: 'input'; seq: number; empty: boolean }
  | { type: 'ask'; seq: number }
  | { type: 'slow'; seq: number }
  | { type: 'answer'; seq: number; quote: QuoteSummary; now: number }
  | { type: 'error'; seq: number; error: unknown };

export const initialLiveQuote: LiveQuoteState = {
  seq: 0,
  status: 'idle',
  quote: undefined,
  failure: undefined,
  spinner: false,
  refreshAt: undefined,
};

export function liveQuoteReducer(state: LiveQuoteState, action: LiveQuoteAction): LiveQuoteState {
  if (action.type === 'input') {
    // the request changed: what is on screen no longer answers it
    return {
      seq: action.seq,
      status: action.empty ? 'idle' : 'waiting',
      quote: undefined,
      failure: undefined,
      spinner: false,
      refreshAt: undefined,
    };
  }
  if (action.seq !== state.seq) return state; // a superseded request: dropped
  switch (action.type) {
    case 'ask':
      return { ...state, status: 'loading', spinner: false };
    case 'slow':
      return state.status === 'loading' ? { ...state, spinner: true } : state;
    case 'answer':
      return {
        ...state,
        status: 'ready',
        quote: action.quote,
        failure: undefined,
        spinner: false,
        refreshAt: action.now + REFRESH_MS,
      };
    case 'error':
      return {
        ...state,
        status: 'failed',
        quote: undefined,
        failure: describeFailure(action.error),
        spinner: false,
        refreshAt: undefined,
      };
  }
}
