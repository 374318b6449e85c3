/**
 * What the wallet's holdings are worth (docs/portfolio.md; docs/architecture.md "The action
 * pipeline": pricing is the core's, every face gets the same figures).
 *
 * How a price is derived: for each held token the aggregator is asked for a route of the WHOLE
 * held amount into USDC (USDC itself: into ETH; a target token not held: one whole unit). The
 * token's price is the aggregator's USD price per unit that comes with that route
 * (`inputToken.price`, a spot price), and its value is balance × price. The route's own output
 * is what selling the whole holding at once would fetch; where the difference (the price
 * impact of that sale) is above IMPACT_NOTE_BPS it is shown beside the value, since a big
 * holding in a thin market is not worth its spot value in a sale.
 *
 * A token the aggregator cannot route has no price: shown as unpriced, with the reason, and
 * left out of the total and of the shares, never valued at 0. On the test network the
 * aggregator does not work: balances are shown and every price says why it is missing.
 * Every token is priced in one parallel round. Prices are cached for PRICE_CACHE_MS in
 * `<data>/price-cache.json` (a price per token and quoted amount), and their age is shown.
 */
import { join } from 'node:path';
import { formatAmount } from '../../shared/amount.js';
import { formatBpsAsPercent, parsePriceScaled, priceImpactBps } from '../../shared/fees.js';
import {
  findToken,
  listTokens,
  type Network,
  sameAddress,
  type Token,
} from '../../shared/tokens.js';
import { isAppError } from '../../shared/errors.js';
import { readFileText, writeFileAtomic } from '../../shared/fs.js';
import { formatShare, shares } from './allocation.js';
import type { CallOptions } from './call.js';
import type { Endpoints, NetworkName } from './endpoints.js';
import { balances as readWalletBalances, type TokenAmount } from './funds.js';
import { swapsSupported } from './actions/rules.js';
import { aggregatorFor } from './quote.js';
import { sessionReader } from './execution.js';
import type { Liquidation } from './liquidations.js';
import { type PortfolioPosition, positionLine, type PositionRead, signedUsd } from './positions.js';

/** How long a price is reused (the brief cache): 20 s. */
const PRICE_CACHE_MS = 20_000;
/** A sale's price impact above this (1 %) is shown beside the value. */
const IMPACT_NOTE_BPS = 100;
const CACHE_FILE = 'price-cache.json';
const CACHE_MAX_ENTRIES = 200;

interface TokenPrice {
  /** USD per whole token × 10^18 */
  scaled: bigint;
  /** the amount the route was asked for (base units) */
  quotedAmount: bigint;
  /** USDC (base units) a sale of quotedAmount would fetch now, gross of the service fee; undefined for USDC itself */
  usdcOut: bigint | undefined;
  /** the impact of that sale, in bps; undefined when unknown */
  impactBps: number | undefined;
  /** epoch ms */
  quotedAt: number;
  cached: boolean;
}

type PriceResult = { ok: true; price: TokenPrice } | { ok: false; reason: string };

interface CacheEntry {
  scaled: string;
  quotedAmount: string;
  usdcOut: string | null;
  impactBps: number | null;
  quotedAt: number;
}

const cacheKey = (endpoints: Endpoints, token: Token, amount: bigint): string =>
  `${endpoints.aggregatorUrl}|${endpoints.network}|${token.address}|${amount}`;

async function readCache(dir: string): Promise<Record<string, CacheEntry>> {
  try {
    const parsed = JSON.parse(await readFileText(join(dir, CACHE_FILE))) as unknown;
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, CacheEntry>)
      : {};
  } catch {
    // absent or unreadable: an empty cache (it is only a cache)
    return {};
  }
}

/**
 * Written the program's one way (shared/fs.ts: atomic, 0600), without the lock: two commands
 * writing at once lose only one's fresh prices, which the next call asks for again.
 */
