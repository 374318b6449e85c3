/**
 * `finance-tui mcp`: the tool server for AI agents (MCP over stdio), over the same core as the
 * other faces (cli/mcp/server.ts). Read-only unless --allow-execute; caps with --max-usd,
 * --budget-usd, --allow-token and --allow-recipient. stdout carries the protocol only; the log
 * goes to stderr.
 */
import { parseCommandArgs, parseNetworkFlag } from '../headless/args.js';
import type { CommandRun } from '../headless/context.js';
import { usageError } from '../../shared/errors.js';
import type { Network } from '../../shared/tokens.js';

export const USAGE = `Usage: finance-tui mcp [--sandbox] [--network NAME] [--allow-execute] [--max-usd N]
                    [--budget-usd N] [--allow-token T]… [--allow-recipient ADDRESS]…
                    [--grant FILE]

Serves the Model Context Protocol on stdin/stdout for an AI agent's host (Claude Desktop, Claude
Code, Cursor, …): balances, quotes, history, sign-in, and plans — read-only by default.

  --allow-execute     let execute_plan sign and send plans (the host asks the person to confirm
                      when it can; otherwise only a plan made less than 30 s before, and only
                      with --max-usd and --budget-usd, and --allow-recipient for payments)
  --max-usd N         refuse any plan moving more than N US dollars (at the aggregator's prices)
  --budget-usd N      refuse a plan that would take what was submitted in the last 24 hours
                      over N US dollars (kept in the data folder across restarts)
  --allow-token T     only plans moving these tokens (repeat the flag); others are refused
  --allow-recipient A only pay these addresses (repeat the flag); another is refused, or on a
                      host that can ask, shown to the person to accept for that plan only
  --grant FILE        act under the agent grant in FILE (finance-tui grant create --out FILE):
                      only its token is used, never the person's session; the auth server
                      refuses, before signing, anything over the grant's daily amounts, to a
                      recipient it does not list, or after its expiry or revocation
  --network NAME      mainnet or sepolia
  --sandbox           use the local sandbox (starts it when none is running)

stdout carries the protocol only; the log goes to stderr.
`;

export const run: CommandRun = async (ctx) => {
  const { values, positionals } = parseCommandArgs(ctx.argv, {
    'allow-execute': { type: 'boolean' },
    'max-usd': { type: 'string' },
    'allow-token': { type: 'string', multiple: true },
    'budget-usd': { type: 'string' },
    'allow-recipient': { type: 'string', multiple: true },
    network: { type: 'string' },
    grant: { type: 'string' },
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
    { openBudget },
    { parseRecipientFlag },
    { chainOf },
    { readGrantFile },
  ] = await Promise.all([
    import('../../shared/amount.js'),
    import('../../shared/tokens.js'),
    import('../core/endpoints.js'),
    import('../mcp/server.js'),
    import('@modelcontextprotocol/server/stdio'),
    import('../mcp/stdio.js'),
    import('../core/budget.js'),
    import('../mcp/guards.js'),
    import('../core/reconcile.js'),
    import('../core/grants.js'),
  ]);
  const log = (line: string): void => {
    ctx.stderr.write(`finance-tui mcp: ${line.replace(/[^\x20-\x7e]/g, '?')}\n`);
  };
  const maxUsdCents =
    values['max-usd'] === undefined
      ? undefined
      : parseAmount(values['max-usd'], 2, { label: '--max-usd (US dollars)' });
  const budgetCents =
    values['budget-usd'] === undefined
      ? undefined
      : parseAmount(values['budget-usd'], 2, { label: '--budget-usd (US dollars)' });
  const allowRecipients = values['allow-recipient']?.map(parseRecipientFlag);
  // read before anything starts: a bad file is a clear refusal, never a half-started server
  const grant = values.grant === undefined ? undefined : readGrantFile(values.grant);
  const endpoints = await resolveEndpoints(
    ctx.env,
    { sandbox: values.sandbox === true, ...(network ? { network: network as Network } : {}) },
    { signal: ctx.signal, onProgress: (e) => log(e.kind) },
  );
  try {
    // the grant stands in for the session: requireSession returns it, the session file is not read
    if (grant !== undefined) endpoints.grant = grant;
    const allowTokens = values['allow-token']?.map((t) => resolveToken(endpoints.network, t));
    const budget =
      budgetCents === undefined
        ? undefined
        : openBudget(endpoints.dataDir, { limitCents: budgetCents, chain: chainOf(endpoints) });
    const capsText = [
      grant === undefined
        ? ''
        : `under grant ${grant.grantId ?? ''} (caps held by the auth server)`,
      maxUsdCents === undefined ? '' : `at most $${values['max-usd']} per plan`,
      budgetCents === undefined ? '' : `at most $${values['budget-usd']} in any 24 hours`,
      allowTokens === undefined ? '' : `only ${allowTokens.map((t) => t.symbol).join(', ')}`,
      allowRecipients === undefined
        ? ''
        : `paying only ${allowRecipients.length} listed recipient${allowRecipients.length === 1 ? '' : 's'}`,
    ]
      .filter(Boolean)
      .join('; ');
    const server = createToolServer({
      endpoints,
      allowExecute: values['allow-execute'] === true,
      limits:
        maxUsdCents === undefined &&
        allowTokens === undefined &&
        budget === undefined &&
        allowRecipients === undefined
          ? undefined
          : {
              maxUsdCents,
              allowTokens: allowTokens?.map((t) => t.address),
              allowRecipients,
              budget,
            },
      capsText,
      log,
    });
    // the program's streams (the bin's: the process's stdin and stdout)
    const stdin = (ctx.stdin ?? process.stdin).pipe(
      // a line the SDK could not take is answered here (-32700, -32600), never left in silence
      boundedLines(MAX_LINE_BYTES, {
        reply: (message) => ctx.stdout.write(`${JSON.stringify(message)}\n`),
        log,
      }),
    );
    const transport = new StdioServerTransport(
      stdin,
      ctx.stdout as unknown as import('node:stream').Writable,
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
