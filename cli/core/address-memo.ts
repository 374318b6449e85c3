/**
 * The ArgentX address of each key the client has computed, kept in `<data folder>/accounts.json`
 * (0600, written atomically: shared/fs.ts) so that a command does not hash it again: the address
 * is fixed per key, and its dozen Pedersen hashes were a tenth of a trade's CPU
 * (docs/decisions.md "Hashing once per account"). Only shared/starknet.ts's argentAccountAddress
 * writes here, and only what it computed; a session whose address is not the remembered account of
 * its key is still refused (cli/core/session.ts). A file that is missing, unreadable or garbled is
 * an empty memo (the address is computed again and the file rewritten), never an error: it is a
 * cache, not data. The file names the account class its addresses are of: an address depends on
 * it, so a file of another class is not read.
 *
 * Beside each key's address it keeps which of the key's two points its signatures verified
 * against (`points`: the parity of y; shared/starknet.ts KeyPointStore), so that the next
 * command's signature check tries that point first (docs/decisions.md "A key's point tried
 * first"). Written when a signature verifies against the other point than the one kept: once per
 * key. A wrong or missing parity only costs the second try.
 */
import { nodeFs, writeFileAtomic } from '../../shared/fs.js';
import {
  ARGENT_X_V050_CLASS_HASH,
  type KeyParity,
  keepAddressesIn,
  keepKeyPointsIn,
} from '../../shared/starknet.js';
import { storeFile } from '../platform/store.js';

const { readFileSync } = nodeFs;

/** at most this many keys (the most recent): a person signs in with one or two wallets */
const MAX_KEYS = 16;
const FELT = /^0x[0-9a-f]{64}$/;

type Memo = Record<string, string>;
interface MemoFile {
  addresses: Memo;
  points: Record<string, KeyParity>;
}

/** The valid entries of `value` (an object of felt keys), each value kept when `keep` says so. */
function entriesOf<T extends string>(
  value: unknown,
  keep: (v: unknown) => v is T,
): Record<string, T> {
  const out: Record<string, T> = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const [key, entry] of Object.entries(value))
    if (FELT.test(key) && keep(entry)) out[key] = entry;
  return out;
}
const isFelt = (v: unknown): v is string => typeof v === 'string' && FELT.test(v);
const isParity = (v: unknown): v is KeyParity => v === 'even' || v === 'odd';

function readMemo(file: string): MemoFile {
  try {
    const { classHash, addresses, points } = JSON.parse(readFileSync(file, 'utf8')) as {
      classHash?: unknown;
      addresses?: unknown;
      points?: unknown;
    };
    if (classHash !== ARGENT_X_V050_CLASS_HASH) return { addresses: {}, points: {} };
    return { addresses: entriesOf(addresses, isFelt), points: entriesOf(points, isParity) };
  } catch {
    return { addresses: {}, points: {} };
  }
}

/** `memo` with `key` set to `value`, the most recent MAX_KEYS kept. */
function withEntry<T>(memo: Record<string, T>, key: string, value: T): Record<string, T> {
  const kept = Object.entries(memo).filter(([k]) => k !== key);
  return Object.fromEntries([...kept.slice(-(MAX_KEYS - 1)), [key, value]]);
}

/**
 * From now on, addresses computed in this process (and which point of each key verified its
 * signatures) are kept in `env`'s data folder, and read back.
 */
export function keepAddressesFor(env: NodeJS.ProcessEnv): void {
  const file = storeFile(env, 'accounts');
  let memo: MemoFile | undefined;
  const save = (change: (current: MemoFile) => MemoFile): void => {
    memo = change(readMemo(file));
    try {
      writeFileAtomic(
        file,
        `${JSON.stringify({ classHash: ARGENT_X_V050_CLASS_HASH, addresses: memo.addresses, ...(Object.keys(memo.points).length === 0 ? {} : { points: memo.points }) }, null, 2)}\n`,
        0o600,
      );
    } catch {
      // not kept: the next command computes it again
    }
  };
  keepAddressesIn({
    read: (pubkey) => (memo ??= readMemo(file)).addresses[pubkey],
    write: (pubkey, address) =>
      save((current) => ({ ...current, addresses: withEntry(current.addresses, pubkey, address) })),
  });
  keepKeyPointsIn({
    read: (pubkey) => (memo ??= readMemo(file)).points[pubkey],
    write: (pubkey, parity) =>
      save((current) => ({ ...current, points: withEntry(current.points, pubkey, parity) })),
  });
}
