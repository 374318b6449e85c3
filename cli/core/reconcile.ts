/**
 * Settling the history from the chain (docs/architecture.md "History"): an entry that is
 * `pending` (sent, no receipt yet) or `unknown` (the signed transaction left the client and its
 * answer was lost) is asked of the chain it belongs to —
 *
 * - by hash: the receipt says succeeded or reverted;
 * - by its outside execution (SNIP-9), when no hash is known or the chain does not know it: the
 *   account's `is_valid_outside_execution_nonce(nonce)` turns false once it executed (a revert
 *   undoes the nonce too, so a used nonce is a success); a nonce still valid after the build's
 *   `execute_before` can never be used any more: the transaction was never executed (`not-sent`).
 *
 * A receipt is believed only when the account's outside-execution nonce agrees with it
 * (chain/outcome.ts): REVERTED with the nonce used, or SUCCEEDED with it unused, is a
 * contradiction — the entry becomes `unknown` and keeps it, until the chain's answers agree.
 * Entries settled in the last 24 h are asked again when the history is read (a node that lied
 * then may be honest now, or the reverse): a contradiction marks them, an honest answer corrects
 * them.
 *
 * Bounded: at most `limit` entries per call (newest first), and as many recently settled ones,
 * asked in parallel, under one deadline; a lookup that fails or times out leaves its entry as it
 * was. Entries of another chain (an earlier sandbox) are never asked of this one.
 */
import { printable } from '../../shared/printable.js';
import type { CallOptions } from './call.js';
import type { ChainReader } from './chain/account.js';
import { judgeOutcome } from './chain/outcome.js';
import type { Endpoints } from './endpoints.js';
import {
  type HistoryEntry,
  type HistoryList,
  type HistoryStore,
  type HistoryUpdate,
  entryKey,
  UNRESOLVED,
} from './history.js';

/** What the chain says about a transaction; undefined: it does not know it (yet). */
export interface ChainLookup {
  /**
   * How `hash` ended, by a receipt that names it and says SUCCEEDED or REVERTED coherently for
   * `account` (chain/receipt.ts); undefined: the chain does not say (yet)
   */
  receipt(
    hash: string,
    call: CallOptions,
    account: string,
  ): Promise<{ status: 'succeeded' | 'reverted'; revertReason?: string } | undefined>;
  /** whether `account` may still use this outside-execution nonce (false once an execution with it succeeded) */
  nonceAvailable(account: string, nonce: string, call: CallOptions): Promise<boolean>;
}

const RECONCILE_LIMIT = 8;
const RECONCILE_TIMEOUT_MS = 5_000;
/** Settled entries are asked again for this long after they settled (docs/architecture.md "History"). */
export const RECHECK_SETTLED_MS = 24 * 60 * 60 * 1000;

/** Settled by a receipt (it has a hash), within `withinMs` of `nowMs`: asked again when the history is read. */
export function recentlySettled(entry: HistoryEntry, nowMs: number, withinMs: number): boolean {
  if (entry.hash === undefined) return false;
  if (entry.status !== 'succeeded' && entry.status !== 'reverted') return false;
  const settledAt = Date.parse(entry.updatedAt);
  return Number.isFinite(settledAt) && nowMs - settledAt <= withinMs;
}

/**
 * Which chain a run talks to: "mainnet", "sepolia", or "sandbox:<id>" — each sandbox start is a
 * new chain (its sandbox.json names its `chainInstance`); a sandbox that names none is
 * "sandbox:unknown" and no entry is ever asked of it by chain.
 */
export function chainOf(
  endpoints: Pick<Endpoints, 'sandbox' | 'network' | 'chainInstance'>,
): string {
  if (!endpoints.sandbox) return endpoints.network;
  return `sandbox:${endpoints.chainInstance ?? 'unknown'}`;
}

/** The chain an entry was sent on; older entries without one: their network (a sandbox's is not known). */
export function entryChain(entry: HistoryEntry): string {
  return entry.chain ?? (entry.sandbox ? 'sandbox:unknown' : entry.network);
}

