/**
 * The history as the faces list it (docs/commands.md "history"): each entry names the chain it
 * ran on, so a script that keeps `network == "mainnet"` never counts a sandbox trade, and an
 * unresolved entry of a sandbox chain that has stopped says it can no longer be settled (each
 * sandbox start is a new chain: a stopped one never answers again). An entry that moved nothing —
 * `reverted` (a revert undoes every call; only its fee, when not sponsored, is paid) or `not-sent`
 * — lists no `amounts`: what its plan would have moved is `planned`, so no face says it was sent.
 */
import { processAlive } from '../../shared/fs.js';
import { readSandboxState } from '../platform/sandbox-state.js';
import type { NetworkName } from './endpoints.js';
import { type HistoryEntry, type HistoryStatus, UNRESOLVED } from './history.js';
import { entryChain } from './reconcile.js';

export interface ListedEntry extends Omit<HistoryEntry, 'network' | 'status' | 'chain'> {
  /** mainnet, sepolia, or sandbox (never "mainnet" for a sandbox entry) */
  network: NetworkName;
  /** the chain it ran on: mainnet, sepolia, sandbox:<id>, or sandbox:unknown (an older entry) */
  chain: string;
  /** the recorded status, or orphaned: unresolved on a sandbox chain that has stopped */
  status: HistoryStatus | 'orphaned';
  /** present (true) when it can never be settled */
  unsettleable?: true;
  /**
   * present (true) on a sandbox entry whose chain no longer runs (each sandbox start is a new
   * chain): its balances and positions are gone with it (issue 32 item 7)
   */
  chainGone?: true;
  /** reverted or not-sent: what the plan would have moved (`amounts` is then empty: nothing moved) */
  planned?: HistoryEntry['amounts'];
}

/** Statuses of an entry that moved nothing (its fee aside). */
const MOVED_NOTHING: ReadonlySet<HistoryStatus> = new Set<HistoryStatus>(['reverted', 'not-sent']);

/**
 * The chain of the sandbox running for this data folder ("sandbox:<id>"), if one is: its
 * sandbox.json names it and the process that wrote it is alive.
 */
export function runningSandboxChain(env: NodeJS.ProcessEnv): string | undefined {
  const state = readSandboxState(env);
  if (state?.chainInstance === undefined || !processAlive(state.pid)) return undefined;
  return `sandbox:${state.chainInstance}`;
}

/**
 * What an entry without a transaction hash is: its answer was lost while sending (a cancellation,
 * a dropped connection); the entry is settled from the chain by its outside execution's nonce.
 */
export const HASH_NOT_RECEIVED =
  'hash not received: the answer was lost while sending (for example a cancellation); the entry is settled from the chain by its signed nonce when it can be';

/** One entry as listed, with `running` the running sandbox's chain (runningSandboxChain). */
export function listedEntry(entry: HistoryEntry, running: string | undefined): ListedEntry {
  const chain = entryChain(entry);
  const orphaned = entry.sandbox && UNRESOLVED.has(entry.status) && chain !== running;
  return {
    ...entry,
    network: entry.sandbox ? 'sandbox' : entry.network,
    chain,
    status: orphaned ? 'orphaned' : entry.status,
    ...(orphaned ? { unsettleable: true as const } : {}),
    ...(entry.sandbox && chain !== running ? { chainGone: true as const } : {}),
    ...(MOVED_NOTHING.has(entry.status) ? { amounts: [], planned: entry.amounts } : {}),
  };
}
