/**
 * JWT guard. `createAuthGuard(tokens, revocations)` is the plain logic (header → claims of a
 * genuine token nobody signed out, or AppError 401);
 * the plugin only wires it in as `fastify.requireAuth`, an onRequest hook that protected route
 * prefixes add to their own scope, and `request.auth` where the claims land.
 *
 * An agent grant's token (server/grants.ts) is refused by `requireAuth` (403 GRANT_FORBIDDEN:
 * a grant never signs out, makes grants, reads wallets or signs a raw hash). The two routes a
 * grant may use — message signing and the paymaster relay — take `requireAuthOrGrant`, which
 * also accepts a live grant's token: `request.grant` holds the grant and `request.auth` the
 * claims of its owner's wallet (docs/server-api.md "Agent grants").
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, ErrorCode } from '../../shared/errors.js';
import type { TokenClaims, TokenService } from '../jwt.js';
import type { RevocationStore } from '../revocations.js';
import {
  type Grant,
  type GrantStore,
  isGrantToken,
  parseGrantToken,
  secretMatches,
} from '../grants.js';

declare module 'fastify' {
  interface FastifyInstance {
    requireAuth: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** requireAuth, or a live agent grant's token (then `request.grant` is set) */
    requireAuthOrGrant: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    /** Set by requireAuth; null on unprotected routes. */
    auth: TokenClaims | null;
    /** Set by requireAuthOrGrant for a grant token; null otherwise. */
    grant: Grant | null;
  }
}

function bearerOf(authorization: string | undefined): string {
  const match = authorization === undefined ? null : /^Bearer +([^\s]+) *$/i.exec(authorization);
  if (match === null || match[1] === undefined) {
    throw new AppError(
      ErrorCode.UNAUTHORIZED,
      'Missing bearer token (Authorization: Bearer <token>)',
    );
  }
  return match[1];
}

/** The live grant a grant token names, or AppError (401 UNAUTHORIZED, GRANT_REVOKED, GRANT_EXPIRED). */
async function grantOf(grants: GrantStore, token: string, now: number): Promise<Grant> {
  const parsed = parseGrantToken(token);
  const grant = parsed === undefined ? undefined : await grants.get(parsed.id);
  if (parsed === undefined || grant === undefined || !secretMatches(grant, parsed.secret))
    throw new AppError(ErrorCode.UNAUTHORIZED, 'Invalid grant token');
  if (grant.revoked)
    throw new AppError(ErrorCode.GRANT_REVOKED, 'This grant was revoked by its owner');
  if (grant.expiresAt <= now)
    throw new AppError(
      ErrorCode.GRANT_EXPIRED,
      `This grant expired at ${new Date(grant.expiresAt).toISOString()}`,
    );
  return grant;
}

/** The claims a grant acts with: its owner's wallet; the grant id in place of a token id. */
function claimsOf(grant: Grant): TokenClaims {
  return Object.freeze({
    userId: grant.userId,
    email: grant.email,
    walletId: grant.walletId,
    walletAddress: grant.walletAddress,
    jti: grant.id,
    issuedAt: new Date(grant.createdAt),
    expiresAt: new Date(grant.expiresAt),
  });
}

type AuthGuard = (authorization: string | undefined) => Promise<TokenClaims>;

function createAuthGuard(tokens: TokenService, revocations: RevocationStore): AuthGuard {
  return async (authorization) => {
    const token = bearerOf(authorization);
    if (isGrantToken(token))
      throw new AppError(
        ErrorCode.GRANT_FORBIDDEN,
        "An agent grant's token cannot be used here: it signs only outside executions it can be checked against, and uses the paymaster relay",
      );
    const claims = await tokens.verify(token);
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

interface AuthPluginOptions {
  tokens: TokenService;
  revocations: RevocationStore;
  grants: GrantStore;
  now?: () => number;
}

const auth: FastifyPluginAsync<AuthPluginOptions> = async (fastify, options) => {
  const guard = createAuthGuard(options.tokens, options.revocations);
  const now = options.now ?? Date.now;
  fastify.decorateRequest('auth', null);
  fastify.decorateRequest('grant', null);
  fastify.decorate('requireAuth', async (request: FastifyRequest) => {
    request.auth = await guard(request.headers.authorization);
  });
  fastify.decorate('requireAuthOrGrant', async (request: FastifyRequest) => {
    const token = bearerOf(request.headers.authorization);
    if (!isGrantToken(token)) {
      request.auth = await guard(request.headers.authorization);
      return;
    }
    const grant = await grantOf(options.grants, token, now());
    request.grant = grant;
    request.auth = claimsOf(grant);
  });
};

export default fp(auth, { name: 'auth', fastify: '5.x' });
