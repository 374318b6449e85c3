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
 * - Connections are bounded per client address as well as in total (ConnectionLedger): an
 *   address (an IPv6 /64) may hold at most maxConnectionsPerAddress, and so may an IPv6 /48 in
 *   all (as the limiter groups them: 171 /64s of one /48 used to take every slot), and the last
 *   quarter of the slots is kept for addresses holding fewer than LIGHT_CLIENT, so neither one
 *   address nor a few heavy ones can take every slot (docs/server-security.md "Connections"). A
 *   connection refused is closed as soon as it is accepted, without a byte of answer, as Node does
 *   past maxConnections; we log how many, at most once every 10 s (a flood must not become a log
 *   flood).
 * - When every slot is taken, a light client (or a trusted proxy) gets the slot of the
 *   connection idle the longest (IdleConnections: no request in flight, whether it never sent one
 *   or waits between keep-alive requests), which is closed; only when none is idle is the
 *   newcomer refused. So idle holders from many sources (171 IPv4 addresses × 3 used to take every
 *   slot) cannot starve new clients (docs/server-security.md "Connections").
 * - Requests per connection are bounded (docs/server-security.md "Pipelining"): at most
 *   MAX_UNANSWERED_PER_SOCKET may wait for their answers at once (a client that pipelines more
 *   without reading its answers has its connection closed, and nothing past the bound reaches a
 *   route). No total per connection: Node's maxRequestsPerSocket answers past it with 503 on a
 *   client that keeps the connection, and what a connection holds is already bounded by the
 *   unanswered count, the keep-alive timeout and the request deadlines (docs/decisions.md).
 *   Every request counts: /health, / and 404s too. Node itself stops reading a connection whose
 *   answers pile up unread (its writable side full).
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, type ErrorBody, ErrorCode } from '../../shared/errors.js';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { clientKey, networkKey, trustedPeer } from '../client-key.js';
import { httpStatusOf, notFoundError } from './errors.js';
import { nextRequestId, REQUEST_ID_HEADER } from './request-id.js';
import { SECURITY_HEADERS } from './security.js';

/** What each parser error becomes: a code and a message that names the bound. */
function parserRefusal(errorCode: string | undefined): { code: ErrorCode; message: string } {
  if (errorCode === 'ERR_HTTP_REQUEST_TIMEOUT')
    return {
      code: ErrorCode.REQUEST_TIMEOUT,
      message: 'The request did not arrive in time (headers or body too slow)',
    };
  if (errorCode === 'HPE_HEADER_OVERFLOW')
    return { code: ErrorCode.HEADERS_TOO_LARGE, message: 'Request headers are larger than 16 KB' };
  return { code: ErrorCode.MALFORMED_REQUEST, message: 'The request is not valid HTTP/1.1' };
}

const SECURITY_HEADER_LINES = Object.entries(SECURITY_HEADERS)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('');

/** The whole HTTP response for a parser error, written straight to the socket (there is no reply object). */
function clientErrorResponse(status: number, body: ErrorBody): string {
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
export function clientErrorHandler(
  this: { log: FastifyBaseLogger },
  error: Error & { code?: string },
  socket: Socket,
): void {
  // a reset or an already closed socket: nobody to answer
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const described = parserRefusal(error.code);
  const status = httpStatusOf(described.code);
  const requestId = nextRequestId();
  this.log.info(
    {
      reqId: requestId,
      remoteAddress: socket.remoteAddress,
      statusCode: status,
      errorCode: described.code,
      parserError: error.code,
    },
    'request refused by the HTTP parser',
  );
  // as Node does: answer only if no response to this connection has started
  const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && current?.headersSent !== true) {
    socket.write(
      clientErrorResponse(status, {
        error: { code: described.code, message: described.message, requestId },
      }),
    );
  }
  socket.destroy();
}

function declaresBody(headers: Record<string, string | string[] | undefined>): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}

const DROP_LOG_INTERVAL_MS = 10_000;

/** Connections an address may hold and still be given one of the reserved slots. */
const LIGHT_CLIENT = 4;

type Admission = 'ok' | 'per-address' | 'per-network' | 'reserved' | 'full' | 'unknown';

/**
 * Who holds how many connections, and whether one more may be taken: at most `max` in all, at
 * most `perAddress` per client (client-key.ts: IPv4 address, IPv6 /64) and as many per IPv6 /48
 * (client-key.ts networkKey: all its /64s together), and once only a quarter of `max` is left,
 * only for clients holding fewer than LIGHT_CLIENT. A trusted proxy's connections carry many
 * clients: they are bounded by `max` only. A socket whose address cannot be read is refused.
 */
export class ConnectionLedger {
  readonly max: number;
  readonly perAddress: number;
  /** slots kept for light clients */
  readonly reserved: number;
  private readonly held = new Map<string, number>();
  /** per IPv6 /48 */
  private readonly heldInNetwork = new Map<string, number>();
  private total = 0;

