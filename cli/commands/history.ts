/** `finance-tui history [--limit N] [--json]`: the transactions this client sent, newest first. */
import { parseCommandArgs } from '../headless/args.js';
import type { CommandRun } from '../headless/context.js';
import { usageError } from '../../shared/errors.js';

export const USAGE = `Usage: finance-tui history [--limit N] [--offline] [--csv | --json]

The transactions this client sent (send, trade, multi-swap, batch), newest first, from
history.json in the data folder: time, kind, network (mainnet, sepolia or sandbox — "earlier
sandbox" when that sandbox's chain is gone; --json adds the chain: mainnet, sepolia or
sandbox:<id>), amounts, hash (0x + 64 hex), and status: pending (sent, no receipt yet), unknown
(sent, but the answer was lost: it may have executed), succeeded, reverted, not-sent (provably
never executed), or orphaned (unresolved on a sandbox that has stopped: it can no longer be
settled). Before listing, the newest unresolved entries (at most 8, 5 s) are asked of their chain
and updated. The chain is the truth.

  --limit N   show the newest N (default: all kept, at most 1000)
  --offline   do not ask the chain; list the file as it is
  --csv       CSV (time, kind, network, hash, left, arrived, fee, status), exact amounts
  --json      one JSON document: {"entries": […], "setAside": null | path}
`;

export const run: CommandRun = async (ctx) => {
  const { values, positionals } = parseCommandArgs(ctx.argv, {
    limit: { type: 'string' },
    offline: { type: 'boolean' },
    csv: { type: 'boolean' },
  });
  if (values.help) return { data: { usage: USAGE }, human: () => USAGE };
  if (positionals.length > 0)
    throw usageError(`history takes no arguments (got "${String(positionals[0]).slice(0, 40)}")`);
  let limit: number | undefined;
  if (values.limit !== undefined) {
    if (!/^[0-9]{1,4}$/.test(values.limit) || Number(values.limit) < 1)
      throw usageError(
        `--limit must be a whole number from 1 to 9999 (got "${values.limit.slice(0, 20)}")`,
      );
    limit = Number(values.limit);
  }
  const [{ openHistory }, { dataDir }, { renderHistory }, reconcile, { lastSandboxChain }, view] =
    await Promise.all([
      import('../core/history.js'),
      import('../platform/paths.js'),
      import('../headless/plan-render.js'),
      import('../core/reconcile.js'),
      import('../core/endpoints.js'),
      import('../core/history-view.js'),
    ]);
  const history = openHistory(dataDir(ctx.env));
  const listed = await history.list();
  const changed =
    values.offline === true
      ? []
      : await reconcile.reconcileFile(ctx.env, history, listed.entries, ctx.signal);
  const running = view.runningSandboxChain(ctx.env);
  const entries = reconcile
    .withChanges(listed.entries, changed)
    .map((entry) => view.listedEntry(entry, running));
  const sandbox = lastSandboxChain(ctx.env);
  const current = sandbox === undefined ? undefined : `sandbox:${sandbox.chainInstance}`;
  const data = {
    entries: limit === undefined ? entries : entries.slice(0, limit),
    setAside: listed.setAside,
  };
  if (values.csv === true) {
    if (ctx.json) throw usageError('--csv and --json are two formats: choose one');
    const { renderHistoryCsv } = await import('../headless/history-csv.js');
    return { data, human: () => renderHistoryCsv(data.entries) };
  }
  return { data, human: () => renderHistory(data.entries, data.setAside, current) };
};
