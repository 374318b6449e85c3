import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { tempHome } from '../../test/helpers/home.js';
import { type NewHistoryEntry, openHistory } from './history.js';
import { walletHistory } from './reconcile.js';

const ACCOUNT = `0x${'a11ce'.padStart(64, '0')}`;
const ETH = '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7';

function entry(hash: string, kind: NewHistoryEntry['kind'] = 'trade'): NewHistoryEntry {
  return {
    kind,
    network: 'mainnet',
    sandbox: true,
    account: ACCOUNT,
    hash,
    status: 'pending',
    summary: 'swap 1 ETH → at least 2970 USDC',
    amounts: [
      {
        direction: 'out',
        symbol: 'ETH',
        address: ETH,
        amount: '1',
        baseUnits: '1000000000000000000',
        basis: 'sent',
      },
    ],
  };
}

/** The one hash format: 0x + 64 lower-case hex. */
const h = (digits: string): string => `0x${digits.padStart(64, '0')}`;

const homes: Array<() => void> = [];
function home(): string {
  const { dir, cleanup } = tempHome();
  homes.push(cleanup);
  return dir;
}
afterEach(() => homes.splice(0).forEach((cleanup) => cleanup()));

describe('history', () => {
  it('appends, lists newest first, and updates a status by hash (any spelling of it)', async () => {
    let clock = Date.UTC(2026, 0, 1);
    const store = openHistory(home(), { now: () => clock });
    await store.append(entry('0x0abc'));
    clock += 1000;
    await store.append(entry('0xdef', 'send'));
    clock += 1000;
    const updated = await store.update('0X000ABC', { status: 'succeeded' });
    expect(updated).toMatchObject({
      hash: h('abc'),
      status: 'succeeded',
      time: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:02.000Z',
    });
    const { entries, setAside } = await store.list();
    expect(setAside).toBeNull();
    expect(entries.map((e) => [e.hash, e.kind, e.status])).toEqual([
      [h('def'), 'send', 'pending'],
      [h('abc'), 'trade', 'succeeded'],
    ]);
    expect(await store.update('0x1', { status: 'reverted' })).toBeUndefined();
  });

  it('keeps the file 0600 and the folder private', async () => {
    const dir = home();
    const store = openHistory(dir);
    await store.append(entry('0x1'));
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp') || f.endsWith('.lock'))).toEqual([]);
  });

  it('is bounded: only the newest entries are kept', async () => {
    const store = openHistory(home(), { maxEntries: 3 });
    for (let i = 1; i <= 5; i++) await store.append(entry(`0x${i}`));
    expect((await store.list()).entries.map((e) => e.hash)).toEqual([h('5'), h('4'), h('3')]);
  });

  it.each([
    ['not JSON', '{"version": 1, "entries": ['],
    ['the wrong shape', '{"version": 1, "entries": [{"hash": 5}]}'],
    ['an unknown version', '{"version": 2, "entries": []}'],
  ])(
    'a file that is %s is set aside (kept, never deleted) and a new history starts',
    async (_name, text) => {
      const dir = home();
      const store = openHistory(dir);
      writeFileSync(store.path, text, { mode: 0o600 });
      const listed = await store.list();
      expect(listed.entries).toEqual([]);
      expect(listed.setAside).not.toBeNull();
      expect(readFileSync(listed.setAside ?? '', 'utf8')).toBe(text);
      await store.append(entry('0x1'));
      expect((await store.list()).entries).toHaveLength(1);
    },
  );

  it('refuses a malformed entry without touching the file', async () => {
    const store = openHistory(home());
    await store.append(entry('0x1'));
    const before = readFileSync(store.path, 'utf8');
    await expect(store.append({ ...entry('0x2'), account: 'bob' })).rejects.toMatchObject({
      code: 'HISTORY_ERROR',
    });
    await expect(store.append(entry('not a hash'))).rejects.toMatchObject({
      code: 'HISTORY_ERROR',
    });
    await expect(store.update('0x1', { status: 'weird' as 'succeeded' })).rejects.toMatchObject({
      code: 'HISTORY_ERROR',
    });
    expect(readFileSync(store.path, 'utf8')).toBe(before);
  });

  it('concurrent writers through separate stores lose nothing (the lock serialises them)', async () => {
    const dir = home();
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        openHistory(dir).append(entry(`0x${(i + 1).toString(16)}`)),
      ),
    );
    const hashes = (await openHistory(dir).list()).entries.map((e) => e.hash);
    expect(new Set(hashes).size).toBe(30);
  });

  it('breaks a lock left by a process that is gone', async () => {
    const dir = home();
    const store = openHistory(dir, { lockWaitMs: 200 });
    // a pid far beyond pid_max: no such process
    writeFileSync(`${store.path}.lock`, '99999999 deadbeef');
    await store.append(entry('0x1'));
    expect(existsSync(`${store.path}.lock`)).toBe(false);
  });

  it('waits for a live lock, then gives up with HISTORY_ERROR', async () => {
    const dir = home();
    const store = openHistory(dir, { lockWaitMs: 100 });
    writeFileSync(join(dir, 'history.json.lock'), `${process.pid} someone-else`);
    const error = await store.append(entry('0x1')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('HISTORY_ERROR');
    expect(existsSync(store.path)).toBe(false);
  });

  it('one hash format: older files with short hashes are read as 0x + 64 lower-case hex, and updated by any spelling', async () => {
    const dir = home();
    const store = openHistory(dir);
    const old = {
      ...entry('0x1'),
      hash: '0xABC',
      time: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-01-01T00:00:00.000Z',
    };
    writeFileSync(store.path, JSON.stringify({ version: 1, entries: [old] }), { mode: 0o600 });
    expect((await store.list()).entries.map((e) => e.hash)).toEqual([h('abc')]);
    expect(await store.update('0xabc', { status: 'succeeded' })).toMatchObject({
      hash: h('abc'),
      status: 'succeeded',
    });
    expect(JSON.parse(readFileSync(store.path, 'utf8')).entries[0].hash).toBe(h('abc'));
  });

  it('an entry with no hash (the answer was lost) is kept and updated by its id', async () => {
    const store = openHistory(home());
    const { hash: _none, ...rest } = entry('0x1');
    const stored = await store.append({
      ...rest,
      status: 'unknown',
      outside: { nonce: h('7'), messageHash: h('8'), executeBefore: 1_900_000_000 },
    });
    expect(stored.id).toMatch(/^[0-9a-f]{16}$/);
    expect(stored.hash).toBeUndefined();
    expect(
      await store.update(stored.id as string, { status: 'succeeded', note: 'executed' }),
    ).toMatchObject({ status: 'succeeded', note: 'executed' });
  });

  it('a sandbox wallet lists only the current sandbox chain; the file keeps the others', async () => {
    const store = openHistory(home());
    await store.append({ ...entry('0x1'), chain: 'sandbox:old-chain' });
    await store.append({ ...entry('0x2'), chain: 'sandbox:new-chain' });
    await store.append(entry('0x3')); // written before chains were kept
    const scope = { account: ACCOUNT, network: 'mainnet' as const, sandbox: true };
    expect(
      (await walletHistory(store, { ...scope, chain: 'sandbox:new-chain' })).entries.map(
        (e) => e.hash,
      ),
    ).toEqual([h('2')]);
    expect((await store.list()).entries).toHaveLength(3);
  });
});
