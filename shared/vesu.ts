/**
 * Vesu v2 lending facts both sides need (docs/sandbox-chain.md "Lending"): the PoolFactory and
 * pools per network, the entry points and event of the pool, its vTokens (ERC-4626) and oracle,
 * the calldata layout of `modify_position`, and the pool's revert reasons.
 *
 * Addresses: mainnet's PoolFactory and Prime pool come from Vesu's own repositories and docs
 * (docs/decisions.md "Vesu pools"). Sepolia's PoolFactory, its one pool ("WBTC Prime Sepolia") and
 * oracle come from vesuxyz/vesu-v2 `deployment-sepolia.json` at commit f4d1eed6, cross-checked with
 * starkzap's Vesu Sepolia preset (docs/decisions.md "Lending on Sepolia"). A sandbox deploys a
 * Vesu-like PoolFactory and pool at the addresses of the network it is shaped like, with an oracle
 * and one vToken per asset found through `v_token_for_asset(pool, asset)` (labels, never real
 * addresses). What a pool lists is read from its factory, never assumed from this table.
 *
 * `modify_position(ModifyPositionParams)` takes 11 felts: collateral_asset, debt_asset, user,
 * collateral: Amount, debt: Amount, where Amount = { denomination (Native = 0, Assets = 1),
 * value: i257 } and i257 = { abs: u256 (low, high), is_negative: bool } → 4 felts per Amount.
 * Collateral > 0 deposits, < 0 withdraws; debt > 0 borrows, < 0 repays (clamped to the debt).
 */
import { byteArray } from 'starknet';
import { formatAmount, parseAmount } from './amount.js';
import { CAIRO, type EntrypointSignature, type Signatures } from './entrypoints.js';
import { selectorOf, selectorsOf } from './erc20.js';
import { parseHexFelt } from './felt.js';
import { deployedAddressesByLast } from './starknet.js';
import { addressToBigInt, listTokens, parseAddress, type Network, type Token } from './tokens.js';

export interface VesuPool {
  name: string;
  address: string;
  /**
   * named by address and not one of the network's known pools: its prices, assets and vTokens are
   * what the node says; a plan on it needs the 'unknown-pool' acknowledgment
   */
  unknown?: true;
}

export interface VesuDeployment {
  poolFactory: string;
  pools: readonly VesuPool[];
  /** the pool the commands use without `--pool` */
  defaultPool: string;
  /**
   * the assets the deployment file lists, in its order: vesu-v2's deploy script gives each asset's
   * vToken the first other one as its `debt_asset` (lib/config.mainnet.ts), so these are the
   * candidates a vToken's deploy address is checked with (vTokenDebtAsset)
   */
  assets: readonly string[];
  /**
   * the deployment's oracle as its deployment file names it, where one does (the client asks the
   * pool's `oracle()` view; a sandbox shaped like the network deploys its oracle here)
   */
  oracle?: string;
}

const PRIME = parseAddress('0x451fe483d5921a2919ddd81d0de6696669bccdacd859f72a4fba7656b97c3b5');

