/**
 * Our auth server's error body as the client's AppError — one mapping for every path that talks
 * to it: the HTTP layer (http.ts) and the paymaster relay that starknet.js calls
 * (core/chain/fetch.ts, over its own fetch). docs/architecture.md "Auth server contract":
 * failures are `{"error": {code, message, requestId?}}`; a 429 carries Retry-After.
 *
 * Whatever the server sends is shown to a person: every string is made one printable line and
 * bounded by shared/printable.ts (a hostile or broken server cannot put escape sequences on the terminal), and a code
 * this client does not know becomes SERVER_ERROR with the server's code in the details.
 * No dependencies beyond shared/.
 */
import { AppError, ErrorCode, isErrorCode } from '../../shared/errors.js';
import { printable } from '../../shared/printable.js';

/** Retry-After as seconds: delta-seconds or an HTTP date; undefined when absent or junk. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const trimmed = header.trim();
  if (/^[0-9]{1,9}$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

interface ServerErrorContext {
  /** names the service in messages: "auth server", "auth server's paymaster relay" */
  service: string;
  /** where the request went (never carries a credential) */
  url: string;
}

/** Our server's `{"error": {code, message}}` → AppError with the same code; undefined when the body is not that shape. */
export function serverErrorOf(
  status: number,
  data: unknown,
  headers: { get(name: string): string | null },
  context: ServerErrorContext,
): AppError | undefined {
  const error = (
    data as { error?: { code?: unknown; message?: unknown; requestId?: unknown } } | undefined
  )?.error;
  if (typeof error !== 'object' || error === null || typeof error.code !== 'string')
    return undefined;
  const message =
    typeof error.message === 'string' ? printable(error.message) : `${context.service} error`;
  const retryAfter = status === 429 ? retryAfterSeconds(headers.get('retry-after')) : undefined;
  const details: Record<string, unknown> = {
    status,
    url: context.url,
    // the message is the server's words, whatever its code: a face does not give them as its own
    wordsFrom: 'server',
    ...(typeof error.requestId === 'string' ? { requestId: printable(error.requestId, 100) } : {}),
    ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }),
  };
  if (isErrorCode(error.code)) {
    const suffix = retryAfter === undefined ? '' : ` (retry after ${retryAfter} s)`;
    return new AppError(error.code, `${message}${suffix}`, { details });
  }
  return new AppError(
    ErrorCode.SERVER_ERROR,
    `the ${context.service} answered ${printable(error.code, 60)}: ${message}`,
    { details: { ...details, serverCode: printable(error.code, 60) } },
  );
}
