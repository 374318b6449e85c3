import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fchmodSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { AppError, ErrorCode } from './errors.js';

/**
 * Write a file atomically with the given mode: temp file beside it (created with the mode, so
 * the secret is never world-readable, not even briefly), then rename. A crash leaves either the
 * old file or the new one, never half of one.
 */
export function writeFileAtomic(path: string, data: string, mode = 0o600): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, data, { mode, flag: 'wx' });
    chmodSync(temp, mode); // the umask may have narrowed or the file system widened it
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
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
  mkdirSync(path, { recursive: true, mode: 0o700 });
  narrowMode(path, 0o700);
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
