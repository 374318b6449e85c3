/**
 * The one error handler and the one not-found handler: every failure leaves as
 * `{"error": {code, message, requestId}}`, except on routes marked `config.jsonRpcErrors`
 * (POST /paymaster), where it leaves as a JSON-RPC error object a JSON-RPC client can report:
 * `{"jsonrpc": "2.0", "id", "error": {"code": <number>, "message": "CODE: message", "data":
 * {"code", "requestId", "retryAfter"?}}}`, HTTP status kept. `describeError` is the plain
 * mapping, testable without Fastify. Errors carry a code and no status: HTTP_STATUS below is the
 * one place a code becomes an HTTP status (docs/architecture.md "Auth server contract").
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

interface ErrorDescription {
  /** HTTP_STATUS of the code, always */
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

/**
 * The HTTP status of every code. Every code has an entry, so a new code does not compile until
 * it has one. Codes only the client or a process raises never reach this handler; if one does, it
 * is a bug, answered 500 and logged with its stack.
 */
export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  [ErrorCode.VALIDATION_ERROR]: 400,
  [ErrorCode.MALFORMED_REQUEST]: 400,
  [ErrorCode.UNAUTHORIZED]: 401,
  [ErrorCode.TOKEN_EXPIRED]: 401,
  [ErrorCode.TOKEN_REVOKED]: 401,
  [ErrorCode.INVALID_OTP]: 401,
  [ErrorCode.FORBIDDEN]: 403,
  [ErrorCode.WALLET_MISMATCH]: 403,
  [ErrorCode.EMAIL_MISMATCH]: 403,
  [ErrorCode.SPONSORED_DISABLED]: 403,
  [ErrorCode.GRANT_EXCEEDED]: 403,
  [ErrorCode.GRANT_RECIPIENT_NOT_ALLOWED]: 403,
  [ErrorCode.GRANT_CALL_NOT_ALLOWED]: 403,
  [ErrorCode.GRANT_FORBIDDEN]: 403,
  [ErrorCode.GRANT_EXPIRED]: 401,
  [ErrorCode.GRANT_REVOKED]: 401,
  [ErrorCode.GRANT_NOT_FOUND]: 404,
  [ErrorCode.GRANT_LIMIT_REACHED]: 409,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.METHOD_NOT_ALLOWED]: 405,
  [ErrorCode.REQUEST_TIMEOUT]: 408,
  [ErrorCode.WALLET_EXISTS]: 409,
  [ErrorCode.PROVISIONING_IN_PROGRESS]: 409,
  [ErrorCode.PAYLOAD_TOO_LARGE]: 413,
  [ErrorCode.UNSUPPORTED_MEDIA_TYPE]: 415,
  [ErrorCode.RATE_LIMITED]: 429,
  [ErrorCode.SPONSORED_LIMIT_REACHED]: 429,
  [ErrorCode.HEADERS_TOO_LARGE]: 431,
  [ErrorCode.INTERNAL_ERROR]: 500,
  [ErrorCode.IDENTITY_PROVIDER_ERROR]: 502,
  [ErrorCode.PAYMASTER_ERROR]: 502,
  [ErrorCode.REVOCATION_UNAVAILABLE]: 503,
  [ErrorCode.DEPENDENCY_UNAVAILABLE]: 503,
  [ErrorCode.UPSTREAM_TIMEOUT]: 504,
  // the server process's own, raised at start or stop, never in a request
  [ErrorCode.CONFIG_ERROR]: 500,
  [ErrorCode.SHUTDOWN_TIMEOUT]: 500,
  // the client's own (cli/): never sent by this server
  [ErrorCode.USAGE_ERROR]: 500,
  [ErrorCode.UNKNOWN_TOKEN]: 500,
  [ErrorCode.INVALID_AMOUNT]: 500,
  [ErrorCode.INVALID_SLIPPAGE]: 500,
  [ErrorCode.NO_ROUTE_FOUND]: 500,
  [ErrorCode.BATCH_LIMIT_EXCEEDED]: 500,
  [ErrorCode.NETWORK_ERROR]: 500,
  [ErrorCode.INVALID_RESPONSE]: 500,
  [ErrorCode.NETWORK_UNSUPPORTED]: 500,
  [ErrorCode.CALLDATA_MISMATCH]: 500,
  [ErrorCode.APPROVAL_MISMATCH]: 500,
  [ErrorCode.CALLS_MISMATCH]: 500,
  [ErrorCode.QUOTE_CHANGED]: 500,
  [ErrorCode.PLAN_CHANGED]: 500,
  [ErrorCode.PRICE_IMPACT_TOO_HIGH]: 500,
  [ErrorCode.INSUFFICIENT_BALANCE]: 500,
  [ErrorCode.SIMULATION_REVERTED]: 500,
  [ErrorCode.SIMULATION_BELOW_MINIMUM]: 500,
  [ErrorCode.SIMULATION_OVERSPEND]: 500,
  [ErrorCode.CONFIRMATION_REQUIRED]: 500,
  [ErrorCode.ACKNOWLEDGMENT_REQUIRED]: 500,
  [ErrorCode.UNKNOWN_VALIDATOR]: 500,
  [ErrorCode.VALIDATOR_INACTIVE]: 500,
  [ErrorCode.NOTHING_STAKED]: 500,
  [ErrorCode.EXIT_NOT_READY]: 500,
  [ErrorCode.EXIT_IN_PROGRESS]: 500,
  [ErrorCode.UNKNOWN_POOL]: 500,
  [ErrorCode.NO_POSITION]: 500,
  [ErrorCode.HEALTH_TOO_LOW]: 500,
  [ErrorCode.LENDING_LIMIT]: 500,
  [ErrorCode.POOL_PRICE_DISAGREES]: 500,
  [ErrorCode.PINNED_ADDRESS_MISMATCH]: 500,
  [ErrorCode.ORACLE_PRICE_UNAVAILABLE]: 500,
  [ErrorCode.SWAP_BELOW_ORACLE]: 500,
  [ErrorCode.POSITION_HEALTHY]: 500,
  [ErrorCode.INVALID_RECIPIENT]: 500,
  [ErrorCode.HISTORY_ERROR]: 500,
  [ErrorCode.SERVER_UNREACHABLE]: 500,
  [ErrorCode.SERVER_ERROR]: 500,
  [ErrorCode.CANCELLED]: 500,
  [ErrorCode.INVALID_ADDRESS]: 500,
  [ErrorCode.CHAIN_UNREACHABLE]: 500,
  [ErrorCode.CHAIN_ERROR]: 500,
  [ErrorCode.PAYMASTER_REFUSED]: 500,
  [ErrorCode.SIGNATURE_REFUSED]: 500,
  [ErrorCode.FEE_ABOVE_MAX]: 500,
  [ErrorCode.TAMPERED_TRANSACTION]: 500,
  [ErrorCode.TRANSACTION_REVERTED]: 500,
  [ErrorCode.TRANSACTION_PENDING]: 500,
  [ErrorCode.SUBMITTED_UNCONFIRMED]: 500,
  [ErrorCode.ALREADY_SUBMITTED]: 500,
  [ErrorCode.ALREADY_BALANCED]: 500,
  [ErrorCode.REBALANCE_OUTSIDE_BAND]: 500,
  [ErrorCode.ACCOUNT_UNSUPPORTED]: 500,
  [ErrorCode.LIMIT_EXCEEDED]: 500,
  [ErrorCode.TOKEN_NOT_ALLOWED]: 500,
  [ErrorCode.BUDGET_EXCEEDED]: 500,
  [ErrorCode.RECIPIENT_NOT_ALLOWED]: 500,
  [ErrorCode.EXECUTION_DISABLED]: 500,
  [ErrorCode.PLAN_NOT_FOUND]: 500,
  [ErrorCode.AUTH_REQUIRED]: 500,
  [ErrorCode.SESSION_EXPIRED]: 500,
  [ErrorCode.ADDRESS_MISMATCH]: 500,
};

