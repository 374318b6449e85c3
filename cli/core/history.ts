/**
 * The transactions this client sent, kept locally in `<data folder>/history.json` (0600):
 * time, kind, network, account, amounts, hash and status (updated when a receipt arrives).
 *
 * - Written the one way the program writes its files (shared/fs.ts): every write replaces the
 *   whole file atomically (temp file + fsync + rename), so a crash leaves the old file or the
 *   new one, never half of one; and every read-modify-write holds the file's lock (a TUI and a
 *   headless command may run at once; a lock left by a dead process is broken). Waiting longer
 *   than the lock's wait (5 s unless lockWaitMs says otherwise) is HISTORY_ERROR.
 * - Bounded: the newest MAX_ENTRIES are kept; a file over MAX_FILE_BYTES or one that does not
 *   match the schema is set aside as `history.corrupt-<time>.json` (never deleted) and a new
 *   history starts.
 * - Its text (summary, revert reason, symbols) is printable (shared/printable.ts): outside text is
 *   made printable where it enters the client, and an entry read back is cleaned again, so a file
 *   written by an older version (which stored a revert reason raw) never puts an escape sequence
 *   on a terminal, whichever face lists it; the next write stores the clean text.
 * History is a local record, not the truth (the chain is): a caller that has already sent a
 * transaction reports a history failure as a warning, never as a failed transaction.
 */
import { FELT_HEX, feltHex } from '../../shared/felt.js';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Static } from 'typebox';
import { AppError, ErrorCode } from '../../shared/errors.js';
import {
  nodeFs,
  openDataFile,
  readFileText,
  renameFile,
  withFileLock,
  writeFileAtomic,
} from '../../shared/fs.js';
import { printable } from '../../shared/printable.js';
import { historyFileCheck } from './history-check.js';
import { HistoryAmount, HistoryEntry, HistoryFile, MAX_ENTRIES } from './history-schema.js';

const MAX_FILE_BYTES = 4 * 1024 * 1024;

export type HistoryAmount = Static<typeof HistoryAmount>;
export type HistoryEntry = Static<typeof HistoryEntry>;
export type HistoryStatus = HistoryEntry['status'];
export type NewHistoryEntry = Omit<HistoryEntry, 'time' | 'updatedAt'>;
/** A field set to undefined is removed (a contradiction once the chain agrees again). */
export type HistoryUpdate = {
  [K in 'status' | 'amounts' | 'revertReason' | 'hash' | 'note' | 'fee' | 'contradiction']?:
    | HistoryEntry[K]
    | undefined;
};
/** Not settled yet: the chain may still say how it ended. */
export const UNRESOLVED: ReadonlySet<HistoryStatus> = new Set<HistoryStatus>([
  'pending',
  'unknown',
]);

/** An entry whose every text is one printable line within the schema's bounds. */
function cleanEntry(entry: HistoryEntry): HistoryEntry {
  return {
    ...entry,
    summary: printable(entry.summary, 500),
    amounts: entry.amounts.map((a) => ({
      ...a,
      symbol: printable(a.symbol, 16),
      amount: printable(a.amount, 100),
    })),
    ...(entry.revertReason === undefined
      ? {}
      : { revertReason: printable(entry.revertReason, 1000) }),
    ...(entry.contradiction === undefined
      ? {}
      : { contradiction: printable(entry.contradiction, 300) }),
  };
}

// compiled (up to 1000 entries, checked on every read and write): in the bin, generated when it
// was built (cli/core/history-check.ts)
let validator: Promise<{ Check(value: unknown): boolean }> | undefined;
const isHistoryFile = async (value: unknown): Promise<boolean> =>
  (await (validator ??= historyFileCheck())).Check(value);

interface HistoryOptions {
  /** ms since the epoch, for the entries' times (tests inject a clock; lock staleness uses the real one) */
  now?: () => number;
  maxEntries?: number;
  /** how long to wait for another process's lock (default 5 s) */
  lockWaitMs?: number;
}

export interface HistoryList {
  /** newest first */
  entries: HistoryEntry[];
  /** where an unreadable history was moved, when that happened during this call */
  setAside: string | null;
}

