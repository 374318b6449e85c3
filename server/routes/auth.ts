/**
 * E-mail OTP sign-in. Both routes are limited to 5 a minute per IP (each its own counter): verify
 * is where a 6-digit code could be guessed, login is where someone could spam a mailbox.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LoginRequest, LoginResponse, VerifyRequest, VerifyResponse } from '../../shared/api.js';
import type { TokenService } from '../jwt.js';
import { RATE_LIMITS } from '../plugins/rate-limit.js';
import { type Provisioning, verifyAndProvision } from '../providers/identity-flow.js';

export interface AuthRoutesOptions {
  provisioning: Provisioning;
  tokens: TokenService;
}

const authRoutes: FastifyPluginAsyncTypebox<AuthRoutesOptions> = async (fastify, options) => {
  const { provisioning, tokens } = options;
  const { identity } = provisioning;

  fastify.post(
    '/login',
    { onRequest: fastify.rateLimit(RATE_LIMITS.login), schema: { body: LoginRequest, response: { 200: LoginResponse } } },
    async (request) => {
      await identity.sendOtp(request.body.email);
      return { success: true as const, message: 'A one-time code was sent to that e-mail address' };
    },
  );

  fastify.post(
    '/verify',
    { onRequest: fastify.rateLimit(RATE_LIMITS.verify), schema: { body: VerifyRequest, response: { 200: VerifyResponse } } },
    async (request) => {
      const { email, code } = request.body;
      const { user, wallet, isExisting } = await verifyAndProvision(provisioning, email, code);
      // The provider's e-mail (lower-cased) is what getUserByEmail finds again on /wallet/create.
      const issued = await tokens.issue({ userId: user.id, email: user.email ?? email, walletId: wallet.id, walletAddress: wallet.address });
      return {
        token: issued.token,
        expiresAt: issued.expiresAt,
        userId: user.id,
        walletId: wallet.id,
        walletAddress: wallet.address,
        walletPublicKey: wallet.publicKey,
        isExisting,
      };
    },
  );
};

export default authRoutes;
