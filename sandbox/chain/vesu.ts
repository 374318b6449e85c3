/**
 * A Vesu-v2-like lending pool on the sandbox chain (docs/sandbox-chain.md "Lending"): the pool
 * and the PoolFactory at the addresses of the network the sandbox is shaped like (shared/vesu.ts:
 * mainnet's Prime, or Sepolia's WBTC Prime Sepolia with its oracle's address; VesuSetup below), an
 * oracle, and one vToken (ERC-4626) per listed asset, speaking Vesu v2's entry points,
 * calldata, events and errors as its official source has them (shared/vesu.ts, docs/contracts.md
 * "Vesu v2"), so the client's builders and reads are the real network's.
 *
 * The model (amounts bigint, exact, rounded in the pool's favour):
 * - Per asset: `reserve` (asset units the pool holds), `total_collateral_shares` (SCALE = 1e18)
 *   and `total_nominal_debt` (SCALE), and a rate accumulator (SCALE, starts at 1e18). Debt in asset
 *   units = nominal × accumulator / 1e18 × scale / 1e18 (scale = 10^decimals).
 * - Collateral shares — a vToken's and every position's — claim the asset's total assets, reserve
 *   + total debt, pro rata: so interest paid by borrowers is earned by suppliers and collateral
 *   alike, and the supply rate is the borrow rate × utilisation (always below it).
 * - Interest: the accumulator grows by BORROW_APR × elapsed / year at each update (simple within an
 *   update, compounding across updates), on the chain's clock (`sandbox advance`).
 * - `modify_position` refuses identical assets, an unlisted asset, another user's position,
 *   an invalid oracle price when it adds risk, a position left not collateralised (collateral
 *   value × max_ltv < debt value × 1e18), utilisation above the asset's maximum, a pair's debt
 *   above its cap, and dust (debt value neither 0 nor above the debt asset's floor; collateral value
 *   not above the collateral asset's floor while there is debt). A repay above the debt is clamped
 *   to it. Values are USD with 18 decimals, at the oracle's prices.
 *
 * State lives in the ledger's records (ledger.ts), so a reverted transaction leaves it untouched.
 */
import { shortString } from 'starknet';
import {
  APPROVAL_EVENT_KEY,
  selectorOf,
  selectorsOf,
  SELECTOR,
  TRANSFER_EVENT_KEY,
} from '../../shared/erc20.js';
import { type Network, parseAddress, resolveToken, type Token } from '../../shared/tokens.js';
import {
  fromI257Felts,
  i257Felts,
  VESU_EVENT,
  VESU_FACTORY_SELECTOR,
  VESU_LIQUIDATE_POSITION_EVENT,
  VESU_ORACLE_SELECTOR,
  VESU_POOL_SELECTOR,
  VESU_SCALE,
  SANDBOX_VTOKEN_CLASS_HASH,
  byteArrayFelts,
  sandboxVTokenAddress,
  sandboxVTokenWords,
  vesuFor,
  VTOKEN_SELECTOR,
} from '../../shared/vesu.js';
import {
  type CallContext,
  type Contract,
  EntryPointNotFound,
  expectArgs,
  Revert,
  u256At,
} from './executor.js';
import type { StateReader, StateView } from './ledger.js';

const SCALE = VESU_SCALE;
const U128 = 1n << 128n;
const U256_MAX = (1n << 256n) - 1n;
const YEAR_SECONDS = 365n * 86_400n;
/** the borrow rate: 8 % a year */
const BORROW_APR = (8n * SCALE) / 100n;
/**
 * The borrow rate per second (1e18 scale) the sandbox's interest-rate model gives at every
 * utilisation: BORROW_APR / year, rounded down. The model is Vesu v2's (its `interest_rate` view
 * computes it), with a flat configuration: zero-, min- and max-full-utilisation rates all this
 * rate (docs/sandbox-chain.md "Lending").
 */
const RATE_PER_SECOND = BORROW_APR / YEAR_SECONDS;
/** Vesu v2's InterestRateConfig (src/interest_rate_model.cairo), its field order kept. */
interface InterestRateConfig {
  /** utilisation bounds and target, 1e5 scale */
  minTargetUtilization: bigint;
  maxTargetUtilization: bigint;
  targetUtilization: bigint;
  /** per second, 1e18 scale */
  minFullUtilizationRate: bigint;
  maxFullUtilizationRate: bigint;
  zeroUtilizationRate: bigint;
  /** seconds */
  rateHalfLife: bigint;
  /** 1e18 scale */
  targetRatePercent: bigint;
}
/** The sandbox's InterestRateConfig of every listed asset. */
const INTEREST_RATE_CONFIG: Readonly<InterestRateConfig> = Object.freeze({
  minTargetUtilization: 75_000n,
  maxTargetUtilization: 85_000n,
  targetUtilization: 80_000n,
  minFullUtilizationRate: RATE_PER_SECOND,
  maxFullUtilizationRate: RATE_PER_SECOND,
  zeroUtilizationRate: RATE_PER_SECOND,
  rateHalfLife: 172_800n,
  targetRatePercent: (2n * SCALE) / 10n,
});
const ZERO_RATE_CONFIG: Readonly<InterestRateConfig> = Object.freeze({
  minTargetUtilization: 0n,
  maxTargetUtilization: 0n,
  targetUtilization: 0n,
  minFullUtilizationRate: 0n,
  maxFullUtilizationRate: 0n,
  zeroUtilizationRate: 0n,
  rateHalfLife: 0n,
  targetRatePercent: 0n,
});
const UTILIZATION_SCALE = 100_000n;

/**
 * Vesu v2's interest-rate model (vesuxyz/vesu-v2 d4b21c8, src/interest_rate_model.cairo
 * `calculate_interest_rate` and `full_utilization_rate`): the borrow rate per second (1e18 scale)
 * at `utilization` (1e18 scale), `elapsed` seconds after the full-utilisation rate was
 * `lastFull`. Integer division rounds down as Cairo's does; a subtraction below zero reverts as
 * Cairo's u256 does.
 */
function modelInterestRate(
  config: InterestRateConfig,
  utilization: bigint,
  elapsed: bigint,
  lastFull: bigint,
): bigint {
  const sub = (a: bigint, b: bigint): bigint => {
    if (a < b) throw new Revert('u256_sub Overflow');
    return a - b;
  };
  const div = (a: bigint, b: bigint): bigint => {
    if (b === 0n) throw new Revert('Division by 0');
    return a / b;
  };
  const u = utilization / 10n ** 13n;
  const halfLife = config.rateHalfLife * SCALE;
  let full: bigint;
  if (u < config.minTargetUtilization) {
    const delta = div(sub(config.minTargetUtilization, u) * SCALE, config.minTargetUtilization);
    full = div(lastFull * halfLife, halfLife + delta * elapsed);
  } else if (u > config.maxTargetUtilization) {
    const delta = div(
      sub(u, config.maxTargetUtilization) * SCALE,
      sub(UTILIZATION_SCALE, config.maxTargetUtilization),
    );
    full = div(lastFull * (halfLife + delta * elapsed), halfLife);
  } else full = lastFull;
  if (full > config.maxFullUtilizationRate) full = config.maxFullUtilizationRate;
  else if (full < config.minFullUtilizationRate) full = config.minFullUtilizationRate;
  const zero = config.zeroUtilizationRate;
  const target = (sub(full, zero) * config.targetRatePercent) / SCALE + zero;
  return u < config.targetUtilization
    ? zero + div(u * sub(target, zero), config.targetUtilization)
    : target +
        div(
          sub(u, config.targetUtilization) * sub(full, target),
          sub(UTILIZATION_SCALE, config.targetUtilization),
        );
}
const MAX_UTILIZATION = (95n * SCALE) / 100n;
/** the Prime pool's floor: $10 */
const FLOOR_USD = 10n * SCALE;
const LIQUIDATION_FACTOR = (9n * SCALE) / 10n;
/** Vesu v2's MIN_LIQUIDATION_AMOUNT (units.cairo): a partial liquidation with bad debt repays more. */
const MIN_LIQUIDATION_AMOUNT = 2000n;

