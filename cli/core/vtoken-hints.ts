/**
 * `<data>/vtoken-hints.json`: each Vesu asset's vToken as the factory last named it, per network
 * ("sandbox" apart from mainnet), so the next position read — or a plan's withdrawal — asks the
 * account's shares in its first round (cli/core/lending.ts readLending, lending-plan-reads.ts readSupply;
 * docs/decisions.md "Position reads: one round, batched", "A plan's lending reads: one round").
 * Not a secret, written the program's one way (shared/fs.ts: atomic), each write merged into the
 * file as it is then, under its lock (two reads at once keep each other's). Only a hint:
 * the factory is asked beside it every time and a hint it contradicts is replaced, so a wrong or
 * tampered entry costs one more round, never a wrong amount. An unreadable file is an empty one.
 */
import { join } from 'node:path';
import { FELT_HEX, feltHex } from '../../shared/felt.js';
import { readFileText, withFileLock, writeFileAtomic } from '../../shared/fs.js';
import type { VTokenHints } from './lending-pool.js';

export const VTOKEN_HINTS_FILE = 'vtoken-hints.json';
/** far above the registry's tokens × pools: a file grown past it is not ours */
const MAX_ENTRIES = 200;

const keyOf = (scope: string, pool: string, asset: string): string =>
  `${scope}|${feltHex(BigInt(pool))}|${feltHex(BigInt(asset))}`;

async function readHints(file: string): Promise<Record<string, string>> {
  try {
    const parsed = JSON.parse(await readFileText(file)) as unknown;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed as Record<string, unknown>)
        .filter((e): e is [string, string] => typeof e[1] === 'string' && FELT_HEX.test(e[1]))
        .slice(0, MAX_ENTRIES),
    );
  } catch {
    return {}; // absent or unreadable: no hints (the factory is asked anyway)
  }
}

/** `found` in place of the pool's entries of `scope` in `entries`. */
function replacePool(
  entries: Record<string, string>,
  scope: string,
  pool: string,
  found: ReadonlyArray<{ pool: string; asset: string; vToken: string }>,
): void {
  const prefix = `${scope}|${feltHex(BigInt(pool))}|`;
  for (const key of Object.keys(entries)) if (key.startsWith(prefix)) delete entries[key];
  for (const f of found) entries[keyOf(scope, f.pool, f.asset)] = feltHex(BigInt(f.vToken));
}

/** A writer of the hints waits at most this for another's lock, then leaves them as they are. */
const LOCK_WAIT_MS = 1_000;

/** The hints of `scope` ('sandbox', 'mainnet', 'sepolia') kept in `dataDir`. */
export async function loadVTokenHints(dataDir: string, scope: string): Promise<VTokenHints> {
  const file = join(dataDir, VTOKEN_HINTS_FILE);
  const entries = await readHints(file);
  /** `change` applied here, then to the file as it is now, under its lock */
  const write = async (change: (entries: Record<string, string>) => void): Promise<void> => {
    change(entries);
    try {
      // merged into the file as it is now, under its lock: another read (another network,
      // another pool, another process) may have written since this one loaded it
      await withFileLock(
        file,
        async () => {
          const current = await readHints(file);
          change(current);
          writeFileAtomic(
            file,
            JSON.stringify(Object.fromEntries(Object.entries(current).slice(-MAX_ENTRIES))),
          );
        },
        { waitMs: LOCK_WAIT_MS, what: 'the vToken hints' },
      );
    } catch {
      // a hint that cannot be written only costs the next read a round
    }
  };
  return {
    get: (pool, asset) => entries[keyOf(scope, pool, asset)],
    put: (pool, found) => write((e) => replacePool(e, scope, pool, found)),
    putOne: (pool, asset, vToken) =>
      write((e) => {
        const key = keyOf(scope, pool, asset);
        if (vToken === undefined) delete e[key];
        else e[key] = feltHex(BigInt(vToken));
      }),
  };
}
