/**
 * The Vesu v2 deployment a lending read uses (docs/contracts.md "E. Vesu v2 (lending)", docs/checks.md
 * "Lending"): the pool of a network (shared/vesu.ts; none on sepolia, never guessed), its
 * PoolFactory, the factory's vToken of an asset held against its pin (shared/vesu.ts
 * pinnedVToken), and the hints where a read remembers each asset's vToken.
 */
import { AppError, ErrorCode } from '../../shared/errors.js';
import { printable } from '../../shared/printable.js';
import { feltHex } from '../../shared/felt.js';
import { addressToBigInt, type Network, type Token } from '../../shared/tokens.js';
import { findVesuPool, pinnedVToken, type VesuPool, vesuFor } from '../../shared/vesu.js';
import type { ChainReader } from './chain/account.js';
import { mapChainError } from './chain/errors.js';
import { inScope } from './chain/scope.js';
import type { Viewer } from './chain/views.js';
import { networkAllows } from './actions/rules.js';
import { garbled, hex } from './lending-decode.js';

export interface LendingReadOptions {
  signal?: AbortSignal | undefined;
  /** a sandbox's chain: its own vTokens are the pinned ones (shared/vesu.ts pinnedVToken) */
  sandbox?: boolean | undefined;
}

/** Options of a plan's own reads: a viewer of the caller's (tests), else one of the reader's. */
export interface PlanReadOptions extends LendingReadOptions {
  views?: Viewer | undefined;
}

/**
 * The pool a lending command uses on `network`: `--pool` by name or address, else the documented
 * default. NETWORK_UNSUPPORTED where the network has no known pool; UNKNOWN_POOL for a name that
 * is not one of the network's; an address that is not one of them is an unknown pool
 * (`unknown: true`), which a plan says and asks to be acknowledged ('unknown-pool').
 */
export function lendingPool(network: Network, nameOrAddress?: string | undefined): VesuPool {
  networkAllows('lending', network);
  const deployment = vesuFor(network);
  if (deployment === undefined)
    throw new AppError(
      ErrorCode.NETWORK_UNSUPPORTED,
      `no Vesu pool is known on ${network}: nothing can be lent or borrowed there`,
    );
  const key = nameOrAddress ?? deployment.defaultPool;
  const pool = findVesuPool(deployment, key);
  // a pool named by address that is not a known one: said unknown, acknowledged by the person
  // (legs/index.ts legAcknowledgments), never taken for a known one
  const address = /^0x/i.test(key.trim()) ? addressToBigInt(key.trim()) : undefined;
  if (pool === undefined && address !== undefined && address !== 0n && address < 2n ** 251n)
    return { name: `unknown pool ${feltHex(address)}`, address: feltHex(address), unknown: true };
  if (pool === undefined)
    throw new AppError(
      ErrorCode.UNKNOWN_POOL,
      `no Vesu pool "${printable(key).slice(0, 70)}" on ${network} (known: ${deployment.pools.map((p) => `${p.name} ${p.address}`).join(', ')})`,
    );
  return pool;
}

/** The PoolFactory of the pool's network (lendingPool already accepted it). */
export function factoryOf(network: Network): string {
  const deployment = vesuFor(network);
  if (deployment === undefined)
    throw new AppError(ErrorCode.NETWORK_UNSUPPORTED, `no Vesu deployment on ${network}`);
  return deployment.poolFactory;
}

export const scoped = <T>(options: LendingReadOptions, run: () => Promise<T>): Promise<T> =>
  inScope(options.signal, run, mapChainError);

/** The factory's `v_token_for_asset(pool, asset)`: one felt (0: no vToken), else garbled. */
/**
 * The factory's vToken for `token` in `pool` (0: none), held against the pin where one exists
 * (shared/vesu.ts pinnedVToken): an answer naming another contract is refused before anything is
 * built (PINNED_ADDRESS_MISMATCH), so an approve never goes to an address the node chose.
 */
export const factoryVToken = (
  views: Viewer,
  factory: string,
  pool: VesuPool,
  token: Token,
  pins: { network: Network; sandbox?: boolean | undefined },
): Promise<bigint> =>
  views({
    contractAddress: factory,
    entrypoint: 'v_token_for_asset',
    calldata: [pool.address, token.address],
  }).then((f) => {
    if (f.length !== 1) throw garbled('a vToken address');
    const answered = f[0] as bigint;
    const pinned = pinnedVToken(pins.network, pins.sandbox === true, pool.address, token);
    if (answered !== 0n && pinned !== undefined && BigInt(pinned) !== answered)
      throw new AppError(
        ErrorCode.PINNED_ADDRESS_MISMATCH,
        `nothing was signed: the node says the ${token.symbol} vToken of the ${pool.name} pool is ${hex(answered)}, not the pinned ${pinned}; refusing to build anything on it`,
        { details: { token: token.symbol, pinned, answered: hex(answered) } },
      );
    return answered;
  });

export const pinsOf = (
  reader: Pick<ChainReader, 'network'>,
  options: LendingReadOptions,
): { network: Network; sandbox: boolean } => ({
  network: reader.network,
  sandbox: options.sandbox === true,
});

/**
 * Where a read remembers each asset's vToken (the factory's `v_token_for_asset` answer), so that
 * the next read can ask the vToken's balance in its first round. Only a hint: the factory is
 * asked every time beside it, and a hint it contradicts is dropped (docs/decisions.md
 * "Position reads: one round, batched").
 */
export interface VTokenHints {
  get(pool: string, asset: string): string | undefined;
  /** the factory's answers for `pool` of this read, replacing that pool's (an unlisted asset left out) */
  put(
    pool: string,
    found: ReadonlyArray<{ pool: string; asset: string; vToken: string }>,
  ): Promise<void>;
  /** one asset's entry of `pool` as a plan's read left it (undefined: none), the others kept */
  putOne(pool: string, asset: string, vToken: string | undefined): Promise<void>;
}
