import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { priceImpactBps } from '../../shared/fees.js';
import { decodeSwapCalldataTail } from '../../shared/swap-calldata.js';
import { listTokens, resolveToken } from '../../shared/tokens.js';
import { fileSchemaCompilers } from '../../test/helpers/schema-compilers.js';
import { buildAggregatorEmulator } from './app.js';
import { DEFAULT_POOLS, type PoolSpec, resolvePools } from './pools.js';
import { spotPrices } from './router.js';
import type { WireRouteResponse } from './wire.js';

const ETH = resolveToken('mainnet', 'ETH').address;
const USDC = resolveToken('mainnet', 'USDC').address;
const DAI = resolveToken('mainnet', 'DAI').address;
const WBTC = resolveToken('mainnet', 'WBTC').address;
const E18 = 10n ** 18n;
const E6 = 10n ** 6n;

/** Price impact (bps) of a route the emulator returned for `amountIn` of a `decimalsIn` token. */
function impactOf(
  body: WireRouteResponse,
  amountIn: bigint,
  decimalsIn: number,
  decimalsOut: number,
): number | undefined {
  return priceImpactBps({
    amountIn,
    decimalsIn,
    priceIn: body.inputToken.price,
    amountOut: BigInt(body.outputAmount),
    decimalsOut,
    priceOut: body.outputToken.price,
  });
}

/** The constant-product formula, written out again here so the test does not trust pools.ts. */
function cp(amountIn: bigint, reserveIn: bigint, reserveOut: bigint, feeBps: bigint): bigint {
  const x = amountIn * (10_000n - feeBps);
  return (x * reserveOut) / (reserveIn * 10_000n + x);
}

async function quote(
  pools: PoolSpec[] | undefined,
  amount: bigint,
  tokenIn: string,
  tokenOut: string,
): Promise<WireRouteResponse> {
  const app = await buildAggregatorEmulator({
    ...(pools ? { pools } : {}),
    schemaController: fileSchemaCompilers,
  });
  try {
    const response = await app.inject(
      `/route?amount=${amount}&tokenInAddress=${tokenIn}&tokenOutAddress=${tokenOut}`,
    );
    expect(response.statusCode).toBe(200);
    const body = response.json() as WireRouteResponse;
    expect(body.success).toBe(true);
    return body;
  } finally {
    await app.close();
  }
}