const DEPLOYMENTS: Readonly<Record<Network, VesuDeployment | undefined>> = Object.freeze({
  mainnet: Object.freeze({
    poolFactory: parseAddress('0x3760f903a37948f97302736f89ce30290e45f441559325026842b7a6fb388c0'),
    pools: Object.freeze([Object.freeze({ name: 'Prime', address: PRIME })]),
    defaultPool: 'Prime',
    // vesuxyz/vesu-v2 deployment.json @ d4b21c8c8275f3c3e25cbc91195efdbf21abbd19
    assets: Object.freeze(
      [
        '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7',
        '0x03fe2b97c1fd336e750087d68b9b867997fd64a2661ff3ca5a7c771641e8e7ac',
        '0x053c91253bc9682c04929ca02ed00b3e423f6710d2ee7e0d5ebb06f3ecf368a8',
        '0x068f5c6a61780768455de69077e07e89787839bf8166decfbf92b645209c0fb8',
        '0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d',
        '0x0057912720381af14b0e5c87aa4718ed5e527eab60b3801ebf702ab09139e38b',
      ].map((a) => parseAddress(a)),
    ),
  }),
  // vesuxyz/vesu-v2 deployment-sepolia.json @ f4d1eed62924f44b6ccc492b2059aa9be909c503; the same
  // factory and pool as starkzap's Vesu SN_SEPOLIA preset (on-chain pool name "WBTC Prime Sepolia")
  sepolia: Object.freeze({
    poolFactory: parseAddress('0x3ac869e64b1164aaee7f3fd251f86581eab8bfbbd2abdf1e49c773282d4a092'),
    pools: Object.freeze([
      Object.freeze({
        name: 'WBTC Prime Sepolia',
        address: parseAddress('0x6227c13372b8c7b7f38ad1cfe05b5cf515b4e5c596dd05fe8437ab9747b2093'),
      }),
    ]),
    defaultPool: 'WBTC Prime Sepolia',
    assets: Object.freeze(
      [
        '0x04861ba938aed21f2cd7740acd3765ac4d2974783a3218367233de0153490cb6',
        '0x0512feac6339ff7889822cb5aa2a86c848e9d392bb0e3e237c008674feed8343',
      ].map((a) => parseAddress(a)),
    ),
    oracle: parseAddress('0x6df962cf92b281dfe2a400e241b8f3da07339698add3303f66664f7880ae880'),
  }),
});

/** A Cairo ByteArray's serialisation: full 31-byte words (count first), pending word, its length. */
export function byteArrayFelts(text: string): bigint[] {
  const encoded = byteArray.byteArrayFromString(text);
  return [
    BigInt(encoded.data.length),
    ...encoded.data.map((word) => BigInt(word)),
    BigInt(encoded.pending_word),
    BigInt(encoded.pending_word_len),
  ];
}

/**
 * Where Vesu v2's PoolFactory puts a vToken: `create_v_token` deploys it with
 * `deploy_syscall(v_token_class_hash, salt 0, [name, symbol, pool, asset, debt_asset], false)`
 * (vesuxyz/vesu-v2 src/pool_factory.cairo @ d4b21c8c; `name` and `symbol` are ByteArrays, as the
 * vToken's own `name()`/`symbol()` answer them). The address binds its deployer: no one but the
 * factory can put a contract there (docs/decisions.md "A vToken is checked by its deploy address").
 */
export function vTokenAddress(input: VTokenDeployment & { debtAsset: string }): string {
  return vTokenAddresses(input, [BigInt(input.debtAsset)])[0] as string;
}

/** What a vToken's deployment binds but its debt asset. */
interface VTokenDeployment {
  factory: string;
  classHash: bigint;
  name: readonly bigint[];
  symbol: readonly bigint[];
  pool: string;
  asset: string;
}

/**
 * vTokenAddress for each of `debtAssets`, in order: the constructor calldata [name, symbol, pool,
 * asset, debt asset], whose part before the debt asset is hashed once for all of them.
 */
function vTokenAddresses(input: VTokenDeployment, debtAssets: readonly bigint[]): string[] {
  return deployedAddressesByLast(
    BigInt(input.factory),
    0n,
    input.classHash,
    [...input.name, ...input.symbol, BigInt(input.pool), BigInt(input.asset)],
    debtAssets,
  );
}

/** A ByteArray longer than this many full words is no vToken name (Vesu's are a few words). */
export const MAX_VTOKEN_WORDS = 8;

/** Whether `felts` is a ByteArray as a view answers it: [n ≤ MAX_VTOKEN_WORDS, n words, pending word, pending length]. */
export function isVTokenWords(felts: readonly bigint[]): boolean {
  const words = felts[0];
  return (
    words !== undefined && words <= BigInt(MAX_VTOKEN_WORDS) && felts.length === Number(words) + 3
  );
}

/** What a vToken answers of itself: its class and its words (ByteArray felts). */
export interface VTokenFacts {
  classHash: bigint;
  name: readonly bigint[];
  symbol: readonly bigint[];
}

