/**
 * One read tool registered (docs/architecture.md "Tool server"): its title, description, input
 * and output schemas, the READ annotations (with the few a tool changes), and its work run by the
 * group's `handle` with the result's keys that hold outside text. reads-chain.ts and
 * reads-wallet.ts register every read through it.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import type * as z from 'zod';
import type { CallOptions } from '../core/call.js';
import type { ToolDeps } from './deps.js';
import { READ } from './tool-result.js';

interface ReadTool<I extends z.ZodObject> {
  title: string;
  description: string;
  input: I;
  output: z.ZodType;
  /** where it differs from READ: a local record (openWorldHint false), a fresh answer each call */
  hints?: { openWorldHint?: boolean; idempotentHint?: boolean };
  /** the result's keys that hold outside text, moved into `untrusted` (untrusted.ts) */
  outside?: readonly string[];
}

export function registerRead<I extends z.ZodObject>(
  { server, handle }: Pick<ToolDeps, 'server' | 'handle'>,
  name: string,
  tool: ReadTool<I>,
  work: (input: z.infer<I>, call: CallOptions) => Promise<Record<string, unknown>>,
): void {
  server.registerTool(
    name,
    {
      title: tool.title,
      description: tool.description,
      // the SDK checks the input against this schema before the call, so it is a z.infer<I>
      inputSchema: tool.input as z.ZodObject,
      outputSchema: tool.output,
      annotations: { title: tool.title, ...READ, ...tool.hints },
    },
    async (input: Record<string, unknown>, ctx: ServerContext) =>
      handle(ctx, tool.outside ?? [], (call) => work(input as z.infer<I>, call)),
  );
}
