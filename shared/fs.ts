import type * as Crypto from 'node:crypto';
import type * as Fs from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { AppError, ErrorCode } from './errors.js';

/**
 * node:fs, required rather than imported, for every module of the program that reads or writes
 * files: an ES import of a built-in builds its module facade, which reads every export — node:fs's
 * lazy `promises` (with readline and the REPL's history behind it) and its streams among them,
 * ~14 of Node's modules no command uses (docs/decisions.md "Built-ins required, TypeBox by name").
 */
export const nodeFs = createRequire(import.meta.url)('node:fs') as typeof Fs;
const {
  chmodSync,
  closeSync,
  fchmodSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFile,
  readFileSync,
  rename,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} = nodeFs;

// node:crypto is loaded when a file is first written or locked, not with this module: a command
// that only reads its settings never needs it (~10 ms of CPU at load; docs/benchmarks.md "Issue 35")
let cryptoModule: typeof Crypto | undefined;
const randomBytes = (size: number): Buffer =>
  (cryptoModule ??= createRequire(import.meta.url)('node:crypto') as typeof Crypto).randomBytes(
    size,
  );

/**
 * node:fs's readFile (as UTF-8 text; a path or an open descriptor) and rename as promises, over its callback API: the same
 * answers and errors as node:fs/promises, whose module loads ~14 more of Node's internal modules
 * (its file handles' readLines brings readline and the REPL's history): ~3 ms of a money command's
 * CPU (docs/benchmarks.md "Issue 35, seventh round"). Never blocks the event loop.
 */
export const readFileText = (path: string | number): Promise<string> =>
  new Promise((resolve, reject) => {
    readFile(path, 'utf8', (error, text) => (error ? reject(error) : resolve(text)));
  });
export const renameFile = (from: string, to: string): Promise<void> =>
  new Promise((resolve, reject) => {
    rename(from, to, (error) => (error ? reject(error) : resolve()));
  });

/**
 * The one way the program writes its files (docs/architecture.md "Persistence"): settings,
 * session, sandbox state and history all go through writeFileAtomic, and a file two processes
 * can read-modify-write goes through withFileLock around it (never a lock that blocks the event
 * loop: see withFileLockSync).
 *
 * Write a file atomically with the given mode: a temp file beside it (created with the mode, so
 * a secret is never world-readable, not even briefly), its bytes flushed to the disk (fsync),
 * renamed over the old file, and the folder flushed so that the rename survives a power cut too.
 * A crash at any point leaves the old file or the new one, never half of one; a looser old file
 * is replaced by one with `mode`.
 */
export function writeFileAtomic(path: string, data: string, mode = 0o600): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', mode);
    fchmodSync(fd, mode); // the umask may have narrowed or the file system widened it
    writeFileSync(fd, data);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, path);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  syncDir(dir);
}

/** Flushes a folder's entries (a rename) to the disk; some platforms cannot open a folder. */
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Windows and some file systems refuse: the rename is done, only its durability is the OS's
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

interface LockOptions {
  /** how long to wait for another process's lock (default 5 s) */
  waitMs?: number;
  /** the code of the error when the lock cannot be had (default CONFIG_ERROR) */
  code?: ErrorCode;
  /** how messages name the file: "the history", "the settings file" */
  what?: string;
}

const LOCK_WAIT_MS = 5_000;
/** a lock older than this is left by a process that hung or whose pid was reused: broken */
const LOCK_STALE_MS = 15_000;
const LOCK_POLL_MS = 20;

/** Whether a process with this pid exists (EPERM: it does, under another user); not a pid: no. */
export function processAlive(pid: unknown): boolean {
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const readOr = (path: string, fallback: string): string => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return fallback;
  }
};

const errno = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? 'error';

/** A lock that cannot be taken, read or removed (a folder in its place, another user's file). */
function lockFailed(lockPath: string, options: LockOptions, error: unknown): AppError {
  return new AppError(
    options.code ?? ErrorCode.CONFIG_ERROR,
    `cannot lock ${options.what ?? 'the file'} (${lockPath}: ${errno(error)})`,
    { cause: error },
  );
}

/** Remove the lock file; a lock already gone is fine, anything else is `lockFailed`. */
function removeLock(lockPath: string, options: LockOptions): void {
  try {
    rmSync(lockPath, { force: true });
  } catch (error) {
    throw lockFailed(lockPath, options, error);
  }
}

/**
 * One attempt at `<path>.lock`, created with O_EXCL and holding "<pid> <random>": the release
 * function when taken; 'retry' when a stale lock (its process is gone, or it is older than
 * LOCK_STALE_MS) was just broken or the lock was released in between; 'busy' when a live one
 * holds it. A lock it cannot classify (unreadable, not a file) is refused at once, never waited
 * on forever nor taken.
 */
