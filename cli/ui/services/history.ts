/**
 * The app's history (docs/architecture.md "Interactive app"): the wallet's entries through the
 * same store the `history` command reads (pending ones settled from the chain first, bounded),
 * with the wallet's liquidations read from the chain beside the file.
 */
import type { HistoryEntry } from '../services.js';
import type { ServicesModule } from './root.js';

export const registerHistory: ServicesModule<'history'> = (root) => ({
  async history(session, { signal }) {
    const { e } = root.ready();
    // the wallet's liquidations, read from the chain beside the file (cli/core/lending.ts)
    const liquidated = import('../../core/lending.js').then((m) =>
      m.walletLiquidations(e, { signal }),
    );
    liquidated.catch(() => undefined);
    const [{ openHistory }, { chainOf, endpointsLookup, walletHistory }] = await Promise.all([
      import('../../core/history.js'),
      import('../../core/reconcile.js'),
    ]);
    // pending entries are settled from the chain first (bounded); no chain to ask: as stored
    const lookup = await endpointsLookup(e).catch(() => undefined);
    const scope = {
      account: session.walletAddress,
      network: e.network,
      sandbox: e.sandbox,
      chain: chainOf(e),
    };
    const { entries, setAside } = await walletHistory(openHistory(e.dataDir), scope, { lookup });
    const mine = entries.map((entry): HistoryEntry => ({
      // 0x + 64 hex, as receipts show it; none when the paymaster's answer was lost
      transactionHash: entry.hash ?? 'not received (the answer was lost)',
      at: entry.time,
      kind: entry.kind,
      // printable already: the history cleans every entry it reads (core/history.ts)
      summary: entry.summary,
      status: entry.status,
      ...(entry.revertReason === undefined ? {} : { revertReason: entry.revertReason }),
      ...(entry.fee === undefined ? {} : { fee: `${entry.fee.amount} ${entry.fee.symbol}` }),
      ...(entry.contradiction === undefined ? {} : { contradiction: entry.contradiction }),
    }));
    const { liquidations, note } = await liquidated;
    return {
      entries: mine,
      setAside,
      liquidations: [...liquidations].reverse(),
      liquidationsNote: note,
    };
  },
});
