/**
 * The files this process is waiting to write while another finance-tui holds their lock
 * (settings, session, history, sandbox state): the wait is asynchronous (shared/fs.ts
 * withFileLock), so the app keeps drawing and taking keys, and the root says what it waits for.
 * See docs/architecture.md "Persistence".
 */
import { useEffect, useState } from 'react';
import type { TuiServices } from '../services.js';

export function useLockWaits(services: TuiServices): string[] {
  const [waits, setWaits] = useState<ReadonlyArray<{ what: string }>>([]);
  useEffect(
    () =>
      services.watchLockWaits((wait, waiting) =>
        setWaits((list) => (waiting ? [...list, wait] : list.filter((w) => w !== wait))),
      ),
    [services],
  );
  return [...new Set(waits.map((w) => w.what))];
}