/** The chain can be asked about this chain's entries (an unknown sandbox chain never). */
export const askable = (chain: string): boolean => chain !== 'sandbox:unknown';

/** What the chain says about one unresolved entry, as the update to make; undefined: nothing learned. */
export async function settleEntry(
  entry: HistoryEntry,
  lookup: ChainLookup,
  nowSeconds: number,
  call: CallOptions,
): Promise<HistoryUpdate | undefined> {
  const settled = !UNRESOLVED.has(entry.status);
  if (entry.hash !== undefined) {
    const receipt = await lookup.receipt(entry.hash, call, entry.account);
    if (receipt !== undefined) {
      // the receipt against the account's outside-execution nonce (chain/outcome.ts)
      const nonceUsed =
        entry.outside === undefined
          ? undefined
          : !(await lookup.nonceAvailable(entry.account, entry.outside.nonce, call));
      const verdict = judgeOutcome({
        receipt: receipt.status,
        reread: receipt.status,
        nonceUsed,
        balances: [],
      });
      if (verdict.outcome === 'unknown') {
        const problem = verdict.problem.slice(0, 300);
        if (entry.status === 'unknown' && entry.contradiction === problem) return undefined;
        return { status: 'unknown', contradiction: problem };
      }
      if (entry.status === receipt.status && entry.contradiction === undefined) return undefined;
      return {
        status: receipt.status,
        ...(receipt.revertReason === undefined
          ? {}
          : { revertReason: receipt.revertReason.slice(0, 1000) }),
        ...(entry.contradiction === undefined
          ? {}
          : {
              contradiction: undefined,
              note: `the chain's answers agree now; they contradicted each other before (${entry.contradiction})`.slice(
                0,
                300,
              ),
            }),
      };
    }
  }
  // a settled entry is only ever corrected by its receipt
  if (settled) return undefined;
  const outside = entry.outside;
  if (outside === undefined) return undefined;
  const available = await lookup.nonceAvailable(entry.account, outside.nonce, call);
  if (!available) {
    // a hash we hold but the chain does not show yet: wait for its receipt, which says more
    if (entry.hash !== undefined) return undefined;
    return {
      status: 'succeeded',
      note: 'executed: the account has used its outside-execution nonce (the hash was never received)',
    };
  }
  if (nowSeconds > outside.executeBefore) {
    return {
      status: 'not-sent',
      note: `never executed: its deadline (${new Date(outside.executeBefore * 1000).toISOString()}) passed with its nonce unused`,
    };
  }
  return undefined;
}

interface ReconcileOptions {
  /** the lookup for an entry's chain; undefined: that chain cannot be asked now */
  lookupFor: (entry: HistoryEntry) => ChainLookup | undefined;
  /** which entries to consider (default: every unresolved one) */
  filter?: (entry: HistoryEntry) => boolean;
  /** also ask again the entries settled by a receipt within this many ms (RECHECK_SETTLED_MS) */
  recheckSettledMs?: number;
  limit?: number;
  timeoutMs?: number;
  now?: () => number;
  signal?: AbortSignal | undefined;
}

/**
 * Asks the chain about the newest unresolved entries (at most `limit`, in parallel, under one
 * deadline) and records what it says. Returns the entries that changed, as stored. History
 * write failures are the caller's (HISTORY_ERROR); lookups that fail change nothing.
 */
