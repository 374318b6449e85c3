/** `finance-tui history [--limit N] [--json]`: the transactions this client sent, newest first. */
import { parseCommandArgs } from '../headless/args.js';
import type { CommandRun } from '../headless/context.js';
import { isAppError, usageError } from '../../shared/errors.js';
import type { Liquidation, LiquidationRead } from '../core/liquidations.js';

export const USAGE = `Usage: finance-tui history [--limit N] [--offline] [--csv | --json]

The transactions this client sent (send, trade, multi-swap, batch), newest first, from
history.json in the data folder: time, kind, network (mainnet, sepolia or sandbox — "earlier
sandbox" when that sandbox's chain is gone; --json adds the chain: mainnet, sepolia or
sandbox:<id>), amounts, hash (0x + 64 hex), and status: pending (sent, no receipt yet), unknown
(sent, but the answer was lost: it may have executed), succeeded, reverted, not-sent (provably
never executed), or orphaned (unresolved on a sandbox that has stopped: it can no longer be
settled). Before listing, the newest unresolved entries (at most 8, 5 s) are asked of their chain
and updated. The chain is the truth.
Liquidations of the signed-in wallet's lending positions are listed beside them, read from the
chain (the network's Vesu pool; --sandbox: the running sandbox's), newest first: this client did
not send them. Each says what was taken (collateral seized, debt repaid, bad debt, exact) and what
the position holds now, with its transaction hash. Read: the pool's LiquidatePosition events of
the wallet from block 0, at most 10 000, within 5 s; a read that fails is a note, never an error.

  --limit N   show the newest N (default: all kept, at most 1000)
  --offline   do not ask the chain; list the file as it is (no liquidations)
  --csv       CSV (time, kind, network, hash, left, arrived, fee, status), exact amounts
              (the file's entries only)
  --json      one JSON document: {"entries": […], "setAside": null | path, "liquidations":
              [{kind: "liquidation", source: "chain", sentByThisClient: false, network, pool,
              transactionHash, blockNumber, liquidator, collateral {token, seized,
              seizedBaseUnits}, debt {token, repaid, repaidBaseUnits, badDebt,
              badDebtBaseUnits}, left {collateral, collateralBaseUnits, debt, debtBaseUnits}}],
              "liquidationsRead": {scope, note} | null}
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
  const [
    { openHistory },
    { dataDir },
    { renderHistory },
    reconcile,
    { lastSandboxChain },
    view,
    { liquidationWords },
  ] = await Promise.all([
    import('../core/history.js'),
    import('../platform/paths.js'),
    import('../headless/plan-render.js'),
    import('../core/reconcile.js'),
    import('../core/endpoints.js'),
    import('../core/history-view.js'),
    import('../core/liquidations.js'),
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
  const liquidated =
    values.offline === true ? undefined : await chainLiquidations(ctx, values.sandbox === true);
  const data = {
    entries: limit === undefined ? entries : entries.slice(0, limit),
    setAside: listed.setAside,
    liquidations: liquidated?.liquidations ?? [],
    liquidationsRead: liquidated === undefined ? null : liquidated.read,
  };
  if (values.csv === true) {
    if (ctx.json) throw usageError('--csv and --json are two formats: choose one');
    const { renderHistoryCsv } = await import('../headless/history-csv.js');
    return { data, human: () => renderHistoryCsv(data.entries) };
  }
  return {
    data,
    human: () =>
      renderHistory(data.entries, data.setAside, current) +
      renderLiquidations(data.liquidations, data.liquidationsRead, liquidationWords),
  };
};

/** How long the liquidations' read may take before history lists without them. */
const LIQUIDATIONS_TIMEOUT_MS = 5000;

/**
 * The signed-in wallet's liquidations on the network `lending` would read (cli/core/lending.ts
 * walletLiquidations), newest first, each marked as the chain's: this client did not send it
 * (docs/decisions.md "Liquidations in history: read from the chain when listed"). Only a sandbox
 * that is already running is asked: history never starts one.
 */
async function chainLiquidations(
  ctx: Parameters<CommandRun>[0],
  sandbox: boolean,
): Promise<{
  liquidations: Array<
    { kind: 'liquidation'; source: 'chain'; sentByThisClient: false; network: string } & Liquidation
  >;
  read: { scope: string; note: string | null };
}> {
  const [{ withEndpoints }, { walletLiquidations }] = await Promise.all([
    import('../headless/with-endpoints.js'),
    import('../core/lending.js'),
  ]);
  let timer: NodeJS.Timeout | undefined;
  // the read stops when history no longer waits for it (its deadline passed, or it listed)
  const stopRead = new AbortController();
  const late = new Promise<LiquidationRead>((resolve) => {
    timer = setTimeout(() => {
      stopRead.abort();
      resolve({
        liquidations: [],
        scope: 'the chain',
        note: `liquidations not read: the chain did not answer within ${LIQUIDATIONS_TIMEOUT_MS / 1000} s`,
      });
    }, LIQUIDATIONS_TIMEOUT_MS);
  });
  const readCtx = { ...ctx, signal: AbortSignal.any([ctx.signal, stopRead.signal]) };
  let network = 'unknown';
  try {
    const read = await Promise.race([
      withEndpoints(readCtx, { sandbox, runningSandboxOnly: true }, (endpoints, call) => {
        network = endpoints.sandbox ? 'sandbox' : endpoints.network;
        return walletLiquidations(endpoints, call);
      }),
      late,
    ]);
    return {
      liquidations: read.liquidations
        .map((l) => ({
          kind: 'liquidation' as const,
          source: 'chain' as const,
          sentByThisClient: false as const,
          network,
          ...l,
        }))
        .reverse(),
      read: { scope: read.scope, note: read.note },
    };
  } catch (error) {
    if (ctx.signal?.aborted === true) throw error;
    const why = isAppError(error) ? `${error.code}: ${error.message}` : 'no chain to ask';
    return {
      liquidations: [],
      read: { scope: 'the chain', note: `liquidations not read (${why})`.slice(0, 300) },
    };
  } finally {
    clearTimeout(timer);
    stopRead.abort();
  }
}

/** The liquidations' lines under the file's entries (empty when there are none and no note). */
function renderLiquidations(
  liquidations: ReadonlyArray<Liquidation & { network: string }>,
  read: { scope: string; note: string | null } | null,
  words: (l: Liquidation) => string,
): string {
  const lines: string[] = [];
  if (liquidations.length > 0)
    lines.push('Liquidations of this wallet (read from the chain; not sent by this client):');
  for (const l of liquidations)
    lines.push(
      `  ${l.network}  ${l.pool}  ${l.collateral.token}/${l.debt.token}${l.blockNumber === null ? '' : `  block ${l.blockNumber}`}`,
      `    ${words(l)}`,
    );
  if (read !== null && read.note !== null) lines.push(read.note);
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
