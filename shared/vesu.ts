/**
 * Vesu v2 lending facts both sides need (docs/sandbox-chain.md "Lending"): the PoolFactory and
 * pools per network, the entry points and event of the pool, its vTokens (ERC-4626) and oracle,
 * the calldata layout of `modify_position`, and the pool's revert reasons.
 *
 * Addresses: mainnet's PoolFactory and Prime pool come from Vesu's own repositories and docs
 * (docs/decisions.md "Vesu pools"). Sepolia has no confirmed v2 deployment: no pool, and the
 * lending commands say so rather than guess. The sandbox is mainnet-like: it deploys a Vesu-like
 * PoolFactory and Prime pool at the mainnet addresses, with its own oracle and one vToken per
 * asset found through `v_token_for_asset(pool, asset)` (labels, never real addresses).
 *
 * `modify_position(ModifyPositionParams)` takes 11 felts: collateral_asset, debt_asset, user,
 * collateral: Amount, debt: Amount, where Amount = { denomination (Native = 0, Assets = 1),
 * value: i257 } and i257 = { abs: u256 (low, high), is_negative: bool } → 4 felts per Amount.
 * Collateral > 0 deposits, < 0 withdraws; debt > 0 borrows, < 0 repays (clamped to the debt).
 */
import { formatAmount, parseAmount } from './amount.js';
import { selectorsOf } from './erc20.js';
import { addressToBigInt, parseAddress, type Network } from './tokens.js';

export interface VesuPool {
  name: string;
  address: string;
}

export interface VesuDeployment {
  poolFactory: string;
  pools: readonly VesuPool[];
  /** the pool the commands use without `--pool` */
  defaultPool: string;
}

const PRIME = parseAddress('0x451fe483d5921a2919ddd81d0de6696669bccdacd859f72a4fba7656b97c3b5');

const DEPLOYMENTS: Readonly<Record<Network, VesuDeployment | undefined>> = Object.freeze({
  mainnet: Object.freeze({
    poolFactory: parseAddress('0x3760f903a37948f97302736f89ce30290e45f441559325026842b7a6fb388c0'),
    pools: Object.freeze([Object.freeze({ name: 'Prime', address: PRIME })]),
    defaultPool: 'Prime',
  }),
  // no confirmed Vesu v2 deployment on Sepolia: never a guessed address
  sepolia: undefined,
});

/** The Vesu deployment of a network (the sandbox's is mainnet's), or undefined when it has none. */
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

export const VESU_POOL_ENTRYPOINT = Object.freeze({
  /** (ModifyPositionParams: 11 felts) → UpdatePositionResponse { collateral_delta, collateral_shares_delta, debt_delta, nominal_debt_delta: i257, bad_debt: u256 } */
  modify_position: 'modify_position',
  /** (collateral_asset, debt_asset, user) → (Position { collateral_shares: u256, nominal_debt: u256 }, collateral: u256, debt: u256) in asset units */
  position: 'position',
  /** (collateral_asset, debt_asset, user) → (bool, collateral_value: u256, debt_value: u256) in USD, 18 decimals */
  check_collateralization: 'check_collateralization',
  /** (collateral_asset, debt_asset) → LTVConfig { max_ltv: u64 } (1e18 scale) */
  ltv_config: 'ltv_config',
  /** (collateral_asset, debt_asset) → LiquidationConfig { liquidation_factor: u64 } (1e18 scale) */
  liquidation_config: 'liquidation_config',
  /** (collateral_asset, debt_asset) → u256 (asset units; 0 = no cap) */
  debt_caps: 'debt_caps',
  /**
   * (collateral_asset, debt_asset) → Pair { total_collateral_shares: u256, total_nominal_debt: u256 }:
   * the pair's totals across all users (1e18 scale); the pair's debt cap bounds this total debt
   */
  pairs: 'pairs',
  /** (asset) → AssetConfig (see docs/sandbox-chain.md "Lending" for its 22 felts) */
  asset_config: 'asset_config',
  /**
   * (collateral_asset, debt_asset, user) → Context { collateral_asset, debt_asset,
   * collateral_asset_config: AssetConfig, debt_asset_config: AssetConfig, collateral_asset_price:
   * AssetPrice, debt_asset_price: AssetPrice, max_ltv: u64, user, position: Position }: the pair as
   * the pool sees it, the prices asked of its own oracle
   */
  context: 'context',
  /** (asset) → u256 (1e18 scale) */
  utilization: 'utilization',
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
export const VESU_EVENT_NAME = Object.freeze({
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

/** Revert reasons of the pool that a client explains in words. */
export const VESU_ERROR = Object.freeze({
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

export type VesuError = keyof typeof VESU_ERROR;

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