describe('aggregator emulator', () => {
  it('quotes exactly what the pool returns', async () => {
    const pools: PoolSpec[] = [
      {
        tokenA: 'ETH',
        tokenB: 'USDC',
        reserveA: 1000n * E18,
        reserveB: 3_000_000n * E6,
        feeBps: 30,
      },
    ];
    const body = await quote(pools, 5n * E18, ETH, USDC);
    expect(BigInt(body.outputAmount)).toBe(cp(5n * E18, 1000n * E18, 3_000_000n * E6, 30n));
    expect(body.route).toHaveLength(1);
    expect(body.route[0]?.percent).toBe('100%');
    expect(body.inputToken.price).toBe(3000);
    expect(body.outputToken.decimals).toBe(6);
  });

  it('splits across two pools when that returns more than the best single path', async () => {
    // Two equally deep pools: a trade that moves one pool a lot does better halved.
    const pools: PoolSpec[] = [
      { tokenA: 'ETH', tokenB: 'USDC', reserveA: 100n * E18, reserveB: 300_000n * E6, feeBps: 30 },
      { tokenA: 'ETH', tokenB: 'USDC', reserveA: 100n * E18, reserveB: 300_000n * E6, feeBps: 5 },
    ];
    const amount = 20n * E18;
    const body = await quote(pools, amount, ETH, USDC);
    const slow = cp(amount, 100n * E18, 300_000n * E6, 30n);
    const cheap = cp(amount, 100n * E18, 300_000n * E6, 5n);
    const bestSingle = slow > cheap ? slow : cheap;
    expect(body.route).toHaveLength(2);
    expect(BigInt(body.outputAmount) > bestSingle).toBe(true);
    // The legs' sum is what the two pools really return for the reported percents.
    const legOut = body.route.map((leg) => {
      const percent = BigInt(leg.percent.replace('%', ''));
      const fee = leg.swaps[0]?.[0]?.poolName.includes('5bps') ? 5n : 30n;
      return { percent, fee };
    });
    const first = legOut[0];
    const second = legOut[1];
    if (first === undefined || second === undefined) throw new Error('two legs expected');
    expect(first.percent + second.percent).toBe(100n);
    const inFirst = (amount * first.percent) / 100n;
    const expected =
      cp(inFirst, 100n * E18, 300_000n * E6, first.fee) +
      cp(amount - inFirst, 100n * E18, 300_000n * E6, second.fee);
    expect(BigInt(body.outputAmount)).toBe(expected);
  });

  it('routes a pair with no common pool through two hops (WBTC → USDC → DAI by default)', async () => {
    const body = await quote(undefined, 10n ** 7n, WBTC, DAI);
    expect(body.route).toHaveLength(1);
    const hops = body.route[0]?.swaps ?? [];
    expect(hops).toHaveLength(2);
    expect(hops[0]?.[0]?.toTokenAddress).toBe(USDC);
    expect(hops[1]?.[0]?.fromTokenAddress).toBe(USDC);
    // Default reserves: WBTC/USDC 20 / 1 800 000 at 30 bps, DAI/USDC 2 000 000 / 2 000 000 at 5 bps.
    const usdc = cp(10n ** 7n, 20n * 10n ** 8n, 1_800_000n * E6, 30n);
    expect(BigInt(body.outputAmount)).toBe(cp(usdc, 2_000_000n * E6, 2_000_000n * E18, 5n));
  });

  it('builds calldata in the router layout with min_received from the slippage and the destination', async () => {
    const app = await buildAggregatorEmulator({ schemaController: fileSchemaCompilers });
    const destination = '0x0777';
    const response = await app.inject(
      `/calldata?amount=${3n * E18}&tokenInAddress=${ETH}&tokenOutAddress=${DAI}&slippage=0.5&destination=${destination}`,
    );
    await app.close();
    expect(response.statusCode).toBe(200);
    const { route, calldata } = response.json() as { route: WireRouteResponse; calldata: string[] };
    const swapCount = route.route.reduce((n, leg) => n + leg.swaps.length, 0);
    expect(calldata[0]).toBe(String(swapCount));
    expect(calldata).toHaveLength(1 + 5 * swapCount + 7);
    const tail = decodeSwapCalldataTail(calldata);
    expect(tail).toEqual({
      tokenIn: BigInt(ETH),
      tokenOut: BigInt(DAI),
      amountIn: 3n * E18,
      minReceived: (BigInt(route.outputAmount) * 9950n) / 10000n,
      destination: 0x777n,
    });
    // The low/high halves are on the wire as two felts.
    expect(calldata.at(-5)).toBe(String(3n * E18));
    expect(calldata.at(-4)).toBe('0');
  });

  it.each([
    ['missing amount', `/route?tokenInAddress=${ETH}&tokenOutAddress=${USDC}`],
    ['zero amount', `/route?amount=0&tokenInAddress=${ETH}&tokenOutAddress=${USDC}`],
    ['decimal amount', `/route?amount=1.5&tokenInAddress=${ETH}&tokenOutAddress=${USDC}`],
    ['bad address', `/route?amount=1&tokenInAddress=ETH&tokenOutAddress=${USDC}`],
    ['repeated param', `/route?amount=1&amount=2&tokenInAddress=${ETH}&tokenOutAddress=${USDC}`],
    [
      'slippage too high',
      `/calldata?amount=1&tokenInAddress=${ETH}&tokenOutAddress=${USDC}&slippage=60&destination=0x1`,
    ],
    [
      'no destination',
      `/calldata?amount=1&tokenInAddress=${ETH}&tokenOutAddress=${USDC}&slippage=1`,
    ],
    [
      'batch lengths differ',
      `/routeBatch?amounts=1,2&tokenInAddresses=${ETH}&tokenOutAddresses=${USDC}`,
    ],
    [
      'batch two outputs',
      `/routeBatch?amounts=1,2&tokenInAddresses=${ETH},${DAI}&tokenOutAddresses=${USDC},${WBTC}`,
    ],
  ])('rejects %s with 400 and an error body', async (_name, url) => {
    const app = await buildAggregatorEmulator({ schemaController: fileSchemaCompilers });
    const response = await app.inject(url);
    await app.close();
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: expect.any(String) });
  });

  it('answers {success:false} for routeless pairs (option and admin route) and serves health', async () => {
    const app = await buildAggregatorEmulator({
      noRoutePairs: [['ETH', 'USDC']],
      schemaController: fileSchemaCompilers,
    });
    try {
      const none = await app.inject(
        `/route?amount=${E18}&tokenInAddress=${USDC}&tokenOutAddress=${ETH}`,
      );
      expect(none.json()).toMatchObject({
        success: false,
        errorMessage: expect.stringContaining('No route'),
      });
      const admin = await app.inject({
        method: 'POST',
        url: '/sandbox/no-route',
        payload: { tokenIn: 'WBTC', tokenOut: 'DAI' },
      });
      expect(admin.statusCode).toBe(200);
      const batch = await app.inject(
        `/routeBatch?amounts=${E18},${10n ** 7n}&tokenInAddresses=${ETH},${WBTC}&tokenOutAddresses=${DAI}`,
      );
      const items = batch.json() as Array<{ success: boolean }>;
      expect(items.map((i) => i.success)).toEqual([true, false]);
      for (const path of ['/healthCheck', '/healthcheck']) {
        expect((await app.inject(path)).json()).toMatchObject({
          staus: 200,
          message: expect.any(String),
        });
      }
    } finally {
      await app.close();
    }
  });
});

