/**
 * The SNIP-12 message hash of a typed-data document for an account, computed once per command:
 * the outside execution's identity (execute.ts `outsideIdentity`, recorded before it is sent)
 * and the signer (signer.ts `signMessage`) need the same hash of the same document, and each is
 * a few dozen Poseidon hashes and keccaks (docs/benchmarks.md "A trade's CPU").
 *
 * Keyed by the document's content (its JSON text) and the account as a number, never by object
 * identity: a document changed after its first hash is a different key, so the hash signed is
 * always the hash of what is signed.
 *
 * An outside execution (the document every money command signs) is hashed by outside-hash.ts,
 * the same hash without starknet.js's generic encoder and Poseidon; any other document, or one
 * that file does not read, by starknet.js (docs/benchmarks.md "Issue 35, sixth round").
 */
import { typedData as snip12 } from 'starknet';
import { outsideExecutionHash } from './outside-hash.js';

const hashes = new Map<string, string>();
/** a command hashes one or two documents; the bound only keeps a long-lived process small */
const MAX_ENTRIES = 16;

/** starknet.js's getMessageHash(typed, account) (or the same from outside-hash.ts), remembered. */
export function messageHashOf(typed: unknown, account: string): string {
  let key: string | undefined;
  try {
    key = `${BigInt(account).toString(16)}:${JSON.stringify(typed)}`;
  } catch {
    key = undefined; // not JSON text (a bigint inside) or not a number: hashed, not remembered
  }
  const known = key === undefined ? undefined : hashes.get(key);
  if (known !== undefined) return known;
  const hash =
    outsideExecutionHash(typed, account) ?? snip12.getMessageHash(typed as never, account);
  if (key !== undefined) {
    if (hashes.size >= MAX_ENTRIES) hashes.delete(hashes.keys().next().value as string);
    hashes.set(key, hash);
  }
  return hash;
}
