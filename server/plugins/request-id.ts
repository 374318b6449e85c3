/**
 * Request ids: accept a sane incoming `x-request-id` (so a proxy's or client's id follows the
 * request through our logs) or make one, and echo it on every response, errors included.
 *
 * Fastify's own `requestIdHeader` option takes any incoming value as-is (log injection, 8 KB
 * ids), so the app sets `requestIdHeader: false` and passes `genReqId` from here, which reads and
 * checks the header itself.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

export const REQUEST_ID_HEADER = 'x-request-id';
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function isSaneRequestId(value: unknown): value is string {
  return typeof value === 'string' && SANE_REQUEST_ID.test(value);
}

/** Fastify `genReqId`: the incoming id when sane, else a fresh UUID. */
export function createRequestIdGenerator(
  generate: () => string = randomUUID,
): (req: IncomingMessage) => string {
  return (req) => {
    const incoming = req.headers[REQUEST_ID_HEADER];
    return isSaneRequestId(incoming) ? incoming : generate();
  };
}

const requestId: FastifyPluginAsync = async (fastify) => {
  // onRequest runs before anything can fail (parsing, validation, auth), so every reply has it.
  // callback style: an async hook costs a promise per request on the hottest path
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
};

export default fp(requestId, { name: 'request-id', fastify: '5.x' });
