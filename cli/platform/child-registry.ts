/**
 * Every child process this program started and has not stopped yet, so main can stop them all
 * however a command ends (result, error, Ctrl+C). Kept free of imports: main loads it eagerly.
 */
export interface Stoppable {
  stop(): Promise<void>;
}

const live = new Set<Stoppable>();

export function track(child: Stoppable): () => void {
  live.add(child);
  return () => {
    live.delete(child);
  };
}

export async function stopAllChildren(): Promise<void> {
  const all = [...live];
  live.clear();
  await Promise.allSettled(all.map((child) => child.stop()));
}

let shuttingDown = false;

/** Set by main's signal handler; a child's parent-watch does not signal again once set. */
export function markShuttingDown(): void {
  shuttingDown = true;
}

export function isShuttingDown(): boolean {
  return shuttingDown;
}
