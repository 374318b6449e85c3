/**
 * Settling one unresolved history entry from what the chain says (pure logic over a fake lookup;
 * the chain itself is exercised in test/cli-money-edges.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from './history.js';
import { type ChainLookup, chainOf, entryChain, settleEntry } from './reconcile.js';

const h = (digits: string): string => `0x${digits.padStart(64, '0')}`;
const base: HistoryEntry = {
  id: '0123456789abcdef',
  time: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  kind: 'send',
  network: 'mainnet',
  sandbox: false,
  account: h('a11ce'),
  status: 'unknown',
  summary: 'send 1 STRK',
  amounts: [],
  outside: { nonce: h('5'), messageHash: h('6'), executeBefore: 1_000 },
};

function lookup(
  receipt: Awaited<ReturnType<ChainLookup['receipt']>>,
  available: boolean,
): ChainLookup & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    receipt: async (hash) => {
      asked.push(`receipt ${hash}`);
      return receipt;
    },
    nonceAvailable: async (_account, nonce) => {
      asked.push(`nonce ${nonce}`);
      return available;
    },
  };
}

describe('settleEntry', () => {
  it('a receipt settles a hash: succeeded or reverted with its reason', async () => {
    const entry = { ...base, hash: h('1'), status: 'pending' as const };
    expect(await settleEntry(entry, lookup({ status: 'succeeded' }, false), 0, {})).toEqual({
      status: 'succeeded',
    });
    expect(
      await settleEntry(entry, lookup({ status: 'reverted', revertReason: 'no' }, true), 0, {}),
    ).toEqual({ status: 'reverted', revertReason: 'no' });
  });

  it('a receipt the outside-execution nonce contradicts leaves the entry unknown, the contradiction kept', async () => {
    const entry = { ...base, hash: h('1'), status: 'pending' as const };
    expect(await settleEntry(entry, lookup({ status: 'reverted' }, false), 0, {})).toEqual({
      status: 'unknown',
      contradiction: expect.stringMatching(/REVERTED, but .* nonce is used/),
    });
    expect(await settleEntry(entry, lookup({ status: 'succeeded' }, true), 0, {})).toEqual({
      status: 'unknown',
      contradiction: expect.stringMatching(/SUCCEEDED, but .* still unused/),
    });
  });

  it('a settled entry asked again: unchanged when the chain agrees; marked when it contradicts; corrected when it agrees again', async () => {
    const settled = { ...base, hash: h('1'), status: 'succeeded' as const };
    expect(await settleEntry(settled, lookup({ status: 'succeeded' }, false), 0, {})).toBe(
      undefined,
    );
    const marked = await settleEntry(settled, lookup({ status: 'reverted' }, false), 0, {});
    expect(marked).toMatchObject({ status: 'unknown', contradiction: expect.any(String) });
    const contradicted = { ...settled, status: 'unknown' as const, contradiction: 'x' };
    expect(await settleEntry(contradicted, lookup({ status: 'succeeded' }, false), 0, {})).toEqual({
      status: 'succeeded',
      contradiction: undefined,
      note: expect.stringMatching(/agree now; they contradicted each other before \(x\)/),
    });
    // a settled entry whose receipt the node no longer gives stays as it was (never 'not-sent')
    expect(
      await settleEntry({ ...settled, status: 'reverted' }, lookup(undefined, true), 9_999, {}),
    ).toBeUndefined();
  });

  it('no hash, nonce used: it executed', async () => {
    expect(await settleEntry(base, lookup(undefined, false), 999, {})).toMatchObject({
      status: 'succeeded',
    });
  });

  it('no hash, nonce unused before the deadline: still unknown (it may yet execute)', async () => {
    expect(await settleEntry(base, lookup(undefined, true), 1_000, {})).toBeUndefined();
  });

  it('nonce unused after the deadline: provably never executed', async () => {
    expect(await settleEntry(base, lookup(undefined, true), 1_001, {})).toMatchObject({
      status: 'not-sent',
    });
  });

  it('a hash the node does not show yet, nonce used: wait for the receipt', async () => {
    expect(
      await settleEntry(
        { ...base, hash: h('1'), status: 'pending' },
        lookup(undefined, false),
        2_000,
        {},
      ),
    ).toBeUndefined();
  });

  it('an entry without an outside identity and no receipt: nothing learned', async () => {
    const { outside: _none, ...legacy } = base;
    expect(
      await settleEntry(
        { ...legacy, hash: h('1'), status: 'pending' },
        lookup(undefined, true),
        2_000,
        {},
      ),
    ).toBeUndefined();
  });
});

describe('chains', () => {
  it('a sandbox start is its own chain; entries without one are an unknown sandbox chain, or their network', () => {
    expect(chainOf({ sandbox: true, network: 'mainnet', chainInstance: 'abc' })).toBe(
      'sandbox:abc',
    );
    expect(chainOf({ sandbox: false, network: 'sepolia', chainInstance: undefined })).toBe(
      'sepolia',
    );
    expect(entryChain({ ...base, sandbox: true })).toBe('sandbox:unknown');
    expect(entryChain(base)).toBe('mainnet');
  });
});
