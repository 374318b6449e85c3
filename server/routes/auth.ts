/**
 * E-mail OTP sign-in. Both routes are limited to 5 a minute per IP (each its own counter): verify
 * is where a 6-digit code could be guessed, login is where someone could spam a mailbox. And per
 * e-mail address (docs/server-security.md "Sign-in codes per e-mail"): from each source (IPv4
 * address, IPv6 /48) 3 codes sent and 5 tries per 15 minutes (a new code from that source starts
 * its tries again), and from all sources together 30 codes sent and 50 tries, so a stranger from
 * a few sources cannot spend the person's allowance, and guessing stays bounded however many
 * sources the guesser has. Tries are counted before the identity provider sees the code. A
 * client that signs in is remembered as known-good for the limiter's degraded mode.
 * Sign-out (POST /auth/logout, authenticated): the presented token and every earlier token of
 * its user stop working (revocations.ts).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  EmptyRequest,
  LoginRequest,
  LoginResponse,
  LogoutResponse,
  VerifyRequest,
  VerifyResponse,
} from '../../shared/api.js';
import { authOf } from '../plugins/auth.js';
import type { TokenService } from '../jwt.js';
import { RATE_LIMITS } from '../plugins/rate-limit.js';
import { type Provisioning, verifyAndProvision } from '../providers/identity-flow.js';
import type { RevocationStore } from '../revocations.js';

interface AuthRoutesOptions {
  provisioning: Provisioning;
  tokens: TokenService;
  revocations: RevocationStore;
}

const authRoutes: FastifyPluginAsyncTypebox<AuthRoutesOptions> = async (fastify, options) => {
  const { provisioning, tokens, revocations } = options;
  const { identity } = provisioning;

  fastify.post(
    '/login',
    {
      onRequest: fastify.rateLimit(RATE_LIMITS.login),
      schema: { body: LoginRequest, response: { 200: LoginResponse } },
    },
    async (request, reply) => {
      const { email } = request.body;
      await fastify.enforceLimits(request, reply, RATE_LIMITS.loginEmail, { email });
      await identity.sendOtp(email);
      // a new code: this source's tries start again (the address's ceiling does not)
      await fastify.resetEmailLimits(
        request,
        RATE_LIMITS.verifyEmail.filter((limit) => limit.per === 'email-source'),
        email,
      );
      return { success: true as const, message: 'A one-time code was sent to that e-mail address' };
    },
  );

  fastify.post(
    '/verify',
    {
      onRequest: fastify.rateLimit(RATE_LIMITS.verify),
      schema: { body: VerifyRequest, response: { 200: VerifyResponse } },
    },
    async (request, reply) => {
      const { email, code } = request.body;
      // counted before the provider sees the code: concurrent guesses cannot overrun the tries
      await fastify.enforceLimits(request, reply, RATE_LIMITS.verifyEmail, { email });
      const { user, wallet, isExisting } = await verifyAndProvision(provisioning, email, code);
      // signed in: this source's tries and the address's ceiling start again
      await fastify.resetEmailLimits(request, RATE_LIMITS.verifyEmail, email);
      // The provider's e-mail (lower-cased) is what getUserByEmail finds again on /wallet/create.
      const issued = await tokens.issue({
        userId: user.id,
        email: user.email ?? email,
        walletId: wallet.id,
        walletAddress: wallet.address,
      });
      // a client that signs in is known-good: the limiter keeps reserved windows for it when
      // strangers fill a counter space (plugins/rate-limit.ts)
      fastify.rememberClient(request);
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

  fastify.post(
    '/logout',
    {
      // the guard first (scoped to this route): only a genuine token is counted or recorded
      onRequest: [fastify.requireAuth, fastify.rateLimit(RATE_LIMITS.logout)],
      // the body is `{}`; a client that posts nothing at all means the same thing
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
      schema: { body: EmptyRequest, response: { 200: LogoutResponse } },
    },
    async (request) => {
      await revocations.revoke(authOf(request));
      return {
        success: true as const,
        message: 'Signed out: this token and every earlier token of this account no longer work',
      };
    },
  );
};

export default authRoutes;