function tryLock(lockPath: string, options: LockOptions): (() => void) | 'retry' | 'busy' {
  const token = `${process.pid} ${randomBytes(8).toString('hex')}`;
  let fd: number | undefined;
  try {
    fd = openSync(lockPath, 'wx', 0o600);
    writeFileSync(fd, token);
    const written = fd;
    fd = undefined;
    closeSync(written);
    // Only our own lock: one broken as stale may since belong to someone else. Releasing never
    // throws (it runs in a finally after the work): a lock left behind is broken as stale later.
    return () => {
      try {
        if (readFileSync(lockPath, 'utf8') === token) rmSync(lockPath, { force: true });
      } catch {
        // gone already, or unremovable: the next taker judges it by its pid
      }
    };
  } catch (error) {
    if (fd !== undefined) {
      // created but not written: ours to remove
      closeSync(fd);
      removeLock(lockPath, options);
    }
    if (errno(error) !== 'EEXIST') throw lockFailed(lockPath, options, error);
  }
  let content: string;
  let mtimeMs: number;
  try {
    content = readFileSync(lockPath, 'utf8');
    mtimeMs = statSync(lockPath).mtimeMs;
  } catch (error) {
    if (errno(error) === 'ENOENT') return 'retry'; // released in between
    throw lockFailed(lockPath, options, error);
  }
  const pid = Number(content.split(' ')[0]);
  const stale =
    (Number.isSafeInteger(pid) && pid > 0 && !processAlive(pid)) ||
    Date.now() - mtimeMs > LOCK_STALE_MS;
  if (!stale) return 'busy';
  // removed only if it is still the lock judged stale: another waiter may have broken it and
  // taken a new one since (the random part tells two locks of one pid apart)
  if (readOr(lockPath, '') === content) removeLock(lockPath, options);
  return 'retry';
}

function lockBusy(lockPath: string, options: LockOptions): AppError {
  return new AppError(
    options.code ?? ErrorCode.CONFIG_ERROR,
    `${options.what ?? lockPath} is locked by another finance-tui process (${lockPath})`,
  );
}

/**
 * The waiting rule both lock loops share: after an attempt that did not take the lock, how long
 * to pause before the next one; past the deadline, lockBusy. A just-broken stale lock (or one
 * released in between) is retried at once, deadline or not — nobody holds it, and the deadline
 * is for waiting on a live lock: a process stalled past a short wait while it broke a dead lock
 * must not call it busy — but only once in a row: every other turn pauses and meets the
 * deadline, so no loop can spin.
 */
function pauseAfter(
  attempt: 'retry' | 'busy',
  turn: { retried: boolean; deadline: number },
  lockPath: string,
  options: LockOptions,
): number {
  const immediate = attempt === 'retry' && !turn.retried;
  turn.retried = attempt === 'retry';
  if (immediate) return 0;
  if (Date.now() > turn.deadline) throw lockBusy(lockPath, options);
  return LOCK_POLL_MS;
}

/** A wait for another process's lock: the file's lock and how messages name the file. */
interface LockWait {
  lockPath: string;
  what: string;
}

const lockWaitWatchers = new Set<(wait: LockWait, waiting: boolean) => void>();

/**
 * Be told when withFileLock starts waiting for a lock another process holds (`waiting` true) and
 * when that wait ends, taken or given up (false): the app says it is waiting. Returns the
 * unsubscription.
 */
export function watchLockWaits(watcher: (wait: LockWait, waiting: boolean) => void): () => void {
  lockWaitWatchers.add(watcher);
  return () => lockWaitWatchers.delete(watcher);
}

function tellWatchers(wait: LockWait, waiting: boolean): void {
  for (const watcher of [...lockWaitWatchers]) {
    try {
      watcher(wait, waiting);
    } catch {
      // a watcher only shows the wait: it never decides the lock
    }
  }
}

/**
 * `work` while holding `<path>.lock`: the read-modify-write of a file that two processes (the app
 * and a headless command, two commands) may write at once. Waiting longer than `waitMs` for a
 * live lock is an AppError with `code`. The wait never blocks the event loop (it polls on a
 * timer), and watchers (watchLockWaits) hear when it starts and ends. Every lock of the program
 * is taken this way: settings, session, sandbox state, history.
 */
