/**
 * `finance-tui mcp`: the tool server for AI agents (MCP over stdio), over the same core as the
 * other faces (cli/mcp/server.ts). Read-only unless --allow-execute; caps with --max-usd and
 * --allow-token. stdout carries the protocol only; the log goes to stderr.
 */
import { parseCommandArgs, parseNetworkFlag } from '../headless/args.js';
import type { CommandRun } from '../headless/context.js';
import { usageError } from '../../shared/errors.js';
import type { Network } from '../../shared/tokens.js';

export const USAGE = `Usage: finance-tui mcp [--sandbox] [--network NAME] [--allow-execute] [--max-usd N] [--allow-token T]…

Serves the Model Context Protocol on stdin/stdout for an AI agent's host (Claude Desktop, Claude
Code, Cursor, …): balances, quotes, history, sign-in, and plans — read-only by default.

  --allow-execute     let execute_plan sign and send plans (the host asks the person to confirm
                      when it can; otherwise only a plan made less than 30 s before)
  --max-usd N         refuse any plan moving more than N US dollars (at the aggregator's prices)
  --allow-token T     only plans moving these tokens (repeat the flag); others are refused
  --network NAME      mainnet or sepolia
  --sandbox           use the local sandbox (starts it when none is running)

stdout carries the protocol only; the log goes to stderr.
`;

export const run: CommandRun = async (ctx) => {
  const { values, positionals } = parseCommandArgs(ctx.argv, {
    'allow-execute': { type: 'boolean' },
    'max-usd': { type: 'string' },
    'allow-token': { type: 'string', multiple: true },
    network: { type: 'string' },
  });
  if (values.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length > 0)
    throw usageError(`mcp takes no arguments (got "${String(positionals[0]).slice(0, 40)}")`);
  const network = parseNetworkFlag(values.network);
  const [
    { parseAmount },
    { resolveToken },
    { resolveEndpoints },
    { createToolServer },
    { StdioServerTransport },
    { boundedLines, MAX_LINE_BYTES },
  ] = await Promise.all([
    import('../../shared/amount.js'),
    import('../../shared/tokens.js'),
    import('../core/endpoints.js'),
    import('../mcp/server.js'),
    import('@modelcontextprotocol/server/stdio'),
    import('../mcp/stdio.js'),
  ]);
  const log = (line: string): void => {
    ctx.stderr.write(`finance-tui mcp: ${line.replace(/[^\x20-\x7e]/g, '?')}\n`);
  };
  const maxUsdCents =
    values['max-usd'] === undefined
      ? undefined
      : parseAmount(values['max-usd'], 2, { label: '--max-usd (US dollars)' });
  const endpoints = await resolveEndpoints(
    ctx.env,
    { sandbox: values.sandbox === true, ...(network ? { network: network as Network } : {}) },
    { signal: ctx.signal, onProgress: (e) => log(e.kind) },
  );
  try {
    const allowTokens = values['allow-token']?.map((t) => resolveToken(endpoints.network, t));
    const capsText = [
      maxUsdCents === undefined ? '' : `at most $${values['max-usd']} per plan`,
      allowTokens === undefined ? '' : `only ${allowTokens.map((t) => t.symbol).join(', ')}`,
    ]
      .filter(Boolean)
      .join('; ');
    const server = createToolServer({
      endpoints,
      allowExecute: values['allow-execute'] === true,
      limits:
        maxUsdCents === undefined && allowTokens === undefined
          ? undefined
          : { maxUsdCents, allowTokens: allowTokens?.map((t) => t.address) },
      capsText,
      log,
    });
    const stdin = process.stdin.pipe(
      boundedLines(MAX_LINE_BYTES, (bytes) =>
        log(`dropped an input line of ${bytes} bytes (over ${MAX_LINE_BYTES})`),
      ),
    );
    const transport = new StdioServerTransport(
      stdin,
      process.stdout as unknown as import('node:stream').Writable,
    );
    // reported, never fatal: a malformed line, a client that went away mid-answer
    server.server.onerror = (error) => log(`protocol: ${String(error.message).slice(0, 200)}`);
    await server.connect(transport);
    const closed = new Promise<void>((resolve) => {
      const sdkClose = transport.onclose;
      transport.onclose = () => {
        sdkClose?.();
        resolve();
      };
    });
    log(
      `serving on stdio (${endpoints.networkName}; ${values['allow-execute'] ? `execution allowed${capsText ? `, ${capsText}` : ''}` : 'read-only'})`,
    );
    await Promise.race([
      closed,
      new Promise<void>((resolve) =>
        ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
      ),
    ]);
    await server.close().catch(() => undefined);
    return undefined;
  } finally {
    await endpoints.release();
  }
};
