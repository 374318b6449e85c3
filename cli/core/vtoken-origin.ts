/**
 * A known pool's vToken, checked by its deploy address (docs/decisions.md "A vToken is checked by
 * its deploy address"; docs/checks.md "Addresses the node does not choose"). The factory's
 * `v_token_for_asset` is the node's answer; before an approve goes to it, the client asks the
 * vToken's class hash, `name()` and `symbol()` (one round, in parallel) and requires the address to
 * be the one the network's pinned PoolFactory deploys for the pinned pool and this asset
 * (shared/vesu.ts vTokenDeployedBy). Whatever the node answers for the class and the words, no
 * contract but the factory's own can sit at that address, so an address that passes is the pool's
 * vToken for this asset; one that does not is refused before anything is built.
 */
import { AppError, ErrorCode } from '../../shared/errors.js';
import { feltHex, FELT_HEX, parseHexFelt } from '../../shared/felt.js';
import { listTokens, type Token } from '../../shared/tokens.js';
import { type VesuPool, vTokenDeployedBy } from '../../shared/vesu.js';
import type { ChainReader } from './chain/account.js';
import type { Viewer } from './chain/views.js';

/** A ByteArray longer than this many full words is no vToken name (Vesu's are a few words). */
const MAX_WORDS = 8;

const garbled = (what: string): AppError =>
  new AppError(
    ErrorCode.CHAIN_ERROR,
    `the Starknet RPC answered ${what} in a shape we do not know`,
  );

/** A ByteArray's felts as a view answers them: [n, n words, pending word, pending length]. */
function byteArrayAnswer(felts: readonly bigint[], what: string): bigint[] {
  const words = felts[0];
  if (words === undefined || words > BigInt(MAX_WORDS) || felts.length !== Number(words) + 3)
    throw garbled(what);
  return [...felts];
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
  const registry = listTokens(reader.network).map((t) => t.address);
  if (
    vTokenDeployedBy(
      reader.network,
      { classHash, name, symbol },
      pool.address,
      token.address,
      vToken,
      registry,
    )
  )
    return;
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