function writeCache(dir: string, entries: Record<string, CacheEntry>, now: number): void {
  const fresh = Object.entries(entries)
    .filter(([, e]) => typeof e?.quotedAt === 'number' && now - e.quotedAt < PRICE_CACHE_MS)
    .slice(-CACHE_MAX_ENTRIES);
  try {
    writeFileAtomic(join(dir, CACHE_FILE), JSON.stringify(Object.fromEntries(fresh)));
  } catch {
    // a cache that cannot be written only costs the next call a round trip
  }
}

function fromCache(e: CacheEntry | undefined, now: number): TokenPrice | undefined {
  if (
    e === undefined ||
    typeof e.quotedAt !== 'number' ||
    now - e.quotedAt >= PRICE_CACHE_MS ||
    now < e.quotedAt
  )
    return undefined;
  try {
    return {
      scaled: BigInt(e.scaled),
      quotedAmount: BigInt(e.quotedAmount),
      usdcOut: e.usdcOut === null ? undefined : BigInt(e.usdcOut),
      impactBps: typeof e.impactBps === 'number' ? e.impactBps : undefined,
      quotedAt: e.quotedAt,
      cached: true,
    };
  } catch {
    return undefined;
  }
}

/** What a token is priced against: USDC, and USDC itself against ETH (the one pricing rule). */
function pricedAgainst(network: Network, token: string): Token | undefined {
  const [usdc, eth] = [findToken(network, 'USDC'), findToken(network, 'ETH')];
  return usdc !== undefined && sameAddress(token, usdc.address) ? eth : usdc;
}

interface PriceOptions {
  /** reuse a cached price younger than this (default PRICE_CACHE_MS; 0: always ask) */
  maxAgeMs?: number;
  now?: () => number;
}

/**
 * The USD price of each `{token, amount}` (amount: what is held, or one unit), all asked at
 * once; cached prices younger than `maxAgeMs` are reused. Never throws for one token: a token
 * the aggregator cannot price gets the reason.
 */
export async function priceTokens(
  endpoints: Endpoints,
  items: ReadonlyArray<{ token: Token; amount: bigint }>,
  options: PriceOptions = {},
  call: CallOptions = {},
): Promise<PriceResult[]> {
  if (!swapsSupported(endpoints.network)) {
    const reason = `no price on ${endpoints.network}: prices come from the swap aggregator, which serves mainnet only`;
    return items.map(() => ({ ok: false, reason }));
  }
  const now = options.now ?? Date.now;
  const maxAge = options.maxAgeMs ?? PRICE_CACHE_MS;
  const cache = maxAge > 0 ? await readCache(endpoints.dataDir) : {};
  const client = aggregatorFor(endpoints, { timeoutMs: 5000, retries: 1 });
  const usdc = findToken(endpoints.network, 'USDC');
  const fresh: Record<string, CacheEntry> = {};
  const results = await Promise.all(
    items.map(async ({ token, amount }): Promise<PriceResult> => {
      const key = cacheKey(endpoints, token, amount);
      const hit = fromCache(cache[key], now());
      if (hit !== undefined && now() - hit.quotedAt < maxAge) return { ok: true, price: hit };
      const isUsdc = usdc !== undefined && sameAddress(token.address, usdc.address);
      const into = pricedAgainst(endpoints.network, token.address);
      if (into === undefined || amount <= 0n)
        return { ok: false, reason: 'no quote token to price against' };
      try {
        const route = await client.getRoute(
          { amount, tokenIn: token.address, tokenOut: into.address },
          { signal: call.signal },
        );
        const scaled = parsePriceScaled(route.inputToken.price);
        if (scaled === undefined)
          return { ok: false, reason: 'the aggregator sent no usable USD price for it' };
        const impact = isUsdc
          ? undefined
          : priceImpactBps({
              amountIn: amount,
              decimalsIn: token.decimals,
              priceIn: route.inputToken.price,
              amountOut: route.outputAmount,
              decimalsOut: into.decimals,
              priceOut: route.outputToken.price,
            });
        const price: TokenPrice = {
          scaled,
          quotedAmount: amount,
          usdcOut: isUsdc ? undefined : route.outputAmount,
          impactBps: impact,
          quotedAt: now(),
          cached: false,
        };
        fresh[key] = {
          scaled: scaled.toString(),
          quotedAmount: amount.toString(),
          usdcOut: price.usdcOut?.toString() ?? null,
          impactBps: impact ?? null,
          quotedAt: price.quotedAt,
        };
        return { ok: true, price };
      } catch (error) {
        if (call.signal?.aborted === true) throw error;
        const why = isAppError(error)
          ? `${error.code}: ${error.message}`
          : 'the aggregator did not answer';
        return { ok: false, reason: `unpriced: ${why}`.slice(0, 300) };
      }
    }),
  );
  if (Object.keys(fresh).length > 0) writeCache(endpoints.dataDir, { ...cache, ...fresh }, now());
  return results;
}