/** The status `code` is answered with; 500 for anything not in HTTP_STATUS (a cast, a bug). */
export function httpStatusOf(code: ErrorCode): number {
  return Object.hasOwn(HTTP_STATUS, code) ? HTTP_STATUS[code] : 500;
}

/** Fastify's own 4xx errors carry a status and no code of ours: the code each status means. */
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
  const described = classify(error, options);
  return { ...described, status: httpStatusOf(described.code) };
}

/** What a failure means, as a code; its status is the code's (describeError). */
function classify(
  error: unknown,
  options: { exposeInternals?: boolean },
): Omit<ErrorDescription, 'status'> {
  if (error instanceof AppError) {
    const { jsonRpcCode, retryAfter } = error.details ?? {};
    return {
      code: error.code,
      message: error.message,
      unexpected: httpStatusOf(error.code) === 500,
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
      code: ErrorCode.VALIDATION_ERROR,
      message: `Invalid request: ${fastifyError.message}`,
      unexpected: false,
      jsonRpcCode: JSON_RPC_INVALID_REQUEST,
    };
  }
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return {
      code: ErrorCode.PAYLOAD_TOO_LARGE,
      message: 'Request body is larger than 1 MB',
      unexpected: false,
    };
  }
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return {
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
      code: mapped,
      message,
      unexpected: false,
    };
  }
  const detail = error instanceof Error ? error.message : String(error);
  return {
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
function jsonRpcRefusal(
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

interface ErrorsPluginOptions {
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
