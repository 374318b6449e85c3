/** The clock, re-read every `everyMs` while `active`: countdowns re-render once a second. */
import { useEffect, useState } from 'react';
import { useUi } from '../context.js';

export function useNow(active: boolean, everyMs = 1000): number {
  const { now } = useUi();
  const [time, setTime] = useState(now);
  useEffect(() => {
    if (!active) return;
    setTime(now());
    const timer = setInterval(() => setTime(now()), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs, now]);
  // a deadline set since the last tick (e.g. "resend in 30 s") must not read one second long
  return Math.max(time, now());
}

/** Whole seconds left until `at` (never negative). */
export function secondsUntil(at: number, now: number): number {
  return Math.max(0, Math.ceil((at - now) / 1000));
}
