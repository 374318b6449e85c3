/**
 * The sandbox chain's ledger knobs (docs/sandbox-chain.md "Knobs"): mint and fund a wallet, a
 * third party's trade (now or just before the next execution), the chain's clock, and a staker's
 * removal. Sandbox-only: our server never exposes them.
 */
import type { FastifyInstance } from 'fastify';
import * as Type from 'typebox';
import { parseAmount } from '../../../shared/amount.js';
import { addressToBigInt, findToken } from '../../../shared/tokens.js';
import type { Chain } from '../chain.js';
import { Revert, revertReason } from '../executor.js';

const MintBody = Type.Object(
  {
    address: Type.String({ maxLength: 80 }),
    token: Type.String({ maxLength: 80 }),
    amount: Type.String({ maxLength: 100 }),
  },
  { additionalProperties: false },
);
const FundBody = Type.Object(
  { address: Type.String({ maxLength: 80 }) },
  { additionalProperties: false },
);
const TradeBody = Type.Object(
  {
    tokenIn: Type.String({ maxLength: 80 }),
    tokenOut: Type.String({ maxLength: 80 }),
    amount: Type.String({ maxLength: 100 }),
    when: Type.Optional(Type.Union([Type.Literal('now'), Type.Literal('before-next-execution')])),
  },
  { additionalProperties: false },
);
/** The longest single move of the clock `sandbox advance` takes (400 days). */
const MAX_ADVANCE_SECONDS = 400 * 86_400;
const AdvanceBody = Type.Object(
  { seconds: Type.Integer({ minimum: 1, maximum: MAX_ADVANCE_SECONDS }) },
  { additionalProperties: false },
);
const RemoveStakerBody = Type.Object(
  { staker: Type.String({ pattern: '^0x[0-9a-fA-F]{1,64}$' }) },
  { additionalProperties: false },
);

export function registerLedgerKnobs(app: FastifyInstance, { chain }: { chain: Chain }): void {
  app.post('/sandbox/chain/mint', { schema: { body: MintBody } }, async (request, reply) => {
    const body = request.body as { address: string; token: string; amount: string };
    const owner = addressToBigInt(body.address);
    const token = findToken(chain.network, body.token);
    if (owner === undefined || token === undefined)
      return reply.code(400).send({ error: 'unknown token or bad address', code: 'invalid_body' });
    let amount: bigint;
    try {
      amount = parseAmount(body.amount, token.decimals);
    } catch {
      return reply
        .code(400)
        .send({ error: 'amount must be a positive decimal in token units', code: 'invalid_body' });
    }
    chain.ledger.mint(BigInt(token.address), owner, amount);
    return {
      token: token.address,
      amount: amount.toString(),
      balance: chain.ledger.balanceOf(BigInt(token.address), owner).toString(),
    };
  });

  app.post('/sandbox/chain/fund', { schema: { body: FundBody } }, async (request, reply) => {
    const owner = addressToBigInt((request.body as { address: string }).address);
    if (owner === undefined)
      return reply.code(400).send({ error: 'bad address', code: 'invalid_body' });
    return { funded: chain.fund(owner) };
  });

  app.post('/sandbox/chain/trade', { schema: { body: TradeBody } }, async (request, reply) => {
    const body = request.body as {
      tokenIn: string;
      tokenOut: string;
      amount: string;
      when?: 'now' | 'before-next-execution';
    };
    const tokenIn = findToken('mainnet', body.tokenIn);
    const tokenOut = findToken('mainnet', body.tokenOut);
    if (tokenIn === undefined || tokenOut === undefined || tokenIn === tokenOut)
      return reply
        .code(400)
        .send({ error: 'two different registry tokens are needed', code: 'invalid_body' });
    let amount: bigint;
    try {
      amount = parseAmount(body.amount, tokenIn.decimals);
    } catch {
      return reply
        .code(400)
        .send({ error: 'amount must be a positive decimal in token units', code: 'invalid_body' });
    }
    const trade = (): bigint => chain.thirdPartySwap(tokenIn, tokenOut, amount);
    if (body.when === 'before-next-execution') {
      chain.beforeNextExecution.push(() => {
        trade();
      });
      return { scheduled: true };
    }
    try {
      return { amountOut: trade().toString() };
    } catch (error) {
      return reply.code(400).send({
        error: error instanceof Error ? error.message : 'trade failed',
        code: 'invalid_body',
      });
    }
  });

  app.post('/sandbox/chain/advance', { schema: { body: AdvanceBody } }, async (request) => {
    const { seconds } = request.body as { seconds: number };
    const chainTime = chain.advance(seconds);
    return { advancedBy: seconds, chainTime: Number(chainTime) };
  });

  app.post(
    '/sandbox/chain/remove-staker',
    { schema: { body: RemoveStakerBody } },
    async (request, reply) => {
      const staker = addressToBigInt((request.body as { staker: string }).staker);
      if (staker === undefined)
        return reply.code(400).send({ error: 'not an address', code: 'invalid_body' });
      try {
        const events = chain.removeStaker(staker);
        const hex = (v: bigint): string => `0x${v.toString(16)}`;
        return {
          staker: hex(staker),
          events: events.map((e) => ({
            from: hex(e.from),
            keys: e.keys.map(hex),
            data: e.data.map(hex),
          })),
        };
      } catch (error) {
        // STAKER_NOT_EXISTS: not a staker of the contract, or already removed
        return reply.code(400).send({
          error: error instanceof Revert ? revertReason(error) : 'staker not removed',
          code: 'invalid_body',
        });
      }
    },
  );
}
