import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

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
