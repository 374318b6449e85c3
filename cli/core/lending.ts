/**
 * Vesu v2 lending reads and health math (docs/architecture.md "Adding a leg type", docs/checks.md
 * "Lending"): the pool of a network (shared/vesu.ts; none on sepolia, never guessed), a pair's
 * position, the oracle's prices, the pair's max LTV, the debt asset's config, the pair's cap and
 * its totals, a vToken and the account's shares — each a view call, the reads of one plan in one
 * round where it can (docs/decisions.md "A plan's lending reads: one round") — and the health
 * factor, exact in bigint: collateral value × max LTV / debt value, values in USD with 18 decimals
 * at the pool's own oracle prices (the pool's own rule, docs/sandbox-chain.md "Lending").
 */
import { RpcError } from 'starknet';
import { formatAmount } from '../../shared/amount.js';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { printable } from '../../shared/printable.js';
import { feltHex } from '../../shared/felt.js';
import { addressToBigInt, listTokens, type Network, type Token } from '../../shared/tokens.js';
import {
  findVesuPool,
  pinnedVToken,
  type VesuPool,
  VESU_SCALE,
  vesuFor,
} from '../../shared/vesu.js';
import type { CallOptions } from './call.js';
import type { ChainReader } from './chain/account.js';
import { mapChainError } from './chain/errors.js';
import { inScope } from './chain/scope.js';
import { batchedViews, type Viewer } from './chain/views.js';
import type { Endpoints } from './endpoints.js';
import { sessionReader } from './execution.js';
import { networkAllows } from './actions/rules.js';
import { checkVTokenOrigin } from './vtoken-origin.js';
import { marketRates, percentWords } from './lending-rates.js';
import { loadVTokenHints } from './vtoken-hints.js';
import {
  type Liquidation,
  type LiquidationRead,
  liquidationScope,
  readLiquidations,
} from './liquidations.js';

export { HEALTH_MARGIN, VESU_SCALE } from '../../shared/vesu.js';

export interface LendingReadOptions {
  signal?: AbortSignal | undefined;
  /** a sandbox's chain: its own vTokens are the pinned ones (shared/vesu.ts pinnedVToken) */
  sandbox?: boolean | undefined;
}

const U128 = 1n << 128n;
const u256 = (f: readonly bigint[], at: number): bigint =>
  (f[at] ?? 0n) + ((f[at + 1] ?? 0n) << 128n);
const hex = (v: bigint): string => feltHex(v);

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
function factoryOf(network: Network): string {
  const deployment = vesuFor(network);
  if (deployment === undefined)
    throw new AppError(ErrorCode.NETWORK_UNSUPPORTED, `no Vesu deployment on ${network}`);
  return deployment.poolFactory;
}

const scoped = <T>(options: LendingReadOptions, run: () => Promise<T>): Promise<T> =>
  inScope(options.signal, run, mapChainError);

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

