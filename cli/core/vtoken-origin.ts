/**
 * A known pool's vToken, checked by its deploy address (docs/decisions.md "A vToken is checked by
 * its deploy address"; docs/checks.md "Addresses the node does not choose"). The factory's
 * `v_token_for_asset` is the node's answer; before an approve goes to it, the client asks the
 * vToken's class hash, `name()` and `symbol()` (one round, in parallel) and requires the address to
 * be the one the network's pinned PoolFactory deploys for the pinned pool and this asset
 * (shared/vesu.ts vTokenDebtAsset). Whatever the node answers for the class and the words, no
 * contract but the factory's own can sit at that address, so an address that passes is the pool's
 * vToken for this asset; one that does not is refused before anything is built.
 */
import { AppError, ErrorCode } from '../../shared/errors.js';
import { feltHex, FELT_HEX, parseHexFelt } from '../../shared/felt.js';
import type { Token } from '../../shared/tokens.js';
import {
  isVTokenWords,
  type VesuPool,
  type VTokenProof,
  vTokenDebtAsset,
} from '../../shared/vesu.js';
import type { ChainReader } from './chain/account.js';
import type { Viewer } from './chain/views.js';

const garbled = (what: string): AppError =>
  new AppError(
    ErrorCode.CHAIN_ERROR,
    `the Starknet RPC answered ${what} in a shape we do not know`,
  );

/** A ByteArray's felts as a view answers them: [n, n words, pending word, pending length]. */
function byteArrayAnswer(felts: readonly bigint[], what: string): bigint[] {
  if (!isVTokenWords(felts)) throw garbled(what);
  return [...felts];
}

/**
 * The vTokens proven in this process, by address (0x + 64 hex). A proof is arithmetic, not a
 * reading that can go stale: the address is where the factory deploys for that pool, asset and
 * preimage, whatever the chain holds now. So a proven address is not read again (a plan's re-read
 * before signing costs no round), and the proof goes with typed data signed under an agent grant
 * (vTokenProofsFor), so the server, which reads no chain, can recompute it.
 */
const proven = new Map<string, VTokenProof>();

/** Forgets every proof (tests that answer differently for one address in one process). */
export function forgetVTokenProofs(): void {
  proven.clear();
}

/**
 * The proofs of the proven vTokens among `addresses` (a typed data's call targets and approval
 * spenders; anything else is skipped).
 */
export function vTokenProofsFor(addresses: Iterable<string>): VTokenProof[] {
  const out = new Map<string, VTokenProof>();
  for (const address of addresses) {
    const key = FELT_HEX.test(address) ? feltHex(BigInt(address)) : undefined;
    const proof = key === undefined ? undefined : proven.get(key);
    if (proof !== undefined && key !== undefined) out.set(key, proof);
  }
  return [...out.values()];
}

/**
 * Refuses (PINNED_ADDRESS_MISMATCH, nothing built) unless `vToken` is where the network's
 * PoolFactory deploys the vToken of `token` in `pool`. Only for a known pool: one named by address
 * is already said to be unknown, its vTokens only what the node says ('unknown-pool').
 */
export async function checkVTokenOrigin(
  reader: Pick<ChainReader, 'network' | 'provider'>,
  views: Viewer,
  pool: VesuPool,
  token: Token,
  vToken: string,
): Promise<void> {
  const key = feltHex(BigInt(vToken));
  const known = proven.get(key);
  if (
    known !== undefined &&
    BigInt(known.pool) === BigInt(pool.address) &&
    BigInt(known.asset) === BigInt(token.address)
  )
    return;
  const [classHash, name, symbol] = await Promise.all([
    reader.provider.getClassHashAt(vToken).then((answer: unknown) => {
      const value =
        typeof answer === 'string' && FELT_HEX.test(answer) ? parseHexFelt(answer) : undefined;
      if (value === undefined) throw garbled("a vToken's class hash");
      return value;
    }),
    views({ contractAddress: vToken, entrypoint: 'name' }).then((f) =>
      byteArrayAnswer(f, "a vToken's name"),
    ),
    views({ contractAddress: vToken, entrypoint: 'symbol' }).then((f) =>
      byteArrayAnswer(f, "a vToken's symbol"),
    ),
  ]);
  const debtAsset = vTokenDebtAsset(
    reader.network,
    { classHash, name, symbol },
    pool.address,
    token.address,
    vToken,
  );
  if (debtAsset !== undefined) {
    proven.set(key, {
      vToken: key,
      pool: pool.address,
      asset: token.address,
      debtAsset,
      classHash: feltHex(classHash),
      name: name.map(feltHex),
      symbol: symbol.map(feltHex),
    });
    return;
  }
  throw new AppError(
    ErrorCode.PINNED_ADDRESS_MISMATCH,
    `nothing was signed: the node says the ${token.symbol} vToken of the ${pool.name} pool is ${feltHex(BigInt(vToken))}, which is not an address the pool's factory deploys for it; refusing to build anything on it`,
    {
      details: {
        token: token.symbol,
        answered: feltHex(BigInt(vToken)),
        reason: 'not-deployed-by-factory',
      },
    },
  );
}
