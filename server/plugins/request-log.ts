/**
 * One log line per request, written when the response has gone out: the request id (the
 * logger's `reqId` binding), method, route, status, response time, client address, and the
 * error code when the request failed. It replaces Fastify's two lines (incoming + completed),
 * which cost a second serialisation per request and carried the raw URL.
 *
 * The route is the matched route's pattern. The raw path of an unknown route is never logged
 * (a token pasted into a URL would land in the log): only the path when it is exactly one of our
 * routes (asked with the wrong method), else its first segment when that is one of our route
 * prefixes, and its length. A request the client gave up on before the answer gets its line too.
 *
 * Fastify's own logger is off (app.ts): with one, Fastify makes a child logger for every request
 * and checks it, adds a 'finish' and an 'error' listener to every response and reads the clock
 * twice, all to call the controller when the response is done. Instead the plugin's first
 * onRequest hook adds one 'close' listener to the response, which writes the request's line:
 * the completed line when the answer went out, the aborted line when it did not (the connection
 * closed first); Fastify's onRequestAbort hook (a listener on the request) is not used either.
 * The controller is still given to Fastify (`logController`), so that Fastify's own lines
 * (incoming request, route not found) stay off. `request.log` is a child of the app's redacting
 * logger made only when something logs through it (lazyChildLoggers).
 *
 * The line of a completed request is written by hand, in the shape pino gives its lines
 * (`{"level":30,"time":…` then the base fields, the fields, `"msg":"request"}`), straight to the
 * log's destination: pino's general-purpose serialisation of the same object cost about 1 µs of
 * the ~17 µs of CPU a GET /health takes (bench/server-health.ts; docs/benchmarks.md). Rarer lines
 * (aborted, failed while responding) still go through pino. The controller is handed what it
 * writes with (the level, the base fields and the destination) rather than reading them out of a
 * logger: pino keeps those behind private symbols. request-log.test.ts holds the seam: for the
 * same fields, the hand-written line is the line pino writes.
 */
import {
  type FastifyBaseLogger,
  type FastifyPluginAsync,
  type FastifyRequest,
  LogController,
} from 'fastify';
import fp from 'fastify-plugin';
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import pino, { type Bindings, type ChildLoggerOptions } from 'pino';

declare module 'fastify' {
  interface FastifyRequest {
    /** our error code when the request failed (set by the error handler), for the request line */
    errorCode: string | null;
  }
}

/** Paths and first segments of the routes we serve: the only parts of an unknown URL we log. */
class KnownPaths {
  readonly #paths = new Set<string>();
  readonly #prefixes = new Set<string>();

  add(url: string): void {
    // a pattern with parameters or wildcards says nothing safe about what was sent
    if (/[:*]/.test(url)) return;
    this.#paths.add(url);
    const first = url.split('/')[1];
    if (first) this.#prefixes.add(first);
  }

  /** `/auth/login`, `/auth/… (23 chars)` or `/… (200 chars)`: never a segment we did not define. */
  label(url: string): string {
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (this.#paths.has(path)) return path;
    const first = path.split('/', 2)[1] ?? '';
    return `${this.#prefixes.has(first) ? `/${first}/…` : '/…'} (${path.length} chars)`;
  }
}

function lineOf(request: FastifyRequest, known: KnownPaths): Record<string, unknown> {
  return {
    reqId: request.id,
    method: request.method,
    url: request.is404 ? known.label(request.url) : request.routeOptions.url,
    remoteAddress: request.ip,
  };
}

/** A number as JSON has it (pino, like JSON.stringify, writes null for NaN or ±Infinity). */
function jsonNumber(value: number): string | number {
  return Number.isFinite(value) ? value : 'null';
}

/**
 * A duration of `ns` whole nanoseconds (0 ≤ ns < 10^15, under 12 days) in milliseconds, as JSON
 * writes the number ns / 1e6: the shortest decimal, so no trailing zeros (a decimal of at most 15
 * significant digits is what its nearest double prints as). Written from integers: printing a
 * double that carries performance.now()'s full precision (0.5755389999999352) took ~1 µs, more
 * than the rest of the line (docs/benchmarks.md "Issue 35, eighth round: the server's per-request
 * path").
 */
export function msFromNs(ns: number): string {
  const whole = Math.floor(ns / 1_000_000);
  let fraction = ns - whole * 1_000_000;
  if (fraction === 0) return String(whole);
  let digits = 6;
  while (fraction % 10 === 0) {
    fraction /= 10;
    digits -= 1;
  }
  return `${whole}.${String(fraction).padStart(digits, '0')}`;
}

/** What the request lines are written with: the same level, base fields and destination as the app's logger. */
interface RequestLineOptions {
  /** pino's level name: the request line is written when info is enabled */
  level: string;
  /** pino's `base`: the fields every line starts with (pid, then hostname or sandbox) */
  base: Readonly<Record<string, string | number | boolean>>;
  destination: pino.DestinationStream;
}

export class RequestLineController extends LogController {
  readonly known = new KnownPaths();
  /** the request lines' logger, for the rarer lines; `request.log` (redacting) keeps everything else */
  readonly lines: pino.Logger;
  /** what a line holds after its time and before the id: `,"pid":…,"hostname":"…","reqId":` */
  readonly #afterTime: string;
  readonly #destination: pino.DestinationStream;

