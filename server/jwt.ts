/**
 * Our session tokens: HS256 JWTs via jose. A plain factory so the rules (pinned algorithm,
 * issuer/audience, expiry, required claims) are testable without Fastify.
 *
 * Verifying runs on every protected request, so its signature check is node:crypto's HMAC,
 * synchronous, instead of jose's jwtVerify: that imports the key and verifies through WebCrypto,
 * which Node runs as a job on its thread pool, two hand-offs between threads per request (0.3 ms
 * at the median and 3.6 ms at p99 of a signing request on a busy 2-core machine, a third of what
 * the auth server added to it; bench/server-health.ts). The claims after it are still jose's own
 * checks (see verify).
 *
 * Claims: `sub` = identity user id, `email` (the user's e-mail, so /wallet/create can look the
 * user up: the identity provider has no get-user-by-id call and its metadata write replaces the
 * whole object, so we must start from the stored user), `walletId`, `walletAddress`, `jti`,
 * `iat`, `exp`, `iss`, `aud`. The token is held by its own user, so the e-mail in it tells the
 * holder nothing new.
 */
import { createHmac, createSecretKey, randomUUID, timingSafeEqual } from 'node:crypto';
import { decodeProtectedHeader, errors, SignJWT, UnsecuredJWT } from 'jose';
import { AppError, ErrorCode } from '../shared/errors.js';
import { JWT_AUDIENCE, JWT_ISSUER } from './config.js';

export const TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;
/**
 * How far in the future a token's `iat` may be. Tokens come from our own instances, whose clocks
 * may disagree by a few seconds (NTP steps, a VM resumed); anything further ahead was not issued
 * by a sane clock of ours, and would also stretch the 7-day cap below.
 */
export const CLOCK_SKEW_SECONDS = 30;
const ALGORITHM = 'HS256';

interface TokenSubject {
  userId: string;
  email: string;
  walletId: string;
  walletAddress: string;
}

export interface TokenClaims extends TokenSubject {
  jti: string;
  issuedAt: Date;
  expiresAt: Date;
}

interface IssuedToken {
  token: string;
  /** ISO 8601 */
  expiresAt: string;
}

export interface TokenService {
  issue(subject: TokenSubject): Promise<IssuedToken>;
  /**
   * Throws AppError 401 TOKEN_EXPIRED for an expired token (by `exp`, or issued 7 days ago or
   * more), 401 UNAUTHORIZED for anything else wrong (an `iat` in the future included).
   */
  verify(token: string): Promise<TokenClaims>;
}

interface TokenServiceOptions {
  secret: string;
  now?: () => Date;
  /** default JWT_AUDIENCE; the sandbox passes JWT_SANDBOX_AUDIENCE */
  audience?: string;
}

function unauthorized(message = 'Invalid or missing token'): AppError {
  return new AppError(ErrorCode.UNAUTHORIZED, message);
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= 500;
}

/** What jose's claims check reads as the header of an already verified token (it reads none of it). */
const VERIFIED_HEADER = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');

/**
 * How many verified tokens are remembered. A session sends the same token with every call, and
 * verifying it again (HMAC, base64, JSON, jose's claims checks) was the largest piece of our own
 * CPU in a signing request (docs/benchmarks.md). ~1 KB each at most.
 */
const VERIFIED_TOKENS_KEPT = 10_000;

interface Verified {
  claims: TokenClaims;
  /** seconds */
  iat: number;
  exp: number;
  nbf: number | undefined;
}

