/**
 * SNIP-29 paymaster relay over HTTP (json-http.ts: the server's one upstream transport, node:http
 * with keep-alive; docs/decisions.md). A JSON-RPC error from the paymaster is a valid answer and
 * is relayed verbatim; only transport failures become our errors:
 * timeout → 504 UPSTREAM_TIMEOUT; refused connection, a redirect (never followed: it would
 * re-send the API key and the transaction elsewhere), 5xx, non-JSON or non-JSON-RPC → 502
 * PAYMASTER_ERROR. No retries: paymaster_executeTransaction is not idempotent.
 * Messages never include the API key or the upstream body: the only upstream text in them is the
 * HTTP status, a number. The body is read up to MAX_RESPONSE_BYTES and refused beyond it (502):
 * a broken or hostile upstream must not make us buffer, parse and relay an answer of any size.
 */
import type { JsonRpcRequest } from '../../shared/api.js';
import { AppError, ErrorCode } from '../../shared/errors.js';
import {
  type Answer,
  createJsonTransport,
  type JsonTransport,
  ResponseTooLargeError,
  UpstreamTimeoutError,
} from './json-http.js';
import type { PaymasterRelay } from './types.js';

/** Far above any SNIP-29 answer (a built transaction is a few KB), and our own body limit. */
export const MAX_RESPONSE_BYTES = 1_048_576;

interface PaymasterRelayOptions {
  url: string;
  apiKey?: string | undefined;
  timeoutMs: number;
  /** for tests that need to watch the wire; defaults to json-http.ts capped at MAX_RESPONSE_BYTES */
  transport?: JsonTransport;
}

// No `cause`: the transport's error may hold the request, and the request holds the API key header.
function paymasterError(message: string): AppError {
  return new AppError(ErrorCode.PAYMASTER_ERROR, message);
}

function isJsonRpcResponse(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const record = body as Record<string, unknown>;
  return record.jsonrpc === '2.0' && ('result' in record || 'error' in record);
}

/** No answer at all: the deadline passed, the answer was too large, or the connection failed. */
function transportError(error: unknown, timeoutMs: number): AppError {
  if (error instanceof UpstreamTimeoutError)
    return new AppError(
      ErrorCode.UPSTREAM_TIMEOUT,
      `The paymaster did not answer within ${timeoutMs} ms`,
    );
  if (error instanceof ResponseTooLargeError)
    return paymasterError(`The paymaster response is too large (over ${MAX_RESPONSE_BYTES} bytes)`);
  return paymasterError('The paymaster could not be reached');
}

export function createPaymasterRelay(options: PaymasterRelayOptions): PaymasterRelay {
  const headers: Record<string, string> = {};
  if (options.apiKey !== undefined && options.apiKey !== '')
    headers['x-paymaster-api-key'] = options.apiKey;
  const transport = options.transport ?? createJsonTransport({ maxBodyBytes: MAX_RESPONSE_BYTES });

  return {
    async relay(request: JsonRpcRequest): Promise<unknown> {
      let answer: Answer;
      try {
        // the deadline covers the whole exchange: connecting, sending, headers and body
        answer = await transport({
          method: 'POST',
          url: options.url,
          headers,
          json: request,
          timeoutMs: options.timeoutMs,
        });
      } catch (error) {
        throw transportError(error, options.timeoutMs);
      }
      const { status } = answer;
      if (status >= 300 && status < 400)
        throw paymasterError(
          `The paymaster answered with a redirect (HTTP ${status}); redirects are never followed`,
        );
      if (status >= 500) throw paymasterError(`The paymaster failed (HTTP ${status})`);

      let body: unknown;
      try {
        body = JSON.parse(answer.text);
      } catch {
        throw paymasterError(`The paymaster sent a response that is not JSON (HTTP ${status})`);
      }
      // A 4xx carrying a JSON-RPC error is still the paymaster's answer (bad params, …); a 4xx
      // without one (401 bad API key, 404 wrong URL) is a problem on our side of the link.
      if (!isJsonRpcResponse(body))
        throw paymasterError(`The paymaster sent an unexpected response (HTTP ${status})`);
      return body;
    },
  };
}
