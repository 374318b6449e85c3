/**
 * JWT guard. `createAuthGuard(tokens, revocations)` is the plain logic (header → claims of a
 * genuine token nobody signed out, or AppError 401);
 * the plugin only wires it in as `fastify.requireAuth`, an onRequest hook that protected route
 * prefixes add to their own scope, and `request.auth` where the claims land.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, ErrorCode } from '../../shared/errors.js';
import type { TokenClaims, TokenService } from '../jwt.js';
import type { RevocationStore } from '../revocations.js';

declare module 'fastify' {
  interface FastifyInstance {
    requireAuth: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    /** Set by requireAuth; null on unprotected routes. */
    auth: TokenClaims | null;
  }
}

export type AuthGuard = (authorization: string | undefined) => Promise<TokenClaims>;

export function createAuthGuard(tokens: TokenService, revocations: RevocationStore): AuthGuard {
  return async (authorization) => {
    const match = authorization === undefined ? null : /^Bearer +([^\s]+) *$/i.exec(authorization);
    if (match === null || match[1] === undefined) {
      throw new AppError(
        ErrorCode.UNAUTHORIZED,
        'Missing bearer token (Authorization: Bearer <token>)',
      );
    }
    const claims = await tokens.verify(match[1]);
    // checked after the signature: only a genuine token can make us look it up
    if (await revocations.isRevoked(claims))
      throw new AppError(ErrorCode.TOKEN_REVOKED, 'This token was signed out, sign in again');
    return claims;
  };
}

/** The claims of an authenticated request; a route behind requireAuth can rely on them. */
export function authOf(request: FastifyRequest): TokenClaims {
  if (request.auth === null) throw new AppError(ErrorCode.UNAUTHORIZED, 'Not authenticated');
  return request.auth;
}

export interface AuthPluginOptions {
  tokens: TokenService;
  revocations: RevocationStore;
}

const auth: FastifyPluginAsync<AuthPluginOptions> = async (fastify, options) => {
  const guard = createAuthGuard(options.tokens, options.revocations);
  fastify.decorateRequest('auth', null);
  fastify.decorate('requireAuth', async (request: FastifyRequest) => {
    request.auth = await guard(request.headers.authorization);
  });
};

export default fp(auth, { name: 'auth', fastify: '5.x' });
