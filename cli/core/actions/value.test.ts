import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import { resolveToken } from '../../../shared/tokens.js';
import type { AggregatorClient, Route } from '../../clients/aggregator.js';
import { ETH, routeOf, STRK, USDC } from '../../../test/helpers/swap-fixtures.js';
import { judge, PRICE_AGREEMENT_BPS, valueOutflows } from './value.js';

const USDT = resolveToken('mainnet', 'USDT');
const DAI = resolveToken('mainnet', 'DAI');
const ONE_ETH = 10n ** 18n;

/** An aggregator whose ETH → USDC route pays $3000 an ETH, its price field `price`; it counts requests. */
function aggregator(
  price: unknown,
  shape: (r: { amount: bigint; tokenIn: string; tokenOut: string }) => Route = (r) =>
    routeOf(ETH, USDC, r.amount, (r.amount * 3_000n) / 10n ** 12n, { prices: [price, 1] }),
): AggregatorClient & { asked: number } {
  const client = {
    network: 'mainnet',
    asked: 0,
    getRoute: async (r: { amount: bigint; tokenIn: string; tokenOut: string }) => {
      client.asked += 1;
      if (r.tokenIn !== ETH.address || r.tokenOut !== USDC.address) throw new Error('no route');
      return shape(r);
    },
  };
  return client as unknown as AggregatorClient & { asked: number };
}

const failure = (work: Promise<unknown>): Promise<AppError> =>
  work.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e as AppError,
  );

describe('valueOutflows: what a route itself exchanges, the price field checked against it', () => {
  it('stablecoins count at face value and ask nothing', async () => {
    const agg = aggregator(3000);
    const v = await valueOutflows(
      [
        { token: USDC, amount: 12_345_678n },
        { token: USDT, amount: 1n },
        { token: DAI, amount: 5n * 10n ** 17n },
      ],
      agg,
    );
    expect(v.cents).toBe(1_234n + 0n + 50n);
    expect(v.outflows.map((o) => o.basis)).toEqual(['face', 'face', 'face']);
    expect(agg.asked).toBe(0);
  });

  it('a token is valued at its route into USDC when the price field agrees', async () => {
    const v = await valueOutflows([{ token: ETH, amount: 2n * ONE_ETH }], aggregator('3000'));
    expect(v.cents).toBe(600_000n);
    expect(v.outflows[0]?.basis).toBe('route');
  });

  it('a swap into a stablecoin uses its own route: no request', async () => {
    const agg = aggregator(3000);
    const v = await valueOutflows(
      [
        {
          token: ETH,
          amount: ONE_ETH,
          quote: { to: USDC, grossOutput: 2_990_000_000n, inputPrice: 3000 },
        },
      ],
      agg,
    );
    // the price field says more than the route pays (its impact): the higher counts
    expect(v.cents).toBe(300_000n);
    expect(v.outflows[0]?.basis).toBe('price');
    expect(agg.asked).toBe(0);
  });

  it('a swap into another token is valued at a route of its input into USDC', async () => {
    const agg = aggregator(3000);
    const v = await valueOutflows(
      [{ token: ETH, amount: ONE_ETH, quote: { to: STRK, grossOutput: 1n, inputPrice: 3000 } }],
      agg,
    );
    expect(v.cents).toBe(300_000n);
    expect(agg.asked).toBe(1);
  });

  it('a price field a millionth of the route rate is refused (the issue 27 proxy), naming both figures', async () => {
    const error = await failure(
      valueOutflows([{ token: ETH, amount: ONE_ETH }], aggregator('0.003')),
    );
    expect(error).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      details: { reason: 'prices-disagree', tokens: ['ETH'], toleranceBps: 500 },
    });
    expect(error.message).toMatch(/ETH at \$0 by its USD price but \$3000 by what its route pays/);
    expect(error.message).toMatch(/more than 5% apart/);
  });

  it('the tolerance edge: 5 % below the route passes, one cent more is refused', () => {
    const outflow = { token: ETH, amount: ONE_ETH };
    const route = 10_000n;
    const edge = (route * (10_000n - PRICE_AGREEMENT_BPS)) / 10_000n;
    expect(judge(outflow, route, '95').ok).toBe(true);
    expect(edge).toBe(9_500n);
    expect(judge(outflow, route, '94.99')).toMatchObject({ ok: false, why: 'disagree' });
  });

  it('no price field: the route alone values it', async () => {
    const v = await valueOutflows([{ token: ETH, amount: ONE_ETH }], aggregator(undefined));
    expect(v.cents).toBe(300_000n);
  });

  it('fails closed: no route, a route for another amount or into another token, a zero amount', async () => {
    for (const agg of [
      aggregator(3000, () => {
        throw new Error('down');
      }),
      aggregator(3000, (r) => routeOf(ETH, USDC, r.amount / 2n, 3_000_000_000n)),
      aggregator(3000, (r) => routeOf(ETH, USDT, r.amount, 3_000_000_000n)),
    ]) {
      const error = await failure(valueOutflows([{ token: ETH, amount: ONE_ETH }], agg));
      expect(error).toMatchObject({
        code: 'LIMIT_EXCEEDED',
        details: { reason: 'unpriced', unpriced: ['ETH'] },
      });
    }
    expect(
      (await failure(valueOutflows([{ token: STRK, amount: 0n }], aggregator(3000)))).code,
    ).toBe('LIMIT_EXCEEDED');
  });
});