  constructor(limits: { max: number; perAddress: number }) {
    this.max = limits.max;
    this.perAddress = limits.perAddress;
    this.reserved = Math.floor(limits.max / 4);
  }

  get open(): number {
    return this.total;
  }

  heldBy(key: string): number {
    return this.held.get(key) ?? 0;
  }

  /** connections held by every client of `key`'s IPv6 /48 (0 for IPv4) */
  heldByNetwork(key: string): number {
    const network = networkKey(key);
    return network === undefined ? 0 : (this.heldInNetwork.get(network) ?? 0);
  }

  /** Takes a slot for `key` (`trusted`: a trusted proxy), or says why not. */
  admit(key: string | undefined, trusted: boolean): Admission {
    if (key === undefined) return 'unknown';
    if (this.total >= this.max) return 'full';
    const held = this.heldBy(key);
    const network = networkKey(key);
    const inNetwork = network === undefined ? 0 : (this.heldInNetwork.get(network) ?? 0);
    if (!trusted) {
      if (held >= this.perAddress) return 'per-address';
      if (inNetwork >= this.perAddress) return 'per-network';
      if (this.total >= this.max - this.reserved && held >= LIGHT_CLIENT) return 'reserved';
    }
    this.held.set(key, held + 1);
    if (network !== undefined) this.heldInNetwork.set(network, inNetwork + 1);
    this.total += 1;
    return 'ok';
  }

  release(key: string): void {
    const held = this.heldBy(key);
    if (held <= 1) this.held.delete(key);
    else this.held.set(key, held - 1);
    const network = networkKey(key);
    if (network !== undefined) {
      const inNetwork = this.heldInNetwork.get(network) ?? 1;
      if (inNetwork <= 1) this.heldInNetwork.delete(network);
      else this.heldInNetwork.set(network, inNetwork - 1);
    }
    this.total -= 1;
  }
}

/**
 * Connections with no request in flight, the longest idle first (a Set keeps insertion order): a
 * connection is idle from its accept until its first request, and again whenever its last
 * unanswered request is answered.
 */
export class IdleConnections {
  private readonly idle = new Set<Socket>();

  /** `socket` has no request in flight from now on */
  rest(socket: Socket): void {
    this.idle.delete(socket);
    if (!socket.destroyed) this.idle.add(socket);
  }

  /** `socket` has a request in flight, or is gone */
  busy(socket: Socket): void {
    this.idle.delete(socket);
  }

  get size(): number {
    return this.idle.size;
  }

  /** Takes the connection idle the longest out of the set (undefined when none is). */
  takeLongestIdle(): Socket | undefined {
    for (const socket of this.idle) {
      this.idle.delete(socket);
      if (!socket.destroyed) return socket;
    }
    return undefined;
  }
}

/** Requests of one connection that may wait for their answers at once (pipelined, unread). */
export const MAX_UNANSWERED_PER_SOCKET = 16;

const kUnanswered = Symbol('finance-tui.unanswered');
const kRelease = Symbol('finance-tui.release');
const kAnswered = Symbol('finance-tui.answered');
type CountedSocket = Socket & { [kUnanswered]?: number; [kAnswered]?: () => void };

/** llhttp's HPE_PAUSED: returned from its on_headers_complete callback, it stops the parse. */
const HPE_PAUSED = 21;

type ParsedSocket = Socket & { parser?: { onIncoming?: unknown } | null };

/**
 * Node's HTTP parser takes a whole read (up to 64 KB: ~1,600 pipelined `GET /health`) in one
 * `execute`, making a request and a response object for each before anything can stop it:
 * neither closing the connection nor pausing the socket cuts the read in progress. So the
 * parser's per-request callback (`onIncoming`, whose answer Node hands back to llhttp from
 * on_headers_complete) is wrapped: once the request it has just passed on has closed the
 * connection (the bound in boundPipelining), it answers HPE_PAUSED, and llhttp stops there — the
 * rest of the read is never parsed. Nothing is added to an ordinary connection's read path: no
 * 'data' listener (which would make Node stop feeding its parser from the socket's handle, its
 * fast path), one wrapped function per connection.
 */
function stopParseAtBound(socket: ParsedSocket): void {
  const parser = socket.parser;
  const onIncoming = parser?.onIncoming;
  if (parser === undefined || parser === null || typeof onIncoming !== 'function') return;
  parser.onIncoming = (request: IncomingMessage, keepAlive: boolean): unknown => {
    const answer: unknown = onIncoming(request, keepAlive);
    return socket.destroyed ? HPE_PAUSED : answer;
  };
}

/**
 * Puts a bound in front of the server's request handler (Fastify's): a request over
 * MAX_UNANSWERED_PER_SOCKET waiting on its connection closes that connection and reaches no
 * route, nor does any request parsed after it from the same read; `onRefused` is called once per
 * connection closed. Node parses a whole read (64 KB: ~1,600 pipelined `GET /health`) before it
 * looks at backpressure, so without this bound every one of them became a request in flight; and
 * the parse stops at the request that closed the connection (stopParseAtBound), not at the end
 * of its read.
 * `idle`, when given, learns when each connection has a request in flight and when none.
 */
