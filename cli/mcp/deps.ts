/**
 * What every group of tools is registered with (docs/architecture.md "Tool server"): the server,
 * its options, and the one way a tool call runs (`handle`). Each group is a module with one
 * `register(deps)` (reads, sign-in, plans, execute), in the manner of a Fastify plugin.
 */
import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import type { ActionLimits, PlannedWalletAction } from '../core/actions/index.js';
import type { CallOptions } from '../core/call.js';
import type { Endpoints } from '../core/endpoints.js';
import type { ToolResult } from './tool-result.js';

export interface ToolServerOptions {
  endpoints: Endpoints;
  /** --allow-execute: execute_plan may sign (after the person's consent) */
  allowExecute: boolean;
  limits: ActionLimits | undefined;
  /** words for the caps, for the instructions ("at most $50; tokens ETH, USDC") */
  capsText: string;
  /** one line to the log (stderr): never stdout, which carries the protocol only */
  log: (line: string) => void;
  /** the clock (tests) */
  now?: () => number;
}

export interface ToolDeps {
  server: McpServer;
  options: ToolServerOptions;
  endpoints: Endpoints;
  now: () => number;
  /**
   * One tool call: the core's work under the request's own cancellation, its progress sent when
   * the caller gave a token; any failure is a tool result. `outside` names the result's keys that
   * hold outside text: they are moved into `untrusted` objects (untrusted.ts).
   */
  handle: (
    ctx: ServerContext,
    outside: readonly string[],
    work: (call: CallOptions) => Promise<Record<string, unknown>>,
    hint?: (error: unknown) => string | undefined,
  ) => Promise<ToolResult>;
}

/** A plan kept for execute_plan, and when it was made. */
export interface StoredPlan {
  planned: PlannedWalletAction;
  madeAt: number;
}
