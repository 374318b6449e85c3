/**
 * A Vesu-v2-like lending pool on the sandbox chain (docs/sandbox-chain.md "Lending"): the pool
 * and the PoolFactory at the addresses of the network the sandbox is shaped like (shared/vesu.ts:
 * mainnet's Prime, or Sepolia's WBTC Prime Sepolia with its oracle's address; VesuSetup below), an
 * oracle, and one vToken (ERC-4626) per listed asset, speaking the fact sheet's entry points,
 * calldata, event and errors, so the client's builders are the real network's.
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
import { selectorOf, SELECTOR } from '../../shared/erc20.js';
import { type Network, parseAddress, resolveToken, type Token } from '../../shared/tokens.js';
import {
  fromI257Felts,
  i257Felts,
  VESU_EVENT,
  VESU_FACTORY_SELECTOR,
  VESU_ORACLE_SELECTOR,
  VESU_POOL_SELECTOR,
  VESU_SCALE,
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
const YEAR_SECONDS = 365n * 86_400n;
/** the borrow rate: 8 % a year */
export const BORROW_APR = (8n * SCALE) / 100n;
export const MAX_UTILIZATION = (95n * SCALE) / 100n;
/** the Prime pool's floor: $10 */
export const FLOOR_USD = 10n * SCALE;
export const LIQUIDATION_FACTOR = (9n * SCALE) / 10n;

const label = (text: string): bigint => BigInt(shortString.encodeShortString(text));
export const VESU_ORACLE_ADDRESS = label('SANDBOX_VESU_ORACLE');
const LIQUIDITY_PROVIDER = label('SANDBOX_VESU_LIQUIDITY');
/** Sandbox-only: a vToken's withdrawal, the pool's side (the vToken of that asset alone may call it). */
const V_TOKEN_WITHDRAW_SELECTOR = selectorOf('sandbox_v_token_withdraw');
export const VESU_POOL_CLASS_HASH = selectorOf('sandbox::vesu_pool');
export const VTOKEN_CLASS_HASH = selectorOf('sandbox::vesu_v_token');
export const VESU_ORACLE_CLASS_HASH = selectorOf('sandbox::vesu_oracle');
export const VESU_FACTORY_CLASS_HASH = selectorOf('sandbox::vesu_pool_factory');

/**
 * The deployment parameters of the sandbox's Vesu for the network it is shaped like: where the
 * pool, factory and oracle sit (shared/vesu.ts; mainnet's oracle is a label, Sepolia's the one
 * its deployment file names), the pool's on-chain name, the listed assets with their initial
 * liquidity (supplied by the sandbox's own provider; a vToken label each), and the pairs with a
 * debt cap (asset units of the debt; the others have none, 0).
 */
