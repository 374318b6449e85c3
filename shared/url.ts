/**
 * The one rule for a configured service URL (the server's upstreams, the client's settings, the
 * chain's RPC): it parses, and its scheme is http or https. A URL the client sends a token or the
 * person's data to must also be private on the wire (`isPrivateServiceUrl`): https, or plain http
 * only to this machine (docs/architecture.md "Trusting nothing from outside").
 */
import { isIP } from 'node:net';

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** 127.0.0.0/8, ::1 and localhost: addresses that never leave this machine. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  } catch {
    return false;
  }
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1';
  return false;
}

/** https anywhere, plain http only to a loopback address; anything else is refused. */
export function isPrivateServiceUrl(value: string): boolean {
  if (!isHttpUrl(value)) return false;
  return new URL(value).protocol === 'https:' || isLoopbackUrl(value);
}

/**
 * Why `value` (named `name`) is refused as a client service URL, or undefined when it passes
 * `isPrivateServiceUrl`. Names the scheme only (refusedUrl).
 */
export function privateServiceUrlProblem(
  value: string,
  name: string,
  /** the client adds its own paths to it (our server, the aggregator): no query or fragment */
  options: { appendsPaths?: boolean } = {},
): string | undefined {
  if (!isHttpUrl(value)) return `${name} must be an http(s) URL (got ${refusedUrl(value)})`;
  const url = new URL(value);
  // a password in it would be repeated by every message that names the URL
  if (url.username !== '' || url.password !== '')
    return `${name} must not carry a user name or password`;
  if (options.appendsPaths === true && (url.search !== '' || url.hash !== ''))
    return `${name} must not carry a query or fragment: the client adds its own paths to it (and a key in it would be repeated by every message that names the URL)`;
  if (isPrivateServiceUrl(value)) return undefined;
  return `${name} must be an https URL: plain http is allowed only to this machine (127.0.0.0/8, ::1, localhost), since the token, codes and account data sent to it would cross the network in clear`;
}

/**
 * What a message may say about a URL it refused: its scheme, never the rest (userinfo, path and
 * query can carry a password or an API key).
 */
export function refusedUrl(value: string): string {
  let protocol: string;
  try {
    protocol = new URL(value).protocol;
  } catch {
    return 'something that is not a URL';
  }
  // the URL parser allows only [a-z0-9+.-] in a scheme; its length is bounded here
  return protocol.length <= 16 ? `a ${protocol} URL` : 'a URL of another scheme';
}