export async function reconcileHistory(
  history: HistoryStore,
  entries: readonly HistoryEntry[],
  options: ReconcileOptions,
): Promise<HistoryEntry[]> {
  const limit = options.limit ?? RECONCILE_LIMIT;
  const nowMs = (options.now ?? Date.now)();
  const askableOnes = (keep: (e: HistoryEntry) => boolean) =>
    entries
      .filter((e) => keep(e) && (options.filter?.(e) ?? true))
      .map((entry) => ({ entry, lookup: options.lookupFor(entry) }))
      .filter((c): c is { entry: HistoryEntry; lookup: ChainLookup } => c.lookup !== undefined)
      .slice(0, limit);
  const recheck = options.recheckSettledMs;
  const candidates = [
    ...askableOnes((e) => UNRESOLVED.has(e.status)),
    ...(recheck === undefined ? [] : askableOnes((e) => recentlySettled(e, nowMs, recheck))),
  ];
  if (candidates.length === 0) return [];
  const timeout = AbortSignal.timeout(options.timeoutMs ?? RECONCILE_TIMEOUT_MS);
  const signal =
    options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
  const nowSeconds = Math.floor(nowMs / 1000);
  const patches = await Promise.all(
    candidates.map(({ entry, lookup }) =>
      settleEntry(entry, lookup, nowSeconds, { signal }).catch(() => undefined),
    ),
  );
  const changed: HistoryEntry[] = [];
  for (const [i, patch] of patches.entries()) {
    const entry = candidates[i]?.entry;
    if (patch === undefined || entry === undefined) continue;
    const stored = await history.update(entryKey(entry), patch);
    if (stored !== undefined) changed.push(stored);
  }
  return changed;
}

/** `entries` with the changed ones in place. */
export function withChanges(
  entries: readonly HistoryEntry[],
  changed: readonly HistoryEntry[],
): HistoryEntry[] {
  return entries.map((e) => changed.find((c) => entryKey(c) === entryKey(e)) ?? e);
}

/** A lookup over a Starknet JSON-RPC URL (starknet.js, loaded when called). */
async function rpcLookup(rpcUrl: string, network: HistoryEntry['network']): Promise<ChainLookup> {
  const { createChainReader } = await import('./chain/account.js');
  // any address will do: the reader is used for reads that name their own
  return readerLookup(
    createChainReader({ address: '0x1', rpcUrl, network, requestTimeoutMs: RECONCILE_TIMEOUT_MS }),
  );
}

/** The lookup for the chain an endpoint set talks to (its RPC URL: the sandbox's, the setting's, or the public node). */
export async function endpointsLookup(endpoints: Endpoints): Promise<ChainLookup> {
  const { rpcUrlOf } = await import('./execution.js');
  return rpcLookup(await rpcUrlOf(endpoints), endpoints.network);
}

/** A lookup over a chain reader's provider (the execution account's, before signing). */
export async function readerLookup(reader: ChainReader): Promise<ChainLookup> {
  const [
    { inScope },
    { mapChainError },
    { RpcError },
    { receiptOutcome },
    { outsideNonceAvailable },
  ] = await Promise.all([
    import('./chain/scope.js'),
    import('./chain/errors.js'),
    import('starknet'),
    import('./chain/receipt.js'),
    import('./chain/reads.js'),
  ]);
  const rpcCode = (error: unknown): unknown =>
    error instanceof RpcError ? (error.baseError as { code?: unknown }).code : undefined;
  return {
    receipt: (hash, call, account) =>
      inScope(
        call.signal,
        async () => {
          try {
            const raw = (await reader.provider.channel.getTransactionReceipt(hash)) as unknown as {
              transaction_hash?: unknown;
              execution_status?: unknown;
              revert_reason?: unknown;
              events?: unknown;
            };
            // a receipt of another hash, without an outcome, or contradicting itself: not known
            const verdict = receiptOutcome(raw, hash, { account, network: reader.network });
            if (verdict.outcome === 'reverted')
              return {
                status: 'reverted' as const,
                revertReason: printable(
                  typeof raw.revert_reason === 'string' && raw.revert_reason !== ''
                    ? raw.revert_reason
                    : 'reverted (no reason given)',
                  1000,
                ),
              };
            if (verdict.outcome === 'succeeded') return { status: 'succeeded' as const };
            return undefined;
          } catch (error) {
            // 29 TXN_HASH_NOT_FOUND: not (yet) on this chain
            if (rpcCode(error) === 29) return undefined;
            throw error;
          }
        },
        mapChainError,
      ),
    nonceAvailable: (account, nonce, call) =>
      inScope(call.signal, () => outsideNonceAvailable(reader, account, nonce), mapChainError),
  };
}