export interface VesuSetup {
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
export function vesuSetup(network: Network): VesuSetup {
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
export const PRIME_POOL_ADDRESS = MAINNET.pool;
export const POOL_FACTORY_ADDRESS = MAINNET.factory;

export interface ListedAsset {
  token: Token;
  address: bigint;
  scale: bigint;
  vToken: bigint;
}

export function listedAssets(setup: VesuSetup = MAINNET): ListedAsset[] {
  return setup.listed.map(({ symbol }) => {
    const token = resolveToken(setup.network, symbol);
    return {
      token,
      address: BigInt(token.address),
      scale: 10n ** BigInt(token.decimals),
      vToken: label(`SANDBOX_VTOKEN_${symbol}`),
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

export interface OraclePrice {
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

/** The oracle: USD prices with 18 decimals, set by the sandbox's price knob. */
export class VesuOracleContract implements Contract {
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

export class VesuPoolContract implements Contract {
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
    const a = this.asset(state, asset.address);
    const shares = this.sharesOf(assets, a, asset.scale, false);
    if (shares === 0n) throw new Revert('zero-shares');
    this.#writeAsset(state, asset.address, {
      ...a,
      reserve: a.reserve + assets,
      totalShares: a.totalShares + shares,
    });
    return shares;
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
      ...u256(BORROW_APR),
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
      case VESU_POOL_SELECTOR.ltv_config: {
        expectArgs(calldata, 2);
        const c = this.#listed(calldata[0] as bigint);
        this.#listed(calldata[1] as bigint);
        return [this.maxLtv(c.address)];
      }
      case VESU_POOL_SELECTOR.liquidation_config:
        expectArgs(calldata, 2);
        this.#listed(calldata[0] as bigint);
        this.#listed(calldata[1] as bigint);
        return [LIQUIDATION_FACTOR];
      case VESU_POOL_SELECTOR.debt_caps:
        expectArgs(calldata, 2);
        return u256(this.debtCap(calldata[0] as bigint, calldata[1] as bigint));
      case VESU_POOL_SELECTOR.pairs: {
        expectArgs(calldata, 2);
        const c = this.#listed(calldata[0] as bigint);
        const d = this.#listed(calldata[1] as bigint);
        const totals = this.pairTotals(ctx.state, c.address, d.address);
        return [...u256(totals.collateralShares), ...u256(totals.nominalDebt)];
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
        throw new EntryPointNotFound(selector);
    }
  }
}

/** The vToken of one asset: ERC-4626 over the pool; its shares are the pool's collateral shares (18 decimals). */
export class VTokenContract implements Contract {
  readonly classHash = VTOKEN_CLASS_HASH;
  readonly asset: ListedAsset;
  readonly #pool: VesuPoolContract;

  constructor(asset: ListedAsset, pool: VesuPoolContract) {
    this.asset = asset;
    this.#pool = pool;
  }

  #balanceKey(owner: bigint): string {
    return `vesu:vtoken:${this.asset.vToken.toString(16)}:balance:${owner.toString(16)}`;
  }

  #supplyKey(): string {
    return `vesu:vtoken:${this.asset.vToken.toString(16)}:supply`;
  }

  balanceOf(state: Pick<StateReader, 'stored'>, owner: bigint): bigint {
    return state.stored<bigint>(this.#balanceKey(owner)) ?? 0n;
  }

  #setBalance(state: StateView, owner: bigint, value: bigint): void {
    state.store(this.#balanceKey(owner), value);
  }

  #addSupply(state: StateView, delta: bigint): void {
    state.store(this.#supplyKey(), (state.stored<bigint>(this.#supplyKey()) ?? 0n) + delta);
  }

  /** Mints shares for assets already in the pool (the sandbox's initial liquidity). */
  seed(state: StateView, owner: bigint, assets: bigint): void {
    const shares = this.#pool.supply(state, this.asset, assets);
    this.#setBalance(state, owner, this.balanceOf(state, owner) + shares);
    this.#addSupply(state, shares);
  }

  #state(state: Pick<StateReader, 'stored'>) {
    return this.#pool.asset(state, this.asset.address);
  }

  #toAssets(state: Pick<StateReader, 'stored'>, shares: bigint, up: boolean): bigint {
    return this.#pool.collateralOf(shares, this.#state(state), this.asset.scale, up);
  }

  #toShares(state: Pick<StateReader, 'stored'>, assets: bigint, up: boolean): bigint {
    return this.#pool.sharesOf(assets, this.#state(state), this.asset.scale, up);
  }

  /** What can leave the pool now: the reserve, down to the maximum utilisation. */
  #withdrawable(state: Pick<StateReader, 'stored'>): bigint {
    const a = this.#state(state);
    const debt = this.#pool.debtOf(a.totalNominalDebt, a, this.asset.scale, false);
    // reserve − x ≥ debt × (1 − u_max) / u_max
    const minReserve = ceilDiv(debt * (SCALE - MAX_UTILIZATION), MAX_UTILIZATION);
    return a.reserve > minReserve ? a.reserve - minReserve : 0n;
  }