export function decodeAssetConfig(f: readonly bigint[]): AssetLimits | undefined {
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

/** USD value (18 decimals) of `amount` base units at `price` (the pool's own rounding: down). */
export const usdValue = (amount: bigint, price: bigint, token: Token): bigint =>
  (amount * price) / 10n ** BigInt(token.decimals);

/**
 * Health factor × 1e18 = collateral value × max LTV / debt value (rounded down); undefined with no
 * debt. Below 1e18 the position can be liquidated.
 */
export function healthFactor(
  collateralValue: bigint,
  debtValue: bigint,
  maxLtv: bigint,
): bigint | undefined {
  if (debtValue === 0n) return undefined;
  return (collateralValue * maxLtv) / debtValue;
}

/** The health factor of `collateral`/`debt` amounts of a pair at its prices. */
export function pairHealth(
  pair: Pick<PairState, 'collateral' | 'debt' | 'maxLtv' | 'prices'>,
  collateral: bigint,
  debt: bigint,
): bigint | undefined {
  return healthFactor(
    usdValue(collateral, pair.prices.collateral.value, pair.collateral),
    usdValue(debt, pair.prices.debt.value, pair.debt),
    pair.maxLtv,
  );
}

/**
 * The collateral's price (USD, 18 decimals) at which the position reaches a health factor of 1:
 * debt value × 10^decimals / (collateral × max LTV / 1e18), rounded up; undefined with no debt.
 */
export function liquidationPrice(
  pair: Pick<PairState, 'collateral' | 'debt' | 'maxLtv' | 'prices'>,
  collateral: bigint,
  debt: bigint,
): bigint | undefined {
  if (debt === 0n) return undefined;
  const debtValue = usdValue(debt, pair.prices.debt.value, pair.debt);
  const denominator = collateral * pair.maxLtv;
  if (denominator === 0n) return undefined;
  const numerator = debtValue * VESU_SCALE * 10n ** BigInt(pair.collateral.decimals);
  return (numerator + denominator - 1n) / denominator;
}

/** A health factor (×1e18) as a decimal string, 4 decimals, rounded down; null without debt. */
export function healthWords(hf: bigint | undefined): string | null {
  if (hf === undefined) return null;
  return formatAmount((hf / 10n ** 14n) * 10n ** 14n, 18);
}

/** Debt in asset units of a nominal debt (the pool's rounding: up), from the asset's accumulator. */
const debtOfNominal = (nominal: bigint, a: AssetLimits): bigint => {
  const n = nominal * a.accumulator * a.scale;
  const d = VESU_SCALE * VESU_SCALE;
  return (n + d - 1n) / d;
};

/**
 * The pool's utilisation rule for an asset `leaving` its reserve while its lent total grows by
 * `lent` (a borrow: both the amount; a collateral withdrawal: leaving only): the reserve must
 * cover it and total debt / (reserve + total debt) stay at or under the asset's limit. Pure.
 */
function utilizationAllows(a: AssetLimits, leaving: bigint, lent: bigint): boolean {
  const totalDebt = debtOfNominal(a.totalNominalDebt, a) + lent;
  const reserve = a.reserve - leaving;
  return reserve >= 0n && totalDebt * VESU_SCALE <= a.maxUtilization * (reserve + totalDebt);
}

/**
 * Collateral leaving the pool (a withdrawal of `out` collateral): refused before signing when the
 * collateral asset's reserve cannot cover it or its utilisation would pass its limit (the pool
 * refuses with utilization-exceeded), LENDING_LIMIT with reason 'utilization', as a borrow. Pure.
 */
export function checkCollateralRelease(pair: PairState, out: bigint): void {
  const a = pair.collateralLimits;
  if (out > 0n && !utilizationAllows(a, out, 0n))
    throw new AppError(
      ErrorCode.LENDING_LIMIT,
      `nothing was signed: the pool has not enough ${pair.collateral.symbol} in reserve to release ${formatAmount(out, pair.collateral.decimals)} ${pair.collateral.symbol} of collateral now: its utilisation would go above ${formatAmount(a.maxUtilization * 100n, 18)} % (it lends out the rest); withdraw less, or later`,
      { details: { reason: 'utilization' } },
    );
}

/**
 * The pool's rules for a borrow of `borrow` more (refused before signing with the reason): an
 * invalid oracle price, a debt left at or under the floor, the pair's cap, the utilisation limit.
 * Pure.
 */
export function checkBorrowLimits(pair: PairState, borrow: bigint, debtAfter: bigint): void {
  const limit = (reason: string, message: string, details: Record<string, unknown> = {}): never => {
    throw new AppError(ErrorCode.LENDING_LIMIT, `nothing was signed: ${message}`, {
      details: { reason, ...details },
    });
  };
  if (!pair.prices.collateral.valid || !pair.prices.debt.valid)
    limit(
      'invalid-price',
      `the pool's oracle has no valid price for ${!pair.prices.collateral.valid ? pair.collateral.symbol : pair.debt.symbol}: the pool refuses to add risk`,
    );
  const debtValue = usdValue(debtAfter, pair.prices.debt.value, pair.debt);
  if (debtValue !== 0n && debtValue <= pair.debtLimits.floor)
    limit(
      'debt-floor',
      `the debt would be worth ${debtValue < 10n ** 16n ? 'less than $0.01' : `$${formatAmount(debtValue, 18, { maxFractionDigits: 2 })}`}, at or under the pool's floor of $${formatAmount(pair.debtLimits.floor, 18)}: borrow more, or repay all`,
      { floorUsd: formatAmount(pair.debtLimits.floor, 18) },
    );
  if (borrow <= 0n) return;
  if (pair.maxLtv === 0n)
    limit(
      'pair-not-lent',
      `the ${pair.pool.name} pool lends no ${pair.debt.symbol} against ${pair.collateral.symbol}: its pair config allows no loan (max LTV 0)`,
    );
  const a = pair.debtLimits;
  // the cap bounds the pair's total debt, every borrower's, as the pool counts it (vesu.md: its
  // total nominal debt in assets, rounded up) — not this account's alone
  const pairDebt = debtOfNominal(pair.pairNominalDebt, a);
  if (pair.debtCap !== 0n && pairDebt + borrow > pair.debtCap) {
    const room = pair.debtCap > pairDebt ? pair.debtCap - pairDebt : 0n;
    const amount = (v: bigint): string =>
      `${formatAmount(v, pair.debt.decimals)} ${pair.debt.symbol}`;
    limit(
      'debt-cap',
      `the pool caps the ${pair.collateral.symbol}/${pair.debt.symbol} pair's total debt (all borrowers') at ${amount(pair.debtCap)}; it is ${amount(pairDebt)} now, so at most ${amount(room)} more can be borrowed against ${pair.collateral.symbol}`,
      { cap: pair.debtCap.toString(), pairDebt: pairDebt.toString(), available: room.toString() },
    );
  }
  if (!utilizationAllows(a, borrow, borrow))
    limit(
      'utilization',
      `the pool has not enough ${pair.debt.symbol} to lend: a borrow of ${formatAmount(borrow, pair.debt.decimals)} ${pair.debt.symbol} would take its utilisation above ${formatAmount(a.maxUtilization * 100n, 18)} %`,
    );
}

/** A view the contract reverted (Starknet JSON-RPC error 40 CONTRACT_ERROR), not a failed read. */
const reverted = (error: unknown): boolean => error instanceof RpcError && error.code === 40;

const garbled = (what: string): AppError =>
  new AppError(ErrorCode.CHAIN_ERROR, `the Vesu pool answered ${what} in a shape we do not know`);

/** Options of a plan's own reads: a viewer of the caller's (tests), else one of the reader's. */
export interface PlanReadOptions extends LendingReadOptions {
  views?: Viewer | undefined;
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

/**
 * Every outcome of `reads`, then the first failure in their order (not the first to arrive): a
 * pair with an unlisted asset fails several views at once, and the one that names it must win.
 */
async function allInOrder<T extends readonly unknown[]>(reads: {
  [K in keyof T]: Promise<T[K]>;
}): Promise<T> {
  const settled = await Promise.allSettled(reads);
  for (const s of settled) if (s.status === 'rejected') throw s.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/**
 * The account's (collateral, debt) pair in `pool`, with what the checks need — in one round, as
 * JSON-RPC batches (chain/views.ts): the position, max LTV, both assets' configs, the pair's cap and
 * totals, and the oracle's prices through the pool's own `context` view.
 */
export async function readPair(
  reader: ChainReader,
  pool: VesuPool,
  collateral: Token,
  debt: Token,
  options: PlanReadOptions = {},
): Promise<PairState> {
  if (BigInt(collateral.address) === BigInt(debt.address))
    throw new AppError(
      ErrorCode.USAGE_ERROR,
      `the collateral and the debt must be different assets (both ${debt.symbol}): the pool refuses identical assets`,
    );
  return scoped(options, async () => {
    const views = options.views ?? batchedViews(reader);
    const v = (entrypoint: string, calldata: string[]) =>
      views({ contractAddress: pool.address, entrypoint, calldata });
    // a revert of the pool's asset_config is "not listed" only when the factory says so too (it
    // names no vToken for the asset); else the pool failed to answer: CHAIN_ERROR, never blamed
    // on the token (docs/contracts.md "Vesu v2")
    const factory = factoryOf(reader.network);
    const listed = <T>(read: Promise<T>, token: Token): Promise<T> =>
      read.catch(async (e: unknown) => {
        if (!reverted(e)) throw e;
        const named = await factoryVToken(
          views,
          factory,
          pool,
          token,
          pinsOf(reader, options),
        ).catch((e: unknown) => {
          if (e instanceof AppError && e.code === ErrorCode.PINNED_ADDRESS_MISMATCH) throw e;
          return undefined;
        });
        if (named === 0n)
          throw new AppError(
            ErrorCode.LENDING_LIMIT,
            `nothing was signed: ${token.symbol} is not listed in the ${pool.name} pool`,
            { details: { reason: 'not-listed', token: token.symbol }, cause: e },
          );
        throw new AppError(
          ErrorCode.CHAIN_ERROR,
          `the ${pool.name} pool's asset_config view reverted for ${token.symbol}${named === undefined ? '' : ' though its factory lists it'}: nothing was signed`,
          { details: { token: token.symbol }, cause: e },
        );
      });
    const pair = [collateral.address, debt.address];
    // the assets' configs first: each names the asset the pool does not list (the other views
    // revert too then, and would name none)
    const [config, collateralConfig, position, pairConfig, totals, context] = await allInOrder<
      [bigint[], bigint[], bigint[], bigint[], bigint[], bigint[]]
    >([
      listed(v('asset_config', [debt.address]), debt),
      listed(v('asset_config', [collateral.address]), collateral),
      v('position', [...pair, reader.address]),
      v('pair_config', pair),
      v('pairs', pair),
      v('context', [...pair, reader.address]),
    ]);
    const prices = decodeContextPrices(context, collateral, debt, reader.address);
    return pairStateOf(
      { pool, collateral, debt },
      { position, pairConfig, config, collateralConfig, totals },
      [prices.collateral, prices.debt],
    );
  });
}

/** The pool's `pair_config` answer: PairConfig { max_ltv: u64, liquidation_factor: u64, debt_cap: u128 }. */
export interface PairConfig {
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
function pairStateOf(
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

/** A vToken and the account's shares in it, with what they are worth now. */
export interface SupplyState {
  pool: VesuPool;
  token: Token;
  vToken: string;
  shares: bigint;
  /** what the shares redeem for now (preview_redeem) */
  assets: bigint;
  /** what may be redeemed now (max_redeem: the reserve allows it) */
  maxRedeem: bigint;
}

/** The factory's `v_token_for_asset(pool, asset)`: one felt (0: no vToken), else garbled. */
/**
 * The factory's vToken for `token` in `pool` (0: none), held against the pin where one exists
 * (shared/vesu.ts pinnedVToken): an answer naming another contract is refused before anything is
 * built (PINNED_ADDRESS_MISMATCH), so an approve never goes to an address the node chose.
 */
const factoryVToken = (
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

const pinsOf = (
  reader: Pick<ChainReader, 'network'>,
  options: LendingReadOptions,
): { network: Network; sandbox: boolean } => ({
  network: reader.network,
  sandbox: options.sandbox === true,
});

/** An asset the factory names no vToken for: nothing to supply to or withdraw from. */
const noVToken = (pool: VesuPool, token: Token): AppError =>
  new AppError(
    ErrorCode.LENDING_LIMIT,
    `nothing was signed: ${token.symbol} is not listed in the ${pool.name} pool (no vToken)`,
    { details: { reason: 'not-listed', token: token.symbol } },
  );

/**
 * The vToken of `token` in `pool` (the factory's `v_token_for_asset`); NOT listed refused. The
 * answer is kept as the asset's hint (a later withdrawal asks its shares in its first round). A
 * known pool's vToken is then checked by its deploy address (vtoken-origin.ts, one more round):
 * a supply approves it.
 */
export async function readVToken(
  reader: ChainReader,
  pool: VesuPool,
  token: Token,
  options: PlanReadOptions & { vTokens?: VTokenHints | undefined } = {},
): Promise<string> {
  return scoped(options, async () => {
    const views = options.views ?? batchedViews(reader);
    const address = await factoryVToken(
      views,
      factoryOf(reader.network),
      pool,
      token,
      pinsOf(reader, options),
    );
    const named = address === 0n ? undefined : hex(address);
    if (options.vTokens !== undefined && options.vTokens.get(pool.address, token.address) !== named)
      await options.vTokens.putOne(pool.address, token.address, named);
    if (named === undefined) throw noVToken(pool, token);
    // an approve goes to it: a known pool's vToken must be where its factory deploys it
    if (pool.unknown !== true) await checkVTokenOrigin(reader, views, pool, token, named);
    return named;
  });
}

/** The account's shares in a vToken as its owner-keyed views give them, in one round. */
interface OwnerShares {
  shares: bigint;
  maxRedeem: bigint;
  /** `max_withdraw(owner)`: the shares' worth, capped by what the pool can release now */
  maxWithdraw: bigint;
  /** `convert_to_assets` of 1e18 shares, rounded down: says whether a share is worth < 1 unit */
  perShare: bigint;
}

/** A vToken's u256 answer: exactly two limbs, each below 2^128, or a garbled one (CHAIN_ERROR). */
const vTokenAmount = (views: Viewer, vToken: string, entrypoint: string, calldata: string[]) =>
  views({ contractAddress: vToken, entrypoint, calldata }).then((f) => {
    if (f.length !== 2 || (f[0] as bigint) >= U128 || (f[1] as bigint) >= U128)
      throw garbled('a vToken amount');
    return u256(f, 0);
  });

const ownerShares = (views: Viewer, vToken: string, owner: string): Promise<OwnerShares> => {
  const v = (entrypoint: string, calldata: string[]) =>
    vTokenAmount(views, vToken, entrypoint, calldata);
  return allInOrder<[bigint, bigint, bigint, bigint]>([
    v('balance_of', [owner]),
    v('max_redeem', [owner]),
    v('max_withdraw', [owner]),
    v('convert_to_assets', [hex(VESU_SCALE % U128), hex(VESU_SCALE >> 128n)]),
  ]).then(([shares, maxRedeem, maxWithdraw, perShare]) => ({
    shares,
    maxRedeem,
    maxWithdraw,
    perShare,
  }));
};

/**
 * What `shares` redeem for now, without a further round where the vToken's own answers prove it:
 * Vesu v2's `max_withdraw(owner)` is the worth of the owner's whole balance (the pool's
 * `calculate_collateral`, rounded down: what `preview_redeem` of it gives) capped at the assets
 * the pool can release (R); `max_redeem(owner)` is the balance capped at R's shares, rounded up.
 * When `max_redeem` is the whole balance B, B ≤ ⌈R·S/A⌉ < R·S/A + 1, so the worth ⌊B·A/S⌋ < R +
 * A/S: with a share worth less than one base unit (A/S < 1, i.e. `convert_to_assets(1e18)` <
 * 1e18) the worth is at most R and `max_withdraw` is exactly it. Otherwise (an 18-decimal asset,
 * or a reserve that binds) `preview_redeem(shares)` is asked in one more round (docs/decisions.md
 * "A plan's lending reads: one round").
 */
async function worthOf(views: Viewer, vToken: string, owned: OwnerShares): Promise<bigint> {
  const { shares, maxRedeem, maxWithdraw, perShare } = owned;
  if (shares === 0n) return 0n;
  if (maxRedeem === shares && perShare < VESU_SCALE) return maxWithdraw;
  return vTokenAmount(views, vToken, 'preview_redeem', [hex(shares % U128), hex(shares >> 128n)]);
}

/**
 * The account's supply of `token` in `pool`: its vToken, shares and their worth now. Round 1, one
 * batch: the factory's vToken and — where a hint names it — the account's shares in the hinted
 * vToken (`balance_of`, `max_redeem`, `max_withdraw`, `convert_to_assets`); their worth follows
 * from them where it can (worthOf), else in a second round. Without a hint (the first read) or with
 * one the factory contradicts, the shares are asked of the factory's vToken in round 2 (a wrong
 * hint costs a round, never an amount: only the vToken the factory names now is counted), and the
 * hint is rewritten; as readLending does, it is rewritten when the read fails too.
 */
export async function readSupply(
  reader: ChainReader,
  pool: VesuPool,
  token: Token,
  options: PlanReadOptions & { vTokens?: VTokenHints | undefined } = {},
): Promise<SupplyState> {
  const factory = factoryOf(reader.network);
  return scoped(options, async () => {
    const views = options.views ?? batchedViews(reader);
    const hint = options.vTokens?.get(pool.address, token.address);
    const found = factoryVToken(views, factory, pool, token, pinsOf(reader, options));
    const hinted = hint === undefined ? undefined : ownerShares(views, hint, reader.address);
    hinted?.catch(() => undefined); // awaited only when the factory confirms the hint
    const foundNow = settledOf(found);
    const hintedNow = hinted === undefined ? undefined : settledOf(hinted);
    /**
     * The hint as this read leaves it (run when the read fails too): the factory's vToken, none
     * for an unlisted asset, none when the factory did not answer or when the hint was used and
     * its views failed or never answered.
     */
    const rewriteHint = async (): Promise<void> => {
      if (options.vTokens === undefined) return;
      const named = foundNow.value;
      const used = hint !== undefined && named !== undefined && BigInt(hint) === named;
      const keep =
        named === undefined || named === 0n || (used && hintedNow?.value === undefined)
          ? undefined
          : hex(named);
      if (keep !== hint) await options.vTokens.putOne(pool.address, token.address, keep);
    };
    try {
      const address = await found;
      if (address === 0n) throw noVToken(pool, token);
      const vToken = hex(address);
      const owned =
        hinted !== undefined && BigInt(hint as string) === address
          ? await hinted
          : await ownerShares(views, vToken, reader.address);
      const assets = await worthOf(views, vToken, owned);
      return { pool, token, vToken, shares: owned.shares, assets, maxRedeem: owned.maxRedeem };
    } finally {
      await rewriteHint();
    }
  });
}

/** The `lending` command's document (docs/commands.md "Lending"). */
export interface LendingDocument {
  /** `sandbox` on the sandbox (mainnet-like: its pool is at mainnet's address) */
  network: Network | 'sandbox';
  account: string;
  pools: Array<{ name: string; address: string }>;
  supplied: Array<{
    pool: string;
    token: string;
    amount: string;
    baseUnits: string;
    valueUsd: string | null;
    vToken: string;
  }>;
  /**
   * Each asset the pool lists, with what supplying earns and borrowing costs now (percent, 2
   * decimals, rounded down; cli/core/lending-rates.ts) and its utilisation
   */
  markets: Array<{
    pool: string;
    token: string;
    utilization: string;
    supplyApr: string;
    supplyApy: string;
    borrowApr: string;
    borrowApy: string;
  }>;
  borrows: Array<{
    pool: string;
    collateral: { token: string; amount: string; baseUnits: string };
    debt: { token: string; amount: string; baseUnits: string };
    healthFactor: string | null;
    maxLtv: string;
    liquidationPrice: string | null;
    limits: { debtFloorUsd: string; debtCap: string | null; maxUtilization: string };
  }>;
}

const money = (amount: bigint, token: Token) => ({
  token: token.symbol,
  amount: formatAmount(amount, token.decimals),
  baseUnits: amount.toString(),
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

/** What a promise has come to so far: `value` once it is fulfilled (read synchronously later). */
function settledOf<T>(p: Promise<T>): { value?: T } {
  const now: { value?: T } = {};
  p.then(
    (value) => {
      now.value = value;
    },
    () => undefined,
  );
  return now;
}

/**
 * A view the contract reverted (Starknet JSON-RPC error 40 CONTRACT_ERROR: e.g. a pair the pool
 * does not list) → undefined; any other failure (the node, a limit, the transport) is thrown.
 */
const unlessReverted = (error: unknown): undefined => {
  if (reverted(error)) return undefined;
  throw error;
};

/**
 * Every position of the account in the network's pools: each registry token's supply (its vToken
 * found by the factory) and each ordered pair's position (docs/portfolio.md "Positions").
 * Round 1, every view at once, as JSON-RPC batches (chain/views.ts): each
 * token's vToken from the factory and — where a hint names it — the account's shares in it, and
 * every pair's position (its amounts included). Round 2, only for what is held, all at once: what
 * the shares redeem for (`preview_redeem`, the vault's own rounding), the held pairs'
 * `pair_config` (max LTV, debt cap) and totals, and the pool's `price` of the held tokens. Without a hint (or with one the
 * factory contradicts) the shares are asked in round 2 and their worth in a third. A failed read
 * fails the whole document (positions leaves the family out with a note); only a revert of a
 * pair's `position` where the factory names no vToken for one of its assets (an unlisted pair) is
 * skipped as "not held"; a listed pair's reverted view fails the read (CHAIN_ERROR). With the
 * rates (the default; not the portfolio's read), each token's `asset_config` and `utilization`
 * are asked in round 1 and each listed asset's `interest_rate` in round 2: the `markets`
 * (cli/core/lending-rates.ts).
 */
export async function readLending(
  reader: ChainReader,
  options: LendingReadOptions & {
    pool?: string | undefined;
    views?: Viewer | undefined;
    vTokens?: VTokenHints | undefined;
    /** false: no `markets` (positions only; the portfolio's read), none of their views asked */
    rates?: boolean | undefined;
  } = {},
): Promise<LendingDocument> {
  const network = reader.network;
  const pool = lendingPool(network, options.pool);
  const factory = factoryOf(network);
  const tokens = listTokens(network);
  const pairs = tokens.flatMap((c) =>
    tokens.filter((d) => d.address !== c.address).map((d) => ({ c, d })),
  );
  const views = options.views ?? batchedViews(reader);
  const v = (contractAddress: string, entrypoint: string, calldata: string[] = []) =>
    views({ contractAddress, entrypoint, calldata });
  const quiet = <T>(p: Promise<T>): Promise<T> => {
    p.catch(() => undefined); // awaited later, maybe after another read failed
    return p;
  };
  const withRates = options.rates !== false;
  return scoped(options, async () => {
    // round 1
    const supplyRows = tokens.map((token) => {
      const hint = options.vTokens?.get(pool.address, token.address);
      const found = quiet(factoryVToken(views, factory, pool, token, pinsOf(reader, options)));
      // the asset's config and utilisation in round 1 where the rates are asked: they follow from
      // them (and a held pair's limits); else the config is asked in round 2, for a held pair only
      const config = withRates
        ? quiet(v(pool.address, 'asset_config', [token.address]))
        : undefined;
      const utilization = withRates
        ? quiet(v(pool.address, 'utilization', [token.address]))
        : undefined;
      const hintedShares =
        hint === undefined
          ? undefined
          : quiet(v(hint, 'balance_of', [reader.address]).then((f) => u256(f, 0)));
      return {
        token,
        hint,
        found,
        config,
        utilization,
        hintedShares,
        // what each has come to so far: the hints are rewritten from it, even when the read fails
        foundNow: settledOf(found),
        hintedSharesNow: hintedShares === undefined ? undefined : settledOf(hintedShares),
      };
    });
    const listedNow = (token: Token): Promise<boolean> =>
      (supplyRows.find((row) => row.token === token)?.found ?? Promise.resolve(0n)).then(
        (found) => found !== 0n,
      );
    const positions = quiet(
      Promise.all(
        pairs.map(({ c, d }) =>
          v(pool.address, 'position', [c.address, d.address, reader.address]).then(
            (f) => ({ c, d, f }),
            async (error: unknown) => {
              unlessReverted(error);
              // not held only when the pool does not list one of the two (the factory names no
              // vToken for it, answered in this same round); a listed pair whose view reverts may
              // hold a debt: its amounts are unknown, never guessed as zero
              const [cListed, dListed] = await Promise.all([listedNow(c), listedNow(d)]);
              if (!cListed || !dListed) return undefined;
              throw new AppError(
                ErrorCode.CHAIN_ERROR,
                `the ${pool.name} pool could not report the ${c.symbol}/${d.symbol} position (its view reverted though both are listed): its amounts are unknown`,
                { details: { collateral: c.symbol, debt: d.symbol }, cause: error },
              );
            },
          ),
        ),
      ),
    );
    // round 2: each price asked once, whoever needs it, of the pool's own `price` view
    const priceReads = new Map<string, Promise<OraclePrice>>();
    const priceOf = (token: Token): Promise<OraclePrice> => {
      let read = priceReads.get(token.address);
      if (read === undefined) {
        read = quiet(v(pool.address, 'price', [token.address]).then(decodePrice));
        priceReads.set(token.address, read);
      }
      return read;
    };
    /**
     * A listed asset's config and utilisation as round 1 read them; a revert where the factory
     * names a vToken is the pool failing to answer (CHAIN_ERROR), never "not listed".
     */
    const lateConfigs = new Map<Token, Promise<bigint[]>>();
    const listedState = async (
      row: (typeof supplyRows)[number],
    ): Promise<{ config: bigint[]; utilization: bigint | undefined } | undefined> => {
      if ((await row.found) === 0n) return undefined;
      const failed = (error: unknown): never => {
        throw new AppError(
          ErrorCode.CHAIN_ERROR,
          `the ${pool.name} pool could not report ${row.token.symbol} (its view reverted though its factory lists it)`,
          { details: { token: row.token.symbol }, cause: error },
        );
      };
      let configRead = row.config ?? lateConfigs.get(row.token);
      if (configRead === undefined) {
        configRead = quiet(v(pool.address, 'asset_config', [row.token.address]));
        lateConfigs.set(row.token, configRead);
      }
      const [config, utilization] = await Promise.all([
        configRead.catch(failed),
        row.utilization?.catch(failed),
      ]);
      if (config.length !== 22 || (utilization !== undefined && utilization.length !== 2))
        throw garbled('an asset config');
      return { config, utilization: utilization === undefined ? undefined : u256(utilization, 0) };
    };
    const configOf = async (token: Token): Promise<bigint[]> => {
      const row = supplyRows.find((r) => r.token === token);
      const state = row === undefined ? undefined : await listedState(row);
      if (state === undefined) throw garbled('a position of an asset it does not list');
      return state.config;
    };
    const markets = quiet(
      Promise.all(
        (withRates ? supplyRows : []).map(async (row) => {
          const state = await listedState(row);
          if (state === undefined) return undefined;
          const { config } = state;
          const utilization = state.utilization ?? 0n;
          // interest_rate(asset, utilization: u256, last_updated: u64, last_full_utilization_rate:
          // u256), with the config accrued to now: the rate per second from this block on
          const rate = await v(pool.address, 'interest_rate', [
            row.token.address,
            hex(utilization % U128),
            hex(utilization >> 128n),
            hex(config[13] as bigint),
            hex(config[16] as bigint),
            hex(config[17] as bigint),
          ]);
          if (rate.length !== 2 || (rate[0] as bigint) >= U128 || (rate[1] as bigint) >= U128)
            throw garbled('an interest rate');
          return {
            token: row.token,
            utilization,
            rates: marketRates(u256(rate, 0), utilization, u256(config, 18)),
          };
        }),
      ),
    );
    const supplies = quiet(
      Promise.all(
        supplyRows.map(async (row) => {
          const found = await row.found;
          if (found === 0n) return undefined; // not listed in this pool
          const vToken = hex(found);
          const hinted = row.hint !== undefined && BigInt(row.hint) === found;
          const shares =
            hinted && row.hintedShares !== undefined
              ? await row.hintedShares
              : u256(await v(vToken, 'balance_of', [reader.address]), 0);
          if (shares === 0n) return { token: row.token, vToken, found, shares, assets: 0n };
          const [assets, price] = await Promise.all([
            v(vToken, 'preview_redeem', [
              `0x${(shares % U128).toString(16)}`,
              `0x${(shares >> 128n).toString(16)}`,
            ]).then((f) => u256(f, 0)),
            priceOf(row.token).catch(() => undefined),
          ]);
          return { token: row.token, vToken, found, shares, assets, price };
        }),
      ),
    );
    const borrows = quiet(
      positions.then((all) =>
        Promise.all(
          all
            .filter((p): p is NonNullable<typeof p> => p !== undefined)
            .filter((p) => {
              if (p.f.length < 8) throw garbled('a position');
              return u256(p.f, 0) !== 0n || u256(p.f, 2) !== 0n;
            })
            .map(async ({ c, d, f }) => {
              const pair = [c.address, d.address];
              const [pairConfig, config, collateralConfig, totals, cPrice, dPrice] =
                await Promise.all([
                  v(pool.address, 'pair_config', pair),
                  configOf(d),
                  configOf(c),
                  v(pool.address, 'pairs', pair),
                  priceOf(c),
                  priceOf(d),
                ]);
              return pairStateOf(
                { pool, collateral: c, debt: d },
                { position: f, pairConfig, config, collateralConfig, totals },
                [cPrice, dPrice],
              );
            }),
        ),
      ),
    );
    /**
     * The hints rewritten when this read learnt otherwise: each asset the factory named in this
     * read (none for an unlisted one), except where the read used the hint and its shares' view
     * failed or never answered. Run when the read fails too, so a hint that fails, hangs or is
     * contradicted is gone from the file, not kept to fail or stall every later read.
     */
    const rewriteHints = async (): Promise<void> => {
      if (options.vTokens === undefined) return;
      const vouched = supplyRows.flatMap((row) => {
        const found = row.foundNow.value;
        if (found === undefined || found === 0n) return [];
        const used = row.hint !== undefined && BigInt(row.hint) === found;
        if (used && row.hintedSharesNow?.value === undefined) return [];
        return [{ pool: pool.address, asset: row.token.address, vToken: hex(found) }];
      });
      if (
        supplyRows.some(
          (row) => row.hint !== vouched.find((x) => x.asset === row.token.address)?.vToken,
        )
      )
        await options.vTokens.put(pool.address, vouched);
    };
    let supplyStates: Awaited<typeof supplies>;
    let pairStates: Awaited<typeof borrows>;
    let marketStates: Awaited<typeof markets>;
    try {
      [supplyStates, pairStates, marketStates] = await Promise.all([supplies, borrows, markets]);
    } finally {
      await rewriteHints();
    }
    const listed = supplyStates.filter((s): s is NonNullable<typeof s> => s !== undefined);
    const supplied = listed.filter((s) => s.shares !== 0n);
    return {
      network,
      account: reader.address,
      pools: [{ name: pool.name, address: pool.address }],
      supplied: supplied.map((s) => ({
        pool: pool.name,
        ...money(s.assets, s.token),
        valueUsd:
          s.price === undefined || !s.price.valid
            ? null
            : formatAmount(usdValue(s.assets, s.price.value, s.token), 18, {
                maxFractionDigits: 2,
              }),
        vToken: s.vToken,
      })),
      markets: marketStates
        .filter((m): m is NonNullable<typeof m> => m !== undefined)
        .map(({ token, utilization, rates }) => ({
          pool: pool.name,
          token: token.symbol,
          utilization: percentWords(utilization),
          supplyApr: percentWords(rates.supplyApr),
          supplyApy: percentWords(rates.supplyApy),
          borrowApr: percentWords(rates.borrowApr),
          borrowApy: percentWords(rates.borrowApy),
        })),
      borrows: pairStates.map((p) => {
        const hf = pairHealth(p, p.collateralAmount, p.debtAmount);
        const liq = liquidationPrice(p, p.collateralAmount, p.debtAmount);
        return {
          pool: pool.name,
          collateral: money(p.collateralAmount, p.collateral),
          debt: money(p.debtAmount, p.debt),
          healthFactor: healthWords(hf),
          maxLtv: formatAmount(p.maxLtv, 18),
          liquidationPrice:
            liq === undefined ? null : formatAmount(liq, 18, { maxFractionDigits: 6 }),
          limits: {
            debtFloorUsd: formatAmount(p.debtLimits.floor, 18),
            debtCap: p.debtCap === 0n ? null : formatAmount(p.debtCap, p.debt.decimals),
            maxUtilization: formatAmount(p.debtLimits.maxUtilization, 18),
          },
        };
      }),
    };
  });
}

/** The `lending` command: the session wallet's positions on the chosen network, read-only. */
export async function lendingPositions(
  endpoints: Endpoints,
  options: { pool?: string | undefined; now?: () => number },
  call: CallOptions = {},
): Promise<LendingDocument & { email: string; liquidations: Liquidation[] }> {
  lendingPool(endpoints.network, options.pool);
  const [{ session, reader }, vTokens] = await Promise.all([
    sessionReader(endpoints, options),
    loadVTokenHints(endpoints.dataDir, endpoints.sandbox ? 'sandbox' : endpoints.network),
  ]);
  const [doc, liquidations] = await Promise.all([
    readLending(reader, { pool: options.pool, signal: call.signal, vTokens }),
    // the chain's LiquidatePosition events for this wallet (liquidations.ts)
    readLiquidations(reader, lendingPool(endpoints.network, options.pool)),
  ]);
  // the sandbox is mainnet-like, but its positions are the sandbox's (as `staking` says)
  return {
    email: session.email,
    ...doc,
    network: endpoints.sandbox ? 'sandbox' : doc.network,
    liquidations,
  };
}

/**
 * The session wallet's liquidations on the endpoints' network, for the faces beside `lending`
 * (`history`, `portfolio`, the app; cli/core/liquidations.ts). Never throws but for a cancel: a
 * network without a pool has none to read; no session or a chain that does not answer gives a note.
 */
export async function walletLiquidations(
  endpoints: Endpoints,
  call: CallOptions = {},
  options: { now?: () => number } = {},
): Promise<LiquidationRead> {
  let pool: VesuPool;
  try {
    pool = lendingPool(endpoints.network);
  } catch {
    return { liquidations: [], scope: `no Vesu pool on ${endpoints.network}`, note: null };
  }
  const scope = liquidationScope(pool);
  try {
    const { reader } = await sessionReader(endpoints, options);
    return { liquidations: await readLiquidations(reader, pool), scope, note: null };
  } catch (error) {
    if (call.signal?.aborted === true) throw error;
    const why =
      error instanceof AppError
        ? `${error.code}: ${printable(error.message)}`
        : 'the chain did not answer';
    return { liquidations: [], scope, note: `liquidations not read (${why})`.slice(0, 300) };
  }
}
