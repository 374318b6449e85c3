/**
 * The sandbox chain's execution knobs (docs/sandbox-chain.md "Knobs"): the next executions
 * reverted, the gas price (now or right after the next build), the confirmation delay, the
 * paymaster's tamper knob, and `GET /sandbox/chain/state`. Sandbox-only: our server never exposes
 * them.
 */
import type { FastifyInstance } from 'fastify';
import * as Type from 'typebox';
import type { Chain } from '../chain.js';
import type { createPaymaster, TamperMode } from '../paymaster.js';

const Digits = Type.String({ pattern: '^[0-9]{1,40}$' });
const RevertBody = Type.Object(
  {
    count: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
const GasPriceBody = Type.Object(
  {
    l1GasPrice: Type.Optional(Digits),
    l1DataGasPrice: Type.Optional(Digits),
    l2GasPrice: Type.Optional(Digits),
    afterNextBuild: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const DelayBody = Type.Object(
  {
    ms: Type.Integer({ minimum: 0, maximum: 600_000 }),
    /** the transactions held back so far become visible at once */
    release: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const TamperBody = Type.Object(
  {
    mode: Type.Union([
      Type.Literal('calldata'),
      Type.Literal('extra-call'),
      Type.Literal('fee-amount'),
      Type.Literal('chain-id'),
      Type.Literal('selector-text'),
      Type.Literal('off'),
    ]),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
);

interface KnobDeps {
  chain: Chain;
  paymaster: Pick<ReturnType<typeof createPaymaster>, 'knobs' | 'builds'>;
}

export function registerExecutionKnobs(app: FastifyInstance, { chain, paymaster }: KnobDeps): void {
  app.post('/sandbox/chain/revert-next', { schema: { body: RevertBody } }, async (request) => {
    const body = request.body as { count?: number; reason?: string };
    chain.revertNext = { count: body.count ?? 1, reason: body.reason ?? 'sandbox: forced revert' };
    return chain.revertNext;
  });

  app.post('/sandbox/chain/gas-price', { schema: { body: GasPriceBody } }, async (request) => {
    const body = request.body as {
      l1GasPrice?: string;
      l1DataGasPrice?: string;
      l2GasPrice?: string;
      afterNextBuild?: boolean;
    };
    const next = {
      l1: body.l1GasPrice === undefined ? chain.gasPrices.l1 : BigInt(body.l1GasPrice),
      l1Data:
        body.l1DataGasPrice === undefined ? chain.gasPrices.l1Data : BigInt(body.l1DataGasPrice),
      l2: body.l2GasPrice === undefined ? chain.gasPrices.l2 : BigInt(body.l2GasPrice),
    };
    if (body.afterNextBuild === true) paymaster.knobs.gasPricesAfterNextBuild = next;
    else chain.gasPrices = next;
    return {
      l1GasPrice: next.l1.toString(),
      l1DataGasPrice: next.l1Data.toString(),
      l2GasPrice: next.l2.toString(),
      afterNextBuild: body.afterNextBuild === true,
    };
  });

  app.post('/sandbox/chain/confirm-delay', { schema: { body: DelayBody } }, async (request) => {
    const body = request.body as { ms: number; release?: boolean };
    chain.confirmDelayMs = body.ms;
    if (body.release === true) for (const tx of chain.ledger.transactions()) tx.visibleAt = 0;
    return { ms: chain.confirmDelayMs };
  });

  app.post('/sandbox/paymaster/tamper', { schema: { body: TamperBody } }, async (request) => {
    const body = request.body as { mode: TamperMode | 'off'; count?: number };
    paymaster.knobs.tamper =
      body.mode === 'off' ? undefined : { mode: body.mode, count: body.count ?? 1 };
    return { tamper: paymaster.knobs.tamper ?? null };
  });

  app.get('/sandbox/chain/state', async () => ({
    blockNumber: chain.ledger.blockNumber,
    transactions: chain.ledger.transactionCount,
    pendingBuilds: paymaster.builds(),
    gasPrices: {
      l1: chain.gasPrices.l1.toString(),
      l1Data: chain.gasPrices.l1Data.toString(),
      l2: chain.gasPrices.l2.toString(),
    },
    revertNext: chain.revertNext,
    confirmDelayMs: chain.confirmDelayMs,
    chainTime: Number(chain.chainTime()),
  }));
}
