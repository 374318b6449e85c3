/**
 * The signed-in user's wallet. Everything here answers for the token's own user and wallet only:
 * no route takes a wallet or user id from the body. /create replaces only a missing or unusable
 * wallet (409 WALLET_EXISTS otherwise) and is limited to 5 a minute per IP, since every call
 * that passes makes a wallet upstream.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  EmptyRequest,
  sameEmail,
  WalletCreateResponse,
  WalletFindRequest,
  WalletFindResponse,
} from '../../shared/api.js';
import { AppError, ErrorCode } from '../../shared/errors.js';
import type { TokenService } from '../jwt.js';
import { authOf } from '../plugins/auth.js';
import { RATE_LIMITS } from '../plugins/rate-limit.js';
import { type Provisioning, provisionWallet } from '../providers/identity-flow.js';
import type { IdentityWallet } from '../providers/types.js';

interface WalletRoutesOptions {
  provisioning: Provisioning;
  tokens: TokenService;
}

function publicWallet(wallet: IdentityWallet): { id: string; address: string; publicKey: string } {
  return { id: wallet.id, address: wallet.address, publicKey: wallet.publicKey };
}

const walletRoutes: FastifyPluginAsyncTypebox<WalletRoutesOptions> = async (fastify, options) => {
  const { provisioning, tokens } = options;
  const { identity } = provisioning;
  fastify.addHook('onRequest', fastify.requireAuth);
  // The contract's body is `{}`; a client that posts nothing at all means the same thing.
  fastify.addHook('preValidation', async (request) => {
    if (request.body === undefined || request.body === null) request.body = {};
  });

  fastify.post(
    '/find',
    {
      onRequest: fastify.rateLimit(RATE_LIMITS.walletFind),
      schema: { body: WalletFindRequest, response: { 200: WalletFindResponse } },
    },
    async (request) => {
      const claims = authOf(request);
      // starkfi's client names the e-mail; it only ever finds the token's own wallet, so a
      // different e-mail is a mix-up (or a probe), answered as such rather than ignored
      if (request.body.email !== undefined && !sameEmail(request.body.email, claims.email)) {
        throw new AppError(ErrorCode.EMAIL_MISMATCH, 'email is not the e-mail of this session');
      }
      const wallet = await identity.getWallet(claims.walletId);
      return { wallet: wallet === null ? null : publicWallet(wallet) };
    },
  );

  fastify.post(
    '/create',
    {
      onRequest: fastify.rateLimit(RATE_LIMITS.walletCreate),
      schema: { body: EmptyRequest, response: { 200: WalletCreateResponse } },
    },
    async (request) => {
      const claims = authOf(request);
      // 401 when the e-mail now belongs to another account; 409 WALLET_EXISTS while the linked
      // wallet is usable: only a missing or unusable one is replaced, one request at a time per user
      const { user, wallet } = await provisionWallet(provisioning, claims);
      const issued = await tokens.issue({
        userId: user.id,
        email: claims.email,
        walletId: wallet.id,
        walletAddress: wallet.address,
      });
      return { wallet: publicWallet(wallet), token: issued.token, expiresAt: issued.expiresAt };
    },
  );
};

export default walletRoutes;
