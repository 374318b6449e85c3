/**
 * `<data>/vtoken-hints.json` (cli/core/vtoken-hints.ts): what a read put is found by the next,
 * per network; a pool's answers replace its old ones, a plan's one entry only its own; a file that
 * is not ours reads as no hints.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadVTokenHints, VTOKEN_HINTS_FILE } from './vtoken-hints.js';

const dirs: string[] = [];
const dir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'finance-tui-hints-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const POOL = '0x451fe483d5921a2919ddd81d0de6696669bccdacd859f72a4fba7656b97c3b5';
const felt = (n: number): string => `0x${n.toString(16).padStart(64, '0')}`;

describe('vToken hints', () => {
  it('a put is read back by the next load, per network; a pool put replaces its old hints', async () => {
    const d = dir();
    const first = await loadVTokenHints(d, 'sandbox');
    expect(first.get(POOL, '0x1')).toBeUndefined();
    await first.put(POOL, [
      { pool: POOL, asset: '0x1', vToken: '0xa1' },
      { pool: POOL, asset: '0x2', vToken: '0xa2' },
    ]);
    const again = await loadVTokenHints(d, 'sandbox');
    expect(again.get(POOL, felt(1))).toBe(felt(0xa1));
    expect((await loadVTokenHints(d, 'mainnet')).get(POOL, '0x1')).toBeUndefined();
    await again.put(POOL, [{ pool: POOL, asset: '0x2', vToken: '0xb2' }]);
    const last = await loadVTokenHints(d, 'sandbox');
    expect(last.get(POOL, '0x1')).toBeUndefined();
    expect(last.get(POOL, '0x2')).toBe(felt(0xb2));
  });

  it("a plan's one entry (putOne) replaces or drops only its own, and merges with what was written since", async () => {
    const d = dir();
    const positions = await loadVTokenHints(d, 'sandbox');
    const plan = await loadVTokenHints(d, 'sandbox'); // loaded before the positions wrote
    await positions.put(POOL, [
      { pool: POOL, asset: '0x1', vToken: '0xa1' },
      { pool: POOL, asset: '0x2', vToken: '0xa2' },
    ]);
    await plan.putOne(POOL, '0x2', '0xb2');
    await plan.putOne(POOL, '0x3', '0xa3');
    let now = await loadVTokenHints(d, 'sandbox');
    expect([now.get(POOL, '0x1'), now.get(POOL, '0x2'), now.get(POOL, '0x3')]).toEqual([
      felt(0xa1),
      felt(0xb2),
      felt(0xa3),
    ]);
    await now.putOne(POOL, '0x2', undefined);
    now = await loadVTokenHints(d, 'sandbox');
    expect([now.get(POOL, '0x1'), now.get(POOL, '0x2'), now.get(POOL, '0x3')]).toEqual([
      felt(0xa1),
      undefined,
      felt(0xa3),
    ]);
  });

  it('a file that is not ours (not JSON, an array, values that are not felts) gives no hints', async () => {
    const d = dir();
    // keyed as a real entry is (the pool's and the asset's felts), so the value check is what refuses it
    const key = `sandbox|0x${BigInt(POOL).toString(16).padStart(64, '0')}|${felt(1)}`;
    const texts = [
      'not json',
      '[1,2]',
      ...['rm -rf', '', '0x', 7, null].map((v) => ({ [key]: v })),
    ];
    for (const text of texts) {
      writeFileSync(
        join(d, VTOKEN_HINTS_FILE),
        typeof text === 'string' ? text : JSON.stringify(text),
      );
      const hints = await loadVTokenHints(d, 'sandbox');
      expect(hints.get(POOL, '0x1')).toBeUndefined();
    }
    // the same key with a felt is a hint: the refusals above are the value's
    writeFileSync(join(d, VTOKEN_HINTS_FILE), JSON.stringify({ [key]: felt(0xa1) }));
    expect((await loadVTokenHints(d, 'sandbox')).get(POOL, '0x1')).toBe(felt(0xa1));
  });

  it("two networks written at once keep each other's hints (each write merges into the file)", async () => {
    const d = dir();
    // both loaded before either writes: each holds a snapshot without the other's entries
    const [sandbox, mainnet] = await Promise.all([
      loadVTokenHints(d, 'sandbox'),
      loadVTokenHints(d, 'mainnet'),
    ]);
    await Promise.all([
      sandbox.put(POOL, [{ pool: POOL, asset: '0x1', vToken: '0xa1' }]),
      mainnet.put(POOL, [{ pool: POOL, asset: '0x1', vToken: '0xb1' }]),
    ]);
    expect((await loadVTokenHints(d, 'sandbox')).get(POOL, '0x1')).toBe(felt(0xa1));
    expect((await loadVTokenHints(d, 'mainnet')).get(POOL, '0x1')).toBe(felt(0xb1));
  });
});
