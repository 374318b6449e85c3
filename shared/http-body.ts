/**
 * Reading an HTTP answer without trusting its size: a declared Content-Length over `limit` is
 * refused before reading, and a chunked body is cut as soon as the count passes the limit.
 * Used by the server's paymaster relay, the client's chain fetch, and the client's HTTP layer
 * (cli/clients/http.ts, which hands ky a capped response).
 */

/** The error a capped body fails with once it passes its limit. */
export class BodyTooLarge extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`response larger than ${limit} bytes`);
    this.name = 'BodyTooLarge';
    this.limit = limit;
  }
}

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

/** The same response, whose body errors with BodyTooLarge (and releases the source) past `limit` bytes. */
function cappedResponse(response: Response, limit: number): Response {
  if (response.body === null || NULL_BODY_STATUS.has(response.status)) return response;
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  let size = 0;
  const capped = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      start(controller) {
        if (Number.isFinite(declared) && declared > limit)
          controller.error(new BodyTooLarge(limit));
      },
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > limit) controller.error(new BodyTooLarge(limit));
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Response(capped, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** Whether `error` (or its cause, as fetch's body readers wrap it) is a BodyTooLarge. */
export function isBodyTooLarge(error: unknown): boolean {
  return (
    error instanceof BodyTooLarge || (error instanceof Error && error.cause instanceof BodyTooLarge)
  );
}

/** The body as text, or undefined when it is larger than `limit` bytes (the body is then released). */
export async function readCapped(response: Response, limit: number): Promise<string | undefined> {
  try {
    return await cappedResponse(response, limit).text();
  } catch (error) {
    if (isBodyTooLarge(error)) return undefined;
    throw error;
  }
}