/** The debt assets a vToken of `asset` may have been deployed with: the deployment's, then the registry's. */
function debtCandidates(network: Network, asset: string): bigint[] {
  const deployment = DEPLOYMENTS[network];
  if (deployment === undefined) return [];
  const own = BigInt(asset);
  return [
    ...new Set(
      [...deployment.assets, ...listTokens(network).map((t) => t.address)].map((a) => BigInt(a)),
    ),
  ].filter((a) => a !== own);
}

/**
 * The debt asset with which the network's pinned PoolFactory deploys `vToken` for `asset` in
 * `pool`, given the class, name and symbol the vToken answers — or undefined when no candidate
 * gives that address. Whatever the node says of the facts, the address is the proof: only the
 * factory deploys there, and it binds the pool and the asset, which come from the pins and the
 * registry, not from the node. The debt asset is not readable (the vToken keeps it in storage
 * with no view): each of the deployment's assets, then the registry's tokens, is tried, as
 * vesu-v2's deploy script takes it from the deployment's assets.
 */
export function vTokenDebtAsset(
  network: Network,
  facts: VTokenFacts,
  pool: string,
  asset: string,
  vToken: string,
): string | undefined {
  const deployment = DEPLOYMENTS[network];
  if (deployment === undefined) return undefined;
  const target = BigInt(vToken);
  const candidates = debtCandidates(network, asset);
  const addresses = vTokenAddresses(
    { factory: deployment.poolFactory, ...facts, pool, asset },
    candidates,
  );
  const found = candidates.find((_, i) => BigInt(addresses[i] as string) === target);
  return found === undefined ? undefined : parseAddress(`0x${found.toString(16)}`);
}

/**
 * A vToken's deploy-address proof as the client sends it with typed data signed under an agent
 * grant (docs/server-api.md "Agent grants"): the server, which reads no chain, recomputes the
 * address from its own pinned factory and known pool (vTokenProofHolds). 0x-hex felts.
 */
export interface VTokenProof {
  vToken: string;
  pool: string;
  asset: string;
  debtAsset: string;
  classHash: string;
  name: string[];
  symbol: string[];
}

/**
 * What a proof shows, or undefined when it does not hold: the pool must be one of a network's
 * known pools, the asset that network's registry token, the debt asset one of the candidates
 * (vTokenDebtAsset), the words well-formed, and the address the factory's for all of them. One
 * address computation: the work a stranger can ask for is bounded by the proof's size.
 */
