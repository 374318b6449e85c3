/**
 * Request ids: accept a sane incoming `x-request-id` (so a proxy's or client's id follows the
 * request through our logs) or make one, and echo it on every response, errors included.
 *
 * Fastify's own `requestIdHeader` option takes any incoming value as-is (log injection, 8 KB
 * ids), so the app sets `requestIdHeader: false` and passes `genReqId` from here, which reads and
 * checks the header itself.
 *
 * What an id is for: finding a reply's log lines (the header, an error body's `requestId`, the
 * request line's `reqId`). It authorises nothing and is no secret (a client may send its own), so
 * it needs to be unique, not unpredictable (docs/decisions.md "Request ids from a counter"): a
 * made id is a UUID in RFC 9562's custom layout (version 8), 74 random bits drawn once per process
 * and then a 48-bit count, so ids of one process never repeat and those of two processes (or two
 * runs) differ in their random part.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function isSaneRequestId(value: unknown): value is string {
  return typeof value === 'string' && SANE_REQUEST_ID.test(value);
}

/**
 * A made id's first 24 characters (`xxxxxxxx-xxxx-8xxx-Vxxx-`: 74 random bits, the version 8
 * and the variant bits 10), then 12 hex digits of a count from `start`.
 */
export function createRequestIds(random: Buffer = randomBytes(10), start = 0): () => string {
  const hex = random.toString('hex');
  const variant = ((Number.parseInt(hex.slice(15, 16), 16) & 0x3) | 0x8).toString(16);
  const prefix = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(12, 15)}-${variant}${hex.slice(16, 19)}-`;
  let count = start;
  return () => {
    count = count >= 0xffff_ffff_ffff ? 0 : count + 1;
    return prefix + count.toString(16).padStart(12, '0');
  };
}

/** The process's ids (app.ts genReqId, and the parser's refusals in transport.ts). */
export const nextRequestId: () => string = createRequestIds();

/** Fastify `genReqId`: the incoming id when sane, else a fresh one. */
export function createRequestIdGenerator(
  generate: () => string = nextRequestId,
): (req: IncomingMessage) => string {
  return (req) => {
    const incoming = req.headers[REQUEST_ID_HEADER];
    return isSaneRequestId(incoming) ? incoming : generate();
  };
}
