/**
 * Socket-level bounds (docs/architecture.md "Abuse bounds"), the part Fastify's options cannot
 * say on their own:
 *
 * - A request that declares a body (Content-Length > 0 or any Transfer-Encoding) to a route that
 *   takes none (GET routes, unknown routes) is answered at once, before a byte of the body is
 *   read, and its connection is closed: 404 NOT_FOUND for an unknown route, 413
 *   PAYLOAD_TOO_LARGE otherwise. Fastify would otherwise read (or drain) the body first.
 * - Errors of Node's HTTP parser (`clientError`: headers over 16 KB, a malformed request line
 *   or header, a request that missed its deadline) are answered in our error shape with a
 *   stable code, instead of Fastify's own body.
 * - Connections over the cap are closed by Node as soon as they are accepted; we log how many,
 *   at most once every 10 s (a flood must not become a log flood).
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, type ErrorBody, ErrorCode } from '../../shared/errors.js';
import { notFoundError } from './errors.js';
import { REQUEST_ID_HEADER } from './request-id.js';
import { SECURITY_HEADERS } from './security.js';

/** What each parser error becomes: status, code and a message that names the bound. */
export function describeClientError(errorCode: string | undefined): { status: number; code: ErrorCode; message: string } {
  if (errorCode === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, code: ErrorCode.REQUEST_TIMEOUT, message: 'The request did not arrive in time (headers or body too slow)' };
  }
  if (errorCode === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, code: ErrorCode.HEADERS_TOO_LARGE, message: 'Request headers are larger than 16 KB' };
  }
  return { status: 400, code: ErrorCode.MALFORMED_REQUEST, message: 'The request is not valid HTTP/1.1' };
}

const SECURITY_HEADER_LINES = Object.entries(SECURITY_HEADERS)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('');

/** The whole HTTP response for a parser error, written straight to the socket (there is no reply object). */
export function clientErrorResponse(status: number, body: ErrorBody): string {
  const json = JSON.stringify(body);
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
    'content-type: application/json; charset=utf-8\r\n' +
    `content-length: ${Buffer.byteLength(json)}\r\n` +
    `${REQUEST_ID_HEADER}: ${body.error.requestId}\r\n` +
    SECURITY_HEADER_LINES +
    'connection: close\r\n\r\n' +
    json
  );
}

/** Fastify's `clientErrorHandler` option (Fastify binds it to the instance). */
export function clientErrorHandler(this: { log: FastifyBaseLogger }, error: Error & { code?: string }, socket: Socket): void {
  // a reset or an already closed socket: nobody to answer
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const described = describeClientError(error.code);
  const requestId = randomUUID();
  this.log.info(
    { reqId: requestId, remoteAddress: socket.remoteAddress, statusCode: described.status, errorCode: described.code, parserError: error.code },
    'request refused by the HTTP parser',
  );
  // as Node does: answer only if no response to this connection has started
  const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && current?.headersSent !== true) {
    socket.write(clientErrorResponse(described.status, { error: { code: described.code, message: described.message, requestId } }));
  }
  socket.destroy();
}

function declaresBody(headers: Record<string, string | string[] | undefined>): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}

const DROP_LOG_INTERVAL_MS = 10_000;

const transport: FastifyPluginAsync = async (fastify) => {
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!declaresBody(request.headers) || (!request.is404 && request.routeOptions.schema?.body !== undefined)) {
      done();
      return;
    }
    // the unread body stays in the socket: close it after this answer rather than drain it
    reply.header('connection', 'close');
    done(request.is404 ? notFoundError(request.method) : new AppError(ErrorCode.PAYLOAD_TOO_LARGE, 'This route takes no request body', { status: 413 }));
  });

  let dropped = 0;
  let lastLog = 0;
  fastify.server.on('drop', () => {
    dropped += 1;
    const now = Date.now();
    if (now - lastLog < DROP_LOG_INTERVAL_MS) return;
    fastify.log.warn({ dropped, maxConnections: fastify.server.maxConnections }, 'connections refused: the server is at its connection cap');
    lastLog = now;
    dropped = 0;
  });
};

export default fp(transport, { name: 'transport', fastify: '5.x' });