describe('aggregator emulator: prices and price impact', () => {
  const pools = resolvePools(DEFAULT_POOLS);
  const prices = spotPrices(pools, USDC);
  const feeOf = new Map(pools.map((p) => [p.address, BigInt(p.feeBps)]));
  const tokens = listTokens('mainnet');

  it('quotes USD prices consistent with every default pool (an arbitraged market)', () => {
    for (const pool of pools) {
      const a = prices.get(pool.tokenA.address);
      const b = prices.get(pool.tokenB.address);
      if (a === undefined || b === undefined) throw new Error(`unpriced pool ${pool.name}`);
      // value of reserve A == value of reserve B at the quoted prices (cross-multiplied, exact)
      const valueA = pool.reserveA * a * 10n ** BigInt(pool.tokenB.decimals);
      const valueB = pool.reserveB * b * 10n ** BigInt(pool.tokenA.decimals);
      expect(valueA, pool.name).toBe(valueB);
    }
  });

  /** 1 − Π(1 − fee) over each leg's hops, weighted by the leg's percent, in bps (truncated). */
  function routeFeeBps(body: WireRouteResponse): number {
    // Each leg's kept share is scaled to the deepest leg: × 10^4 per hop, × 100 for the percent.
    const depth = Math.max(...body.route.map((leg) => leg.swaps.length));
    const scale = 10_000n ** BigInt(depth) * 100n;
    let kept = 0n;
    for (const leg of body.route) {
      let legKept = BigInt(leg.percent.replace('%', ''));
      for (const hop of leg.swaps)
        legKept *= 10_000n - (feeOf.get(hop[0]?.poolAddress ?? '') ?? 0n);
      kept += legKept * 10_000n ** BigInt(depth - leg.swaps.length);
    }
    return Number(((scale - kept) * 10_000n) / scale);
  }

  it('a small trade between any two tokens shows an impact of about the pools fees, never negative', async () => {
    const app = await buildAggregatorEmulator({ schemaController: fileSchemaCompilers });
    try {
      for (const from of tokens) {
        for (const to of tokens) {
          if (from === to) continue;
          // about 10 USD worth of `from`
          const price = prices.get(from.address) ?? 0n;
          const amount = (10n * 10n ** 18n * 10n ** BigInt(from.decimals)) / price;
          const body = (
            await app.inject(
              `/route?amount=${amount}&tokenInAddress=${from.address}&tokenOutAddress=${to.address}`,
            )
          ).json() as WireRouteResponse;
          expect(body.success, `${from.symbol}>${to.symbol}`).toBe(true);
          const impact = impactOf(body, amount, from.decimals, to.decimals);
          if (impact === undefined) throw new Error(`no impact for ${from.symbol}>${to.symbol}`);
          expect(impact, `${from.symbol}>${to.symbol}`).toBeGreaterThanOrEqual(0);
          expect(
            Math.abs(impact - routeFeeBps(body)),
            `${from.symbol}>${to.symbol}: ${impact} bps vs fees ${routeFeeBps(body)}`,
          ).toBeLessThanOrEqual(1);
        }
      }
      // The finding that started this: 100 USDC → ETH goes through the 5 bps pool and shows ≈ 0.05 %.
      const body = (
        await app.inject(`/route?amount=${100n * E6}&tokenInAddress=${USDC}&tokenOutAddress=${ETH}`)
      ).json() as WireRouteResponse;
      const impact = impactOf(body, 100n * E6, 6, 18);
      expect(body.route[0]?.swaps[0]?.[0]?.poolName).toContain('5bps');
      expect(impact).toBe(5);
    } finally {
      await app.close();
    }
  });

  it('impact is never negative, whatever the size and pair (fast-check)', async () => {
    const app = await buildAggregatorEmulator({ schemaController: fileSchemaCompilers });
    try {
      // Sizes spread over every order of magnitude (d × 10^e base units), dust to whale.
      const size = fc
        .tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 24 }))
        .map(([d, e]) => BigInt(d) * 10n ** BigInt(e));
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...tokens),
          fc.constantFrom(...tokens),
          size,
          async (from, to, amount) => {
            fc.pre(from !== to);
            const body = (
              await app.inject(
                `/route?amount=${amount}&tokenInAddress=${from.address}&tokenOutAddress=${to.address}`,
              )
            ).json() as WireRouteResponse;
            if (!body.success) return;
            const impact = impactOf(body, amount, from.decimals, to.decimals);
            if (impact !== undefined) expect(impact).toBeGreaterThanOrEqual(0);
          },
        ),
        { numRuns: 500 },
      );
    } finally {
      await app.close();
    }
  });
});
