/**
 * A lending plan's own reads (docs/checks.md "Lending"): the account's (collateral, debt) pair in
 * a pool with what the checks need, its supply of an asset (vToken, shares and their worth), and
 * an asset's vToken — each a view call, the reads of one plan in one round where it can
 * (docs/decisions.md "A plan's lending reads: one round").
 */
import { AppError, ErrorCode } from '../../shared/errors.js';
import type { Token } from '../../shared/tokens.js';
import { type VesuPool, VESU_SCALE } from '../../shared/vesu.js';
import type { ChainReader } from './chain/account.js';
import { batchedViews, type Viewer } from './chain/views.js';
import {
  decodeContextPrices,
  garbled,
  hex,
  type PairState,
  pairStateOf,
  reverted,
  U128,
  u256,
} from './lending-decode.js';
import {
  factoryOf,
  factoryVToken,
  pinsOf,
  type PlanReadOptions,
  scoped,
  type VTokenHints,
} from './lending-pool.js';
import { checkVTokenOrigin } from './vtoken-origin.js';

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
    // on the token (docs/contracts.md "E. Vesu v2 (lending)")
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

/** A vToken and the account's shares in it, with what they are worth now. */
interface SupplyState {
  pool: VesuPool;
  token: Token;
  vToken: string;
  shares: bigint;
  /** what the shares redeem for now (preview_redeem) */
  assets: bigint;
  /** what may be redeemed now (max_redeem: the reserve allows it) */
  maxRedeem: bigint;
}

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
  options: PlanReadOptions & {
    vTokens?: VTokenHints | undefined;
    /**
     * a withdrawal calls the vToken: a known pool's is checked by its deploy address
     * (checkVTokenOrigin), in the round its shares are asked — the hinted one's in round 1
     */
    checkOrigin?: boolean | undefined;
  } = {},
): Promise<SupplyState> {
  const factory = factoryOf(reader.network);
  return scoped(options, async () => {
    const views = options.views ?? batchedViews(reader);
    const hint = options.vTokens?.get(pool.address, token.address);
    const found = factoryVToken(views, factory, pool, token, pinsOf(reader, options));
    const origin = (vToken: string): Promise<void> =>
      options.checkOrigin === true && pool.unknown !== true
        ? checkVTokenOrigin(reader, views, pool, token, vToken)
        : Promise.resolve();
    const hinted =
      hint === undefined
        ? undefined
        : Promise.all([ownerShares(views, hint, reader.address), origin(hint)]).then(([o]) => o);
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
          : await Promise.all([ownerShares(views, vToken, reader.address), origin(vToken)]).then(
              ([o]) => o,
            );
      const assets = await worthOf(views, vToken, owned);
      return { pool, token, vToken, shares: owned.shares, assets, maxRedeem: owned.maxRedeem };
    } finally {
      await rewriteHint();
    }
  });
}

/** What a promise has come to so far: `value` once it is fulfilled (read synchronously later). */
export function settledOf<T>(p: Promise<T>): { value?: T } {
  const now: { value?: T } = {};
  p.then(
    (value) => {
      now.value = value;
    },
    () => undefined,
  );
  return now;
}
