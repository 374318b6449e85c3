/**
 * The contracts the product calls, gathered from the one table of each (docs/server-api.md "Agent
 * grants"): the registry tokens (shared/tokens.ts), the swap router (shared/swap-calldata.ts),
 * the staking contract and the preset validators' delegation pools (shared/staking.ts) and the
 * Vesu pools (shared/vesu.ts), of every network. A call under an agent grant may go only to one
 * of these, and an approval only to one that is not a token: the server reads this list, never
 * its own copy.
 *
 * Vesu vTokens are not listed: no deployment file names them. A signing under a grant proves
 * each vToken it calls by its deploy address, which the server recomputes from the pinned factory
 * and pool (server/routes/sign.ts withProvenVTokens; docs/decisions.md "A vToken is checked by its
 * deploy address"), on every network and in the sandbox alike.
 */
import { SANDBOX_VALIDATORS, STAKING_CONTRACT, validatorsFor } from './staking.js';
import { ROUTER_ADDRESS } from './swap-calldata.js';
import { listTokens, NETWORKS, parseAddress, type Token } from './tokens.js';
import { vesuFor } from './vesu.js';

type KnownContractKind =
  | 'token'
  | 'router'
  | 'staking'
  | 'staking-pool'
  | 'vesu-pool'
  | 'vesu-vtoken';

export interface KnownContract {
  kind: KnownContractKind;
  /** 0x + 64 lower-case hex */
  address: string;
  /** what a person reads: "USDC", "the swap router", "the Braavos staking pool" */
  name: string;
  /** tokens only */
  token?: Token;
}

/**
 * Every known contract by address (lower-case 0x + 64 hex). `sandbox` adds the sandbox-only
 * validators' pools (labels, never real addresses).
 */
export function knownContracts(options: { sandbox: boolean }): ReadonlyMap<string, KnownContract> {
  const known = new Map<string, KnownContract>();
  const add = (entry: KnownContract): void => {
    if (!known.has(entry.address)) known.set(entry.address, entry);
  };
  for (const network of NETWORKS) {
    for (const token of listTokens(network))
      add({ kind: 'token', address: token.address, name: token.symbol, token });
    add({ kind: 'staking', address: STAKING_CONTRACT[network], name: 'the staking contract' });
    for (const validator of validatorsFor(network))
      add({
        kind: 'staking-pool',
        address: validator.pool,
        name: `the ${validator.name} staking pool`,
      });
    for (const pool of vesuFor(network)?.pools ?? []) {
      add({ kind: 'vesu-pool', address: pool.address, name: `the Vesu ${pool.name} pool` });
    }
  }
  add({ kind: 'router', address: parseAddress(ROUTER_ADDRESS), name: 'the swap router' });
  if (options.sandbox) {
    for (const validator of SANDBOX_VALIDATORS)
      add({
        kind: 'staking-pool',
        address: validator.pool,
        name: `the ${validator.name} staking pool`,
      });
  }
  return known;
}
