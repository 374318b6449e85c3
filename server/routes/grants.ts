/**
 * Agent grants (docs/server-api.md "Agent grants"): the person, with their session, creates,
 * lists and revokes grants; a grant's own token reads its grant at `GET /grants/current` (what is
 * left). Signing under a grant is POST /sign/message (server/routes/sign.ts).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  EmptyRequest,
  GrantCreateRequest,
  GrantCreateResponse,
  GrantIdParams,
  GrantListResponse,
  GrantResponse,
  type GrantView,
} from '../../shared/api.js';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { feltHex } from '../../shared/felt.js';
import type { KnownContract } from '../../shared/known-contracts.js';
import { addressToBigInt } from '../../shared/tokens.js';
import { type Grant, GRANT_LIMITS, type GrantStore, isLive, newGrantToken } from '../grants.js';
import { authOf } from '../plugins/auth.js';
import { RATE_LIMITS } from '../plugins/rate-limit.js';

interface GrantRoutesOptions {
  grants: GrantStore;
  known: ReadonlyMap<string, KnownContract>;
  now: () => number;
}

function invalid(message: string): AppError {
  return new AppError(ErrorCode.VALIDATION_ERROR, message);
}

/** An address of the request as the store keeps it (0x + 64 lower-case hex), below 2^251, not zero. */
function address(text: string, what: string): string {
  const value = addressToBigInt(text);
  if (value === undefined || value === 0n || value >= 1n << 251n)
    throw invalid(`${what} is not a Starknet address`);
  return feltHex(value);
}

async function grantView(grants: GrantStore, grant: Grant, now: number): Promise<GrantView> {
  const spent = await grants.spent(grant.id, now);
  return {
    id: grant.id,
    walletAddress: grant.walletAddress,
    daily: grant.daily.map((d) => {
      const used = spent.get(d.token) ?? 0n;
      return {
        token: d.token,
        amount: d.amount.toString(),
        spent: used.toString(),
        left: (d.amount > used ? d.amount - used : 0n).toString(),
      };
    }),
    recipients: [...grant.recipients],
    createdAt: new Date(grant.createdAt).toISOString(),
    expiresAt: new Date(grant.expiresAt).toISOString(),
    status: grant.revoked ? 'revoked' : isLive(grant, now) ? 'active' : 'expired',
  };
}

const grantRoutes: FastifyPluginAsyncTypebox<GrantRoutesOptions> = async (fastify, options) => {
  const { grants, known, now } = options;

  fastify.post(
    '/',
    {
      onRequest: [fastify.requireAuth, fastify.rateLimit(RATE_LIMITS.grantWrite)],
      schema: { body: GrantCreateRequest, response: { 200: GrantCreateResponse } },
    },
    async (request) => {
      const claims = authOf(request);
      const body = request.body;
      const daily = body.daily.map((d, i) => {
        const token = address(d.token, `daily[${i}].token`);
        if (known.get(token)?.kind !== 'token')
          throw invalid(`daily[${i}].token ${token} is not a token of the registry`);
        return { token, amount: BigInt(d.amount) };
      });
      if (new Set(daily.map((d) => d.token)).size !== daily.length)
        throw invalid('a token appears twice in daily');
      if (daily.length > GRANT_LIMITS.maxTokens)
        throw invalid(`at most ${GRANT_LIMITS.maxTokens} tokens`);
      const recipients = [
        ...new Set(body.recipients.map((r, i) => address(r, `recipients[${i}]`))),
      ];
      if (recipients.length > GRANT_LIMITS.maxRecipients)
        throw invalid(`at most ${GRANT_LIMITS.maxRecipients} recipients`);
      const at = now();
      const { id, token, secretHash } = newGrantToken();
      const grant: Grant = {
        id,
        userId: claims.userId,
        email: claims.email,
        walletId: claims.walletId,
        walletAddress: feltHex(BigInt(claims.walletAddress)),
        daily,
        recipients,
        createdAt: at,
        expiresAt: at + body.expiresInSeconds * 1000,
        revoked: false,
        secretHash,
      };
      await grants.create(grant);
      return { grant: await grantView(grants, grant, at), token };
    },
  );

  fastify.get(
    '/',
    {
      onRequest: [fastify.requireAuth, fastify.rateLimit(RATE_LIMITS.grantRead)],
      schema: { response: { 200: GrantListResponse } },
    },
    async (request) => {
      const claims = authOf(request);
      const at = now();
      const mine = await grants.list(claims.userId);
      return { grants: await Promise.all(mine.map((g) => grantView(grants, g, at))) };
    },
  );

  fastify.get(
    '/current',
    {
      onRequest: [fastify.requireAuthOrGrant, fastify.rateLimit(RATE_LIMITS.grantRead)],
      schema: { response: { 200: GrantResponse } },
    },
    async (request) => {
      const grant = request.grant;
      if (grant === null)
        throw new AppError(ErrorCode.GRANT_NOT_FOUND, 'This request carries no grant token');
      return { grant: await grantView(grants, grant, now()) };
    },
  );

  fastify.post(
    '/:id/revoke',
    {
      onRequest: [fastify.requireAuth, fastify.rateLimit(RATE_LIMITS.grantWrite)],
      // the body is `{}`; a client that posts nothing at all means the same thing
      preValidation: async (request) => {
        if (request.body === undefined || request.body === null) request.body = {};
      },
      schema: { params: GrantIdParams, body: EmptyRequest, response: { 200: GrantResponse } },
    },
    async (request) => {
      const claims = authOf(request);
      const { id } = request.params;
      if (!(await grants.revoke(claims.userId, id)))
        throw new AppError(ErrorCode.GRANT_NOT_FOUND, `No grant ${id} among this account's grants`);
      const grant = await grants.get(id);
      if (grant === undefined)
        throw new AppError(ErrorCode.GRANT_NOT_FOUND, `No grant ${id} among this account's grants`);
      return { grant: await grantView(grants, grant, now()) };
    },
  );
};

export default grantRoutes;
