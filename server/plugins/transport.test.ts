import { describe, expect, it } from 'vitest';
import { clientKey } from '../client-key.js';
import type { Socket } from 'node:net';
import { ConnectionLedger, IdleConnections } from './transport.js';

const key = (address: string): string => clientKey(address) as string;

describe('ConnectionLedger per IPv6 /48 (issue 27)', () => {
  it('all the /64s of one /48 together hold at most a client share; another /48 its own', () => {
    const ledger = new ConnectionLedger({ max: 512, perAddress: 8 });
    const admitted = Array.from({ length: 30 }, (_, i) =>
      ledger.admit(key(`2001:db8:1:${i.toString(16)}::1`), false),
    );
    expect(admitted.filter((a) => a === 'ok')).toHaveLength(8);
    expect(admitted.slice(8)).toEqual(Array(22).fill('per-network'));
    expect(ledger.heldByNetwork(key('2001:db8:1:ffff::2'))).toBe(8);
    expect(ledger.admit(key('2001:db8:2::1'), false)).toBe('ok');
    // a /64 within it is still bounded on its own
    const other = new ConnectionLedger({ max: 512, perAddress: 8 });
    for (let i = 0; i < 8; i++) other.admit(key('2001:db8:3:1::1'), false);
    expect(other.admit(key('2001:db8:3:1::2'), false)).toBe('per-address');
  });

  it('a release frees the /48 slot; IPv4 is not grouped; a trusted proxy is bounded by the total only', () => {
    const ledger = new ConnectionLedger({ max: 512, perAddress: 2 });
    expect(ledger.admit(key('2001:db8:1:1::1'), false)).toBe('ok');
    expect(ledger.admit(key('2001:db8:1:2::1'), false)).toBe('ok');
    expect(ledger.admit(key('2001:db8:1:3::1'), false)).toBe('per-network');
    ledger.release(key('2001:db8:1:1::1'));
    expect(ledger.admit(key('2001:db8:1:3::1'), false)).toBe('ok');
    for (let i = 1; i <= 5; i++) expect(ledger.admit(key(`192.0.2.${i}`), false)).toBe('ok');
    expect(ledger.admit(key('2001:db8:1:4::1'), true)).toBe('ok');
    expect(ledger.open).toBe(8);
  });
});

describe('IdleConnections (issue 33)', () => {
  const fake = (): Socket => ({ destroyed: false }) as Socket;

  it('hands out the connection idle the longest; a busy or closed one is skipped', () => {
    const idle = new IdleConnections();
    const [a, b, c] = [fake(), fake(), fake()] as [Socket, Socket, Socket];
    idle.rest(a);
    idle.rest(b);
    idle.rest(c);
    // a serves a request and rests again: now the newest idle
    idle.busy(a);
    idle.rest(a);
    (b as { destroyed: boolean }).destroyed = true;
    expect(idle.takeLongestIdle()).toBe(c);
    expect(idle.takeLongestIdle()).toBe(a);
    expect(idle.takeLongestIdle()).toBeUndefined();
    expect(idle.size).toBe(0);
  });
});