const label = (text: string): bigint => BigInt(shortString.encodeShortString(text));
const VESU_ORACLE_ADDRESS = label('SANDBOX_VESU_ORACLE');
const LIQUIDITY_PROVIDER = label('SANDBOX_VESU_LIQUIDITY');
/** Sandbox-only: a vToken's withdrawal, the pool's side (the vToken of that asset alone may call it). */
const V_TOKEN_WITHDRAW_SELECTOR = selectorOf('sandbox_v_token_withdraw');
/**
 * The vToken's entry points the client never calls (the sandbox's own table; the client's are
 * shared/vesu.ts VTOKEN_ENTRYPOINT): the rest of Vesu v2's IERC4626 and IVToken.
 */
const V_TOKEN_SELECTOR = Object.freeze({
  ...VTOKEN_SELECTOR,
  ...selectorsOf({
    max_deposit: 'max_deposit',
    max_mint: 'max_mint',
    preview_mint: 'preview_mint',
    mint: 'mint',
    preview_withdraw: 'preview_withdraw',
    pool_contract: 'pool_contract',
    approve_pool: 'approve_pool',
  } as const),
});
/** The factory's reverse lookup (the client never calls it). */
const ASSET_FOR_V_TOKEN_SELECTOR = selectorOf('asset_for_v_token');
/** The pool's liquidation (the sandbox's liquidator calls it; the client reads its event). */
export const LIQUIDATE_POSITION_SELECTOR = selectorOf('liquidate_position');
export const VESU_POOL_CLASS_HASH = selectorOf('sandbox::vesu_pool');
export const VTOKEN_CLASS_HASH = SANDBOX_VTOKEN_CLASS_HASH;
export const VESU_ORACLE_CLASS_HASH = selectorOf('sandbox::vesu_oracle');
export const VESU_FACTORY_CLASS_HASH = selectorOf('sandbox::vesu_pool_factory');

/**
 * The deployment parameters of the sandbox's Vesu for the network it is shaped like: where the
 * pool, factory and oracle sit (shared/vesu.ts; mainnet's oracle is a label, Sepolia's the one
 * its deployment file names), the pool's on-chain name, the listed assets with their initial
 * liquidity (supplied by the sandbox's own provider; a vToken label each), and the pairs with a
 * debt cap (asset units of the debt; the others have none, 0).
 */
interface VesuSetup {
  network: Network;
  pool: bigint;
  factory: bigint;
  oracle: bigint;
  name: string;
  listed: ReadonlyArray<{ symbol: string; liquidity: bigint }>;
  debtCaps: ReadonlyArray<{ collateral: string; debt: string; cap: string }>;
}

function deploymentOf(network: Network): NonNullable<ReturnType<typeof vesuFor>> {
  const deployment = vesuFor(network);
  if (deployment === undefined) throw new Error(`no Vesu deployment on ${network}`);
  return deployment;
}

const SETUPS: Readonly<Record<Network, Omit<VesuSetup, 'pool' | 'factory' | 'oracle'>>> = {
  mainnet: {
    network: 'mainnet',
    name: 'Prime',
    listed: [
      { symbol: 'ETH', liquidity: 100n },
      { symbol: 'WBTC', liquidity: 5n },
      { symbol: 'STRK', liquidity: 1_000_000n },
      { symbol: 'USDC', liquidity: 500_000n },
      { symbol: 'USDT', liquidity: 20_000n },
    ],
    debtCaps: [{ collateral: 'WBTC', debt: 'USDT', cap: '1000' }],
  },
  // the assets vesu-v2's deployment-sepolia.json lists (no STRK): WBTC and Circle's USDC
  sepolia: {
    network: 'sepolia',
    name: 'WBTC Prime Sepolia',
    listed: [
      { symbol: 'WBTC', liquidity: 5n },
      { symbol: 'USDC', liquidity: 500_000n },
    ],
    debtCaps: [],
  },
};

/** The sandbox's Vesu parameters for `network` (the deployment's addresses from shared/vesu.ts). */
function vesuSetup(network: Network): VesuSetup {
  const deployment = deploymentOf(network);
  const pool = deployment.pools.find((p) => p.name === deployment.defaultPool);
  if (pool === undefined) throw new Error(`no default Vesu pool on ${network}`);
  return {
    ...SETUPS[network],
    pool: BigInt(pool.address),
    factory: BigInt(deployment.poolFactory),
    oracle:
      deployment.oracle === undefined
        ? VESU_ORACLE_ADDRESS
        : BigInt(parseAddress(deployment.oracle)),
  };
}

const MAINNET = vesuSetup('mainnet');

interface ListedAsset {
  token: Token;
  address: bigint;
  scale: bigint;
  vToken: bigint;
}

function listedAssets(setup: VesuSetup = MAINNET): ListedAsset[] {
  return setup.listed.map(({ symbol }) => {
    const token = resolveToken(setup.network, symbol);
    return {
      token,
      address: BigInt(token.address),
      scale: 10n ** BigInt(token.decimals),
      vToken: BigInt(
        sandboxVTokenAddress(setup.network, token, parseAddress(`0x${setup.pool.toString(16)}`)),
      ),
    };
  });
}

interface AssetState {
  reserve: bigint;
  totalShares: bigint;
  totalNominalDebt: bigint;
  accumulator: bigint;
  lastUpdated: bigint;
}

interface PositionState {
  shares: bigint;
  nominalDebt: bigint;
}

interface OraclePrice {
  value: bigint;
  valid: boolean;
}

const u256 = (value: bigint): bigint[] => [value % U128, value / U128];
const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

/** An `Amount` at `index` (4 felts: denomination, i257). */
function amountAt(
  calldata: readonly bigint[],
  index: number,
  param: number,
): { native: boolean; value: bigint } {
  const denomination = calldata[index];
  const value = fromI257Felts(
    calldata[index + 1] ?? -1n,
    calldata[index + 2] ?? -1n,
    calldata[index + 3] ?? -1n,
  );
  if ((denomination !== 0n && denomination !== 1n) || value === undefined)
    throw new Revert(`Failed to deserialize param #${param}`);
  return { native: denomination === 0n, value };
}

/** An `i257` at `index` (3 felts: abs low, abs high, is_negative). */
function i257At(calldata: readonly bigint[], index: number, param: number): bigint {
  const value = fromI257Felts(
    calldata[index] ?? -1n,
    calldata[index + 1] ?? -1n,
    calldata[index + 2] ?? -1n,
  );
  if (value === undefined) throw new Revert(`Failed to deserialize param #${param}`);
  return value;
}

/** The oracle: USD prices with 18 decimals, set by the sandbox's price knob. */
class VesuOracleContract implements Contract {
  readonly classHash = VESU_ORACLE_CLASS_HASH;

  static key(asset: bigint): string {
    return `vesu:oracle:${asset.toString(16)}`;
  }

  setPrice(state: StateView, asset: bigint, value: bigint, valid: boolean): void {
    state.store(VesuOracleContract.key(asset), { value, valid });
  }

  price(state: Pick<StateReader, 'stored'>, asset: bigint): OraclePrice {
    return state.stored<OraclePrice>(VesuOracleContract.key(asset)) ?? { value: 0n, valid: false };
  }

  invoke(ctx: CallContext, selector: bigint, calldata: readonly bigint[]): bigint[] {
    if (selector !== VESU_ORACLE_SELECTOR.price) throw new EntryPointNotFound(selector);
    expectArgs(calldata, 1);
    const price = this.price(ctx.state, calldata[0] as bigint);
    return [...u256(price.value), price.valid ? 1n : 0n];
  }
}

class VesuPoolContract implements Contract {
  readonly classHash = VESU_POOL_CLASS_HASH;
  readonly address: bigint;
  readonly setup: VesuSetup;
  readonly assets: ReadonlyMap<bigint, ListedAsset>;
  readonly #now: () => bigint;
  readonly #oracle: VesuOracleContract;
  readonly #caps: ReadonlyMap<string, bigint>;

