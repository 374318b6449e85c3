/**
 * The history file under several processes writing at once (a TUI and headless commands may
 * run side by side): every entry lands, the file is always whole JSON, and it stays 0600.
 */
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempHome } from './helpers/process.js';

const HISTORY = fileURLToPath(new URL('../dist/cli/core/history.js', import.meta.url));

function writer(dir: string, id: number, count: number): Promise<number | null> {
  const script = `
    const { openHistory } = await import(${JSON.stringify(HISTORY)});
    const store = openHistory(${JSON.stringify(dir)});
    for (let i = 0; i < ${count}; i++) {
      await store.append({
        kind: 'send', network: 'mainnet', sandbox: true, account: '0x${'1'.padStart(64, '0')}',
        hash: '0x' + (${id} * 1000 + i).toString(16), status: 'pending', summary: 'w${id} #' + i, amounts: [],
      });
    }`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return new Promise((resolve) => child.on('exit', resolve));
}

describe('history across processes', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => cleanups.splice(0).forEach((c) => c()));

  it('three processes appending 15 entries each: all 45 land in one valid 0600 file', async () => {
    const { dir, cleanup } = tempHome();
    cleanups.push(cleanup);
    const codes = await Promise.all([1, 2, 3].map((id) => writer(dir, id, 15)));
    expect(codes).toEqual([0, 0, 0]);
    const path = join(dir, 'history.json');
    const file = JSON.parse(readFileSync(path, 'utf8')) as { entries: Array<{ hash: string }> };
    expect(new Set(file.entries.map((e) => e.hash)).size).toBe(45);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });
});
