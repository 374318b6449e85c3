/**
 * The one error handler and the one not-found handler: every failure leaves as
 * `{"error": {code, message, requestId}}`, except on routes marked `config.jsonRpcErrors`
 * (POST /paymaster), where it leaves as a JSON-RPC error object a JSON-RPC client can report:
 * `{"jsonrpc": "2.0", "id", "error": {"code": <number>, "message": "CODE: message", "data":
 * {"code", "requestId", "retryAfter"?}}}`, HTTP status kept. `describeError` is the plain
 * mapping, testable without Fastify.
 */
import type { FastifyError, FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  AppError,
  type ErrorBody,
  ErrorCode,
  JSON_RPC_ERROR_CODES,
  JSON_RPC_INVALID_REQUEST,
  JSON_RPC_PARSE_ERROR,
  JSON_RPC_SERVER_ERROR,
  type JsonRpcRefusalData,
} from '../../shared/errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** refusals on this route leave as JSON-RPC error objects */
    jsonRpcErrors?: boolean;
  }
}

export interface ErrorDescription {
  status: number;
  code: ErrorCode;
  message: string;
  /** true for bugs and unexpected failures: logged with the stack at error level */
  unexpected: boolean;
  /** the JSON-RPC error code where it is not the code's usual one (parse error, invalid request, …) */
  jsonRpcCode?: number;
  /** seconds (Retry-After), on limits */
  retryAfter?: number;
}

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: ErrorCode.VALIDATION_ERROR,
  401: ErrorCode.UNAUTHORIZED,
  403: ErrorCode.FORBIDDEN,
  404: ErrorCode.NOT_FOUND,
  405: ErrorCode.METHOD_NOT_ALLOWED,
  413: ErrorCode.PAYLOAD_TOO_LARGE,
  415: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
  429: ErrorCode.RATE_LIMITED,
};

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && typeof (error as { code?: unknown }).code === 'string';
}

export function describeError(
  error: unknown,
  options: { exposeInternals?: boolean } = {},
): ErrorDescription {
  if (error instanceof AppError) {
    const { jsonRpcCode, retryAfter } = error.details ?? {};
    return {
      status: error.status,
      code: error.code,
      message: error.message,
      unexpected: error.status >= 500 && error.status < 502,
      ...(typeof jsonRpcCode === 'number' ? { jsonRpcCode } : {}),
      ...(typeof retryAfter === 'number' ? { retryAfter } : {}),
    };
  }
  const fastifyError = isFastifyError(error) ? error : undefined;
  const code = fastifyError?.code;
  if (fastifyError?.validation !== undefined) {
    // Fastify's message names the field and the rule ("body/hash must match pattern ..."),
    // never the value sent.
    return {
      status: 400,
      code: ErrorCode.VALIDATION_ERROR,
      message: `Invalid request: ${fastifyError.message}`,
      unexpected: false,
      jsonRpcCode: JSON_RPC_INVALID_REQUEST,
    };
  }
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return {
      status: 413,
      code: ErrorCode.PAYLOAD_TOO_LARGE,
      message: 'Request body is larger than 1 MB',
      unexpected: false,
    };
  }
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return {
      status: 415,
      code: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
      message: 'Send the body as application/json',
      unexpected: false,
    };
  }
  // Only the body parser's failures: Fastify's own codes, or a SyntaxError a parser marked 400.
  // Any other SyntaxError (a BigInt of bad text, an upstream body) is a bug, not the client's JSON.
  const parserSyntaxError =
    error instanceof SyntaxError && (error as { statusCode?: unknown }).statusCode === 400;
  if (
    code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
    parserSyntaxError
  ) {
    // Fixed text: JSON.parse messages quote the body, which may hold a code or token.
    return {
      status: 400,
      code: ErrorCode.VALIDATION_ERROR,
      message: 'Request body is not valid JSON',
      unexpected: false,
      jsonRpcCode: JSON_RPC_PARSE_ERROR,
    };
  }
  const status = fastifyError?.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    const mapped = CODE_BY_STATUS[status] ?? ErrorCode.VALIDATION_ERROR;
    // Fastify's own 4xx messages describe the request, not our internals.
    const message = code?.startsWith('FST_')
      ? (fastifyError?.message ?? 'Bad request')
      : 'Bad request';
    return {
      status: status in CODE_BY_STATUS ? status : 400,
      code: mapped,
      message,
      unexpected: false,
    };
  }
  const detail = error instanceof Error ? error.message : String(error);
  return {
    status: 500,
    code: ErrorCode.INTERNAL_ERROR,
    // opaque unless asked: the detail can name files, hosts or values, and is in the log anyway
    message:
      options.exposeInternals === true
        ? `Internal server error: ${detail}`
        : 'Internal server error',
    unexpected: true,
  };
}

/** The JSON-RPC `id` of the request when its body was read and carries a valid one; else null. */
function jsonRpcId(request: FastifyRequest): string | number | null {
  const body = request.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const id = (body as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** The JSON-RPC error object for a refusal (see the file comment). */
export function jsonRpcRefusal(
  described: ErrorDescription,
  requestId: string,
  id: string | number | null,
) {
  const data: JsonRpcRefusalData = {
    code: described.code,
    requestId,
    ...(described.retryAfter === undefined ? {} : { retryAfter: described.retryAfter }),
  };
  return {
    jsonrpc: '2.0' as const,
    id,
    error: {
      code: described.jsonRpcCode ?? JSON_RPC_ERROR_CODES[described.code] ?? JSON_RPC_SERVER_ERROR,
      // the stable code first: a client that prints "code: message" shows it
      message: `${described.code}: ${described.message}`,
      data,
    },
  };
}

export interface ErrorsPluginOptions {
  /** put the internal error text in 500 bodies (development and test only); default false */
  exposeInternals?: boolean;
}

/**
 * The path of an unknown route is never echoed: it may be a token someone pasted into a URL, and
 * whatever we echo ends up in the client's logs and screens. The method is one Node's parser
 * accepted, so it is a plain word.
 */
export function notFoundError(method: string): AppError {
  return new AppError(
    ErrorCode.NOT_FOUND,
    `No route serves ${method} on this path (see docs/server-api.md)`,
    { status: 404 },
  );
}

const errors: FastifyPluginAsync<ErrorsPluginOptions> = async (fastify, options) => {
  fastify.setErrorHandler(async (error, request, reply) => {
    const described = describeError(error, options);
    // the request's own line (plugins/request-log.ts) carries the code too
    request.errorCode = described.code;
    if (described.unexpected) {
      request.log.error({ err: error }, 'request failed');
    } else if (described.status >= 500) {
      // Upstream failures: the code and our message are enough; AppError messages hold no secrets.
      request.log.warn({ errorCode: described.code }, described.message);
    } else {
      request.log.info(
        { errorCode: described.code, statusCode: described.status },
        'request rejected',
      );
    }
    // an over-long body is still in the socket: close the connection rather than drain it
    if (described.status === 413) reply.header('connection', 'close');
    reply.code(described.status).type('application/json; charset=utf-8');
    if (request.routeOptions.config?.jsonRpcErrors === true)
      return reply.send(jsonRpcRefusal(described, request.id, jsonRpcId(request)));
    const body: ErrorBody = {
      error: { code: described.code, message: described.message, requestId: request.id },
    };
    return reply.send(body);
  });

  fastify.setNotFoundHandler(async (request) => {
    throw notFoundError(request.method);
  });
};

export default fp(errors, { name: 'errors', fastify: '5.x' });
