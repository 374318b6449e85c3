/**
 * The Vesu v2 pool's answers decoded (docs/contracts.md "E. Vesu v2 (lending)", docs/sandbox-chain.md
 * "Lending"): u256 limbs, an asset's config, a pair's config, the oracle's prices from the pool's
 * `price` and `context` views, and a pair's state from its views; an answer in a shape we do not
 * know is a garbled one (CHAIN_ERROR), never read as a number. Pure.
 */
import { RpcError } from 'starknet';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { feltHex } from '../../shared/felt.js';
import type { Token } from '../../shared/tokens.js';
import type { VesuPool } from '../../shared/vesu.js';

export const U128 = 1n << 128n;
export const u256 = (f: readonly bigint[], at: number): bigint =>
  (f[at] ?? 0n) + ((f[at + 1] ?? 0n) << 128n);
export const hex = (v: bigint): string => feltHex(v);

/** A view the contract reverted (Starknet JSON-RPC error 40 CONTRACT_ERROR), not a failed read. */
export const reverted = (error: unknown): boolean => error instanceof RpcError && error.code === 40;

export const garbled = (what: string): AppError =>
  new AppError(ErrorCode.CHAIN_ERROR, `the Vesu pool answered ${what} in a shape we do not know`);

export interface OraclePrice {
  /** USD, 18 decimals */
  value: bigint;
  valid: boolean;
}

/** An asset's config (AssetConfig, docs/sandbox-chain.md "Lending"): what the limits need. */
export interface AssetLimits {
  reserve: bigint;
  totalNominalDebt: bigint;
  /** 1e18 scale */
  maxUtilization: bigint;
  /** USD, 18 decimals: a debt worth more than 0 and at most this is dust */
  floor: bigint;
  scale: bigint;
  accumulator: bigint;
  /**
   * the chain time (seconds) the figures are as of: the pool's `asset_config` view accrues the
   * interest to the block it is read at and says so in `last_updated`
   */
  lastUpdated: number;
}

function decodeAssetConfig(f: readonly bigint[]): AssetLimits | undefined {
  if (f.length < 16) return undefined;
  return {
    totalNominalDebt: u256(f, 2),
    reserve: u256(f, 4),
    maxUtilization: u256(f, 6),
    floor: u256(f, 8),
    scale: u256(f, 10),
    lastUpdated: Number(f[13] ?? 0n),
    accumulator: u256(f, 14),
  };
}

/** A (collateral, debt) pair of the account in a pool, as the pool reports it now. */
export interface PairState {
  pool: VesuPool;
  collateral: Token;
  debt: Token;
  collateralShares: bigint;
  nominalDebt: bigint;
  /** asset units */
  collateralAmount: bigint;
  debtAmount: bigint;
  /** 1e18 scale */
  maxLtv: bigint;
  prices: { collateral: OraclePrice; debt: OraclePrice };
  debtLimits: AssetLimits;
  /** the collateral asset's config: its reserve and utilisation bound what collateral may leave */
  collateralLimits: AssetLimits;
  /** asset units of the debt token; 0 = no cap. It bounds the pair's total debt, all users'. */
  debtCap: bigint;
  /** the pair's total nominal debt across all users (the pool's `pairs` view, 1e18 scale) */
  pairNominalDebt: bigint;
}

/**
 * The oracle's prices of a pair as the pool's `context(collateral, debt, user)` view gives them
 * (Vesu v2's `Context`: collateral_asset, debt_asset, the two AssetConfigs, the two AssetPrices
 * { value: u256, is_valid: bool }, max_ltv, user, Position { collateral_shares, nominal_debt }):
 * the pool asks its own oracle, so the prices come in the same round as everything else
 * (docs/decisions.md "A plan's lending reads: one round"). Decoded from both ends, so the length
 * of an AssetConfig (22 felts in Vesu v2) is read from the answer, never assumed; an answer that
 * does not name the pair and the user asked, or whose prices are not a u256 and a bool, is a
 * garbled one (CHAIN_ERROR), never read as a price.
 */
