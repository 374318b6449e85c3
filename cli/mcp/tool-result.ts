/**
 * A tool's answer (docs/architecture.md "Tool server"): a document as a result, a domain failure
 * as a result with isError and our stable code (never a protocol error, never a stack), and the
 * annotations every tool of a group shares.
 */
import { ErrorCode, isAppError } from '../../shared/errors.js';
import type { Network } from '../../shared/tokens.js';
import { errorBody } from './untrusted.js';

export type ToolResult = {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

/** A tool result's text: the document as JSON, every amount the exact decimal string it holds. */
export const toolText = (data: Record<string, unknown>): string => JSON.stringify(data);

export const ok = (data: Record<string, unknown>): ToolResult => ({
  content: [{ type: 'text', text: toolText(data) }],
  structuredContent: data,
});

/**
 * A domain failure as a tool result: our code and a message to act on; a bug is INTERNAL_ERROR
 * with no internals. Outside words in it sit in `untrusted` (untrusted.ts errorBody).
 */
export function toolError(
  error: unknown,
  hint?: string,
  where?: { sandbox: boolean; network?: Network },
): ToolResult {
  let body: Record<string, unknown>;
  if (isAppError(error)) {
    // cancelled after the transaction left the client: it exists, its outcome is not known here
    const hash = error.details?.transactionHash;
    if (error.code === ErrorCode.CANCELLED && typeof hash === 'string') {
      body = {
        code: ErrorCode.SUBMITTED_UNCONFIRMED,
        message: `cancelled after submission: transaction ${hash} was sent and may still confirm; it will not be sent again. Check it with get_transaction`,
        details: { transactionHash: hash },
      };
    } else {
      body = errorBody(
        error.code,
        error.message,
        error.details ? (jsonSafe(error.details) as Record<string, unknown>) : undefined,
        hint,
        where?.sandbox === true,
        where?.network,
      );
    }
  } else {
    body = {
      code: ErrorCode.INTERNAL_ERROR,
      message:
        'internal error (a bug): nothing was signed by this call unless a progress notification named a transaction hash',
    };
  }
  return { content: [{ type: 'text', text: JSON.stringify({ error: body }) }], isError: true };
}

/** bigints as decimal strings; everything else as JSON has it. */
export function jsonSafe(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)),
  ) as unknown;
}

export const READ = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
} as const;

/** A planning tool: reads only, but each call makes a new plan (a new planId). */
export const PLAN = { ...READ, idempotentHint: false } as const;

/** Where a plan document holds outside text: the route's pool names, a simulation's revert reason. */
export const PLAN_OUTSIDE = ['poolName', 'reason', 'revertReason'] as const;