  constructor(now: () => bigint, oracle: VesuOracleContract, setup: VesuSetup = MAINNET) {
    this.#now = now;
    this.#oracle = oracle;
    this.setup = setup;
    this.address = setup.pool;
    this.assets = new Map(listedAssets(setup).map((asset) => [asset.address, asset]));
    this.#caps = new Map(
      setup.debtCaps.map(({ collateral, debt, cap }) => {
        const debtToken = resolveToken(setup.network, debt);
        const units = BigInt(cap) * 10n ** BigInt(debtToken.decimals);
        return [`${resolveToken(setup.network, collateral).address}:${debtToken.address}`, units];
      }),
    );
  }

  #rateConfig(asset: bigint): InterestRateConfig {
    return this.assets.has(asset) ? INTEREST_RATE_CONFIG : ZERO_RATE_CONFIG;
  }

  #listed(asset: bigint): ListedAsset {
    const listed = this.assets.get(asset);
    if (listed === undefined) throw new Revert('asset-config-nonexistent');
    return listed;
  }

  static #assetKey = (asset: bigint): string => `vesu:asset:${asset.toString(16)}`;
  static #positionKey = (c: bigint, d: bigint, user: bigint): string =>
    `vesu:position:${c.toString(16)}:${d.toString(16)}:${user.toString(16)}`;
  static #pairKey = (c: bigint, d: bigint): string =>
    `vesu:pair:${c.toString(16)}:${d.toString(16)}`;

  static #pairSharesKey = (c: bigint, d: bigint): string =>
    `vesu:pair-shares:${c.toString(16)}:${d.toString(16)}`;

  /** The pair's totals across all users, as the pool's `pairs` view gives them (1e18 scale). */
  pairTotals(
    state: Pick<StateReader, 'stored'>,
    c: bigint,
    d: bigint,
  ): { collateralShares: bigint; nominalDebt: bigint } {
    return {
      collateralShares: state.stored<bigint>(VesuPoolContract.#pairSharesKey(c, d)) ?? 0n,
      nominalDebt: state.stored<bigint>(VesuPoolContract.#pairKey(c, d)) ?? 0n,
    };
  }

  /** The asset's state with interest accrued up to now (not written). */
  asset(state: Pick<StateReader, 'stored'>, asset: bigint): AssetState {
    const stored = state.stored<AssetState>(VesuPoolContract.#assetKey(asset)) ?? {
      reserve: 0n,
      totalShares: 0n,
      totalNominalDebt: 0n,
      accumulator: SCALE,
      lastUpdated: this.#now(),
    };
    const now = this.#now();
    if (now <= stored.lastUpdated) return stored;
    const elapsed = now - stored.lastUpdated;
    const accumulator =
      stored.accumulator + (stored.accumulator * BORROW_APR * elapsed) / (YEAR_SECONDS * SCALE);
    return { ...stored, accumulator, lastUpdated: now };
  }

  #writeAsset(state: StateView, asset: bigint, next: AssetState): void {
    state.store(VesuPoolContract.#assetKey(asset), next);
  }

  position(state: Pick<StateReader, 'stored'>, c: bigint, d: bigint, user: bigint): PositionState {
    return (
      state.stored<PositionState>(VesuPoolContract.#positionKey(c, d, user)) ?? {
        shares: 0n,
        nominalDebt: 0n,
      }
    );
  }

  /** Debt in asset units of a nominal amount, rounded up or down. */
  debtOf(nominal: bigint, a: AssetState, scale: bigint, up: boolean): bigint {
    const numerator = nominal * a.accumulator * scale;
    const denominator = SCALE * SCALE;
    return up ? ceilDiv(numerator, denominator) : numerator / denominator;
  }

  nominalOf(debt: bigint, a: AssetState, scale: bigint, up: boolean): bigint {
    const numerator = debt * SCALE * SCALE;
    const denominator = a.accumulator * scale;
    return up ? ceilDiv(numerator, denominator) : numerator / denominator;
  }

  totalAssets(a: AssetState, scale: bigint): bigint {
    return a.reserve + this.debtOf(a.totalNominalDebt, a, scale, false);
  }

  /** Asset units of `shares`. */
  collateralOf(shares: bigint, a: AssetState, scale: bigint, up: boolean): bigint {
    if (a.totalShares === 0n) {
      const n = shares * scale;
      return up ? ceilDiv(n, SCALE) : n / SCALE;
    }
    const n = shares * this.totalAssets(a, scale);
    return up ? ceilDiv(n, a.totalShares) : n / a.totalShares;
  }

  /** Shares of `assets` asset units. */
  sharesOf(assets: bigint, a: AssetState, scale: bigint, up: boolean): bigint {
    if (a.totalShares === 0n) {
      const n = assets * SCALE;
      return up ? ceilDiv(n, scale) : n / scale;
    }
    const total = this.totalAssets(a, scale);
    if (total === 0n) throw new Revert('zero-total-assets');
    const n = assets * a.totalShares;
    return up ? ceilDiv(n, total) : n / total;
  }

  utilization(a: AssetState, scale: bigint): bigint {
    const debt = this.debtOf(a.totalNominalDebt, a, scale, false);
    const total = a.reserve + debt;
    return total === 0n ? 0n : (debt * SCALE) / total;
  }

  maxLtv(c: bigint): bigint {
    return c === BigInt(resolveToken('mainnet', 'STRK').address)
      ? (7n * SCALE) / 10n
      : (8n * SCALE) / 10n;
  }

  debtCap(c: bigint, d: bigint): bigint {
    return (
      this.#caps.get(
        `0x${c.toString(16).padStart(64, '0')}:0x${d.toString(16).padStart(64, '0')}`,
      ) ?? 0n
    );
  }

  /** USD value (18 decimals) of `amount` asset units at the oracle's price. */
  value(state: Pick<StateReader, 'stored'>, asset: ListedAsset, amount: bigint): bigint {
    return (amount * this.#oracle.price(state, asset.address).value) / asset.scale;
  }

  /** (collateral, debt) in asset units of a position, now. */
  amounts(
    state: Pick<StateReader, 'stored'>,
    c: ListedAsset,
    d: ListedAsset,
    user: bigint,
  ): { collateral: bigint; debt: bigint; position: PositionState } {
    const position = this.position(state, c.address, d.address, user);
    return {
      position,
      collateral: this.collateralOf(position.shares, this.asset(state, c.address), c.scale, false),
      debt: this.debtOf(position.nominalDebt, this.asset(state, d.address), d.scale, true),
    };
  }

  /** Supply (a vToken's deposit): the pool's side. Returns the shares minted. */
  supply(state: StateView, asset: ListedAsset, assets: bigint): bigint {
    const shares = this.sharesOf(assets, this.asset(state, asset.address), asset.scale, false);
    this.supplyShares(state, asset, assets, shares);
    return shares;
  }

  /** A vToken's deposit or mint, the pool's side: `assets` join the reserve as `shares`. */
  supplyShares(state: StateView, asset: ListedAsset, assets: bigint, shares: bigint): void {
    if (shares === 0n) throw new Revert('zero-shares');
    const a = this.asset(state, asset.address);
    this.#writeAsset(state, asset.address, {
      ...a,
      reserve: a.reserve + assets,
      totalShares: a.totalShares + shares,
    });
  }

  /** Withdrawal (a vToken's withdraw or redeem): the pool's side; pays `receiver` from the pool. */
  #unsupply(ctx: CallContext, calldata: readonly bigint[]): bigint[] {
    // sandbox_v_token_withdraw(asset, receiver, assets: u256, shares: u256): its vToken alone
    expectArgs(calldata, 6);
    const asset = this.#listed(calldata[0] as bigint);
    if (ctx.caller !== asset.vToken) throw new Revert('caller-is-not-the-v-token');
    const receiver = calldata[1] as bigint;
    const assets = u256At(calldata, 2);
    const shares = u256At(calldata, 4);
    const a = this.asset(ctx.state, asset.address);
    if (assets > a.reserve) throw new Revert('utilization-exceeded');
    const next = { ...a, reserve: a.reserve - assets, totalShares: a.totalShares - shares };
    if (this.utilization(next, asset.scale) > MAX_UTILIZATION)
      throw new Revert('utilization-exceeded');
    this.#writeAsset(ctx.state, asset.address, next);
    if (assets > 0n) ctx.call(asset.address, SELECTOR.transfer, [receiver, ...u256(assets)]);
    return [];
  }

  #modifyPosition(ctx: CallContext, calldata: readonly bigint[]): bigint[] {
    // ModifyPositionParams: collateral_asset, debt_asset, user, collateral: Amount, debt: Amount
    expectArgs(calldata, 11);
    const [cAddress, dAddress, user] = calldata as [bigint, bigint, bigint];
    const collateralAmount = amountAt(calldata, 3, 4);
    const debtAmount = amountAt(calldata, 7, 5);
    if (cAddress === dAddress) throw new Revert('identical-assets');
    const c = this.#listed(cAddress);
    const d = this.#listed(dAddress);
    if (ctx.caller !== user) throw new Revert('no-delegation');

    let ca = this.asset(ctx.state, c.address);
    let da = this.asset(ctx.state, d.address);
    const position = this.position(ctx.state, c.address, d.address, user);

    // collateral: + deposits, − withdraws (Native = shares, Assets = asset units)
    let collateralDelta = 0n;
    let sharesDelta = 0n;
    if (collateralAmount.value > 0n) {
      if (collateralAmount.native) {
        sharesDelta = collateralAmount.value;
        collateralDelta = this.collateralOf(sharesDelta, ca, c.scale, true);
      } else {
        collateralDelta = collateralAmount.value;
        sharesDelta = this.sharesOf(collateralDelta, ca, c.scale, false);
      }
    } else if (collateralAmount.value < 0n) {
      if (collateralAmount.native) {
        sharesDelta = collateralAmount.value;
        collateralDelta = -this.collateralOf(-sharesDelta, ca, c.scale, false);
      } else {
        collateralDelta = collateralAmount.value;
        sharesDelta = -this.sharesOf(-collateralDelta, ca, c.scale, true);
      }
      if (-sharesDelta > position.shares) throw new Revert('u256_sub Overflow');
    }

    // debt: + borrows, − repays (clamped to the debt); Native = nominal debt
    let debtDelta = 0n;
    let nominalDelta = 0n;
    if (debtAmount.value > 0n) {
      if (debtAmount.native) {
        nominalDelta = debtAmount.value;
        debtDelta = this.debtOf(nominalDelta, da, d.scale, false);
      } else {
        debtDelta = debtAmount.value;
        nominalDelta = this.nominalOf(debtDelta, da, d.scale, true);
      }
    } else if (debtAmount.value < 0n) {
      let nominal = debtAmount.native
        ? -debtAmount.value
        : this.nominalOf(-debtAmount.value, da, d.scale, false);
      if (nominal > position.nominalDebt) nominal = position.nominalDebt;
      nominalDelta = -nominal;
      debtDelta = -this.debtOf(nominal, da, d.scale, true);
    }

    const risky = collateralDelta < 0n || debtDelta > 0n;
    if (
      risky &&
      (!this.#oracle.price(ctx.state, c.address).valid ||
        !this.#oracle.price(ctx.state, d.address).valid)
    )
      throw new Revert('invalid-oracle-price');

    // the pool's books
    ca = {
      ...ca,
      reserve: ca.reserve + collateralDelta,
      totalShares: ca.totalShares + sharesDelta,
    };
    if (ca.reserve < 0n) throw new Revert('utilization-exceeded');
    this.#writeAsset(ctx.state, c.address, ca);
    da = this.asset(ctx.state, d.address);
    da = {
      ...da,
      reserve: da.reserve - debtDelta,
      totalNominalDebt: da.totalNominalDebt + nominalDelta,
    };
    if (da.reserve < 0n) throw new Revert('utilization-exceeded');
    this.#writeAsset(ctx.state, d.address, da);
    const next: PositionState = {
      shares: position.shares + sharesDelta,
      nominalDebt: position.nominalDebt + nominalDelta,
    };
    ctx.state.store(VesuPoolContract.#positionKey(c.address, d.address, user), next);
    const pairKey = VesuPoolContract.#pairKey(c.address, d.address);
    const pairNominal = (ctx.state.stored<bigint>(pairKey) ?? 0n) + nominalDelta;
    ctx.state.store(pairKey, pairNominal);
    const pairSharesKey = VesuPoolContract.#pairSharesKey(c.address, d.address);
    ctx.state.store(pairSharesKey, (ctx.state.stored<bigint>(pairSharesKey) ?? 0n) + sharesDelta);

    // the invariants, on the state after the change
    const collateral = this.collateralOf(next.shares, ca, c.scale, false);
    const debt = this.debtOf(next.nominalDebt, da, d.scale, true);
    const collateralValue = this.value(ctx.state, c, collateral);
    const debtValue = this.value(ctx.state, d, debt);
    if (risky && collateralValue * this.maxLtv(c.address) < debtValue * SCALE)
      throw new Revert('not-collateralized');
    if (collateralDelta < 0n && this.utilization(ca, c.scale) > MAX_UTILIZATION)
      throw new Revert('utilization-exceeded');
    if (debtDelta > 0n) {
      if (this.utilization(da, d.scale) > MAX_UTILIZATION) throw new Revert('utilization-exceeded');
      const cap = this.debtCap(c.address, d.address);
      if (cap !== 0n && this.debtOf(pairNominal, da, d.scale, true) > cap)
        throw new Revert('debt-cap-exceeded');
    }
    if (next.nominalDebt !== 0n && collateralValue <= FLOOR_USD)
      throw new Revert('dusty-collateral-balance');
    if (debtValue !== 0n && debtValue <= FLOOR_USD) throw new Revert('dusty-debt-balance');

    // the tokens: the caller approved the pool for what it deposits or repays
    if (collateralDelta > 0n)
      ctx.call(c.address, SELECTOR.transfer_from, [
        ctx.caller,
        this.address,
        ...u256(collateralDelta),
      ]);
    else if (collateralDelta < 0n)
      ctx.call(c.address, SELECTOR.transfer, [ctx.caller, ...u256(-collateralDelta)]);
    if (debtDelta < 0n)
      ctx.call(d.address, SELECTOR.transfer_from, [ctx.caller, this.address, ...u256(-debtDelta)]);
    else if (debtDelta > 0n)
      ctx.call(d.address, SELECTOR.transfer, [ctx.caller, ...u256(debtDelta)]);

    const deltas = [
      ...i257Felts(collateralDelta),
      ...i257Felts(sharesDelta),
      ...i257Felts(debtDelta),
      ...i257Felts(nominalDelta),
    ];
    ctx.emit([VESU_EVENT.ModifyPosition, c.address, d.address, user], deltas);
    // UpdatePositionResponse: the four deltas, then bad_debt (u256)
    return [...deltas, 0n, 0n];
  }

  /**
   * `liquidate_position(LiquidatePositionParams)` as Vesu v2's pool (docs/sandbox-chain.md
   * "Liquidation"): refused while the position is collateralised (`not-undercollateralized`);
   * else the liquidator repays up to the debt and receives collateral worth that repayment
   * divided by the liquidation factor (its bonus), at most all of it; when the collateral, at the
   * factor, is worth less than the debt, the shortfall is bad debt — the lenders of the debt asset
   * bear it (the reserve gets back only what the liquidator paid). The floor still holds for what
   * is left. Emits `LiquidatePosition {#collateral_asset, #debt_asset, #user, #liquidator,
   * collateral_delta, collateral_shares_delta, debt_delta, nominal_debt_delta, bad_debt}`.
   */
  #liquidatePosition(ctx: CallContext, calldata: readonly bigint[]): bigint[] {
    // LiquidatePositionParams: collateral_asset, debt_asset, user, min_collateral_to_receive: u256, debt_to_repay: u256
    expectArgs(calldata, 7);
    const [cAddress, dAddress, user] = calldata as [bigint, bigint, bigint];
    const minCollateral = u256At(calldata, 3);
    const requested = u256At(calldata, 5);
    if (cAddress === dAddress) throw new Revert('identical-assets');
    const c = this.#listed(cAddress);
    const d = this.#listed(dAddress);
    const ca = this.asset(ctx.state, c.address);
    const da = this.asset(ctx.state, d.address);
    const position = this.position(ctx.state, c.address, d.address, user);
    const cPrice = this.#oracle.price(ctx.state, c.address);
    const dPrice = this.#oracle.price(ctx.state, d.address);
    if (!cPrice.valid || !dPrice.valid || cPrice.value === 0n) throw new Revert('invalid-oracle');

    // calculate_collateral_and_debt_value: collateral and its value rounded down, debt up
    const collateral = this.collateralOf(position.shares, ca, c.scale, false);
    const debt = this.debtOf(position.nominalDebt, da, d.scale, true);
    const collateralValue = (collateral * cPrice.value) / c.scale;
    const debtValue = ceilDiv(debt * dPrice.value, d.scale);

    // compute_liquidation_amounts
    let debtToRepay = requested > debt ? debt : requested;
    const valueToReceive = (debtToRepay * dPrice.value) / d.scale;
    let collateralToReceive =
      (((valueToReceive * SCALE) / cPrice.value) * c.scale) / LIQUIDATION_FACTOR;
    if (collateralToReceive > collateral) collateralToReceive = collateral;
    const factoredValue = (collateralValue * LIQUIDATION_FACTOR) / SCALE;
    if (collateralToReceive < minCollateral) throw new Revert('less-than-min-collateral');
    let badDebt = 0n;
    if (factoredValue < debtValue) {
      if (factoredValue < ceilDiv(debtToRepay * dPrice.value, d.scale)) {
        badDebt = ((debtValue - factoredValue) * d.scale) / dPrice.value;
        debtToRepay = debt;
      } else {
        if (debtToRepay <= MIN_LIQUIDATION_AMOUNT)
          throw new Revert('less-than-min-liquidation-amount');
        badDebt = (debtToRepay * (debtValue - factoredValue)) / factoredValue;
        debtToRepay += badDebt;
      }
    }
    if (collateralValue * this.maxLtv(c.address) >= debtValue * SCALE)
      throw new Revert('not-undercollateralized');

    // apply_position_update_to_context: collateral out (Assets, shares rounded up, at most the
    // position's), debt repaid (Assets, nominal rounded down, at most the position's)
    let collateralDelta = -collateralToReceive;
    let sharesDelta = -this.sharesOf(collateralToReceive, ca, c.scale, true);
    if (-sharesDelta > position.shares) {
      sharesDelta = -position.shares;
      collateralDelta = -this.collateralOf(position.shares, ca, c.scale, false);
    }
    if (ca.reserve < -collateralDelta) throw new Revert('insufficient-reserve');
    let nominal = debtToRepay === 0n ? 0n : this.nominalOf(debtToRepay, da, d.scale, false);
    let debtDelta = -debtToRepay;
    if (nominal > position.nominalDebt) {
      nominal = position.nominalDebt;
      debtDelta = -this.debtOf(nominal, da, d.scale, true);
    }
    const nominalDelta = -nominal;
    if ((collateralDelta === 0n) !== (sharesDelta === 0n)) throw new Revert('zero-collateral');
    if ((debtDelta === 0n) !== (nominalDelta === 0n)) throw new Revert('zero-debt');
    const nextCa = {
      ...ca,
      reserve: ca.reserve + collateralDelta,
      totalShares: ca.totalShares + sharesDelta,
    };
    this.#writeAsset(ctx.state, c.address, nextCa);
    const freshDa = this.asset(ctx.state, d.address);
    const nextDa = {
      ...freshDa,
      // bad debt is not paid back: the debt asset's lenders bear it
      reserve: freshDa.reserve - debtDelta - badDebt,
      totalNominalDebt: freshDa.totalNominalDebt + nominalDelta,
    };
    this.#writeAsset(ctx.state, d.address, nextDa);
    const next: PositionState = {
      shares: position.shares + sharesDelta,
      nominalDebt: position.nominalDebt + nominalDelta,
    };
    ctx.state.store(VesuPoolContract.#positionKey(c.address, d.address, user), next);
    const pairKey = VesuPoolContract.#pairKey(c.address, d.address);
    ctx.state.store(pairKey, (ctx.state.stored<bigint>(pairKey) ?? 0n) + nominalDelta);
    const pairSharesKey = VesuPoolContract.#pairSharesKey(c.address, d.address);
    ctx.state.store(pairSharesKey, (ctx.state.stored<bigint>(pairSharesKey) ?? 0n) + sharesDelta);

    // the floor invariant on what is left (the collateralisation one is skipped: a liquidation)
    const leftCollateralValue =
      (this.collateralOf(next.shares, nextCa, c.scale, false) * cPrice.value) / c.scale;
    const leftDebtValue = ceilDiv(
      this.debtOf(next.nominalDebt, nextDa, d.scale, true) * dPrice.value,
      d.scale,
    );
    if (next.nominalDebt !== 0n && leftCollateralValue <= FLOOR_USD)
      throw new Revert('dusty-collateral-balance');
    if (leftDebtValue !== 0n && leftDebtValue <= FLOOR_USD) throw new Revert('dusty-debt-balance');

    const deltas = [
      ...i257Felts(collateralDelta),
      ...i257Felts(sharesDelta),
      ...i257Felts(debtDelta),
      ...i257Felts(nominalDelta),
    ];
    ctx.emit(
      [VESU_LIQUIDATE_POSITION_EVENT, c.address, d.address, user, ctx.caller],
      [...deltas, ...u256(badDebt)],
    );
    // settle_position: the liquidator gets the collateral and pays the debt less the bad debt
    if (collateralDelta < 0n)
      ctx.call(c.address, SELECTOR.transfer, [ctx.caller, ...u256(-collateralDelta)]);
    if (debtDelta < 0n)
      ctx.call(d.address, SELECTOR.transfer_from, [
        ctx.caller,
        this.address,
        ...u256(-debtDelta - badDebt),
      ]);
    return [...deltas, ...u256(badDebt)];
  }

  /** AssetConfig, 22 felts (see docs/sandbox-chain.md "Lending"). */
  #assetConfig(state: Pick<StateReader, 'stored'>, asset: ListedAsset): bigint[] {
    const a = this.asset(state, asset.address);
    return [
      ...u256(a.totalShares),
      ...u256(a.totalNominalDebt),
      ...u256(a.reserve),
      ...u256(MAX_UTILIZATION),
      ...u256(FLOOR_USD),
      ...u256(asset.scale),
      0n,
      a.lastUpdated,
      ...u256(a.accumulator),
      ...u256(RATE_PER_SECOND),
      ...u256(0n),
      ...u256(0n),
    ];
  }

  invoke(ctx: CallContext, selector: bigint, calldata: readonly bigint[]): bigint[] {
    switch (selector) {
      case VESU_POOL_SELECTOR.modify_position:
        return this.#modifyPosition(ctx, calldata);
      case V_TOKEN_WITHDRAW_SELECTOR:
        return this.#unsupply(ctx, calldata);
      case LIQUIDATE_POSITION_SELECTOR:
        return this.#liquidatePosition(ctx, calldata);
      default: {
        const answer =
          this.#positionView(ctx, selector, calldata) ??
          this.#rateView(ctx, selector, calldata) ??
          this.#poolView(ctx, selector, calldata);
        if (answer === undefined) throw new EntryPointNotFound(selector);
        return answer;
      }
    }
  }

  /** A pair's views: a position, its collateralization, its context, config and totals; undefined for another selector. */
  #positionView(
    ctx: CallContext,
    selector: bigint,
    calldata: readonly bigint[],
  ): bigint[] | undefined {
    switch (selector) {
      case VESU_POOL_SELECTOR.position: {
        expectArgs(calldata, 3);
        const c = this.#listed(calldata[0] as bigint);
        const d = this.#listed(calldata[1] as bigint);
        const { position, collateral, debt } = this.amounts(ctx.state, c, d, calldata[2] as bigint);
        return [
          ...u256(position.shares),
          ...u256(position.nominalDebt),
          ...u256(collateral),
          ...u256(debt),
        ];
      }
      case VESU_POOL_SELECTOR.check_collateralization: {
        expectArgs(calldata, 3);
        const c = this.#listed(calldata[0] as bigint);
        const d = this.#listed(calldata[1] as bigint);
        const { collateral, debt } = this.amounts(ctx.state, c, d, calldata[2] as bigint);
        const collateralValue = this.value(ctx.state, c, collateral);
        const debtValue = this.value(ctx.state, d, debt);
        const ok = collateralValue * this.maxLtv(c.address) >= debtValue * SCALE;
        return [ok ? 1n : 0n, ...u256(collateralValue), ...u256(debtValue)];
      }
      case VESU_POOL_SELECTOR.context: {
        // Vesu v2's Context: the pair's configs, its prices (the pool asks its oracle), max LTV,
        // the user and the position's shares and nominal debt
        expectArgs(calldata, 3);
        const [cAddress, dAddress, user] = calldata as [bigint, bigint, bigint];
        if (cAddress === dAddress) throw new Revert('identical-assets');
        const c = this.#listed(cAddress);
        const d = this.#listed(dAddress);
        const price = (asset: ListedAsset): bigint[] => {
          const p = this.#oracle.price(ctx.state, asset.address);
          return [...u256(p.value), p.valid ? 1n : 0n];
        };
        const position = this.position(ctx.state, c.address, d.address, user);
        return [
          c.address,
          d.address,
          ...this.#assetConfig(ctx.state, c),
          ...this.#assetConfig(ctx.state, d),
          ...price(c),
          ...price(d),
          this.maxLtv(c.address),
          user,
          ...u256(position.shares),
          ...u256(position.nominalDebt),
        ];
      }
      case VESU_POOL_SELECTOR.pair_config: {
        // PairConfig { max_ltv: u64, liquidation_factor: u64, debt_cap: u128 }: zeros for a pair
        // never configured, as Vesu v2's storage read gives them (no revert)
        expectArgs(calldata, 2);
        const [c, d] = [
          this.assets.get(calldata[0] as bigint),
          this.assets.get(calldata[1] as bigint),
        ];
        if (c === undefined || d === undefined || c === d) return [0n, 0n, 0n];
        return [this.maxLtv(c.address), LIQUIDATION_FACTOR, this.debtCap(c.address, d.address)];
      }
      case VESU_POOL_SELECTOR.pairs: {
        expectArgs(calldata, 2);
        const totals = this.pairTotals(ctx.state, calldata[0] as bigint, calldata[1] as bigint);
        return [...u256(totals.collateralShares), ...u256(totals.nominalDebt)];
      }
      default:
        return undefined;
    }
  }

  /** The interest views: the accumulator, the rate model and its config, debt and collateral of shares; undefined for another selector. */
  #rateView(ctx: CallContext, selector: bigint, calldata: readonly bigint[]): bigint[] | undefined {
    switch (selector) {
      case VESU_POOL_SELECTOR.rate_accumulator: {
        expectArgs(calldata, 1);
        const asset = this.#listed(calldata[0] as bigint);
        return u256(this.asset(ctx.state, asset.address).accumulator);
      }
      case VESU_POOL_SELECTOR.interest_rate_config: {
        // a storage read: zeros for an asset without a config
        expectArgs(calldata, 1);
        const config = this.#rateConfig(calldata[0] as bigint);
        return [
          config.minTargetUtilization,
          config.maxTargetUtilization,
          config.targetUtilization,
          config.minFullUtilizationRate,
          config.maxFullUtilizationRate,
          config.zeroUtilizationRate,
          config.rateHalfLife,
          config.targetRatePercent,
        ].flatMap(u256);
      }
      case VESU_POOL_SELECTOR.interest_rate: {
        // (asset, utilization: u256, last_updated: u64, last_full_utilization_rate: u256)
        expectArgs(calldata, 6);
        const utilization = u256At(calldata, 1);
        const lastUpdated = calldata[3] as bigint;
        if (lastUpdated >= 1n << 64n) throw new Revert('Failed to deserialize param #3');
        const now = this.#now();
        if (lastUpdated > now) throw new Revert('u64_sub Overflow');
        return u256(
          modelInterestRate(
            this.#rateConfig(calldata[0] as bigint),
            utilization,
            now - lastUpdated,
            u256At(calldata, 4),
          ),
        );
      }
      case VESU_POOL_SELECTOR.calculate_debt: {
        // (nominal_debt: i257, rate_accumulator: u256, asset_scale: u256): rounded up when the
        // nominal debt is negative (Vesu v2's own rule)
        expectArgs(calldata, 7);
        const nominal = i257At(calldata, 0, 1);
        const accumulator = u256At(calldata, 3);
        const scale = u256At(calldata, 5);
        if (accumulator === 0n) return u256(0n);
        const n = (nominal < 0n ? -nominal : nominal) * accumulator * scale;
        return u256(nominal < 0n ? ceilDiv(n, SCALE * SCALE) : n / (SCALE * SCALE));
      }
      case VESU_POOL_SELECTOR.calculate_collateral: {
        // (asset, collateral_shares: i257): rounded up when the shares are positive
        expectArgs(calldata, 4);
        const asset = this.#listed(calldata[0] as bigint);
        const shares = i257At(calldata, 1, 2);
        const a = this.asset(ctx.state, asset.address);
        if (a.totalShares === 0n) throw new Revert('unexpected-zero-collateral-shares');
        const up = shares >= 0n;
        const total = a.reserve + this.debtOf(a.totalNominalDebt, a, asset.scale, up);
        const n = (shares < 0n ? -shares : shares) * total;
        return u256(up ? ceilDiv(n, a.totalShares) : n / a.totalShares);
      }
      default:
        return undefined;
    }
  }

  /** The pool's own and its assets' views: a price, an asset's config and utilisation, the oracle, the name; undefined for another selector. */
  #poolView(ctx: CallContext, selector: bigint, calldata: readonly bigint[]): bigint[] | undefined {
    switch (selector) {
      case VESU_POOL_SELECTOR.price: {
        // the pool asks its oracle
        expectArgs(calldata, 1);
        const p = this.#oracle.price(ctx.state, calldata[0] as bigint);
        return [...u256(p.value), p.valid ? 1n : 0n];
      }
      case VESU_POOL_SELECTOR.asset_config:
        expectArgs(calldata, 1);
        return this.#assetConfig(ctx.state, this.#listed(calldata[0] as bigint));
      case VESU_POOL_SELECTOR.utilization: {
        expectArgs(calldata, 1);
        const asset = this.#listed(calldata[0] as bigint);
        return u256(this.utilization(this.asset(ctx.state, asset.address), asset.scale));
      }
      case VESU_POOL_SELECTOR.oracle:
        expectArgs(calldata, 0);
        return [this.setup.oracle];
      case VESU_POOL_SELECTOR.is_paused:
        expectArgs(calldata, 0);
        return [0n];
      case VESU_POOL_SELECTOR.pool_name:
        expectArgs(calldata, 0);
        return [label(this.setup.name)];
      default:
        return undefined;
    }
  }
}

