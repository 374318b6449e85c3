/**
 * Signing with the token's wallet through the identity provider's raw_sign. The walletId in the
 * body must be the token's (403 WALLET_MISMATCH otherwise): it is there so a client that mixed up
 * sessions fails loudly instead of signing with the wrong key. 30 a minute per IP.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { typedData as snip12 } from 'starknet';
import {
  SignHashRequest,
  SignHashResponse,
  SignMessageRequest,
  SignMessageResponse,
  textMessageTypedData,
} from '../../shared/api.js';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { FELT_HEX, MAX_SIGNABLE_HASH, SIGNATURE_HEX } from '../../shared/felt.js';
import type { KnownContract } from '../../shared/known-contracts.js';
import type { VTokenProof } from '../../shared/vesu.js';
import {
  executableUntil,
  grantOutflows,
  namedBy,
  outsideExecutionCalls,
  withProvenVTokens,
} from '../grant-calls.js';
import type { ChargeResult, Grant, GrantStore } from '../grants.js';
import { authOf } from '../plugins/auth.js';
import { RATE_LIMITS } from '../plugins/rate-limit.js';
import type { IdentityProvider } from '../providers/types.js';
import { checkTypedData } from '../typed-data-bounds.js';

// What we accept as a hash to sign (MAX_SIGNABLE_HASH): below 2^251, stricter than the field,
// because Stark ECDSA signs only messages in [0, 2^251); a field element above that could not
// be signed anyway, and a clear 400 beats a 502 from the provider.

// Control characters too: starknet.js 10 fails to encode a long string containing a newline.
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

interface SignRoutesOptions {
  identity: IdentityProvider;
  /** chainId (short string) of the domain wrapped around plain-text messages */
  messageChainId: string;
  /** agent grants: the store and its ledger (server/grants.ts) */
  grants: GrantStore;
  /** the contracts a grant may call (shared/known-contracts.ts) */
  known: ReadonlyMap<string, KnownContract>;
  /** the paymaster's fee recipients, learned from its build answers (routes/paymaster.ts) */
  feeRecipients: ReadonlySet<string>;
  now: () => number;
}

/**
 * Message signings in flight at once, server-wide (docs/server-security.md "Typed data"): from
 * before the typed data is hashed until the provider's signature is back. Each hash may hold the
 * event loop up to the work bound (~0.1 s); per-user and per-IP limits alone let eight accounts
 * keep it 91 % busy (issue 27). Past it, 429 RATE_LIMITED with Retry-After: 1, at once (no queue:
 * a queue would only move the wait into the loop).
 */
export const MAX_MESSAGE_SIGNINGS = 2;
const SIGNINGS_RETRY_AFTER_S = 1;

/** A counting semaphore that refuses rather than waits; `inFlight` for tests and logs. */
function createSlots(limit: number): {
  tryAcquire(): (() => void) | undefined;
  readonly inFlight: number;
} {
  let used = 0;
  return {
    tryAcquire() {
      if (used >= limit) return undefined;
      used += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        used -= 1;
      };
    },
    get inFlight() {
      return used;
    },
  };
}

function requireOwnWallet(tokenWalletId: string, walletId: string): void {
  if (walletId !== tokenWalletId) {
    throw new AppError(ErrorCode.WALLET_MISMATCH, 'walletId is not the wallet of this session');
  }
}

function isSignableHash(hex: string): boolean {
  return FELT_HEX.test(hex) && BigInt(hex) <= MAX_SIGNABLE_HASH;
}

/** Normalises the provider's signature and refuses anything that is not r‖s. */
function checkedSignature(signature: string): string {
  const lower = signature.toLowerCase();
  if (!SIGNATURE_HEX.test(lower)) {
    throw new AppError(
      ErrorCode.IDENTITY_PROVIDER_ERROR,
      'The identity provider returned a malformed signature',
    );
  }
  return lower;
}

function messageHashOf(message: unknown, walletAddress: string): string {
  try {
    if (!snip12.validateTypedData(message)) throw new Error('not typed data');
    const hash = snip12.getMessageHash(message, walletAddress);
    if (!isSignableHash(hash)) throw new Error('hash out of range');
    return hash;
  } catch {
    // starknet.js reasons are about its internals; the caller needs to know what to fix.
    throw new AppError(
      ErrorCode.VALIDATION_ERROR,
      'message is not valid SNIP-12 typed data (types, primaryType, domain, message)',
    );
  }
}

/** Why a grant's ledger refused a charge, in words (the token by its registry name). */
function grantRefusal(
  charged: Exclude<ChargeResult, { ok: true }>,
  known: ReadonlyMap<string, KnownContract>,
): AppError {
  if (charged.reason !== 'over') {
    if (charged.reason === 'revoked')
      return new AppError(ErrorCode.GRANT_REVOKED, 'This grant was revoked by its owner');
    if (charged.reason === 'expired')
      return new AppError(ErrorCode.GRANT_EXPIRED, 'This grant has expired');
    return new AppError(
      ErrorCode.GRANT_EXCEEDED,
      'This grant has signed as many times as its 24 h window holds; wait for older signings to leave it',
    );
  }
  const symbol = known.get(charged.token)?.name ?? charged.token;
  const left = charged.limit > charged.spent ? charged.limit - charged.spent : 0n;
  return new AppError(
    ErrorCode.GRANT_EXCEEDED,
    `This would move ${charged.amount} base units of ${symbol}; the grant allows ${charged.limit} in any 24 hours and ${left} are left: nothing was signed`,
    {
      details: {
        token: charged.token,
        amount: charged.amount.toString(),
        limit: charged.limit.toString(),
        left: left.toString(),
      },
    },
  );
}