export function decodeContextPrices(
  f: readonly bigint[],
  collateral: Token,
  debt: Token,
  user: string,
): { collateral: OraclePrice; debt: OraclePrice } {
  // 2 addresses, 2 configs of n felts each, 2 prices (3 each), max_ltv, user, a position (4)
  const n = (f.length - 14) / 2;
  if (!Number.isInteger(n) || n < 16) throw garbled('a pair context');
  const at = 2 + 2 * n;
  const price = (i: number): OraclePrice => {
    const [low, high, valid] = [f[i], f[i + 1], f[i + 2]] as [bigint, bigint, bigint];
    if (low >= U128 || high >= U128 || (valid !== 0n && valid !== 1n))
      throw garbled('a pair context');
    return { value: low + (high << 128n), valid: valid === 1n };
  };
  if (
    f[0] !== BigInt(collateral.address) ||
    f[1] !== BigInt(debt.address) ||
    f[at + 7] !== BigInt(user)
  )
    throw garbled('a pair context');
  return { collateral: price(at), debt: price(at + 3) };
}

/** The pool's `price(asset)`: AssetPrice { value: u256, is_valid: bool }, else garbled. */
export function decodePrice(f: readonly bigint[]): OraclePrice {
  const [low, high, valid] = f as [bigint, bigint, bigint];
  if (f.length !== 3 || low >= U128 || high >= U128 || (valid !== 0n && valid !== 1n))
    throw garbled('a price');
  return { value: low + (high << 128n), valid: valid === 1n };
}

/** The pool's `pair_config` answer: PairConfig { max_ltv: u64, liquidation_factor: u64, debt_cap: u128 }. */
interface PairConfig {
  /** 1e18 scale; 0: the pool does not lend against this pair */
  maxLtv: bigint;
  /** 1e18 scale */
  liquidationFactor: bigint;
  /** debt asset units; 0 = no cap */
  debtCap: bigint;
}

/** Three felts → a PairConfig, or a garbled answer (CHAIN_ERROR). */
export function decodePairConfig(f: readonly bigint[]): PairConfig {
  const [maxLtv, liquidationFactor, debtCap] = f as [bigint, bigint, bigint];
  if (f.length !== 3 || maxLtv >= 1n << 64n || liquidationFactor >= 1n << 64n || debtCap >= U128)
    throw garbled('a pair config');
  return { maxLtv, liquidationFactor, debtCap };
}

/**
 * A pair's state from the pool's answers (`position`, `pair_config`, `asset_config` of the debt
 * and of the collateral, `pairs`: Pair { total_collateral_shares, total_nominal_debt }).
 */
export function pairStateOf(
  of: { pool: VesuPool; collateral: Token; debt: Token },
  f: {
    position: bigint[];
    pairConfig: bigint[];
    config: bigint[];
    collateralConfig: bigint[];
    totals: bigint[];
  },
  [collateralPrice, debtPrice]: [OraclePrice, OraclePrice],
): PairState {
  const limits = decodeAssetConfig(f.config);
  const collateralLimits = decodeAssetConfig(f.collateralConfig);
  if (
    f.position.length < 8 ||
    limits === undefined ||
    collateralLimits === undefined ||
    f.totals.length < 4
  )
    throw garbled('a position');
  const pairConfig = decodePairConfig(f.pairConfig);
  return {
    ...of,
    collateralShares: u256(f.position, 0),
    nominalDebt: u256(f.position, 2),
    collateralAmount: u256(f.position, 4),
    debtAmount: u256(f.position, 6),
    maxLtv: pairConfig.maxLtv,
    prices: { collateral: collateralPrice, debt: debtPrice },
    debtLimits: limits,
    collateralLimits,
    debtCap: pairConfig.debtCap,
    pairNominalDebt: u256(f.totals, 2),
  };
}