/**
 * The vToken of one asset (docs/sandbox-chain.md "The vToken"): Vesu v2's `VToken` — ERC-4626
 * over the pool, with OpenZeppelin's ERC-20 embedded (`ERC20Impl`, `ERC20MetadataImpl`: snake_case
 * only, ByteArray `name`/`symbol`, 18 decimals) — so its shares can be sent and approved, and a
 * spender with an allowance may withdraw or redeem for the owner. Its shares are the pool's
 * collateral shares of the asset; the views round as the source's `calculate_collateral` and
 * `calculate_collateral_shares` do (the holder's favour never: deposit and redeem round down,
 * mint and withdraw up). "Can modify position" (the source asks the pool's invariants and
 * pause flag) is here: the oracle's price of the asset is valid; when it is not, the `max_*` and
 * `preview_*` views answer 0 as the source's do.
 */
class VTokenContract implements Contract {
  readonly classHash = VTOKEN_CLASS_HASH;
  readonly asset: ListedAsset;
  readonly #pool: VesuPoolContract;
  readonly #oracle: VesuOracleContract;

  constructor(asset: ListedAsset, pool: VesuPoolContract, oracle: VesuOracleContract) {
    this.asset = asset;
    this.#pool = pool;
    this.#oracle = oracle;
  }