  constructor(options: RequestLineOptions) {
    super();
    this.lines = pino({ level: options.level, base: options.base }, options.destination);
    this.#afterTime = `${Object.entries(options.base)
      .map(([name, value]) => `,${JSON.stringify(name)}:${JSON.stringify(value)}`)
      .join('')},"reqId":`;
    this.#destination = options.destination;
  }

  /** No "incoming request" line: the one line comes when the request is done. */
  override incomingRequest(): void {}

  /**
   * Not the request's line: that is responseClosed's, from the plugin's own listener. Fastify
   * calls this only when it sets up its own response listeners (a logger, or any onResponse hook
   * or handler timeout); the line written here too would be a second one for the request.
   */
  override requestCompleted(): void {}

  /** The completed request's line; `responseTime` in ms, as JSON (a number, or its text). */
  writeLine(request: FastifyRequest, statusCode: number, responseTime: string | number): void {
    this.#writeLine(
      request,
      statusCode,
      typeof responseTime === 'number' ? jsonNumber(responseTime) : responseTime,
    );
  }

  /**
   * The response has closed (its one listener, added by the plugin's hook): the request's line.
   * Answered when the answer went out: `writableFinished` on a socket (Node has written it all
   * and let the socket go); a response that was ended on a socket still open (app.inject's,
   * which has no socket to flush to) counts too. Otherwise the connection closed before the
   * answer was out (the client gave up, a deadline or the pipelining bound cut it, the server's
   * shutdown): the aborted line, as Fastify's onRequestAbort gave it.
   */
  responseClosed(request: FastifyRequest, response: ServerResponse, startedAt: number): void {
    if (
      response.writableFinished ||
      (response.writableEnded && response.socket?.destroyed === false)
    ) {
      // to the nanosecond, as it is printed (msFromNs)
      const ns = Math.round((performance.now() - startedAt) * 1_000_000);
      this.#writeLine(request, response.statusCode, msFromNs(ns));
      return;
    }
    this.lines.info(
      { ...lineOf(request, this.known), aborted: true },
      'request ended before its answer',
    );
  }

  /** `responseTime`: the duration in ms as JSON text */
  #writeLine(request: FastifyRequest, statusCode: number, responseTime: string | number): void {
    if (!this.lines.isLevelEnabled('info')) return;
    // the fields and their order are lineOf's, then status, time and code, as pino writes them;
    // the constant parts are joined once (the constructor, the literals below). Written without
    // JSON's escaping, as they need none: the id (a sane incoming one or ours, request-id.ts), the
    // method (Node's parser takes only the registered methods, letters and '-'), our error code.
    // The route or path label and the address are escaped: an address from X-Forwarded-For (a
    // trusted proxy's) is text from outside.
    const ip = request.ip;
    const errorCode = request.errorCode ?? undefined;
    this.#destination.write(
      `{"level":30,"time":${Date.now()}${this.#afterTime}"${request.id}","method":"${request.method}","url":${request.is404 ? JSON.stringify(this.known.label(request.url)) : this.#routeJson(request.routeOptions.url)}${ip === undefined ? '' : `,"remoteAddress":${this.#addressJson(ip)}`},"statusCode":${jsonNumber(statusCode)},"responseTime":${responseTime}${errorCode === undefined ? '' : `,"errorCode":"${errorCode}"`},"msg":"request"}\n`,
    );
  }

  /** JSON of each route pattern, kept: patterns are few, and JSON.stringify costs ~150 ns a call. */
  readonly #routes = new Map<string | undefined, string>();

  #routeJson(url: string | undefined): string {
    let json = this.#routes.get(url);
    if (json === undefined) {
      json = JSON.stringify(url ?? null);
      this.#routes.set(url, json);
    }
    return json;
  }

  /** JSON of the last client address: under load the lines of one client follow each other. */
  #lastAddress: string | undefined;
  #lastAddressJson = '';

  #addressJson(address: string): string {
    if (address !== this.#lastAddress) {
      this.#lastAddress = address;
      this.#lastAddressJson = JSON.stringify(address);
    }
    return this.#lastAddressJson;
  }

  /** Fastify's 404 line would carry the raw URL; ours (through the not-found handler) does not. */
  override routeNotFound(): void {}
}

/**
 * The per-request logger (`request.log`, with `reqId` bound), made only when something logs
 * through it. Making a pino child runs redaction over its bindings, 3.5 µs with our paths, on
 * every request, while most requests never use it: their one line goes through the controller.
 */
class LazyChildLogger {
  #child: FastifyBaseLogger | undefined;
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  real(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  get level(): string {
    return this.#child?.level ?? this.#parent.level;
  }

  set level(value: string) {
    this.real().level = value;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }

  silent(): void {}
}

// the log methods, each handing its arguments to the real child (made on first use)
for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const) {
  Object.defineProperty(LazyChildLogger.prototype, level, {
    value(this: LazyChildLogger, ...args: unknown[]): void {
      (this.real()[level] as (...a: unknown[]) => void)(...args);
    },
  });
}

/**
 * Fastify's `childLoggerFactory`, making `request.log` a lazy child of `logger` (the app's
 * redacting logger). Fastify's own logger is off, so the parent it passes is its null logger.
 */
export function lazyChildLoggers(
  logger: FastifyBaseLogger,
): (
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
) => FastifyBaseLogger {
  return (_parent, bindings, options) =>
    new LazyChildLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}

interface RequestLogPluginOptions {
  controller: RequestLineController;
}

const requestLog: FastifyPluginAsync<RequestLogPluginOptions> = async (fastify, options) => {
  const { controller } = options;
  const { known } = controller;
  fastify.decorateRequest('errorCode', null);
  fastify.addHook('onRoute', (route) => known.add(route.url));
  // registered before every other plugin (app.ts): it runs for every request, one that a later
  // hook refuses too
  fastify.addHook('onRequest', (request, reply, done) => {
    const startedAt = performance.now();
    const response = reply.raw;
    response.on('close', () => controller.responseClosed(request, response, startedAt));
    done();
  });
};

export default fp(requestLog, { name: 'request-log', fastify: '5.x' });
