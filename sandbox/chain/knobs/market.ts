/**
 * The sandbox chain's market knobs (docs/sandbox-chain.md "Knobs"): a token's price on the lending
 * oracle, Pragma's oracle and the market (or one alone), and the sandbox's liquidator liquidating a
 * position. Sandbox-only: our server never exposes them.
 */
import type { FastifyInstance } from 'fastify';
import * as Type from 'typebox';
import { formatAmount, parseAmount } from '../../../shared/amount.js';
import { PRICE_SOURCES, type PriceSource } from '../../../shared/sandbox.js';
import { addressToBigInt, findToken } from '../../../shared/tokens.js';
import { fromI257Felts } from '../../../shared/vesu.js';
import { type Chain, LiquidationRefused } from '../chain.js';

const PriceBody = Type.Object(
  {
    token: Type.String({ maxLength: 80 }),
    /** USD per whole token, a plain decimal (at most 18 decimals) */
    usd: Type.String({ maxLength: 100 }),
    /** false: the lending oracle answers the price with is_valid = false, Pragma's has no entries */
    valid: Type.Optional(Type.Boolean()),
    /** move only this source (shared/sandbox.ts PRICE_SOURCES); all three without it */
    only: Type.Optional(Type.Union(PRICE_SOURCES.map((s) => Type.Literal(s)))),
  },
  { additionalProperties: false },
);
const LiquidateBody = Type.Object(
  {
    collateral: Type.String({ maxLength: 80 }),
    debt: Type.String({ maxLength: 80 }),
    /** the position's owner */
    user: Type.String({ maxLength: 80 }),
    /** debt asset units to repay (a plain decimal); absent: all of it */
    debtToRepay: Type.Optional(Type.String({ maxLength: 100 })),
    /** collateral asset units the liquidator takes at least (a plain decimal); absent: 0 */
    minCollateral: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);

export function registerMarketKnobs(app: FastifyInstance, { chain }: { chain: Chain }): void {
  app.post('/sandbox/chain/price', { schema: { body: PriceBody } }, async (request, reply) => {
    const body = request.body as {
      token: string;
      usd: string;
      valid?: boolean;
      only?: PriceSource;
    };
    const token = findToken(chain.network, body.token);
    if (token === undefined)
      return reply.code(400).send({ error: 'unknown token', code: 'invalid_body' });
    let usd: bigint;
    try {
      usd = parseAmount(body.usd, 18);
    } catch {
      return reply.code(400).send({
        error: 'usd must be a positive plain decimal with at most 18 decimals',
        code: 'invalid_body',
      });
    }
    try {
      const set = chain.setPrice(token, usd, body.valid ?? true, body.only);
      return {
        token: token.address,
        symbol: token.symbol,
        usd: formatAmount(set.usd, 18),
        ...(set.marketUsd === undefined ? {} : { marketUsd: formatAmount(set.marketUsd, 18) }),
        valid: body.valid ?? true,
        ...(body.only === undefined ? {} : { only: body.only }),
      };
    } catch (error) {
      return reply.code(400).send({
        error: error instanceof RangeError ? error.message : 'price not set',
        code: 'invalid_body',
      });
    }
  });

  app.post(
    '/sandbox/chain/liquidate',
    { schema: { body: LiquidateBody } },
    async (request, reply) => {
      const body = request.body as {
        collateral: string;
        debt: string;
        user: string;
        debtToRepay?: string;
        minCollateral?: string;
      };
      const collateral = findToken('mainnet', body.collateral);
      const debt = findToken('mainnet', body.debt);
      const user = addressToBigInt(body.user);
      if (collateral === undefined || debt === undefined || collateral === debt)
        return reply
          .code(400)
          .send({ error: 'two different registry tokens are needed', code: 'invalid_body' });
      if (user === undefined || user === 0n)
        return reply.code(400).send({ error: 'user must be an address', code: 'invalid_body' });
      let debtToRepay: bigint | undefined;
      let minCollateral: bigint | undefined;
      try {
        if (body.debtToRepay !== undefined)
          debtToRepay = parseAmount(body.debtToRepay, debt.decimals);
        if (body.minCollateral !== undefined)
          minCollateral = parseAmount(body.minCollateral, collateral.decimals);
      } catch {
        return reply.code(400).send({
          error: 'amounts must be positive decimals in token units',
          code: 'invalid_body',
        });
      }
      try {
        const { record, result } = chain.liquidate({
          collateral,
          debt,
          user,
          debtToRepay,
          minCollateral,
        });
        // UpdatePositionResponse: four i257 (3 felts each), bad_debt u256
        const i257 = (at: number): bigint =>
          fromI257Felts(result[at] ?? -1n, result[at + 1] ?? -1n, result[at + 2] ?? -1n) ?? 0n;
        const badDebt = (result[12] ?? 0n) + ((result[13] ?? 0n) << 128n);
        const pool = chain.vesu.pool;
        const c = pool.assets.get(BigInt(collateral.address));
        const d = pool.assets.get(BigInt(debt.address));
        const left =
          c === undefined || d === undefined
            ? { collateral: 0n, debt: 0n }
            : pool.amounts(chain.ledger, c, d, user);
        return {
          transactionHash: `0x${record.hash.toString(16).padStart(64, '0')}`,
          collateral: collateral.symbol,
          debt: debt.symbol,
          user: `0x${user.toString(16).padStart(64, '0')}`,
          collateralSeized: (-i257(0)).toString(),
          debtRepaid: (-i257(6)).toString(),
          badDebt: badDebt.toString(),
          collateralLeft: left.collateral.toString(),
          debtLeft: left.debt.toString(),
        };
      } catch (error) {
        if (!(error instanceof LiquidationRefused)) throw error;
        return reply.code(409).send({ error: error.message, code: error.reason });
      }
    },
  );
}