  /** ERC20Metadata: the name and symbol the factory gave the vToken (ByteArray in the ABI). */
  get name(): string {
    return sandboxVTokenWords(this.asset.token.symbol).name;
  }

  get symbol(): string {
    return sandboxVTokenWords(this.asset.token.symbol).symbol;
  }

  #key(what: string): string {
    return `vesu:vtoken:${this.asset.vToken.toString(16)}:${what}`;
  }

  balanceOf(state: Pick<StateReader, 'stored'>, owner: bigint): bigint {
    return state.stored<bigint>(this.#key(`balance:${owner.toString(16)}`)) ?? 0n;
  }

  totalSupply(state: Pick<StateReader, 'stored'>): bigint {
    return state.stored<bigint>(this.#key('supply')) ?? 0n;
  }

  allowance(state: Pick<StateReader, 'stored'>, owner: bigint, spender: bigint): bigint {
    return (
      state.stored<bigint>(this.#key(`allowance:${owner.toString(16)}:${spender.toString(16)}`)) ??
      0n
    );
  }

  #setBalance(state: StateView, owner: bigint, value: bigint): void {
    state.store(this.#key(`balance:${owner.toString(16)}`), value);
  }

  /** OpenZeppelin's ERC20 `update`: mint (from 0), burn (to 0) or move, and its Transfer event. */
  #update(ctx: CallContext, from: bigint, to: bigint, amount: bigint): void {
    if (from === 0n) {
      ctx.state.store(this.#key('supply'), this.totalSupply(ctx.state) + amount);
    } else {
      const balance = this.balanceOf(ctx.state, from);
      if (balance < amount) throw new Revert('ERC20: insufficient balance');
      this.#setBalance(ctx.state, from, balance - amount);
    }
    if (to === 0n) ctx.state.store(this.#key('supply'), this.totalSupply(ctx.state) - amount);
    else this.#setBalance(ctx.state, to, this.balanceOf(ctx.state, to) + amount);
    ctx.emit([TRANSFER_EVENT_KEY, from, to], u256(amount));
  }

  #transfer(ctx: CallContext, from: bigint, to: bigint, amount: bigint): void {
    if (from === 0n) throw new Revert('ERC20: transfer from 0');
    if (to === 0n) throw new Revert('ERC20: transfer to 0');
    this.#update(ctx, from, to, amount);
  }

  #approve(ctx: CallContext, owner: bigint, spender: bigint, amount: bigint): void {
    if (owner === 0n) throw new Revert('ERC20: approve from 0');
    if (spender === 0n) throw new Revert('ERC20: approve to 0');
    ctx.state.store(this.#key(`allowance:${owner.toString(16)}:${spender.toString(16)}`), amount);
    ctx.emit([APPROVAL_EVENT_KEY, owner, spender], u256(amount));
  }

  /** OpenZeppelin's `_spend_allowance`: an unlimited (u256 max) allowance is never spent. */
  #spendAllowance(ctx: CallContext, owner: bigint, spender: bigint, amount: bigint): void {
    const current = this.allowance(ctx.state, owner, spender);
    if (current === U256_MAX) return;
    if (current < amount) throw new Revert('ERC20: insufficient allowance');
    this.#approve(ctx, owner, spender, current - amount);
  }

  /** Mints shares for assets already in the pool (the sandbox's initial liquidity). */
  seed(state: StateView, owner: bigint, assets: bigint): void {
    const shares = this.#pool.supply(state, this.asset, assets);
    this.#setBalance(state, owner, this.balanceOf(state, owner) + shares);
    state.store(this.#key('supply'), this.totalSupply(state) + shares);
  }

  #state(state: Pick<StateReader, 'stored'>) {
    return this.#pool.asset(state, this.asset.address);
  }

  /** The source's `calculate_collateral(shares)`: assets of `shares`, rounded up or down. */
  #toAssets(state: Pick<StateReader, 'stored'>, shares: bigint, up: boolean): bigint {
    return this.#pool.collateralOf(shares, this.#state(state), this.asset.scale, up);
  }

  /** The source's `calculate_collateral_shares(assets)`: shares of `assets`, rounded up or down. */
  #toShares(state: Pick<StateReader, 'stored'>, assets: bigint, up: boolean): bigint {
    return this.#pool.sharesOf(assets, this.#state(state), this.asset.scale, up);
  }

  #canModify(state: Pick<StateReader, 'stored'>): boolean {
    return this.#oracle.price(state, this.asset.address).valid;
  }

  /**
   * The source's `calculate_withdrawable_assets`: 0 once utilisation (rounded up) reaches the
   * maximum, else (reserve + total debt) − ⌈total debt / max utilisation⌉.
   */
  #withdrawable(state: Pick<StateReader, 'stored'>): bigint {
    const a = this.#state(state);
    if (this.#pool.utilization(a, this.asset.scale) + 1n >= MAX_UTILIZATION) return 0n;
    const debt = this.#pool.debtOf(a.totalNominalDebt, a, this.asset.scale, false);
    const room = a.reserve + debt - ceilDiv(debt * SCALE, MAX_UTILIZATION);
    return room > 0n ? room : 0n;
  }

  /** Room under the pool's share bound: u128 max − total collateral shares (max_mint). */
  #shareRoom(state: Pick<StateReader, 'stored'>): bigint {
    const room = U128 - 1n - this.#state(state).totalShares;
    return room > 0n ? room : 0n;
  }

  /** Asset in: the caller pays the vToken, the vToken pays the pool (as the real one settles). */
  #enter(ctx: CallContext, assets: bigint, shares: bigint, receiver: bigint): void {
    ctx.call(this.asset.address, SELECTOR.transfer_from, [ctx.caller, ctx.self, ...u256(assets)]);
    ctx.call(this.asset.address, SELECTOR.transfer, [this.#pool.address, ...u256(assets)]);
    this.#pool.supplyShares(ctx.state, this.asset, assets, shares);
    if (receiver === 0n) throw new Revert('ERC20: mint to 0');
    this.#update(ctx, 0n, receiver, shares);
    ctx.emit([VESU_EVENT.Deposit, ctx.caller, receiver], [...u256(assets), ...u256(shares)]);
  }

  /** Asset out: the owner's shares burn (an allowance spent for another caller), the pool pays. */
  #exit(ctx: CallContext, assets: bigint, shares: bigint, receiver: bigint, owner: bigint): void {
    if (ctx.caller !== owner) this.#spendAllowance(ctx, owner, ctx.caller, shares);
    if (owner === 0n) throw new Revert('ERC20: burn from 0');
    this.#update(ctx, owner, 0n, shares);
    ctx.call(this.#pool.address, V_TOKEN_WITHDRAW_SELECTOR, [
      this.asset.address,
      ctx.self,
      ...u256(assets),
      ...u256(shares),
    ]);
    if (assets > 0n) ctx.call(this.asset.address, SELECTOR.transfer, [receiver, ...u256(assets)]);
    ctx.emit(
      [VESU_EVENT.Withdraw, ctx.caller, receiver, owner],
      [...u256(assets), ...u256(shares)],
    );
  }

  invoke(ctx: CallContext, selector: bigint, calldata: readonly bigint[]): bigint[] {
    const state = ctx.state;
    const gated = (value: () => bigint): bigint[] => u256(this.#canModify(state) ? value() : 0n);
    switch (selector) {
      // ERC-4626 (vesu::v_token::IERC4626)
      case V_TOKEN_SELECTOR.asset:
        expectArgs(calldata, 0);
        return [this.asset.address];
      case V_TOKEN_SELECTOR.total_assets:
        expectArgs(calldata, 0);
        return u256(this.#toAssets(state, this.totalSupply(state), false));
      case V_TOKEN_SELECTOR.convert_to_shares:
        expectArgs(calldata, 2);
        return u256(this.#toShares(state, u256At(calldata, 0), false));
      case V_TOKEN_SELECTOR.convert_to_assets:
        expectArgs(calldata, 2);
        return u256(this.#toAssets(state, u256At(calldata, 0), false));
      case V_TOKEN_SELECTOR.max_deposit:
        expectArgs(calldata, 1);
        return gated(() => this.#toAssets(state, this.#shareRoom(state), true));
      case V_TOKEN_SELECTOR.preview_deposit: {
        expectArgs(calldata, 2);
        const assets = u256At(calldata, 0);
        return gated(() => this.#toShares(state, assets, false));
      }
      case V_TOKEN_SELECTOR.deposit: {
        // deposit(assets: u256, receiver) -> shares: Assets in, shares rounded down
        expectArgs(calldata, 3);
        const assets = u256At(calldata, 0);
        const receiver = calldata[2] as bigint;
        if (assets === 0n) throw new Revert('ERC4626: zero assets');
        const shares = this.#toShares(state, assets, false);
        this.#enter(ctx, assets, shares, receiver);
        return u256(shares);
      }
      case V_TOKEN_SELECTOR.max_mint:
        expectArgs(calldata, 1);
        return gated(() => this.#shareRoom(state));
      case V_TOKEN_SELECTOR.preview_mint: {
        expectArgs(calldata, 2);
        const shares = u256At(calldata, 0);
        return gated(() => this.#toAssets(state, shares, true));
      }
      case V_TOKEN_SELECTOR.mint: {
        // mint(shares: u256, receiver) -> assets: Native in, assets rounded up
        expectArgs(calldata, 3);
        const shares = u256At(calldata, 0);
        const receiver = calldata[2] as bigint;
        if (shares === 0n) throw new Revert('ERC4626: zero shares');
        const assets = this.#toAssets(state, shares, true);
        this.#enter(ctx, assets, shares, receiver);
        return u256(assets);
      }
      case V_TOKEN_SELECTOR.max_withdraw: {
        expectArgs(calldata, 1);
        const owner = calldata[0] as bigint;
        return gated(() => {
          const room = this.#withdrawable(state);
          const own = this.#toAssets(state, this.balanceOf(state, owner), false);
          return own > room ? room : own;
        });
      }
      case V_TOKEN_SELECTOR.preview_withdraw: {
        expectArgs(calldata, 2);
        const assets = u256At(calldata, 0);
        return gated(() => this.#toShares(state, assets, true));
      }
      case V_TOKEN_SELECTOR.withdraw: {
        // withdraw(assets: u256, receiver, owner) -> shares: Assets out, shares rounded up
        expectArgs(calldata, 4);
        const assets = u256At(calldata, 0);
        const [receiver, owner] = [calldata[2] as bigint, calldata[3] as bigint];
        const shares = this.#toShares(state, assets, true);
        this.#exit(ctx, assets, shares, receiver, owner);
        return u256(shares);
      }
      case V_TOKEN_SELECTOR.max_redeem: {
        expectArgs(calldata, 1);
        const owner = calldata[0] as bigint;
        return gated(() => {
          const room = this.#toShares(state, this.#withdrawable(state), true);
          const shares = this.balanceOf(state, owner);
          return shares > room ? room : shares;
        });
      }
      case V_TOKEN_SELECTOR.preview_redeem: {
        expectArgs(calldata, 2);
        const shares = u256At(calldata, 0);
        return gated(() => this.#toAssets(state, shares, false));
      }
      case V_TOKEN_SELECTOR.redeem: {
        // redeem(shares: u256, receiver, owner) -> assets: Native out, assets rounded down
        expectArgs(calldata, 4);
        const shares = u256At(calldata, 0);
        const [receiver, owner] = [calldata[2] as bigint, calldata[3] as bigint];
        const assets = this.#toAssets(state, shares, false);
        this.#exit(ctx, assets, shares, receiver, owner);
        return u256(assets);
      }
      // vesu::v_token::IVToken
      case V_TOKEN_SELECTOR.pool_contract:
        expectArgs(calldata, 0);
        return [this.#pool.address];
      case V_TOKEN_SELECTOR.approve_pool:
        expectArgs(calldata, 0);
        ctx.call(this.asset.address, SELECTOR.approve, [this.#pool.address, ...u256(U256_MAX)]);
        return [];
      // OpenZeppelin's ERC20Impl and ERC20MetadataImpl (snake_case only, as the vToken embeds them)
      case SELECTOR.total_supply:
        expectArgs(calldata, 0);
        return u256(this.totalSupply(state));
      case SELECTOR.balance_of:
        expectArgs(calldata, 1);
        return u256(this.balanceOf(state, calldata[0] as bigint));
      case SELECTOR.allowance:
        expectArgs(calldata, 2);
        return u256(this.allowance(state, calldata[0] as bigint, calldata[1] as bigint));
      case SELECTOR.transfer:
        expectArgs(calldata, 3);
        this.#transfer(ctx, ctx.caller, calldata[0] as bigint, u256At(calldata, 1));
        return [1n];
      case SELECTOR.transfer_from: {
        expectArgs(calldata, 4);
        const [sender, recipient] = [calldata[0] as bigint, calldata[1] as bigint];
        const amount = u256At(calldata, 2);
        this.#spendAllowance(ctx, sender, ctx.caller, amount);
        this.#transfer(ctx, sender, recipient, amount);
        return [1n];
      }
      case SELECTOR.approve:
        expectArgs(calldata, 3);
        this.#approve(ctx, ctx.caller, calldata[0] as bigint, u256At(calldata, 1));
        return [1n];
      case SELECTOR.name:
        expectArgs(calldata, 0);
        return byteArrayFelts(this.name);
      case SELECTOR.symbol:
        expectArgs(calldata, 0);
        return byteArrayFelts(this.symbol);
      case SELECTOR.decimals:
        expectArgs(calldata, 0);
        return [18n];
      default:
        throw new EntryPointNotFound(selector);
    }
  }
}

class VesuFactoryContract implements Contract {
  readonly classHash = VESU_FACTORY_CLASS_HASH;
  readonly #pool: VesuPoolContract;

  constructor(pool: VesuPoolContract) {
    this.#pool = pool;
  }

  invoke(_ctx: CallContext, selector: bigint, calldata: readonly bigint[]): bigint[] {
    switch (selector) {
      case VESU_FACTORY_SELECTOR.v_token_for_asset: {
        expectArgs(calldata, 2);
        const [pool, asset] = calldata as [bigint, bigint];
        if (pool !== this.#pool.address) return [0n];
        return [this.#pool.assets.get(asset)?.vToken ?? 0n];
      }
      case ASSET_FOR_V_TOKEN_SELECTOR: {
        // asset_for_v_token(pool, v_token) -> asset (0 when the pool has no such vToken)
        expectArgs(calldata, 2);
        const [pool, vToken] = calldata as [bigint, bigint];
        if (pool !== this.#pool.address) return [0n];
        const listed = [...this.#pool.assets.values()].find((a) => a.vToken === vToken);
        return [listed?.address ?? 0n];
      }
      default:
        throw new EntryPointNotFound(selector);
    }
  }
}

export interface VesuDeployment {
  pool: VesuPoolContract;
  oracle: VesuOracleContract;
  vTokens: VTokenContract[];
  contracts: Array<{ address: bigint; contract: Contract }>;
  /** the initial prices (USD, 18 decimals, by token address) and liquidity, on the chain's first state */
  seed(view: StateView, usdPrices: ReadonlyMap<string, bigint>): void;
}

export function vesuContracts(now: () => bigint, network: Network = 'mainnet'): VesuDeployment {
  const setup = vesuSetup(network);
  const oracle = new VesuOracleContract();
  const pool = new VesuPoolContract(now, oracle, setup);
  const vTokens = [...pool.assets.values()].map((asset) => new VTokenContract(asset, pool, oracle));
  return {
    pool,
    oracle,
    vTokens,
    contracts: [
      { address: pool.address, contract: pool },
      { address: setup.factory, contract: new VesuFactoryContract(pool) },
      { address: setup.oracle, contract: oracle },
      ...vTokens.map((v) => ({ address: v.asset.vToken, contract: v })),
    ],
    seed(view, usdPrices) {
      for (const vToken of vTokens) {
        const { token, scale } = vToken.asset;
        const price = usdPrices.get(token.address);
        view.store(VesuOracleContract.key(vToken.asset.address), {
          value: price ?? 0n,
          valid: price !== undefined && price > 0n,
        });
        const liquidity = setup.listed.find((l) => l.symbol === token.symbol)?.liquidity ?? 0n;
        const assets = liquidity * scale;
        view.mint(vToken.asset.address, pool.address, assets);
        vToken.seed(view, LIQUIDITY_PROVIDER, assets);
      }
    },
  };
}
