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
 * The knobs are route modules under knobs/ (execution, ledger, market), each registered here.
 *
 * Bounds: 1 MB bodies, 20 requests per batch, 32 calls per transaction, 30 s per request.
 */
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyServerOptions,
} from 'fastify';
import type { Network } from '../../shared/tokens.js';
import type { Pool } from '../aggregator/pools.js';
import { type FaultSettings, faults } from '../faults.js';
import { emulatorStatus } from '../http-errors.js';
import { Chain } from './chain.js';
import { dispatch, type MethodTable } from './jsonrpc.js';
import { registerExecutionKnobs } from './knobs/execution.js';
import { registerLedgerKnobs } from './knobs/ledger.js';
import { registerMarketKnobs } from './knobs/market.js';
import { createPaymaster, type PaymasterKnobs } from './paymaster.js';
import { starknetMethods } from './rpc.js';

interface ChainEmulatorOptions {
  /** the pool objects the aggregator emulator quotes from (shared: trades move its quotes) */
  pools: Pool[];
  /** when set, sponsored mode needs this `x-paymaster-api-key` */
  paymasterApiKey?: string;
  faults?: FaultSettings;
  now?: () => number;
  logger?: boolean;
  /** the network the chain is shaped like (chain.ts ChainOptions.network); mainnet by default */
  network?: Network;
  /**
   * Fastify's schema compilers; its defaults when absent (tests that build many emulators pass one
   * that keeps what it compiled: docs/decisions.md "Apps built by one test file compile each schema
   * once")
   */
  schemaController?: FastifyServerOptions['schemaController'];
}

declare module 'fastify' {
  interface FastifyInstance {
    chain: Chain;
    paymasterKnobs: PaymasterKnobs;
  }
}

const BODY_LIMIT_BYTES = 1_048_576;

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
    ...(options.schemaController === undefined
      ? {}
      : { schemaController: options.schemaController }),
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
    const status = emulatorStatus(error);
    return reply.code(status).send({
      error: status === 500 ? 'internal error' : error.message,
      code: status === 500 ? 'internal_error' : 'bad_request',
    });
  });

  rpcRoute(app, '/rpc', starknetMethods(chain));
  rpcRoute(app, '/paymaster', paymaster.methods);

  // the sandbox-only knobs (docs/sandbox-chain.md "Knobs"), one module per group
  registerExecutionKnobs(app, { chain, paymaster });
  registerLedgerKnobs(app, { chain });
  registerMarketKnobs(app, { chain });

  return app;
}
