import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from './errors.js';
import {
  ensurePrivateDir,
  narrowFilesIn,
  openPrivateLog,
  watchLockWaits,
  withFileLock,
  withFileLockSync,
  writeFileAtomic,
} from './fs.js';

const mode = (path: string): number => statSync(path).mode & 0o7777;
let root: string;
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
});

describe('private folders and files', () => {
  it('ensurePrivateDir creates 0700 and narrows an existing 0755 folder', () => {
    root = mkdtempSync(join(tmpdir(), 'fs-test-'));
    const fresh = join(root, 'a', 'b');
    ensurePrivateDir(fresh);
    expect(mode(fresh)).toBe(0o700);
    const loose = join(root, 'loose');
    mkdirSync(loose);
    chmodSync(loose, 0o755);
    ensurePrivateDir(loose);
    expect(mode(loose)).toBe(0o700);
  });

  it('refuses a shared (sticky, world-writable) folder instead of narrowing it', () => {
    root = mkdtempSync(join(tmpdir(), 'fs-test-'));
    const shared = join(root, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    expect(() => ensurePrivateDir(shared)).toThrow(AppError);
    expect(() => ensurePrivateDir(shared)).toThrow(/shared folder \(sticky bit\)/);
    expect(mode(shared)).toBe(0o1777);
  });

  it('openPrivateLog creates 0600 and narrows an existing 0644 log (and its 0755 folder)', () => {
    root = mkdtempSync(join(tmpdir(), 'fs-test-'));
    const dir = join(root, 'logs');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const file = join(dir, 'server.log');
    writeFileSync(file, 'old line\n', { mode: 0o644 });
    chmodSync(file, 0o644);
    closeSync(openPrivateLog(file));
    expect(mode(file)).toBe(0o600);
    expect(mode(dir)).toBe(0o700);
    const fresh = join(dir, 'new.log');
    closeSync(openPrivateLog(fresh));
    expect(mode(fresh)).toBe(0o600);
  });

  it('narrowFilesIn narrows every file of a folder, and leaves tighter ones alone', () => {
    root = mkdtempSync(join(tmpdir(), 'fs-test-'));
    writeFileSync(join(root, 'secrets.json'), '{}');
    chmodSync(join(root, 'secrets.json'), 0o664);
    writeFileSync(join(root, 'tight'), '');
    chmodSync(join(root, 'tight'), 0o400);
    narrowFilesIn(root);
    expect(mode(join(root, 'secrets.json'))).toBe(0o600);
    expect(mode(join(root, 'tight'))).toBe(0o400);
  });
});

describe('the one way to write a file: atomic, 0600, locked', () => {
  it('writeFileAtomic replaces a looser file with a 0600 one and leaves no temp file', () => {
    root = mkdtempSync(join(tmpdir(), 'fs-test-'));
    const file = join(root, 'settings.json');
    writeFileSync(file, '{"old":true}');
    chmodSync(file, 0o644);
    writeFileAtomic(file, '{"new":true}\n');
    expect(readFileSync(file, 'utf8')).toBe('{"new":true}\n');
    expect(mode(file)).toBe(0o600);
    expect(readdirSync(root)).toEqual(['settings.json']);
  });

  it('waits for a live lock, then fails with the given code naming the file; breaks a dead one', async () => {
    root = mkdtempSync(join(tmpdir(), 'fs-test-'));
    const file = join(root, 'settings.json');
    writeFileSync(`${file}.lock`, `${process.pid} someone-else`);
    const options = { waitMs: 60, code: 'HISTORY_ERROR' as const, what: 'the file' };
    expect(() => withFileLockSync(file, () => 1, options)).toThrow(
      expect.objectContaining({
        code: 'HISTORY_ERROR',
        message: expect.stringContaining(
          `the file is locked by another finance-tui process (${file}.lock)`,
        ),
      }),
    );
    await expect(withFileLock(file, () => 1, options)).rejects.toMatchObject({
      code: 'HISTORY_ERROR',
    });
    // a pid far beyond pid_max: no such process
    writeFileSync(`${file}.lock`, '99999999 deadbeef');
    expect(withFileLockSync(file, () => 'ran', options)).toBe('ran');
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('a dead lock is broken and taken even when the machine stalled past the wait meanwhile', async () => {
    root = mkdtempSync(join(tmpdir(), 'fs-test-'));
    const file = join(root, 'settings.json');
    const options = { waitMs: 60, code: 'HISTORY_ERROR' as const };
    // every read of the clock 100 ms after the last: the wait is over before the first attempt
    // ends, as on a loaded machine; a dead lock is nobody's, and is still taken at once
    let clock = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => (clock += 100));
    writeFileSync(`${file}.lock`, '99999999 deadbeef');
    expect(withFileLockSync(file, () => 'ran', options)).toBe('ran');
    writeFileSync(`${file}.lock`, '99999999 deadbeef');
    expect(await withFileLock(file, () => 'ran', options)).toBe('ran');
    expect(existsSync(`${file}.lock`)).toBe(false);
    // a live one is still waited for, then refused
    writeFileSync(`${file}.lock`, `${process.pid} someone-else`);
    expect(() => withFileLockSync(file, () => 1, options)).toThrow(
      expect.objectContaining({ code: 'HISTORY_ERROR' }),
    );
  });

  it('a lock it cannot classify (a folder in its place) is refused at once with the code and the path, never waited on', async () => {
    root = mkdtempSync(join(tmpdir(), 'fs-test-'));
    const file = join(root, 'x.json');
    mkdirSync(`${file}.lock`);
    // a wait this long would time the test out: the refusal must come from the first attempt
    const options = { waitMs: 3_600_000, code: 'HISTORY_ERROR' as const, what: 'the history' };
    const expected = expect.objectContaining({
      code: 'HISTORY_ERROR',
      message: `cannot lock the history (${file}.lock: EISDIR)`,
    });
    expect(() => withFileLockSync(file, () => 1, options)).toThrow(expected);
    await expect(withFileLock(file, () => 1, options)).rejects.toEqual(expected);
  });

  it('releasing removes only its own lock (one broken as stale and taken by another is left alone)', async () => {
    root = mkdtempSync(join(tmpdir(), 'fs-test-'));
    const file = join(root, 'x.json');
    await withFileLock(file, () => writeFileSync(`${file}.lock`, '1 another-owner'));
    expect(readFileSync(`${file}.lock`, 'utf8')).toBe('1 another-owner');
  });

  it('waiting for a live lock keeps the event loop free and tells watchers when it starts and ends', async () => {
    root = mkdtempSync(join(tmpdir(), 'fs-test-'));
    const file = join(root, 'settings.json');
    writeFileSync(`${file}.lock`, `${process.pid} someone-else`);
    const events: string[] = [];
    let release: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      release = resolve;
    });
    const stop = watchLockWaits((wait, waiting) => {
      events.push(`${waiting ? 'waiting' : 'done'} ${wait.what} ${wait.lockPath}`);
      if (waiting) release();
    });
    try {
      const saved = withFileLock(file, () => 'saved', { what: 'the settings file' });
      // the wait has begun and this code still runs: the lock is waited for on timers
      await started;
      expect(events).toEqual([`waiting the settings file ${file}.lock`]);
      rmSync(`${file}.lock`);
      expect(await saved).toBe('saved');
      expect(events).toEqual([
        `waiting the settings file ${file}.lock`,
        `done the settings file ${file}.lock`,
      ]);
      // a wait given up ends too
      writeFileSync(`${file}.lock`, `${process.pid} someone-else`);
      await expect(withFileLock(file, () => 1, { waitMs: 40, what: 'x' })).rejects.toMatchObject({
        code: 'CONFIG_ERROR',
      });
      expect(events.slice(2)).toEqual([`waiting x ${file}.lock`, `done x ${file}.lock`]);
    } finally {
      stop();
    }
    // unsubscribed: told nothing more
    await expect(withFileLock(file, () => 1, { waitMs: 40, what: 'y' })).rejects.toMatchObject({
      code: 'CONFIG_ERROR',
    });
    expect(events).toHaveLength(4);
  });

  it('work that throws releases the lock and writes nothing', () => {
    root = mkdtempSync(join(tmpdir(), 'fs-test-'));
    const file = join(root, 'x.json');
    expect(() =>
      withFileLockSync(file, () => {
        throw new AppError('CONFIG_ERROR', 'refused');
      }),
    ).toThrow('refused');
    expect(readdirSync(root)).toEqual([]);
  });
});