/**
 * Settles the unresolved entries of a whole history file (`finance-tui history`): the last
 * started sandbox's chain (from sandbox.json; a stopped one simply does not answer), and mainnet
 * or Sepolia through the rpcUrl setting (for its network) or the public node.
 */
export async function reconcileFile(
  env: NodeJS.ProcessEnv,
  history: HistoryStore,
  entries: readonly HistoryEntry[],
  signal: AbortSignal | undefined,
): Promise<HistoryEntry[]> {
  const [{ lastSandboxChain }, { loadSettings }] = await Promise.all([
    import('./endpoints.js'),
    import('../platform/settings.js'),
  ]);
  const now = Date.now();
  const open = [
    ...entries.filter((e) => UNRESOLVED.has(e.status)).slice(0, RECONCILE_LIMIT),
    ...entries.filter((e) => recentlySettled(e, now, RECHECK_SETTLED_MS)).slice(0, RECONCILE_LIMIT),
  ];
  if (open.length === 0) return [];
  const sandbox = lastSandboxChain(env);
  const settings = loadSettings(env);
  const lookups = new Map<string, ChainLookup | undefined>();
  for (const entry of open) {
    const chain = entryChain(entry);
    if (lookups.has(chain)) continue;
    let lookup: ChainLookup | undefined;
    try {
      if (chain.startsWith('sandbox:')) {
        if (sandbox !== undefined && chain === `sandbox:${sandbox.chainInstance}`)
          lookup = await rpcLookup(sandbox.rpcUrl, 'mainnet');
      } else {
        const network = chain as HistoryEntry['network'];
        const { rpcUrlOf } = await import('./execution.js');
        const rpcUrl =
          network === settings.network && settings.rpcUrl !== undefined
            ? settings.rpcUrl
            : await rpcUrlOf({ sandbox: false, network, rpcUrl: undefined });
        lookup = await rpcLookup(rpcUrl, network);
      }
    } catch {
      lookup = undefined;
    }
    lookups.set(chain, lookup);
  }
  return reconcileHistory(history, open, {
    lookupFor: (e) => lookups.get(entryChain(e)),
    signal,
    recheckSettledMs: RECHECK_SETTLED_MS,
  });
}

/** Where a wallet's transactions belong: its account on a network (or the sandbox) and chain. */
interface HistoryScope {
  account: string;
  network: HistoryEntry['network'];
  sandbox: boolean;
  /**
   * the chain in use ("sandbox:<id>", chainOf above): a sandbox wallet's history shows
   * only this sandbox chain's entries (an earlier sandbox's chain is gone; its entries stay in
   * the file and `finance-tui history` lists them, marked)
   */
  chain?: string | undefined;
}

interface WalletHistoryOptions {
  /** asks the chain about unresolved entries first (bounded: reconcileHistory) */
  lookup?: ChainLookup | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * The transactions of one wallet on one network, newest first (the file keeps every account's):
 * what every face lists for the signed-in wallet. With a lookup, unresolved entries are settled
 * from the chain first.
 */
export async function walletHistory(
  history: HistoryStore,
  scope: HistoryScope,
  options: WalletHistoryOptions = {},
): Promise<HistoryList> {
  const { entries, setAside } = await history.list();
  const account = BigInt(scope.account);
  const sameChain = (e: HistoryEntry): boolean =>
    !scope.sandbox || scope.chain === undefined || entryChain(e) === scope.chain;
  const mine = entries.filter(
    (e) =>
      BigInt(e.account) === account &&
      e.network === scope.network &&
      e.sandbox === scope.sandbox &&
      sameChain(e),
  );
  if (options.lookup === undefined) return { entries: mine, setAside };
  const lookup = options.lookup;
  const changed = await reconcileHistory(history, mine, {
    lookupFor: () => lookup,
    signal: options.signal,
    recheckSettledMs: RECHECK_SETTLED_MS,
  }).catch(() => []);
  return { entries: withChanges(mine, changed), setAside };
}
