/**
 * SNIP-29 paymaster relay. Decisions:
 * - Only `paymaster_*` methods pass; anything else is our 400 VALIDATION_ERROR (our own refusals
 *   use our error shape; JSON-RPC bodies come only from the paymaster, relayed verbatim, errors
 *   included).
 * - A transaction's user_address (and deployment address) must be the token's wallet, else 403
 *   WALLET_MISMATCH: the relay spends our API key, so one user must not sponsor another's calls.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { JsonRpcRequest } from '../../shared/api.js';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { authOf } from '../plugins/auth.js';
import type { PaymasterRelay } from '../providers/types.js';

export interface PaymasterRoutesOptions {
  paymaster: PaymasterRelay;
}

const PAYMASTER_METHOD = /^paymaster_[A-Za-z]+$/;

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** Addresses a request acts for: invoke.user_address and deployment.address, where present. */
export function actingAddresses(params: unknown): unknown[] {
  const transaction = record(record(params)?.transaction);
  if (transaction === undefined) return [];
  const found: unknown[] = [];
  const invoke = record(transaction.invoke);
  if (invoke !== undefined && 'user_address' in invoke) found.push(invoke.user_address);
  const deployment = record(transaction.deployment);
  if (deployment !== undefined && 'address' in deployment) found.push(deployment.address);
  return found;
}

function sameAddress(a: unknown, b: string): boolean {
  if (typeof a !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(a)) return false;
  // Leading zeros and case vary between sources: compare as numbers.
  return BigInt(a) === BigInt(b);
}

const paymasterRoutes: FastifyPluginAsyncTypebox<PaymasterRoutesOptions> = async (fastify, options) => {
  fastify.addHook('onRequest', fastify.requireAuth);

  fastify.post('/', { schema: { body: JsonRpcRequest } }, async (request) => {
    const claims = authOf(request);
    const rpc = request.body;
    if (!PAYMASTER_METHOD.test(rpc.method)) {
      throw new AppError(ErrorCode.VALIDATION_ERROR, 'Only paymaster_* JSON-RPC methods are relayed', { status: 400 });
    }
    for (const address of actingAddresses(rpc.params)) {
      if (!sameAddress(address, claims.walletAddress)) {
        throw new AppError(ErrorCode.WALLET_MISMATCH, 'The transaction is not for the wallet of this session', { status: 403 });
      }
    }
    return options.paymaster.relay(rpc);
  });
};

export default paymasterRoutes;
