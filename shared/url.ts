/**
 * The one rule for a configured service URL (the server's upstreams, the client's settings, the
 * chain's RPC): it parses, and its scheme is http or https.
 */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
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
