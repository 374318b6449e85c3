/**
 * Reading an HTTP answer without trusting its size: a declared Content-Length over `limit` is
 * refused before reading, and a chunked body is cut as soon as the count passes the limit.
 * Used by the server's paymaster relay and by the client's chain fetch.
 */

/** The body as text, or undefined when it is larger than `limit` bytes (the body is then released). */
export async function readCapped(response: Response, limit: number): Promise<string | undefined> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
