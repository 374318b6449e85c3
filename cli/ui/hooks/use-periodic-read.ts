/**
 * A screen's read of live chain state, shown while open: read when the screen opens, again every
 * `everyMs` and at once on `read()` (Ctrl+R). A tick while a read is still out skips, so a slow
 * chain is never asked twice nor its read aborted before it can answer; a `read()` by hand
 * replaces the running one (useTask aborts it). What was last read stays shown while the next read
 * runs (no flicker) and after a failed one, which the screen says above it. Lending and Staking
 * share it (docs/app.md "Lending", "Staking").
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { type TaskState, useTask } from './use-task.js';

/**
 * How often an open Lending or Staking screen reads its positions again: a health factor moves
 * with the oracle's prices and an exit window with the chain's clock, and a person watching must
 * see it change without a key.
 */
export const LIVE_READ_MS = 15_000;

export function usePeriodicRead<T>(
  reader: ((call: { signal: AbortSignal }) => Promise<T>) | undefined,
  everyMs: number,
): { loading: TaskState<T>; shown: T | undefined; read: () => void } {
  const [loading, load] = useTask<T>();
  const [shown, setShown] = useState<T | undefined>(undefined);
  // which read is the latest: only its end says no read is out any more
  const latest = useRef(0);
  const reading = useRef(false);
  const readerRef = useRef(reader);
  readerRef.current = reader;

  const read = useCallback((): void => {
    const current = readerRef.current;
    if (current === undefined) return;
    const mine = ++latest.current;
    reading.current = true;
    void load((signal) => current({ signal })).then((value) => {
      if (latest.current === mine) reading.current = false;
      if (value !== undefined) setShown(value);
    });
  }, [load]);

  useEffect(() => {
    read();
    const timer = setInterval(() => {
      if (!reading.current) read();
    }, everyMs);
    return () => clearInterval(timer);
  }, [read, everyMs]);

  return { loading, shown, read };
}