export function createTokenService(options: TokenServiceOptions): TokenService {
  const key = new TextEncoder().encode(options.secret);
  const hmacKey = createSecretKey(key);
  const now = options.now ?? (() => new Date());
  const audience = options.audience ?? JWT_AUDIENCE;
  // Keyed by the whole token, so a hit is byte for byte a token that passed every check below;
  // only the checks that depend on the clock run again. The oldest entry makes room.
  const verified = new Map<string, Verified>();

  /** The checks that depend on the clock, as jose and verify below make them. */
  function checkLifetime(entry: Verified, nowSeconds: number): void {
    // jose: exp at or before now is expired
    if (entry.exp <= nowSeconds || nowSeconds - entry.iat >= TOKEN_TTL_SECONDS) {
      throw new AppError(ErrorCode.TOKEN_EXPIRED, 'Token expired, sign in again');
    }
    if (
      entry.iat > nowSeconds + CLOCK_SKEW_SECONDS ||
      (entry.nbf !== undefined && entry.nbf > nowSeconds)
    )
      throw unauthorized();
  }

  return {
    async issue(subject) {
      const issuedAt = Math.floor(now().getTime() / 1000);
      const exp = issuedAt + TOKEN_TTL_SECONDS;
      const token = await new SignJWT({
        email: subject.email,
        walletId: subject.walletId,
        walletAddress: subject.walletAddress,
      })
        .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
        .setSubject(subject.userId)
        .setIssuer(JWT_ISSUER)
        .setAudience(audience)
        .setIssuedAt(issuedAt)
        .setExpirationTime(exp)
        .setJti(randomUUID())
        .sign(key);
      return { token, expiresAt: new Date(exp * 1000).toISOString() };
    },

    async verify(token) {
      const known = verified.get(token);
      if (known !== undefined) {
        checkLifetime(known, Math.floor(now().getTime() / 1000));
        return known.claims;
      }
      // A JWT is three base64url parts; refuse anything else before parsing it.
      if (token.length > 4096 || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token))
        throw unauthorized();
      const [header = '', body = '', signature = ''] = token.split('.');
      // Pinned: alg none, HS512, RS256 and the rest are refused before the signature check, and
      // so is any header asking for extensions (crit, b64) we do not implement.
      let protectedHeader: Record<string, unknown>;
      try {
        protectedHeader = decodeProtectedHeader(token);
      } catch {
        throw unauthorized();
      }
      if (
        protectedHeader.alg !== ALGORITHM ||
        'crit' in protectedHeader ||
        'b64' in protectedHeader
      )
        throw unauthorized();
      // Compared as canonical base64url text, in constant time: a signature with other padding
      // bits or characters is refused even where it would decode to the same bytes.
      const expected = Buffer.from(
        createHmac('sha256', hmacKey).update(`${header}.${body}`).digest('base64url'),
      );
      const presented = Buffer.from(signature);
      if (presented.length !== expected.length || !timingSafeEqual(presented, expected))
        throw unauthorized();
      let payload: Record<string, unknown>;
      try {
        // The signature is checked above; this is jose's claims validation (the one jwtVerify
        // runs after its own signature check) on the verified payload: JSON object, iss, aud,
        // exp, nbf, required claims. UnsecuredJWT only because it is the entry point that takes
        // a payload without checking a signature again.
        payload = UnsecuredJWT.decode(`${VERIFIED_HEADER}.${body}.`, {
          issuer: JWT_ISSUER,
          audience,
          requiredClaims: ['sub', 'jti', 'iat', 'exp'],
          currentDate: now(),
        }).payload as Record<string, unknown>;
      } catch (error) {
        if (error instanceof errors.JWTExpired) {
          throw new AppError(ErrorCode.TOKEN_EXPIRED, 'Token expired, sign in again');
        }
        // Never echo jose's reason: it would help someone probing tokens, and the caller's fix is
        // the same in every case (sign in again).
        throw unauthorized();
      }
      const { sub, jti, iat, exp, nbf, email, walletId, walletAddress } = payload;
      if (
        !nonEmptyString(sub) ||
        !nonEmptyString(jti) ||
        typeof iat !== 'number' ||
        typeof exp !== 'number' ||
        !nonEmptyString(email) ||
        !nonEmptyString(walletId) ||
        !nonEmptyString(walletAddress)
      ) {
        throw unauthorized();
      }
      // frozen: a remembered token hands every later request the same object
      const claims = Object.freeze({
        userId: sub,
        email,
        walletId,
        walletAddress,
        jti,
        issuedAt: new Date(iat * 1000),
        expiresAt: new Date(exp * 1000),
      });
      const entry: Verified = { claims, iat, exp, nbf: typeof nbf === 'number' ? nbf : undefined };
      // an iat too far ahead (another instance's clock, within the skew, passes); 7 days from
      // issue at most, whatever `exp` says (a token minted with a longer life, or by a build that
      // had one, does not outlive the contract)
      checkLifetime(entry, Math.floor(now().getTime() / 1000));
      if (verified.size >= VERIFIED_TOKENS_KEPT)
        verified.delete(verified.keys().next().value as string);
      verified.set(token, entry);
      return claims;
    },
  };
}