/** A value in USD cents of `amount` at `scaled` (floored). */
const centsAt = (amount: bigint, decimals: number, scaled: bigint): bigint =>
  (amount * scaled * 100n) / 10n ** BigInt(decimals + 18);

const usdText = (cents: bigint): string =>
  `${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;

/** A price per unit as text: at least 2 decimals, at most 8 (truncated). */
function priceText(scaled: bigint): string {
  const [whole, fraction = ''] = formatAmount(scaled, 18).split('.');
  return `${whole}.${fraction.padEnd(2, '0').slice(0, Math.max(2, Math.min(8, fraction.replace(/0+$/, '').length)))}`;
}

interface PortfolioToken extends TokenAmount {
  /** USD per unit; null when unpriced */
  price: { usd: string; scaled: string } | null;
  value: { usd: string; cents: string } | null;
  /** of the priced total, hundredths of a percent as "12.34" */
  share: { percent: string; units: number } | null;
  /** selling the whole holding at once: what it fetches in USDC and the impact (null for USDC and the unpriced) */
  ifSoldNow: {
    usdc: string;
    baseUnits: string;
    impact: string | null;
    impactBps: number | null;
  } | null;
  /** why there is no price */
  unpriced: string | null;
  /** the price came from the cache */
  cached: boolean;
}

export interface Portfolio {
  network: NetworkName;
  sandbox: boolean;
  address: string;
  email: string;
  tokens: PortfolioToken[];
  /** priced wallet tokens only (the positions count in `net`) */
  total: { usd: string; cents: string };
  unpriced: Array<{ symbol: string; reason: string }>;
  /**
   * staking and lending positions, each its own line (a debt negative, its health factor beside
   * it), valued at the same prices as the tokens (cli/core/positions.ts)
   */
  positions?: PortfolioPosition[];
  /**
   * the wallet's lending positions that were liquidated: what was taken and what is left, exact,
   * read from the chain's LiquidatePosition events (cli/core/liquidations.ts), oldest first
   */
  liquidations?: Liquidation[];
  /** the wallet's priced total plus every priced position line (debt subtracted): the sum of the lines */
  net?: { usd: string; cents: string };
  notes: string[];
  pricing: {
    method: string;
    cacheSeconds: number;
    /** ISO time of the oldest price used; null when none */
    pricesAsOf: string | null;
    /** seconds since the oldest price used was quoted */
    ageSeconds: number | null;
    fromCache: number;
  };
  asOf: string;
}

/** The session wallet's positions (cli/core/positions.ts); none when there is no session reader. */
async function positionsOf(
  endpoints: Endpoints,
  options: PriceOptions,
  call: CallOptions,
): Promise<PositionRead> {
  const [{ reader }, { readPositions }, vTokens] = await Promise.all([
    sessionReader(endpoints, options),
    import('./positions.js'),
    import('./vtoken-hints.js').then((m) =>
      m.loadVTokenHints(endpoints.dataDir, endpoints.sandbox ? 'sandbox' : endpoints.network),
    ),
  ]);
  return readPositions(reader, { signal: call.signal, sandbox: endpoints.sandbox, vTokens });
}

const PRICING_METHOD =
  "price = the aggregator USD price per unit quoted with a route of the whole held amount into USDC (USDC: into ETH); value = balance × price; ifSoldNow = that route's output";

/**
 * The session wallet's registry tokens with a non-zero balance: exact balance, USD price and
 * value, share of the priced total (exact, adding up to 100.00 %), and the total.
 */
export async function portfolio(
  endpoints: Endpoints,
  options: PriceOptions = {},
  call: CallOptions = {},
): Promise<Portfolio> {
  const now = options.now ?? Date.now;
  // the positions' first chain round runs beside the balances, then one round for what is held
  // (docs/portfolio.md "Positions"); each side is priced as soon as it is read
  const walletSide = readWalletBalances(endpoints, {}, call).then(async (read) => {
    const held = read.balances.filter((b) => b.baseUnits !== '0');
    const registry = listTokens(endpoints.network);
    const items = held.map((b) => ({
      token: registry.find((t) => sameAddress(t.address, b.address)) as Token,
      amount: BigInt(b.baseUnits),
    }));
    return { read, held, items, prices: await priceTokens(endpoints, items, options, call) };
  });
  const positionSide = positionsOf(endpoints, options, call).then(async (positionRead) => ({
    positionRead,
    prices: await priceTokens(
      endpoints,
      positionRead.items.map((p) => ({ token: p.token, amount: p.amount })),
      options,
      call,
    ),
  }));
  // the liquidations beside them (cli/core/lending.ts walletLiquidations: never fails the portfolio)
  const liquidationSide = import('./lending.js').then((m) =>
    m.walletLiquidations(endpoints, call, options),
  );
  // never an unhandled rejection while the other side is awaited
  positionSide.catch(() => undefined);
  liquidationSide.catch(() => undefined);
  const { read, held, items, prices } = await walletSide;
  const { positionRead, prices: positionPrices } = await positionSide;
  const liquidated = await liquidationSide;
  const positions = positionRead.items.map((p, i) => {
    const price = positionPrices[i];
    return positionLine(
      p,
      price?.ok === true ? centsAt(p.amount, p.token.decimals, price.price.scaled) : undefined,
    );
  });
  const cents = items.map((it, i) => {
    const p = prices[i];
    return p?.ok === true ? centsAt(it.amount, it.token.decimals, p.price.scaled) : undefined;
  });
  const pricedShares = shares(cents.filter((c): c is bigint => c !== undefined));
  let k = 0;
  const tokens: PortfolioToken[] = held.map((b, i) => {
    const p = prices[i] as PriceResult;
    const c = cents[i];
    if (!p.ok || c === undefined)
      return {
        ...b,
        price: null,
        value: null,
        share: null,
        ifSoldNow: null,
        unpriced: p.ok ? 'no price' : p.reason,
        cached: false,
      };
    const share = pricedShares[k++] as bigint;
    const usdc = findToken(endpoints.network, 'USDC');
    const out = p.price.usdcOut;
    return {
      ...b,
      price: { usd: priceText(p.price.scaled), scaled: p.price.scaled.toString() },
      value: { usd: usdText(c), cents: c.toString() },
      share: { percent: formatShare(share), units: Number(share) },
      ifSoldNow:
        out === undefined || usdc === undefined
          ? null
          : {
              usdc: formatAmount(out, usdc.decimals),
              baseUnits: out.toString(),
              impact:
                p.price.impactBps === undefined ? null : formatBpsAsPercent(p.price.impactBps),
              impactBps: p.price.impactBps ?? null,
            },
      unpriced: null,
      cached: p.price.cached,
    };
  });
  const total = cents.reduce<bigint>((s, c) => s + (c ?? 0n), 0n);
  const net = positions.reduce<bigint>((s, p) => s + BigInt(p.value?.cents ?? '0'), total);
  const unpriced = tokens
    .filter((t) => t.unpriced !== null)
    .map((t) => ({ symbol: t.symbol, reason: t.unpriced as string }));
  const used = prices.filter((p): p is { ok: true; price: TokenPrice } => p.ok);
  const oldest = used.reduce<number | undefined>(
    (o, p) => (o === undefined || p.price.quotedAt < o ? p.price.quotedAt : o),
    undefined,
  );
  const notes: string[] = [];
  if (unpriced.length > 0)
    notes.push(
      `${unpriced.map((u) => u.symbol).join(', ')} ${unpriced.length === 1 ? 'has' : 'have'} no price and ${unpriced.length === 1 ? 'is' : 'are'} left out of the total and the shares (not counted as 0)`,
    );
  notes.push(...positionRead.notes);
  if (liquidated.note !== null) notes.push(liquidated.note);
  if (positions.length > 0)
    notes.push(
      'positions (staked, supplied, collateral, debt) count in the net total only: a rebalance acts on wallet tokens only',
    );
  if (positions.some((p) => p.value === null))
    notes.push('unpriced position lines are left out of the net total (not counted as 0)');
  const thin = tokens.filter(
    (t) =>
      t.ifSoldNow?.impactBps !== null &&
      t.ifSoldNow !== null &&
      (t.ifSoldNow.impactBps ?? 0) > IMPACT_NOTE_BPS,
  );
  if (thin.length > 0)
    notes.push(
      `selling ${thin.map((t) => t.symbol).join(', ')} at once would fetch less than the value shown (price impact above ${formatBpsAsPercent(IMPACT_NOTE_BPS)})`,
    );
  return {
    network: read.network,
    sandbox: read.sandbox,
    address: read.address,
    email: read.email,
    tokens,
    total: { usd: usdText(total), cents: total.toString() },
    positions,
    liquidations: liquidated.liquidations,
    net: { usd: signedUsd(net), cents: net.toString() },
    unpriced,
    notes,
    pricing: {
      method: PRICING_METHOD,
      cacheSeconds: PRICE_CACHE_MS / 1000,
      pricesAsOf: oldest === undefined ? null : new Date(oldest).toISOString(),
      ageSeconds: oldest === undefined ? null : Math.max(0, Math.floor((now() - oldest) / 1000)),
      fromCache: used.filter((p) => p.price.cached).length,
    },
    asOf: new Date(now()).toISOString(),
  };
}

interface PricedHolding extends TokenAmount {
  /** cents at the aggregator's price; undefined when it has no price for the token */
  usdCents: bigint | undefined;
}

interface Holdings {
  /** the registry tokens the wallet holds (zero balances left out) */
  tokens: PricedHolding[];
  /** the priced tokens only */
  totalUsdCents: bigint;
  /** tokens without a price, left out of the total */
  unpriced: string[];
  asOf: string;
}

/** The session wallet's non-zero balances, each with its USD value where the aggregator has a price (the portfolio's figures). */
export async function holdings(
  endpoints: Endpoints,
  call: CallOptions = {},
  now: () => number = Date.now,
): Promise<Holdings> {
  const p = await portfolio(endpoints, { now }, call);
  return {
    tokens: p.tokens.map(({ symbol, address, decimals, amount, baseUnits, value }) => ({
      symbol,
      address,
      decimals,
      amount,
      baseUnits,
      usdCents: value === null ? undefined : BigInt(value.cents),
    })),
    totalUsdCents: BigInt(p.total.cents),
    unpriced: p.unpriced.map((u) => u.symbol),
    asOf: p.asOf,
  };
}
