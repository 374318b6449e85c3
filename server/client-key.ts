/**
 * Who a client is, for every guard that counts per client (docs/server-security.md "Clients"):
 * the rate limiter (per request, from the address Fastify trusts) and the connection cap (per
 * socket, from its peer). One rule for both:
 * - IPv4, and IPv4-mapped IPv6 (::ffff:a.b.c.d), per address;
 * - IPv6 per /64, one subscriber's usual allocation (per-address keys would give one client ~2^64
 *   allowances); and, where a guard also bounds how much of it one network may take, per /48
 *   (a site's usual allocation: 65,536 /64s);
 * - an address we cannot read is no client: the guard refuses it.
 */
import { BlockList, isIP } from 'node:net';
import { normalizeIP } from '@fastify/rate-limit';

const IPV6_CLIENT_PREFIX = 64;
const IPV6_NETWORK_PREFIX = 48;

/** The client an address belongs to; undefined when it is not an address. */
export function clientKey(address: string | undefined): string | undefined {
  if (address === undefined || isIP(address.split('%')[0] ?? '') === 0) return undefined;
  try {
    return normalizeIP(address.split('%')[0] as string, IPV6_CLIENT_PREFIX);
  } catch {
    return undefined;
  }
}

/** The IPv6 /48 of a client key; undefined for IPv4 (an IPv4 address already costs a client one address). */
export function networkKey(client: string): string | undefined {
  if (isIP(client) !== 6) return undefined;
  return `${normalizeIP(client, IPV6_NETWORK_PREFIX)}/${IPV6_NETWORK_PREFIX}`;
}

/** proxy-addr's named ranges, which TRUST_PROXY accepts in a list */
const NAMED_RANGES: Record<string, Array<[string, number, 'ipv4' | 'ipv6']>> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  linklocal: [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ],
  uniquelocal: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ],
};

/**
 * Whether a socket's peer is a proxy TRUST_PROXY trusts (as Fastify decides it for hop 0): with
 * `true` or a hop count every peer is, with a list the peers in it are. Connections from a trusted
 * proxy carry many clients, so per-client connection bounds cannot apply to them.
 */
export function trustedPeer(
  trustProxy: boolean | number | string,
): (address: string | undefined) => boolean {
  if (trustProxy === true || (typeof trustProxy === 'number' && trustProxy >= 1)) return () => true;
  if (typeof trustProxy !== 'string') return () => false;
  const list = new BlockList();
  for (const entry of trustProxy.split(',').map((part) => part.trim())) {
    const named = NAMED_RANGES[entry];
    if (named !== undefined) {
      for (const [network, prefix, family] of named) list.addSubnet(network, prefix, family);
      continue;
    }
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address.split('%')[0] as string, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return (address) => {
    if (address === undefined) return false;
    const bare = address.split('%')[0] as string;
    const mapped = /^::ffff:([0-9.]+)$/i.exec(bare)?.[1];
    const family = isIP(bare) === 6 ? 'ipv6' : 'ipv4';
    return list.check(bare, family) || (mapped !== undefined && list.check(mapped, 'ipv4'));
  };
}