const signRoutes: FastifyPluginAsyncTypebox<SignRoutesOptions> = async (fastify, options) => {
  const { identity, messageChainId } = options;
  const signings = createSlots(MAX_MESSAGE_SIGNINGS);
  // a grant's token reaches /message only; /hash refuses it (GRANT_FORBIDDEN)
  fastify.addHook('onRequest', fastify.requireAuthOrGrant);

  fastify.post(
    '/hash',
    {
      onRequest: fastify.rateLimit(RATE_LIMITS.signHash),
      schema: { body: SignHashRequest, response: { 200: SignHashResponse } },
    },
    async (request) => {
      // no raw hash under a grant: the server could not tell what it signs
      if (request.grant !== null)
        throw new AppError(
          ErrorCode.GRANT_FORBIDDEN,
          'A grant token cannot sign a raw hash: send the outside execution as typed data to /sign/message',
        );
      const claims = authOf(request);
      const { walletId, hash } = request.body;
      requireOwnWallet(claims.walletId, walletId);
      if (!isSignableHash(hash)) {
        throw new AppError(
          ErrorCode.VALIDATION_ERROR,
          'hash must be 0x-hex below 2^251 (the Stark signature range)',
        );
      }
      return { signature: checkedSignature(await identity.rawSign(walletId, hash)) };
    },
  );

  fastify.post(
    '/message',
    {
      onRequest: fastify.rateLimit(RATE_LIMITS.signMessage),
      schema: { body: SignMessageRequest, response: { 200: SignMessageResponse } },
    },
    async (request, reply) => {
      const claims = authOf(request);
      const { walletId, message } = request.body;
      requireOwnWallet(claims.walletId, walletId);
      const release = signings.tryAcquire();
      if (release === undefined) {
        reply.header('retry-after', SIGNINGS_RETRY_AFTER_S);
        throw new AppError(
          ErrorCode.RATE_LIMITED,
          `The server is signing too many messages at once, retry in ${SIGNINGS_RETRY_AFTER_S} s`,
          { details: { retryAfter: SIGNINGS_RETRY_AFTER_S } },
        );
      }
      try {
        if (request.grant !== null)
          return await signUnderGrant(request.grant, walletId, message, request.body.vTokens);
        return await signMessage(claims.walletAddress, walletId, message);
      } finally {
        release();
      }
    },
  );

  /**
   * Under a grant (docs/server-api.md "Agent grants"): typed data only, decoded into calls the
   * grant allows (server/grant-calls.ts), their outflows charged to the grant's ledger in one
   * atomic step, then signed; a failed signing takes its charge back.
   */
  async function signUnderGrant(
    grant: Grant,
    walletId: string,
    message: unknown,
    proofs: readonly VTokenProof[] = [],
  ): Promise<{ signature: string; messageHash: string }> {
    if (typeof message === 'string')
      throw new AppError(
        ErrorCode.GRANT_CALL_NOT_ALLOWED,
        'Under a grant the server signs only an outside execution (SNIP-9 v2), not text',
      );
    const { data } = checkTypedData(message);
    const calls = outsideExecutionCalls(
      data as unknown as Parameters<typeof outsideExecutionCalls>[0],
    );
    const outflows = grantOutflows(calls, {
      walletAddress: grant.walletAddress,
      recipients: grant.recipients,
      known: withProvenVTokens(options.known, proofs, namedBy(calls)),
      feeRecipients: options.feeRecipients,
    });
    const messageHash = messageHashOf(data, grant.walletAddress);
    const now = options.now();
    const until = executableUntil(data.message as Record<string, unknown>, now);
    const charged = await options.grants.charge(grant, outflows, now, until);
    if (!charged.ok) throw grantRefusal(charged, options.known);
    try {
      const signature = checkedSignature(await identity.rawSign(walletId, messageHash));
      return { signature, messageHash };
    } catch (error) {
      await options.grants.refund(grant.id, charged.chargeId).catch(() => undefined);
      throw error;
    }
  }

  async function signMessage(
    walletAddress: string,
    walletId: string,
    message: unknown,
  ): Promise<{ signature: string; messageHash: string }> {
    // A string is wrapped in our fixed SNIP-12 type (shared/api.ts textMessageTypedData), never
    // signed as if it were a hash: that would let "text" be a transaction hash in disguise.
    if (typeof message === 'string' && !PRINTABLE_ASCII.test(message)) {
      // starknet.js encodes SNIP-12 long strings as ASCII only; escaping would sign something
      // other than what the user read.
      throw new AppError(
        ErrorCode.VALIDATION_ERROR,
        'A text message must be printable ASCII on one line; send SNIP-12 typed data for anything else',
      );
    }
    // Untrusted typed data is classified and bounded before starknet.js hashes it (its encoder
    // is exponential in the depth of fanned-out types, and slow per element): 400 at once,
    // never a frozen loop. What is hashed is the checked copy, not the request.
    const { data } = checkTypedData(
      typeof message === 'string' ? textMessageTypedData(message, messageChainId) : message,
    );
    const messageHash = messageHashOf(data, walletAddress);
    const signature = checkedSignature(await identity.rawSign(walletId, messageHash));
    return { signature, messageHash };
  }
};

export default signRoutes;