export function vTokenProofHolds(
  proof: VTokenProof,
): { network: Network; pool: VesuPool; token: Token } | undefined {
  const felts = (list: readonly string[]): bigint[] | undefined => {
    const out = list.map((f) => parseHexFelt(f));
    return out.every((f) => f !== undefined) ? (out as bigint[]) : undefined;
  };
  const name = felts(proof.name);
  const symbol = felts(proof.symbol);
  const fixed = felts([proof.vToken, proof.pool, proof.asset, proof.debtAsset, proof.classHash]);
  if (name === undefined || symbol === undefined || fixed === undefined) return undefined;
  if (!isVTokenWords(name) || !isVTokenWords(symbol)) return undefined;
  const [vToken, poolKey, assetKey, debtKey, classHash] = fixed as [
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  for (const [network, deployment] of Object.entries(DEPLOYMENTS) as [
    Network,
    VesuDeployment | undefined,
  ][]) {
    const pool = deployment?.pools.find((p) => BigInt(p.address) === poolKey);
    if (deployment === undefined || pool === undefined) continue;
    const token = listTokens(network).find((t) => BigInt(t.address) === assetKey);
    if (token === undefined || !debtCandidates(network, token.address).includes(debtKey))
      return undefined;
    const address = vTokenAddress({
      factory: deployment.poolFactory,
      classHash,
      name,
      symbol,
      pool: pool.address,
      asset: token.address,
      debtAsset: proof.debtAsset,
    });
    return BigInt(address) === vToken ? { network, pool, token } : undefined;
  }
  return undefined;
}

/** The class hash the sandbox's vTokens are deployed with (a label: the sandbox's own class). */
export const SANDBOX_VTOKEN_CLASS_HASH = selectorOf('sandbox::vesu_v_token');

/** The name and symbol the sandbox's factory gives the vToken of a registry symbol. */
export const sandboxVTokenWords = (symbol: string): { name: string; symbol: string } => ({
  name: `Vesu ${symbol}`,
  symbol: `v${symbol}`,
});

/**
 * The sandbox's vToken of `asset` (a registry token) in a known pool (the default one unless
 * named) of the network it is shaped like: where the network's PoolFactory would deploy it (vTokenAddress) with the sandbox's
 * class, words and, as vesu-v2's deploy script does, the deployment's first other asset as its
 * debt asset — so the client's deploy-address check holds for the sandbox as for the real pools.
 */
export function sandboxVTokenAddress(
  network: Network,
  asset: { symbol: string; address: string },
  poolAddress?: string,
): string {
  const key = `${network}:${poolAddress ?? ''}:${asset.symbol}:${asset.address}`;
  const known = sandboxVTokens.get(key);
  if (known !== undefined) return known;
  const address = computeSandboxVToken(network, asset, poolAddress);
  sandboxVTokens.set(key, address);
  return address;
}

/** The sandbox's vToken addresses already computed (a dozen Pedersen hashes each; few keys). */
const sandboxVTokens = new Map<string, string>();

function computeSandboxVToken(
  network: Network,
  asset: { symbol: string; address: string },
  poolAddress?: string,
): string {
  const deployment = DEPLOYMENTS[network];
  const pool =
    poolAddress === undefined
      ? deployment?.pools.find((p) => p.name === deployment.defaultPool)
      : { address: poolAddress };
  if (deployment === undefined || pool === undefined)
    throw new Error(`no Vesu deployment on ${network}`);
  const debtAsset = deployment.assets.find((a) => BigInt(a) !== BigInt(asset.address));
  if (debtAsset === undefined) throw new Error(`no debt asset for ${asset.symbol} on ${network}`);
  const words = sandboxVTokenWords(asset.symbol);
  return vTokenAddress({
    factory: deployment.poolFactory,
    classHash: SANDBOX_VTOKEN_CLASS_HASH,
    name: byteArrayFelts(words.name),
    symbol: byteArrayFelts(words.symbol),
    pool: pool.address,
    asset: asset.address,
    debtAsset,
  });
}

/**
 * vTokens pinned per pool address (lower-case canonical) and asset address, where a source the
 * node does not control names them (docs/decisions.md "Pinned addresses"). vesuxyz/vesu-v2's
 * deployment files (deployment.json at d4b21c8c; deployment-sepolia.json at f4d1eed6) name the
 * factory, the pools, the oracle and the assets, but no vToken: the real networks have none
 * pinned yet, and a factory answer for them stays unverified.
 */
const PINNED_VTOKENS: Readonly<
  Record<Network, Readonly<Record<string, Readonly<Record<string, string>>>>>
> = Object.freeze({ mainnet: Object.freeze({}), sepolia: Object.freeze({}) });

/**
 * The vToken pinned for `asset` in `pool` on `network` (a sandbox: its own, for the network's
 * known pools), or undefined when none is pinned.
 */
export function pinnedVToken(
  network: Network,
  sandbox: boolean,
  pool: string,
  asset: { symbol: string; address: string },
): string | undefined {
  const poolKey = parseAddress(pool);
  if (sandbox) {
    const known = DEPLOYMENTS[network]?.pools.some((p) => BigInt(p.address) === BigInt(poolKey));
    return known === true ? sandboxVTokenAddress(network, asset, poolKey) : undefined;
  }
  return PINNED_VTOKENS[network][poolKey]?.[parseAddress(asset.address)];
}

/** The Vesu deployment of a network (a sandbox's is that of the network it is shaped like), or undefined when it has none. */
export function vesuFor(network: Network): VesuDeployment | undefined {
  return DEPLOYMENTS[network];
}

/** A pool by name (case-insensitive) or address; undefined when it is not a known pool. */
export function findVesuPool(
  deployment: VesuDeployment,
  nameOrAddress: string,
): VesuPool | undefined {
  const key = nameOrAddress.trim();
  if (/^0x/i.test(key)) {
    const value = addressToBigInt(key);
    return value === undefined
      ? undefined
      : deployment.pools.find((p) => BigInt(p.address) === value);
  }
  const lower = key.toLowerCase();
  return deployment.pools.find((p) => p.name.toLowerCase() === lower);
}

/**
 * The pool's entry points the client and the sandbox use, as Vesu v2's `IPool` names them
 * (vesuxyz/vesu-v2 d4b21c8, src/pool.cairo; docs/contracts.md "Vesu v2"). v1's `ltv_config`,
 * `liquidation_config` and `debt_caps` are not among them: v2 has one `pair_config`.
 */
export const VESU_POOL_ENTRYPOINT = Object.freeze({
  /** (ModifyPositionParams: 11 felts) → UpdatePositionResponse { collateral_delta, collateral_shares_delta, debt_delta, nominal_debt_delta: i257, bad_debt: u256 } */
  modify_position: 'modify_position',
  /** (collateral_asset, debt_asset, user) → (Position { collateral_shares: u256, nominal_debt: u256 }, collateral: u256, debt: u256) in asset units */
  position: 'position',
  /** (collateral_asset, debt_asset, user) → (bool, collateral_value: u256, debt_value: u256) in USD, 18 decimals */
  check_collateralization: 'check_collateralization',
  /**
   * (collateral_asset, debt_asset) → PairConfig { max_ltv: u64, liquidation_factor: u64 (1e18
   * scale), debt_cap: u128 (debt asset units; 0 = no cap) }: zeros for a pair never configured
   */
  pair_config: 'pair_config',
  /**
   * (collateral_asset, debt_asset) → Pair { total_collateral_shares: u256, total_nominal_debt: u256 }:
   * the pair's totals across all users (1e18 scale); the pair's debt cap bounds this total debt
   */
  pairs: 'pairs',
  /** (asset) → AssetConfig (22 felts, docs/sandbox-chain.md "Lending"), accrued to now; reverts `asset-config-nonexistent` for an asset the pool does not list */
  asset_config: 'asset_config',
  /**
   * (collateral_asset, debt_asset, user) → Context { collateral_asset, debt_asset,
   * collateral_asset_config: AssetConfig, debt_asset_config: AssetConfig, collateral_asset_price:
   * AssetPrice, debt_asset_price: AssetPrice, max_ltv: u64, user, position: Position }: the pair as
   * the pool sees it, the prices asked of its own oracle
   */
  context: 'context',
  /** (asset) → AssetPrice { value: u256 (USD, 18 decimals), is_valid: bool }: the pool asks its oracle */
  price: 'price',
  /** (asset) → u256 (1e18 scale): the asset's rate accumulator now */
  rate_accumulator: 'rate_accumulator',
  /** (asset) → u256 (1e18 scale): total debt / (reserve + total debt), at the last accumulator */
  utilization: 'utilization',
  /**
   * (asset, utilization: u256, last_updated: u64, last_full_utilization_rate: u256) → u256: the
   * borrow rate per second (1e18 scale) the model gives (docs/contracts.md "Interest rates")
   */
  interest_rate: 'interest_rate',
  /**
   * (asset) → InterestRateConfig { min_target_utilization, max_target_utilization,
   * target_utilization (1e5 scale), min_full_utilization_rate, max_full_utilization_rate,
   * zero_utilization_rate (per second, 1e18 scale), rate_half_life (seconds), target_rate_percent
   * (1e18 scale) }: u256 each
   */
  interest_rate_config: 'interest_rate_config',
  /** (nominal_debt: i257, rate_accumulator: u256, asset_scale: u256) → debt: u256 (asset units; rounded up when nominal_debt is negative) */
  calculate_debt: 'calculate_debt',
  /** (asset, collateral_shares: i257) → collateral: u256 (asset units; rounded up when shares are positive) */
  calculate_collateral: 'calculate_collateral',
  /** () → ContractAddress */
  oracle: 'oracle',
  /** () → bool */
  is_paused: 'is_paused',
  /** () → felt252 (short string) */
  pool_name: 'pool_name',
} as const);

export const VESU_FACTORY_ENTRYPOINT = Object.freeze({
  /** (pool, asset) → vToken address (0 when none) */
  v_token_for_asset: 'v_token_for_asset',
} as const);

/** The oracle: `price(asset) → AssetPrice { value: u256 (USD, 18 decimals), is_valid: bool }`. */
export const VESU_ORACLE_ENTRYPOINT = Object.freeze({ price: 'price' } as const);

/** A vToken (ERC-4626 over the pool; shares have 18 decimals). */
export const VTOKEN_ENTRYPOINT = Object.freeze({
  deposit: 'deposit',
  withdraw: 'withdraw',
  redeem: 'redeem',
  balance_of: 'balance_of',
  convert_to_assets: 'convert_to_assets',
  convert_to_shares: 'convert_to_shares',
  max_withdraw: 'max_withdraw',
  max_redeem: 'max_redeem',
  preview_deposit: 'preview_deposit',
  preview_redeem: 'preview_redeem',
  total_assets: 'total_assets',
  asset: 'asset',
} as const);

const ADDRESS = CAIRO.address;
const U256 = CAIRO.u256;
const I257 = 'alexandria_math::i257::i257';
const PAIR_IN = [ADDRESS, ADDRESS] as const;
const POSITION_IN = [ADDRESS, ADDRESS, ADDRESS] as const;
const sig = (inputs: readonly string[], outputs: readonly string[]): EntrypointSignature =>
  Object.freeze({ inputs: Object.freeze([...inputs]), outputs: Object.freeze([...outputs]) });

/**
 * Each pool entry point's Cairo signature, transcribed from Vesu v2's `IPool` (vesuxyz/vesu-v2
 * d4b21c8, src/pool.cairo; the structs in src/data_model.cairo, InterestRateConfig in
 * src/interest_rate_model.cairo). A tuple return is one output, spelled as the ABI spells it.
 */
export const VESU_POOL_SIGNATURE: Signatures<typeof VESU_POOL_ENTRYPOINT> = Object.freeze({
  modify_position: sig(
    ['vesu::data_model::ModifyPositionParams'],
    ['vesu::data_model::UpdatePositionResponse'],
  ),
  position: sig(POSITION_IN, [`(vesu::data_model::Position, ${U256}, ${U256})`]),
  check_collateralization: sig(POSITION_IN, [`(${CAIRO.bool}, ${U256}, ${U256})`]),
  pair_config: sig(PAIR_IN, ['vesu::data_model::PairConfig']),
  pairs: sig(PAIR_IN, ['vesu::data_model::Pair']),
  asset_config: sig([ADDRESS], ['vesu::data_model::AssetConfig']),
  context: sig(POSITION_IN, ['vesu::data_model::Context']),
  price: sig([ADDRESS], ['vesu::data_model::AssetPrice']),
  rate_accumulator: sig([ADDRESS], [U256]),
  utilization: sig([ADDRESS], [U256]),
  interest_rate: sig([ADDRESS, U256, CAIRO.u64, U256], [U256]),
  interest_rate_config: sig([ADDRESS], ['vesu::interest_rate_model::InterestRateConfig']),
  calculate_debt: sig([I257, U256, U256], [U256]),
  calculate_collateral: sig([ADDRESS, I257], [U256]),
  oracle: sig([], [ADDRESS]),
  is_paused: sig([], [CAIRO.bool]),
  pool_name: sig([], [CAIRO.felt]),
});

/** The PoolFactory's (vesuxyz/vesu-v2 d4b21c8, src/pool_factory.cairo `IPoolFactory`). */
export const VESU_FACTORY_SIGNATURE: Signatures<typeof VESU_FACTORY_ENTRYPOINT> = Object.freeze({
  v_token_for_asset: sig([ADDRESS, ADDRESS], [ADDRESS]),
});

/** The oracle's (vesuxyz/vesu-v2 d4b21c8, src/oracle.cairo `IOracle`). */
export const VESU_ORACLE_SIGNATURE: Signatures<typeof VESU_ORACLE_ENTRYPOINT> = Object.freeze({
  price: sig([ADDRESS], ['vesu::data_model::AssetPrice']),
});

/**
 * A vToken's (vesuxyz/vesu-v2 d4b21c8, src/v_token.cairo `IERC4626`; `balance_of` is
 * OpenZeppelin's ERC20 it embeds).
 */
export const VTOKEN_SIGNATURE: Signatures<typeof VTOKEN_ENTRYPOINT> = Object.freeze({
  deposit: sig([U256, ADDRESS], [U256]),
  withdraw: sig([U256, ADDRESS, ADDRESS], [U256]),
  redeem: sig([U256, ADDRESS, ADDRESS], [U256]),
  balance_of: sig([ADDRESS], [U256]),
  convert_to_assets: sig([U256], [U256]),
  convert_to_shares: sig([U256], [U256]),
  max_withdraw: sig([ADDRESS], [U256]),
  max_redeem: sig([ADDRESS], [U256]),
  preview_deposit: sig([U256], [U256]),
  preview_redeem: sig([U256], [U256]),
  total_assets: sig([], [U256]),
  asset: sig([], [ADDRESS]),
});

const selectors = selectorsOf;

export const VESU_POOL_SELECTOR = selectors(VESU_POOL_ENTRYPOINT);
export const VESU_FACTORY_SELECTOR = selectors(VESU_FACTORY_ENTRYPOINT);
export const VESU_ORACLE_SELECTOR = selectors(VESU_ORACLE_ENTRYPOINT);
export const VTOKEN_SELECTOR = selectors(VTOKEN_ENTRYPOINT);

/**
 * Event `ModifyPosition`: keys `[selector, collateral_asset, debt_asset, user]`, data
 * collateral_delta, collateral_shares_delta, debt_delta, nominal_debt_delta (i257, 3 felts each).
 * vTokens emit ERC-4626 `Deposit {#sender, #owner, assets, shares}` and
 * `Withdraw {#sender, #receiver, #owner, assets, shares}` (u256 each).
 */
const VESU_EVENT_NAME = Object.freeze({
  ModifyPosition: 'ModifyPosition',
  Deposit: 'Deposit',
  Withdraw: 'Withdraw',
} as const);
export const VESU_EVENT = selectors(VESU_EVENT_NAME);

/** `AmountDenomination` of an `Amount`. */
export const DENOMINATION = Object.freeze({ Native: 0n, Assets: 1n } as const);

/** 1e18: the scale of max_ltv, utilisation, prices and USD values. */
export const VESU_SCALE = 10n ** 18n;

/**
 * The safety margin: a plan that leaves a position's health factor below 1.2 needs the
 * 'low-health' acknowledgment; at or below 1 it is refused (docs/decisions.md "Lending (issue 25)").
 */
export const HEALTH_MARGIN = (12n * VESU_SCALE) / 10n;

/**
 * How a health factor (×1e18; undefined: no debt) stands against the margin: 'liquidatable' at or
 * below 1, 'low' below the margin, else 'ok'. Pure; the faces word it.
 */
export function healthLevel(hf: bigint | undefined): 'ok' | 'low' | 'liquidatable' {
  if (hf === undefined) return 'ok';
  if (hf <= VESU_SCALE) return 'liquidatable';
  return hf < HEALTH_MARGIN ? 'low' : 'ok';
}

/**
 * A health factor as the core words it ("1.1500"; null: no debt) against the margin, for the
 * faces' warnings; a text that does not read as one is the worst case (fail closed).
 */
export function healthLevelOfWords(words: string | null): 'ok' | 'low' | 'liquidatable' {
  if (words === null) return 'ok';
  try {
    return healthLevel(parseAmount(words, 18));
  } catch {
    return 'liquidatable';
  }
}

/**
 * What a debt line's health factor means, in the words every face puts beside it
 * (healthLevel above); the faces put it beside the figure: its level, and the note ('' when it is safe).
 */
export function healthNote(healthFactor: string | null): {
  level: 'ok' | 'low' | 'liquidatable';
  note: string;
} {
  const level = healthLevelOfWords(healthFactor);
  const note =
    level === 'liquidatable'
      ? 'at or below 1: can be liquidated now'
      : level === 'low'
        ? `below ${formatAmount(HEALTH_MARGIN, 18)}: close to liquidation`
        : '';
  return { level, note };
}

/**
 * A max LTV (×1e18) as every face and refusal says it: a percent, exact ("80 %", "77.5 %"), never
 * the pool's fraction ("0.8").
 */
export function ltvPercent(maxLtv: bigint): string {
  return `${formatAmount(maxLtv * 100n, 18)} %`;
}

/** The same from the fraction a lending document carries ("0.8" → "80 %"); unreadable text is shown as it is. */
export function ltvPercentOfWords(words: string): string {
  try {
    return ltvPercent(parseAmount(words, 18, { allowZero: true }));
  } catch {
    return words;
  }
}

/** Revert reasons of the pool that a client explains in words. */
const VESU_ERROR = Object.freeze({
  IDENTICAL_ASSETS: 'identical-assets',
  NOT_COLLATERALIZED: 'not-collateralized',
  DUSTY_DEBT_BALANCE: 'dusty-debt-balance',
  DUSTY_COLLATERAL_BALANCE: 'dusty-collateral-balance',
  DEBT_CAP_EXCEEDED: 'debt-cap-exceeded',
  UTILIZATION_EXCEEDED: 'utilization-exceeded',
  /** the sandbox's word: the real pool goes into recovery mode on an invalid price */
  INVALID_ORACLE_PRICE: 'invalid-oracle-price',
  CONTRACT_PAUSED: 'contract-paused',
  NO_DELEGATION: 'no-delegation',
  ASSET_NOT_LISTED: 'asset-config-nonexistent',
} as const);

type VesuError = keyof typeof VESU_ERROR;

/** The first known pool error named in a revert reason, or undefined. */
export function vesuErrorIn(revertReason: string): VesuError | undefined {
  return (Object.keys(VESU_ERROR) as VesuError[]).find((key) =>
    revertReason.includes(VESU_ERROR[key]),
  );
}

/** An i257 as its 3 felts `[abs.low, abs.high, is_negative]` (zero is never negative). */
export function i257Felts(value: bigint): [bigint, bigint, bigint] {
  const abs = value < 0n ? -value : value;
  if (abs >= 1n << 256n) throw new RangeError('not an i257');
  return [abs % (1n << 128n), abs >> 128n, value < 0n ? 1n : 0n];
}

/** Three felts → an i257 value, or undefined when they are not one. */
export function fromI257Felts(low: bigint, high: bigint, negative: bigint): bigint | undefined {
  if (low < 0n || high < 0n || low >= 1n << 128n || high >= 1n << 128n) return undefined;
  if (negative !== 0n && negative !== 1n) return undefined;
  const abs = (high << 128n) + low;
  if (negative === 1n && abs === 0n) return undefined;
  return negative === 1n ? -abs : abs;
}

/**
 * Liquidation (issue 31 §4), read by the client, emitted by the sandbox's pool: Vesu v2's event
 * `LiquidatePosition`, keys `[selector, collateral_asset, debt_asset, user, liquidator]`, data
 * collateral_delta, collateral_shares_delta, debt_delta, nominal_debt_delta (i257, 3 felts each:
 * negative, what left the position) and bad_debt (u256): 14 felts.
 */
export const VESU_LIQUIDATE_POSITION_EVENT = selectorsOf({
  LiquidatePosition: 'LiquidatePosition',
} as const).LiquidatePosition;
/** the pool's refusal of a collateralised position */
export const VESU_NOT_UNDERCOLLATERALIZED = 'not-undercollateralized';
