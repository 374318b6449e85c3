/**
 * A quote that follows its input: debounced DEBOUNCE_MS, the previous request aborted when the
 * input changes (or the screen leaves, or the app stops), refreshed every REFRESH_MS.
 */
import { useEffect, useReducer, useRef } from 'react';
import { useUi } from '../context.js';
import type { QuoteRequest } from '../services.js';
import {
  DEBOUNCE_MS,
  initialLiveQuote,
  liveQuoteReducer,
  type LiveQuoteState,
  REFRESH_MS,
  SPINNER_AFTER_MS,
} from './live-quote-state.js';

export function useLiveQuote(request: QuoteRequest | undefined): LiveQuoteState {
  const { services, rootSignal, now, quoteDebounceMs = DEBOUNCE_MS } = useUi();
  const [state, dispatch] = useReducer(liveQuoteReducer, initialLiveQuote);
  const seq = useRef(0);
  // the quote follows the request's content, not its identity (a new object on every render)
  const { amount, from, to, slippageBps } = request ?? {};

  useEffect(() => {
    seq.current += 1;
    const mine = seq.current;
    const empty =
      amount === undefined || from === undefined || to === undefined || slippageBps === undefined;
    dispatch({ type: 'input', seq: mine, empty });
    if (empty) return;
    const request: QuoteRequest = { amount, from, to, slippageBps };
    const controller = new AbortController();
    const signal = AbortSignal.any([controller.signal, rootSignal]);
    const timers = new Set<NodeJS.Timeout>();
    const later = (ms: number, fn: () => void): void => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        fn();
      }, ms);
      timers.add(timer);
    };
    const ask = (): void => {
      if (signal.aborted) return;
      dispatch({ type: 'ask', seq: mine });
      later(SPINNER_AFTER_MS, () => dispatch({ type: 'slow', seq: mine }));
      services.quote(request, { signal }).then(
        (quote) => {
          if (signal.aborted) return;
          dispatch({ type: 'answer', seq: mine, quote, now: now() });
          later(REFRESH_MS, ask);
        },
        (error: unknown) => {
          if (!signal.aborted) dispatch({ type: 'error', seq: mine, error });
        },
      );
    };
    later(quoteDebounceMs, ask);
    return () => {
      controller.abort();
      for (const timer of timers) clearTimeout(timer);
    };
  }, [amount, from, to, slippageBps, services, rootSignal, now, quoteDebounceMs]);

  return state;
}
