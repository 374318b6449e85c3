/**
 * SNIP-29 paymaster relay. Decisions:
 * - Only `paymaster_*` methods pass; anything else is our 400 VALIDATION_ERROR (our own refusals
 *   use our error shape; JSON-RPC bodies come only from the paymaster, relayed verbatim, errors
 *   included).
 * - A transaction's user_address (and deployment address) must be the token's wallet, else 403
 *   WALLET_MISMATCH: the relay spends our API key, so one user must not sponsor another's calls.
 *   Params must be a named object (as SNIP-29 defines them), else 400: the check reads names.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { JsonRpcRequest } from '../../shared/api.js';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { sameAddress } from '../../shared/tokens.js';
import { authOf } from '../plugins/auth.js';
import type { PaymasterRelay } from '../providers/types.js';

export interface PaymasterRoutesOptions {
  paymaster: PaymasterRelay;
}

const PAYMASTER_METHOD = /^paymaster_[A-Za-z]+$/;

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * Addresses a request acts for: every `user_address`, and every `address` of a `deployment`,
 * wherever they sit in params. The whole tree is searched rather than the two documented spots
 * so that a variant shape (a future transaction type, a nested copy the paymaster also reads)
 * cannot carry another account past the check. Iterative: a deeply nested body must not blow
 * the stack. `transaction` tells whether params carry a transaction at all.
 */
export function actingAddresses(params: unknown): { addresses: unknown[]; transaction: boolean } {
  const root = record(params);
  const addresses: unknown[] = [];
  const pending: unknown[] = [params];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) {
      // one by one: spreading a huge array into push() would exceed the argument limit
      for (const item of node) pending.push(item);
      continue;
    }
    const object = record(node);
    if (object === undefined) continue;
    for (const [key, value] of Object.entries(object)) {
      if (key === 'user_address') addresses.push(value);
      if (key === 'deployment') {
        const deployment = record(value);
        // a deployment that is not an object, or names no address, has nothing to compare
        if (deployment === undefined || 'address' in deployment) addresses.push(deployment?.address);
      }
      pending.push(value);
    }
  }
  return { addresses, transaction: root !== undefined && 'transaction' in root };
}

const paymasterRoutes: FastifyPluginAsyncTypebox<PaymasterRoutesOptions> = async (fastify, options) => {
  fastify.addHook('onRequest', fastify.requireAuth);

  fastify.post('/', { schema: { body: JsonRpcRequest } }, async (request) => {
    const claims = authOf(request);
    const rpc = request.body;
    if (!PAYMASTER_METHOD.test(rpc.method)) {
      throw new AppError(ErrorCode.VALIDATION_ERROR, 'Only paymaster_* JSON-RPC methods are relayed', { status: 400 });
    }
    // SNIP-29 params are a named object; positional (array) params would hide the transaction
    // from the ownership check below, so they are refused for every method.
    if (Array.isArray(rpc.params)) {
      throw new AppError(ErrorCode.VALIDATION_ERROR, 'paymaster params must be a named object (SNIP-29), not an array', { status: 400 });
    }
    const acting = actingAddresses(rpc.params);
    // a transaction that names no account cannot be checked, so it is not relayed
    if (acting.transaction && acting.addresses.length === 0) {
      throw new AppError(ErrorCode.VALIDATION_ERROR, 'The transaction names no account (invoke.user_address or deployment.address)', {
        status: 400,
      });
    }
    for (const address of acting.addresses) {
      if (typeof address !== 'string' || !sameAddress(address, claims.walletAddress)) {
        throw new AppError(ErrorCode.WALLET_MISMATCH, 'The transaction is not for the wallet of this session', { status: 403 });
      }
    }
    return options.paymaster.relay(rpc);
  });
};

export default paymasterRoutes;
