/**
 * A Vesu vToken's deploy-address proof (shared/vesu.ts VTokenProof) made as the network's pinned
 * PoolFactory would deploy it — a class hash and words of our own: what the server checks is that
 * the address is the factory's for them (docs/server-api.md "Agent grants").
 */
import { feltHex } from '../../shared/felt.js';
import { listTokens } from '../../shared/tokens.js';
import { byteArrayFelts, vesuFor, vTokenAddress, type VTokenProof } from '../../shared/vesu.js';

/**
 * Mainnet Prime's vToken of `symbol`, with ETH (or USDC for ETH) as its debt asset; another
 * `classHash` gives a proof the server has not seen (it remembers those shown to hold).
 */
export function mainnetVTokenProof(symbol = 'USDC', classHash = 0xc1a55n): VTokenProof {
  const deployment = vesuFor('mainnet');
  const tokens = listTokens('mainnet');
  const asset = tokens.find((t) => t.symbol === symbol)?.address;
  const debtAsset = tokens.find((t) => t.symbol === (symbol === 'ETH' ? 'USDC' : 'ETH'))?.address;
  const pool = deployment?.pools[0]?.address;
  if (
    deployment === undefined ||
    asset === undefined ||
    debtAsset === undefined ||
    pool === undefined
  )
    throw new Error(`mainnet has a Prime pool and ${symbol}`);
  const facts = {
    classHash,
    name: byteArrayFelts(`Vesu Prime ${symbol}`),
    symbol: byteArrayFelts(`v${symbol}`),
  };
  return {
    vToken: vTokenAddress({ factory: deployment.poolFactory, ...facts, pool, asset, debtAsset }),
    pool,
    asset,
    debtAsset,
    classHash: feltHex(facts.classHash),
    name: facts.name.map(feltHex),
    symbol: facts.symbol.map(feltHex),
  };
}
