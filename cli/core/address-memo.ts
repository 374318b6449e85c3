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
 */
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../../shared/fs.js';
import { ARGENT_X_V050_CLASS_HASH, keepAddressesIn } from '../../shared/starknet.js';
import { storeFile } from '../platform/store.js';

/** at most this many keys (the most recent): a person signs in with one or two wallets */
const MAX_KEYS = 16;
const FELT = /^0x[0-9a-f]{64}$/;

type Memo = Record<string, string>;

function readMemo(file: string): Memo {
  try {
    const { classHash, addresses: parsed } = JSON.parse(readFileSync(file, 'utf8')) as {
      classHash?: unknown;
      addresses?: unknown;
    };
    if (classHash !== ARGENT_X_V050_CLASS_HASH) return {};
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    const memo: Memo = {};
    for (const [key, address] of Object.entries(parsed))
      if (FELT.test(key) && typeof address === 'string' && FELT.test(address)) memo[key] = address;
    return memo;
  } catch {
    return {};
  }
}

/** From now on, addresses computed in this process are kept in `env`'s data folder, and read back. */
export function keepAddressesFor(env: NodeJS.ProcessEnv): void {
  const file = storeFile(env, 'accounts');
  let memo: Memo | undefined;
  keepAddressesIn({
    read: (pubkey) => (memo ??= readMemo(file))[pubkey],
    write(pubkey, address) {
      const kept = Object.entries(readMemo(file)).filter(([key]) => key !== pubkey);
      memo = Object.fromEntries([...kept.slice(-(MAX_KEYS - 1)), [pubkey, address]]);
      try {
        writeFileAtomic(
          file,
          `${JSON.stringify({ classHash: ARGENT_X_V050_CLASS_HASH, addresses: memo }, null, 2)}\n`,
          0o600,
        );
      } catch {
        // not kept: the next command computes it again
      }
    },
  });
}
