/**
 * SNIP-29 paymaster relay over HTTP (ky). A JSON-RPC error from the paymaster is a valid answer
 * and is relayed verbatim; only transport failures become our errors:
 * timeout → 504 UPSTREAM_TIMEOUT; refused connection, a redirect (never followed: it would
 * re-send the API key and the transaction elsewhere), 5xx, non-JSON or non-JSON-RPC → 502
 * PAYMASTER_ERROR. No retries: paymaster_executeTransaction is not idempotent.
 * Messages never include the API key or the upstream body. The body is read up to
 * MAX_RESPONSE_BYTES and refused beyond it (502): a broken or hostile upstream must not make us
 * buffer, parse and relay an answer of any size.
 */
import ky, { isTimeoutError } from 'ky';
import type { JsonRpcRequest } from '../../shared/api.js';
import { AppError, ErrorCode, isAppError } from '../../shared/errors.js';
import { readCapped } from '../../shared/http-body.js';
import type { PaymasterRelay } from './types.js';

/** Far above any SNIP-29 answer (a built transaction is a few KB), and our own body limit. */
export const MAX_RESPONSE_BYTES = 1_048_576;

export interface PaymasterRelayOptions {
  url: string;
  apiKey?: string | undefined;
  timeoutMs: number;
}

// No `cause`: a ky error holds the request, and the request holds the API key header.
function paymasterError(message: string): AppError {
  return new AppError(ErrorCode.PAYMASTER_ERROR, message);
}

function isJsonRpcResponse(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const record = body as Record<string, unknown>;
  return record.jsonrpc === '2.0' && ('result' in record || 'error' in record);
}

function isAbortTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
}

export function createPaymasterRelay(options: PaymasterRelayOptions): PaymasterRelay {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.apiKey !== undefined && options.apiKey !== '')
    headers['x-paymaster-api-key'] = options.apiKey;

  return {
    async relay(request: JsonRpcRequest): Promise<unknown> {
      // ky's timeout covers the wait for headers; this signal also bounds reading the body.
      const signal = AbortSignal.timeout(options.timeoutMs);
      let status: number;
      let text: string;
      try {
        const response = await ky.post(options.url, {
          json: request,
          headers,
          timeout: options.timeoutMs,
          retry: 0,
          throwHttpErrors: false,
          redirect: 'manual',
          signal,
        });
        status = response.status;
        if (status >= 300 && status < 400) {
          await response.body?.cancel().catch(() => undefined);
          throw paymasterError(
            `The paymaster answered with a redirect (HTTP ${status}); redirects are never followed`,
          );
        }
        if (status >= 500) {
          // the body is not used: release the connection instead of reading it
          await response.body?.cancel().catch(() => undefined);
          throw paymasterError(`The paymaster failed (HTTP ${status})`);
        }
        const body = await readCapped(response, MAX_RESPONSE_BYTES);
        if (body === undefined)
          throw paymasterError(
            `The paymaster response is too large (over ${MAX_RESPONSE_BYTES} bytes)`,
          );
        text = body;
      } catch (error) {
        if (isAppError(error)) throw error;
        if (isTimeoutError(error) || isAbortTimeout(error) || signal.aborted) {
          throw new AppError(
            ErrorCode.UPSTREAM_TIMEOUT,
            `The paymaster did not answer within ${options.timeoutMs} ms`,
          );
        }
        throw paymasterError('The paymaster could not be reached');
      }

      let body: unknown;
      try {
        body = JSON.parse(text);
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
