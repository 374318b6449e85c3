import {
  chmodSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { ensurePrivateDir, narrowFilesIn, openPrivateLog } from './fs.js';

const mode = (path: string): number => statSync(path).mode & 0o7777;
let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

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