  #maxWithdraw(state: Pick<StateReader, 'stored'>, owner: bigint): bigint {
    const own = this.#toAssets(state, this.balanceOf(state, owner), false);
    const available = this.#withdrawable(state);
    return own < available ? own : available;
  }

  #exit(ctx: CallContext, assets: bigint, shares: bigint, receiver: bigint, owner: bigint): void {
    if (ctx.caller !== owner) throw new Revert('ERC4626: caller is not the owner');
    const balance = this.balanceOf(ctx.state, owner);
    if (shares > balance) throw new Revert('ERC4626: exceeded max withdraw');
    ctx.call(this.#pool.address, V_TOKEN_WITHDRAW_SELECTOR, [
      this.asset.address,
      receiver,
      ...u256(assets),
      ...u256(shares),
    ]);
    this.#setBalance(ctx.state, owner, balance - shares);
    this.#addSupply(ctx.state, -shares);
    ctx.emit([SELECTOR_TRANSFER_EVENT, owner, 0n], u256(shares));
    ctx.emit(
      [VESU_EVENT.Withdraw, ctx.caller, receiver, owner],
      [...u256(assets), ...u256(shares)],
    );
  }

  invoke(ctx: CallContext, selector: bigint, calldata: readonly bigint[]): bigint[] {
    switch (selector) {
      case VTOKEN_SELECTOR.deposit: {
        // deposit(assets: u256, receiver) -> shares
        expectArgs(calldata, 3);
        const assets = u256At(calldata, 0);
        const receiver = calldata[2] as bigint;
        if (assets === 0n) throw new Revert('ERC4626: zero assets');
        ctx.call(this.asset.address, SELECTOR.transfer_from, [
          ctx.caller,
          this.#pool.address,
          ...u256(assets),
        ]);
        const shares = this.#pool.supply(ctx.state, this.asset, assets);
        this.#setBalance(ctx.state, receiver, this.balanceOf(ctx.state, receiver) + shares);
        this.#addSupply(ctx.state, shares);
        ctx.emit([SELECTOR_TRANSFER_EVENT, 0n, receiver], u256(shares));
        ctx.emit([VESU_EVENT.Deposit, ctx.caller, receiver], [...u256(assets), ...u256(shares)]);
        return u256(shares);
      }
      case VTOKEN_SELECTOR.withdraw: {
        // withdraw(assets: u256, receiver, owner) -> shares
        expectArgs(calldata, 4);
        const assets = u256At(calldata, 0);
        const [receiver, owner] = [calldata[2] as bigint, calldata[3] as bigint];
        const shares = this.#toShares(ctx.state, assets, true);
        this.#exit(ctx, assets, shares, receiver, owner);
        return u256(shares);
      }
      case VTOKEN_SELECTOR.redeem: {
        // redeem(shares: u256, receiver, owner) -> assets
        expectArgs(calldata, 4);
        const shares = u256At(calldata, 0);
        const [receiver, owner] = [calldata[2] as bigint, calldata[3] as bigint];
        const assets = this.#toAssets(ctx.state, shares, false);
        this.#exit(ctx, assets, shares, receiver, owner);
        return u256(assets);
      }
      case VTOKEN_SELECTOR.balance_of:
      case SELECTOR.balanceOf:
        expectArgs(calldata, 1);
        return u256(this.balanceOf(ctx.state, calldata[0] as bigint));
      case SELECTOR.total_supply:
        expectArgs(calldata, 0);
        return u256(ctx.state.stored<bigint>(this.#supplyKey()) ?? 0n);
      case VTOKEN_SELECTOR.total_assets: {
        expectArgs(calldata, 0);
        return u256(this.#pool.totalAssets(this.#state(ctx.state), this.asset.scale));
      }
      case VTOKEN_SELECTOR.convert_to_assets:
        expectArgs(calldata, 2);
        return u256(this.#toAssets(ctx.state, u256At(calldata, 0), false));
      case VTOKEN_SELECTOR.convert_to_shares:
        expectArgs(calldata, 2);
        return u256(this.#toShares(ctx.state, u256At(calldata, 0), false));
      case VTOKEN_SELECTOR.preview_deposit:
        expectArgs(calldata, 2);
        return u256(this.#toShares(ctx.state, u256At(calldata, 0), false));
      case VTOKEN_SELECTOR.preview_redeem:
        expectArgs(calldata, 2);
        return u256(this.#toAssets(ctx.state, u256At(calldata, 0), false));
      case VTOKEN_SELECTOR.max_withdraw:
        expectArgs(calldata, 1);
        return u256(this.#maxWithdraw(ctx.state, calldata[0] as bigint));
      case VTOKEN_SELECTOR.max_redeem: {
        expectArgs(calldata, 1);
        const owner = calldata[0] as bigint;
        const balance = this.balanceOf(ctx.state, owner);
        const available = this.#toShares(ctx.state, this.#withdrawable(ctx.state), false);
        return u256(balance < available ? balance : available);
      }
      case VTOKEN_SELECTOR.asset:
        expectArgs(calldata, 0);
        return [this.asset.address];
      case SELECTOR.decimals:
        expectArgs(calldata, 0);
        return [18n];
      case SELECTOR.symbol:
        expectArgs(calldata, 0);
        return [label(`v${this.asset.token.symbol}`)];
      case SELECTOR.name:
        expectArgs(calldata, 0);
        return [label(`Vesu ${this.asset.token.symbol}`)];
      default:
        throw new EntryPointNotFound(selector);
    }
  }
}

const SELECTOR_TRANSFER_EVENT = selectorOf('Transfer');

export class VesuFactoryContract implements Contract {
  readonly classHash = VESU_FACTORY_CLASS_HASH;
  readonly #pool: VesuPoolContract;

  constructor(pool: VesuPoolContract) {
    this.#pool = pool;
  }

  invoke(_ctx: CallContext, selector: bigint, calldata: readonly bigint[]): bigint[] {
    if (selector !== VESU_FACTORY_SELECTOR.v_token_for_asset)
      throw new EntryPointNotFound(selector);
    expectArgs(calldata, 2);
    const [pool, asset] = calldata as [bigint, bigint];
    if (pool !== this.#pool.address) return [0n];
    return [this.#pool.assets.get(asset)?.vToken ?? 0n];
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
  const vTokens = [...pool.assets.values()].map((asset) => new VTokenContract(asset, pool));
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