function boundPipelining(server: Server, onRefused: () => void, idle?: IdleConnections): void {
  // after Node's own connection listener (the server's first): the parser is attached by then
  server.on('connection', (socket: Socket) => stopParseAtBound(socket));
  const handlers = server.listeners('request') as Array<
    (request: IncomingMessage, response: ServerResponse) => void
  >;
  server.removeAllListeners('request');
  server.on('request', function bounded(this: Server, request, response) {
    const socket = request.socket as CountedSocket;
    if (socket.destroyed) return;
    const unanswered = (socket[kUnanswered] ?? 0) + 1;
    if (unanswered > MAX_UNANSWERED_PER_SOCKET) {
      onRefused();
      socket.destroy();
      return;
    }
    socket[kUnanswered] = unanswered;
    idle?.busy(socket);
    // one listener function per connection, not a closure per request (a response closes once)
    socket[kAnswered] ??= () => {
      const left = (socket[kUnanswered] ?? 1) - 1;
      socket[kUnanswered] = left;
      if (left === 0) idle?.rest(socket);
    };
    response.on('close', socket[kAnswered]);
    for (const handler of handlers) handler.call(this, request, response);
  });
}

interface TransportOptions {
  maxConnections: number;
  maxConnectionsPerAddress: number;
  trustProxy: boolean | number | string;
}

const transport: FastifyPluginAsync<TransportOptions> = async (fastify, options) => {
  fastify.addHook('onRequest', (request, reply, done) => {
    if (
      !declaresBody(request.headers) ||
      (!request.is404 && request.routeOptions.schema?.body !== undefined)
    ) {
      done();
      return;
    }
    // the unread body stays in the socket: close it after this answer rather than drain it
    reply.header('connection', 'close');
    done(
      request.is404
        ? notFoundError(request.method)
        : new AppError(ErrorCode.PAYLOAD_TOO_LARGE, 'This route takes no request body'),
    );
  });

  type Refusal = Exclude<Admission, 'ok'> | 'pipelined' | 'idle';
  const refused: Record<Refusal, number> = {
    idle: 0,
    full: 0,
    'per-address': 0,
    'per-network': 0,
    reserved: 0,
    unknown: 0,
    pipelined: 0,
  };
  let lastLog = 0;
  const countRefusal = (reason: Refusal): void => {
    refused[reason] += 1;
    const now = Date.now();
    if (now - lastLog < DROP_LOG_INTERVAL_MS) return;
    fastify.log.warn(
      {
        refused: { ...refused },
        maxConnections: options.maxConnections,
        maxConnectionsPerAddress: options.maxConnectionsPerAddress,
      },
      reason === 'full'
        ? 'connections refused: the server is at its connection cap'
        : reason === 'pipelined'
          ? `connections closed: more than ${MAX_UNANSWERED_PER_SOCKET} requests waiting unanswered on one`
          : reason === 'idle'
            ? 'idle connections closed: every slot was taken, the longest idle made room'
            : 'connections refused: a client address is at its share of the connections',
    );
    lastLog = now;
    for (const key of Object.keys(refused) as Array<keyof typeof refused>) refused[key] = 0;
  };

  const ledger = new ConnectionLedger({
    max: options.maxConnections,
    perAddress: options.maxConnectionsPerAddress,
  });
  const trusted = trustedPeer(options.trustProxy);
  const idle = new IdleConnections();
  boundPipelining(fastify.server, () => countRefusal('pipelined'), idle);
  // Node closes what is over its maxConnections (ours + 1, app.ts) before it becomes a connection
  fastify.server.on('drop', () => countRefusal('full'));
  fastify.server.on('connection', (socket: Socket & { [kRelease]?: () => void }) => {
    const key = clientKey(socket.remoteAddress);
    const isTrusted = trusted(socket.remoteAddress);
    let admission = ledger.admit(key, isTrusted);
    // every slot taken: a light client (or a proxy) gets the slot of the longest-idle connection
    if (
      admission === 'full' &&
      key !== undefined &&
      (isTrusted || ledger.heldBy(key) < LIGHT_CLIENT)
    ) {
      const longest = idle.takeLongestIdle() as (Socket & { [kRelease]?: () => void }) | undefined;
      if (longest !== undefined) {
        countRefusal('idle');
        longest[kRelease]?.();
        longest.destroy();
        admission = ledger.admit(key, isTrusted);
      }
    }
    if (admission !== 'ok') {
      countRefusal(admission);
      socket.destroy();
      return;
    }
    let held = true;
    socket[kRelease] = () => {
      if (!held) return;
      held = false;
      ledger.release(key as string);
    };
    idle.rest(socket);
    socket.once('close', () => {
      idle.busy(socket);
      socket[kRelease]?.();
    });
  });
};

export default fp(transport, { name: 'transport', fastify: '5.x' });