export async function withFileLock<T>(
  path: string,
  work: () => Promise<T> | T,
  options: LockOptions = {},
): Promise<T> {
  const lockPath = `${path}.lock`;
  const turn = { retried: false, deadline: Date.now() + (options.waitMs ?? LOCK_WAIT_MS) };
  const wait: LockWait = { lockPath, what: options.what ?? lockPath };
  let waiting = false;
  try {
    for (;;) {
      const attempt = tryLock(lockPath, options);
      if (typeof attempt === 'function') {
        if (waiting) {
          waiting = false;
          tellWatchers(wait, false);
        }
        try {
          return await work();
        } finally {
          attempt();
        }
      }
      const pause = pauseAfter(attempt, turn, lockPath, options);
      if (attempt === 'busy' && !waiting) {
        waiting = true;
        tellWatchers(wait, true);
      }
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
    }
  } finally {
    if (waiting) tellWatchers(wait, false);
  }
}

/**
 * withFileLock for synchronous work: waiting blocks the thread, at most `waitMs`. Only where no
 * event loop matters — a process that serves nothing and draws nothing while it waits; no path of
 * the program uses it today (the app, the tool server and the sandbox must not: a lock held by
 * another process would freeze them for up to `waitMs`). See docs/architecture.md "Persistence".
 */
export function withFileLockSync<T>(path: string, work: () => T, options: LockOptions = {}): T {
  const lockPath = `${path}.lock`;
  const turn = { retried: false, deadline: Date.now() + (options.waitMs ?? LOCK_WAIT_MS) };
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    const attempt = tryLock(lockPath, options);
    if (typeof attempt === 'function') {
      try {
        return work();
      } finally {
        attempt();
      }
    }
    const pause = pauseAfter(attempt, turn, lockPath, options);
    if (pause > 0) Atomics.wait(sleeper, 0, 0, pause);
  }
}

const octal = (mode: number): string => `0${(mode & 0o7777).toString(8)}`;

/**
 * Narrow an existing file or folder to `mode` when other users could read it: creating with a mode
 * does nothing to what already exists (a folder copied from elsewhere, a log from an older
 * version, a umask of 022). A shared folder (sticky bit, like /tmp) is refused instead of being
 * narrowed, and so is a path we cannot narrow: either is a clear CONFIG_ERROR, never a secret left
 * readable. `fd` narrows an open file without a second lookup of its path.
 */
export function narrowMode(path: string, mode: number, fd?: number): void {
  const stat = fd === undefined ? statSync(path) : fstatSync(fd);
  if ((stat.mode & 0o777 & ~mode) === 0) return;
  const refuse = (why: string): never => {
    throw new AppError(
      ErrorCode.CONFIG_ERROR,
      `${path} is open to other users (mode ${octal(stat.mode)}) and ${why}`,
    );
  };
  if (stat.isDirectory() && (stat.mode & 0o1000) !== 0)
    refuse('is a shared folder (sticky bit): use a folder of your own');
  // a file reached through a link may be anyone's: its mode is the person's to change, not ours
  if (!stat.isDirectory() && lstatSync(path).isSymbolicLink())
    refuse(`is a link to another file; run chmod ${octal(mode)} on the file it names`);
  try {
    if (fd === undefined) chmodSync(path, mode);
    else fchmodSync(fd, mode);
  } catch (error) {
    refuse(
      `could not be narrowed to ${octal(mode)} (${(error as NodeJS.ErrnoException).code ?? 'error'}); run chmod ${octal(mode)} ${path}`,
    );
  }
}

/** A folder for secrets: created 0700, an existing one narrowed to 0700. */
export function ensurePrivateDir(path: string): void {
  try {
    mkdirSync(path, { recursive: true, mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // a file where the folder (or one above it) should be
    if (code === 'EEXIST' || code === 'ENOTDIR')
      throw new AppError(ErrorCode.CONFIG_ERROR, `${path} is not a folder (${code})`, {
        cause: error,
      });
    throw error;
  }
  narrowMode(path, 0o700);
}

/**
 * A data file opened for reading that never blocks: O_NONBLOCK, as a FIFO in its place would
 * otherwise wait for a writer forever (no signal ends that wait), then anything but a regular file
 * is refused (an error with code ENOTREG). ENOENT and the like as openSync throws them.
 */
export function openDataFile(path: string): number {
  const { O_RDONLY, O_NONBLOCK } = nodeFs.constants;
  const fd = openSync(path, O_RDONLY | O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile())
      throw Object.assign(new Error('not a regular file'), { code: 'ENOTREG' });
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

/** Every regular file directly in `dir` narrowed to 0600 (state files and logs of the sandbox). */
export function narrowFilesIn(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true }))
    if (entry.isFile()) narrowMode(join(dir, entry.name), 0o600);
}

/** A log file opened for appending: created 0600 (folder 0700), an existing one narrowed to 0600. Returns the fd. */
export function openPrivateLog(path: string): number {
  ensurePrivateDir(dirname(path));
  const fd = openSync(path, 'a', 0o600);
  try {
    narrowMode(path, 0o600, fd);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}
