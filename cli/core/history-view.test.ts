import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from './history.js';
import { listedEntry } from './history-view.js';

const base: HistoryEntry = {
  time: '2026-11-22T12:00:00.000Z',
  updatedAt: '2026-11-22T12:00:00.000Z',
  kind: 'send',
  network: 'mainnet',
  sandbox: false,
  chain: 'mainnet',
  account: `0x${'1'.padStart(64, '0')}`,
  hash: '0xabc',
  status: 'pending',
  summary: 'send 1 STRK',
  amounts: [],
};

describe('listedEntry: every entry names its chain; a stopped sandbox orphans what it left open', () => {
  it('a mainnet entry stays mainnet, pending whatever runs', () => {
    expect(listedEntry(base, undefined)).toMatchObject({
      network: 'mainnet',
      chain: 'mainnet',
      status: 'pending',
    });
    expect(listedEntry(base, undefined).unsettleable).toBeUndefined();
  });

  it('a sandbox entry is network "sandbox", never "mainnet", with its chain', () => {
    const e = { ...base, sandbox: true, chain: 'sandbox:a1', status: 'succeeded' as const };
    expect(listedEntry(e, undefined)).toMatchObject({
      network: 'sandbox',
      chain: 'sandbox:a1',
      status: 'succeeded',
    });
  });

  it.each([
    ['its sandbox still runs', 'sandbox:a1', 'sandbox:a1', 'pending'],
    ['another sandbox runs', 'sandbox:a1', 'sandbox:b2', 'orphaned'],
    ['no sandbox runs', 'sandbox:a1', undefined, 'orphaned'],
    ['an older entry, chain not kept', undefined, 'sandbox:b2', 'orphaned'],
  ])('unresolved on a sandbox when %s → %s', (_why, chain, running, status) => {
    const { chain: _drop, ...rest } = base;
    const e: HistoryEntry = { ...rest, sandbox: true, ...(chain === undefined ? {} : { chain }) };
    const listed = listedEntry(e, running);
    expect(listed.status).toBe(status);
    expect(listed.unsettleable).toBe(status === 'orphaned' ? true : undefined);
    expect(listedEntry({ ...e, status: 'unknown' }, running).status).toBe(
      status === 'orphaned' ? 'orphaned' : 'unknown',
    );
  });
});

describe('listedEntry: a settled entry of a sandbox that no longer runs is marked (issue 32 item 7)', () => {
  const settled = { ...base, sandbox: true, chain: 'sandbox:a1', status: 'succeeded' as const };
  it.each([
    ['its sandbox runs', 'sandbox:a1', undefined],
    ['another sandbox runs', 'sandbox:b2', true],
    ['no sandbox runs', undefined, true],
  ])('%s → chainGone %s', (_why, running, gone) => {
    expect(listedEntry(settled, running).chainGone).toBe(gone);
    expect(listedEntry(settled, running).status).toBe('succeeded');
  });
  it('never on a mainnet entry', () => {
    expect(listedEntry({ ...base, status: 'succeeded' }, undefined).chainGone).toBeUndefined();
  });
});

describe('listedEntry: an entry that moved nothing lists no amounts', () => {
  const out = {
    direction: 'out' as const,
    symbol: 'USDC',
    address: `0x${'2'.padStart(64, '0')}`,
    amount: '100',
    baseUnits: '100000000',
    basis: 'sent' as const,
  };
  it.each(['reverted', 'not-sent'] as const)('%s: amounts empty, the plan as planned', (status) => {
    const listed = listedEntry({ ...base, status, amounts: [out] }, undefined);
    expect(listed.amounts).toEqual([]);
    expect(listed.planned).toEqual([out]);
  });
  it.each(['succeeded', 'pending', 'unknown'] as const)('%s: amounts as recorded', (status) => {
    const listed = listedEntry({ ...base, status, amounts: [out] }, undefined);
    expect(listed.amounts).toEqual([out]);
    expect(listed.planned).toBeUndefined();
  });
});