export interface HistoryStore {
  readonly path: string;
  /** records a sent transaction (status usually pending) and returns it as stored */
  append(entry: NewHistoryEntry): Promise<HistoryEntry>;
  /** updates the entry with this id or hash; undefined when there is none */
  update(key: string, patch: HistoryUpdate): Promise<HistoryEntry | undefined>;
  list(): Promise<HistoryList>;
}

function historyError(message: string, cause?: unknown): AppError {
  return new AppError(ErrorCode.HISTORY_ERROR, message, {
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * The one hash format (docs/architecture.md "Headless output"): 0x + 64 lower-case hex, as
 * receipts, events, `history --json` and the app print it, so string comparison works.
 */
function canonicalHash(hash: string): string {
  if (!FELT_HEX.test(hash.trim()))
    throw historyError(`"${hash.slice(0, 80)}" is not a transaction hash`);
  return feltHex(BigInt(hash.trim()));
}

/** Entries as read: older files spelled hashes without leading zeros. */
const migrated = (entry: HistoryEntry): HistoryEntry =>
  entry.hash === undefined ? entry : { ...entry, hash: canonicalHash(entry.hash) };

const newId = (): string => randomBytes(8).toString('hex');

/** The entry's key: its id, else (older entries) its hash. */
export const entryKey = (entry: HistoryEntry): string => entry.id ?? entry.hash ?? '';

export function openHistory(dir: string, options: HistoryOptions = {}): HistoryStore {
  const path = join(dir, 'history.json');
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? MAX_ENTRIES;

  /** The stored entries (oldest first); an unreadable file is set aside. */
  async function read(): Promise<{ entries: HistoryEntry[]; setAside: string | null }> {
    let text: string;
    try {
      // read only if a regular file (openDataFile: a FIFO in its place would block for ever)
      const fd = openDataFile(path);
      try {
        if (nodeFs.fstatSync(fd).size > MAX_FILE_BYTES)
          return { entries: [], setAside: await setAside() };
        text = await readFileText(fd);
      } finally {
        nodeFs.closeSync(fd);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        return { entries: [], setAside: null };
      throw historyError(`cannot read the history at ${path} (${(error as Error).message})`, error);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!(await isHistoryFile(parsed))) return { entries: [], setAside: await setAside() };
    const file = parsed as Static<typeof HistoryFile>;
    return { entries: file.entries.map((e) => cleanEntry(migrated(e))), setAside: null };
  }

  async function setAside(): Promise<string> {
    const target = join(
      dir,
      `history.corrupt-${new Date(now()).toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}.json`,
    );
    await renameFile(path, target);
    return target;
  }

  function write(entries: HistoryEntry[]): void {
    const kept = entries.slice(-maxEntries);
    try {
      writeFileAtomic(path, `${JSON.stringify({ version: 1, entries: kept }, null, 2)}\n`, 0o600);
    } catch (error) {
      throw historyError(
        `cannot write the history at ${path} (${(error as Error).message})`,
        error,
      );
    }
  }

  const locked = <T>(work: () => Promise<T>): Promise<T> =>
    withFileLock(path, work, {
      ...(options.lockWaitMs === undefined ? {} : { waitMs: options.lockWaitMs }),
      code: ErrorCode.HISTORY_ERROR,
      what: 'the history',
    });

  return {
    path,
    append: (entry) =>
      locked(async () => {
        const time = new Date(now()).toISOString();
        const stored: HistoryEntry = cleanEntry({
          ...entry,
          id: entry.id ?? newId(),
          ...(entry.hash === undefined ? {} : { hash: canonicalHash(entry.hash) }),
          time,
          updatedAt: time,
        });
        if (!(await isHistoryFile({ version: 1, entries: [stored] })))
          throw historyError('refusing to record a malformed history entry');
        const { entries } = await read();
        write([...entries, stored]);
        return stored;
      }),
    update: (key, patch) =>
      locked(async () => {
        const hash = FELT_HEX.test(key.trim()) ? canonicalHash(key) : undefined;
        const { entries } = await read();
        const index = entries.findLastIndex(
          (e) => e.id === key || (hash !== undefined && e.hash === hash),
        );
        const current = entries[index];
        if (current === undefined) return undefined;
        const merged: Record<string, unknown> = {
          ...current,
          ...patch,
          ...(patch.hash === undefined ? {} : { hash: canonicalHash(patch.hash) }),
          updatedAt: new Date(now()).toISOString(),
        };
        for (const [field, value] of Object.entries(merged))
          if (value === undefined) delete merged[field];
        const next: HistoryEntry = cleanEntry(merged as HistoryEntry);
        if (!(await isHistoryFile({ version: 1, entries: [next] })))
          throw historyError('refusing to record a malformed history update');
        entries[index] = next;
        write(entries);
        return next;
      }),
    // Under the lock too: reading may set a bad file aside, which must not race a writer.
    list: () =>
      locked(async () => {
        const { entries, setAside: moved } = await read();
        return { entries: [...entries].reverse(), setAside: moved };
      }),
  };
}

export interface TransactionTracker {
  /** history failures, as messages: the transaction itself is unaffected */
  readonly warnings: string[];
  /** the transaction exists: record it as pending */
  submitted(hash: string): void;
  /** its receipt (or its revert) arrived */
  settled(hash: string, patch: HistoryUpdate): Promise<void>;
  /**
   * the flow failed: a revert (TRANSACTION_REVERTED) is recorded as such; a signed transaction
   * whose answer was lost (SUBMITTED_UNCONFIRMED with no hash) as `unknown`, with what identifies
   * it; a receipt the chain contradicts (TRANSACTION_PENDING with a contradiction) as `unknown`,
   * the contradiction kept; anything else after the hash stays pending
   */
  failed(error: unknown): Promise<void>;
}

/**
 * One transaction's life in the history, for a flow that signs: pending when submitted, then
 * updated from its receipt. A history that cannot be written is a warning, never a failure (the
 * chain is the truth); without a store nothing is recorded.
 */
export function trackTransaction(
  history: HistoryStore | undefined,
  entry: Omit<NewHistoryEntry, 'hash' | 'status' | 'id'>,
): TransactionTracker {
  const warnings: string[] = [];
  const id = newId();
  let recorded = false;
  let pending: Promise<void> = Promise.resolve();
  const safely = async (work: () => Promise<unknown>): Promise<void> => {
    try {
      await work();
    } catch (error) {
      warnings.push(error instanceof AppError ? error.message : 'the history could not be written');
    }
  };
  const settled = async (hash: string, patch: HistoryUpdate): Promise<void> => {
    await pending;
    if (history !== undefined) await safely(() => history.update(id, { hash, ...patch }));
  };
  return {
    warnings,
    submitted(hash) {
      recorded = true;
      if (history !== undefined)
        pending = safely(() => history.append({ ...entry, id, hash, status: 'pending' }));
    },
    settled,
    async failed(error) {
      await pending;
      if (!(error instanceof AppError)) return;
      if (error.code === ErrorCode.TRANSACTION_REVERTED) {
        const hash = error.details?.transactionHash;
        if (typeof hash !== 'string') return;
        const reason = String(error.details?.revertReason ?? '').slice(0, 1000);
        await settled(hash, {
          status: 'reverted',
          ...(reason === '' ? {} : { revertReason: reason }),
        });
        return;
      }
      const contradiction = error.details?.contradiction;
      if (error.code === ErrorCode.TRANSACTION_PENDING && typeof contradiction === 'string') {
        const hash = error.details?.transactionHash;
        if (typeof hash !== 'string') return;
        await settled(hash, { status: 'unknown', contradiction: contradiction.slice(0, 300) });
        return;
      }
      if (error.code === ErrorCode.SUBMITTED_UNCONFIRMED && !recorded && history !== undefined) {
        recorded = true;
        const note =
          `the answer to the submission was lost (${String(error.details?.cause ?? 'unknown cause')}); it may have been executed`.slice(
            0,
            300,
          );
        await safely(() => history.append({ ...entry, id, status: 'unknown', note }));
      }
    },
  };
}
