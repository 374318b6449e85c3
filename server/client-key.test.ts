import { describe, expect, it } from 'vitest';
import { clientKey, networkKey, trustedPeer } from './client-key.js';

describe('client keys', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::'],
    ['2001:db8:1:2:ffff::1', '2001:db8:1:2::'],
    ['fe80::1%eth0', 'fe80::'],
  ])('%s is the client %s', (address, key) => {
    expect(clientKey(address)).toBe(key);
  });

  it('an address that cannot be read is no client', () => {
    for (const address of [undefined, '', 'localhost', '999.1.1.1', '::g'])
      expect(clientKey(address)).toBeUndefined();
  });

  it('IPv6 clients group by /48; IPv4 ones do not', () => {
    expect(networkKey(clientKey('2001:db8:1:2::1') as string)).toBe('2001:db8:1::/48');
    expect(networkKey(clientKey('2001:db8:1:ff02::1') as string)).toBe('2001:db8:1::/48');
    expect(networkKey('203.0.113.7')).toBeUndefined();
  });
});

describe('trusted peers, as TRUST_PROXY says', () => {
  it('false trusts none; true and a hop count trust every peer', () => {
    expect(trustedPeer(false)('127.0.0.1')).toBe(false);
    expect(trustedPeer(true)('203.0.113.7')).toBe(true);
    expect(trustedPeer(2)('203.0.113.7')).toBe(true);
  });

  it('a list trusts its addresses, ranges and named ranges, IPv4-mapped included', () => {
    const trusted = trustedPeer('10.0.0.0/8,192.0.2.7,loopback,fd00::/8');
    for (const address of [
      '10.1.2.3',
      '::ffff:10.1.2.3',
      '192.0.2.7',
      '127.0.0.2',
      '::1',
      'fd12::1',
    ])
      expect(trusted(address), address).toBe(true);
    for (const address of ['11.0.0.1', '192.0.2.8', 'fe80::1', '2001:db8::1', undefined])
      expect(trusted(address), String(address)).toBe(false);
  });
});
