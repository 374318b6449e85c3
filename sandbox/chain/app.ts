/**
 * The chain + paymaster emulator as a Fastify app factory (returned without listening):
 * - `POST /rpc`: Starknet JSON-RPC (rpc.ts) — the client's `rpcUrl`;
 * - `POST /paymaster`: SNIP-29 (paymaster.ts) — what our auth server relays to;
 * - sandbox-only knobs under `/sandbox/…` (docs/sandbox-chain.md "Knobs"), never exposed by our server:
 *   `POST /sandbox/faults` (latency; "down" = failNext with a large count), `/sandbox/chain/revert-next`,
 *   `/sandbox/chain/gas-price`, `/sandbox/chain/confirm-delay`, `/sandbox/chain/mint`,
 *   `/sandbox/chain/fund`, `/sandbox/chain/trade`, `/sandbox/chain/advance` (the chain's clock),
 *   `/sandbox/chain/price` (a token's price on the lending oracle, Pragma's oracle and the market, or one alone),
 *   `/sandbox/chain/liquidate` (the sandbox's liquidator liquidates a position),
 *   `/sandbox/chain/remove-staker` (a staker's removal, as the staking contract's unstake_action),
 *   `/sandbox/paymaster/tamper`, and `GET /sandbox/chain/state`.
 *
 * Bounds: 1 MB bodies, 20 requests per batch, 32 calls per transaction, 30 s per request.
 */
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import Type from 'typebox';
import { formatAmount, parseAmount } from '../../shared/amount.js';
import { addressToBigInt, findToken, type Network } from '../../shared/tokens.js';
import type { Pool } from '../aggregator/pools.js';
import { type FaultSettings, faults } from '../faults.js';
import { Chain, LiquidationRefused } from './chain.js';
import { fromI257Felts } from '../../shared/vesu.js';
import { PRICE_SOURCES, type PriceSource } from '../../shared/sandbox.js';
import { Revert, revertReason } from './executor.js';
import { dispatch, type MethodTable } from './jsonrpc.js';
import { createPaymaster, type PaymasterKnobs, type TamperMode } from './paymaster.js';
import { starknetMethods } from './rpc.js';

export interface ChainEmulatorOptions {
  /** the pool objects the aggregator emulator quotes from (shared: trades move its quotes) */
  pools: Pool[];
  /** when set, sponsored mode needs this `x-paymaster-api-key` */
  paymasterApiKey?: string;
  faults?: FaultSettings;
  now?: () => number;
  logger?: boolean;
  /** the network the chain is shaped like (chain.ts ChainOptions.network); mainnet by default */
  network?: Network;
}

declare module 'fastify' {
  interface FastifyInstance {
    chain: Chain;
    paymasterKnobs: PaymasterKnobs;
  }
}

export const BODY_LIMIT_BYTES = 1_048_576;

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
/** The longest single move of the clock `sandbox advance` takes (400 days). */
export const MAX_ADVANCE_SECONDS = 400 * 86_400;
const AdvanceBody = Type.Object(
  { seconds: Type.Integer({ minimum: 1, maximum: MAX_ADVANCE_SECONDS }) },
  { additionalProperties: false },
);
const RemoveStakerBody = Type.Object(
  { staker: Type.String({ pattern: '^0x[0-9a-fA-F]{1,64}$' }) },
  { additionalProperties: false },
);
const TamperBody = Type.Object(
  {
    mode: Type.Union([
      Type.Literal('calldata'),
      Type.Literal('extra-call'),
      Type.Literal('fee-amount'),
      Type.Literal('chain-id'),
      Type.Literal('off'),
    ]),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
);

function rpcRoute(app: FastifyInstance, path: string, methods: MethodTable): void {
  app.post(path, async (request, reply) => {
    const response = await dispatch(request.body, methods, { headers: request.headers });
    // notifications only: JSON-RPC answers nothing, HTTP says so with 204
    if (response === undefined) return reply.code(204).send();
    return response;
  });
}

export async function buildChainEmulator(options: ChainEmulatorOptions): Promise<FastifyInstance> {
  // forceCloseConnections: a request held by the latency knob whose client gave up would
  // otherwise keep its socket (and the sandbox's shutdown) waiting for the keep-alive timeout
  const app = Fastify({
    logger: options.logger === true,
    bodyLimit: BODY_LIMIT_BYTES,
    forceCloseConnections: true,
  });
  const chain = new Chain({
    pools: options.pools,
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.network === undefined ? {} : { network: options.network }),
  });
  const paymaster = createPaymaster({
    chain,
    ...(options.paymasterApiKey === undefined ? {} : { apiKey: options.paymasterApiKey }),
  });
  app.decorate('chain', chain);
  app.decorate('paymasterKnobs', paymaster.knobs);
  await app.register(faults, { initial: options.faults });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const rpc = request.url === '/rpc' || request.url === '/paymaster';
    if (
      rpc &&
      (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
        error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
        error instanceof SyntaxError)
    ) {
      return reply
        .code(200)
        .send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    }
    if (error.validation !== undefined)
      return reply.code(400).send({ error: error.message, code: 'invalid_body' });
    const status =
      error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500
        ? error.statusCode
        : 500;
    return reply.code(status).send({
      error: status === 500 ? 'internal error' : error.message,
      code: status === 500 ? 'internal_error' : 'bad_request',
    });
  });

  rpcRoute(app, '/rpc', starknetMethods(chain));
  rpcRoute(app, '/paymaster', paymaster.methods);

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

  return app;
}
