/**
 * The identity-provider adapter (docs/contracts.md part A) over HTTP (json-http.ts: node:http
 * with keep-alive). Production and the sandbox run this same code; only the two base URLs differ.
 *
 * Failure mapping (types.ts): a bad code → INVALID_OTP 401; a timeout → UPSTREAM_TIMEOUT 504;
 * any other upstream status (a redirect included: never followed), a refused connection,
 * unreadable JSON or an unexpected shape → IDENTITY_PROVIDER_ERROR 502. Messages name the upstream, the operation and the status, plus
 * the provider's machine code when it sends one; never credentials, codes, e-mail addresses,
 * tokens, or upstream bodies (which may carry any of those). The transport's error is not
 * attached as a cause either: it may hold the request, and the request holds the Authorization
 * header.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import * as Type from 'typebox';
import { Compile } from 'typebox/compile';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { FELT_HEX_PATTERN } from '../../shared/felt.js';
import { padHash } from '../../shared/starknet.js';
import {
  type Answer,
  createJsonTransport,
  type JsonTransport,
  ResponseTooLargeError,
  UpstreamTimeoutError,
} from './json-http.js';
import type { IdentityProvider, IdentityUser, IdentityWallet, MetadataValue } from './types.js';

export interface IdentityProviderOptions {
  /** auth host incl. version, e.g. https://auth.privy.io/api/v1 */
  authUrl: string;
  /** API host, e.g. https://api.privy.io (paths /v1/…) */
  apiUrl: string;
  appId: string;
  appSecret: string;
  /** sent as Origin on OTP calls; must be on the provider's allow-list */
  origin: string;
  /** per attempt */
  timeoutMs: number;
  /** for tests that need to watch the wire; defaults to json-http.ts (node:http, keep-alive) */
  transport?: JsonTransport;
}

const UPSTREAM = 'identity provider';

const Hex = Type.String({ pattern: FELT_HEX_PATTERN });

const UserWire = Type.Object({
  id: Type.String({ minLength: 1 }),
  linked_accounts: Type.Array(
    Type.Object({ type: Type.String(), address: Type.Optional(Type.String()) }),
  ),
  custom_metadata: Type.Optional(
    Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  ),
});
type UserWire = Type.Static<typeof UserWire>;

const WalletWire = Type.Object({
  id: Type.String({ minLength: 1 }),
  address: Type.String({ minLength: 1 }),
  chain_type: Type.String(),
  public_key: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  owner_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
type WalletWire = Type.Static<typeof WalletWire>;

const StarknetWalletWire = Type.Object({ address: Hex, public_key: Hex });

const VerifyWire = Type.Object({ user: UserWire, is_new_user: Type.Optional(Type.Boolean()) });

const RawSignWire = Type.Object({
  data: Type.Object({
    signature: Type.String({ pattern: '^(0x)?[0-9a-fA-F]{128}$' }),
    encoding: Type.Optional(Type.Literal('hex')),
  }),
});

const SuccessWire = Type.Object({});

const normaliseEmail = (email: string): string => email.trim().toLowerCase();

function isMetadataValue(value: unknown): value is MetadataValue {
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

function toUser(wire: UserWire): IdentityUser {
  const email = wire.linked_accounts.find(
    (account) => account.type === 'email' && typeof account.address === 'string',
  );
  const customMetadata: Record<string, MetadataValue> = {};
  // other apps' tooling may have stored shapes we do not use; keep only what the contract allows
  for (const [key, value] of Object.entries(wire.custom_metadata ?? {}))
    if (isMetadataValue(value)) customMetadata[key] = value;
  return { id: wire.id, email: email?.address?.toLowerCase(), customMetadata };
}

function shapeError(operation: string): AppError {
  return new AppError(
    ErrorCode.IDENTITY_PROVIDER_ERROR,
    `${UPSTREAM} sent an unexpected response to ${operation}`,
  );
}

function toWallet(wire: WalletWire, operation: string): IdentityWallet {
  const ownerId = wire.owner_id ?? null;
  if (wire.chain_type !== 'starknet') {
    // not ours to normalise; the verify flow replaces such a wallet
    return {
      id: wire.id,
      address: wire.address,
      publicKey: wire.public_key ?? '',
      chainType: wire.chain_type,
      ownerId,
    };
  }
  if (!isStarknetWallet(wire)) throw shapeError(operation);
  try {
    return {
      id: wire.id,
      address: padHash(wire.address),
      publicKey: padHash(wire.public_key),
      chainType: 'starknet',
      ownerId,
    };
  } catch {
    throw shapeError(operation);
  }
}

/** Only short machine codes are echoed: free-text upstream messages might quote anything. */
function machineCode(answer: Answer): string | undefined {
  // as ky read an error body: JSON only when the answer says it is JSON
  if (!/json/i.test(answer.headers['content-type'] ?? '')) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(answer.text);
  } catch {
    return undefined;
  }
  if (typeof data !== 'object' || data === null) return undefined;
  const code = (data as { code?: unknown }).code;
  return typeof code === 'string' && /^[a-z0-9_]{1,64}$/.test(code) ? code : undefined;
}

/** No answer at all: the deadline passed, the answer was too large, or the connection failed. */
function transportError(error: unknown, operation: string): AppError {
  if (error instanceof UpstreamTimeoutError) {
    return new AppError(
      ErrorCode.UPSTREAM_TIMEOUT,
      `${UPSTREAM} did not answer ${operation} in time`,
    );
  }
  if (error instanceof ResponseTooLargeError) {
    return new AppError(
      ErrorCode.IDENTITY_PROVIDER_ERROR,
      `${UPSTREAM} sent an oversized answer to ${operation}`,
    );
  }
  return new AppError(
    ErrorCode.IDENTITY_PROVIDER_ERROR,
    `${UPSTREAM} could not be reached for ${operation}`,
  );
}

/** An answer other than 2xx (a redirect included: never followed). */
function statusError(answer: Answer, operation: string): AppError {
  const { status } = answer;
  if (status >= 300 && status < 400) {
    return new AppError(
      ErrorCode.IDENTITY_PROVIDER_ERROR,
      `${UPSTREAM} answered ${operation} with a redirect (HTTP ${status}); redirects are never followed`,
    );
  }
  const code = machineCode(answer);
  const detail = code === undefined ? '' : ` (${code})`;
  return new AppError(
    ErrorCode.IDENTITY_PROVIDER_ERROR,
    `${UPSTREAM} answered HTTP ${status}${detail} to ${operation}`,
  );
}

/** A read that met one of these, or a failed connection, is tried once more (a timeout is not). */
const RETRY_STATUSES = new Set([500, 502, 503, 504]);
const RETRY_DELAY_MS = 100;
/** the longest Retry-After (on a 503) a read waits for before its one retry */
const MAX_RETRY_AFTER_MS = 1_000;

function retryDelayMs(answer: Answer): number {
  const seconds = answer.status === 503 ? Number(answer.headers['retry-after']) : Number.NaN;
  return Number.isFinite(seconds) && seconds >= 0
    ? Math.min(MAX_RETRY_AFTER_MS, seconds * 1_000)
    : RETRY_DELAY_MS;
}

/** TypeBox schemas compiled on first use (Value.Check would interpret the schema on every call). */
function checker<S extends Type.TSchema>(schema: S): (value: unknown) => value is Type.Static<S> {
  let compiled: ReturnType<typeof Compile<S>> | undefined;
  return (value): value is Type.Static<S> => (compiled ??= Compile(schema)).Check(value);
}

const isStarknetWallet = checker(StarknetWalletWire);
const isUser = checker(UserWire);
const isWallet = checker(WalletWire);
const isVerify = checker(VerifyWire);
const isRawSign = checker(RawSignWire);
const isSuccess = checker(SuccessWire);

/** A call's options: its method, body, the statuses that mean "none", a status's own error. */
interface CallInit {
  method: 'GET' | 'POST';
  json?: unknown;
  nullOn?: number[];
  onStatus?: (status: number) => AppError | undefined;
}

/**
 * The upstream as the methods see it: one call against the auth host (OTP, with the Origin) or
 * the API host (users, wallets), returning the validated body, or null when `nullOn` lists the
 * status.
 */
type Upstream = <T>(
  host: 'auth' | 'api',
  operation: string,
  path: string,
  check: (value: unknown) => value is T,
  init: CallInit,
) => Promise<T | null>;

/**
 * The identity provider: its methods as modules over one upstream call (docs/architecture.md
 * "Auth server contract", docs/contracts.md part A); a method left out fails typecheck.
 */
export function createIdentityProvider(opts: IdentityProviderOptions): IdentityProvider {
  const call = identityUpstream(opts);
  return { ...otpMethods(call), ...userMethods(call), ...walletMethods(call) };
}

/**
 * One upstream call: returns the validated body, or null when `nullOn` lists the status.
 * `onStatus` lets a caller turn a status into its own error (a bad code, say). Creating wallets
 * or sending codes twice is not harmless: only reads (GET) are retried, once.
 */
function identityUpstream(opts: IdentityProviderOptions): Upstream {
  const credentials = {
    'privy-app-id': opts.appId,
    authorization: `Basic ${Buffer.from(`${opts.appId}:${opts.appSecret}`).toString('base64')}`,
  };
  // Redirects are never followed (json-http.ts): following one would re-send our app credentials
  // and the user's e-mail and OTP code to wherever the Location points. A 3xx is an upstream
  // error (statusError above).
  const transport = opts.transport ?? createJsonTransport();
  const hosts = {
    auth: {
      base: opts.authUrl.replace(/\/+$/, ''),
      headers: { ...credentials, origin: opts.origin },
    },
    api: { base: opts.apiUrl.replace(/\/+$/, ''), headers: credentials },
  };

  async function exchange(request: Parameters<JsonTransport>[0], retry: boolean): Promise<Answer> {
    try {
      const answer = await transport(request);
      if (!retry || !RETRY_STATUSES.has(answer.status)) return answer;
      await sleep(retryDelayMs(answer));
    } catch (error) {
      if (!retry || error instanceof UpstreamTimeoutError || error instanceof ResponseTooLargeError)
        throw error;
      await sleep(RETRY_DELAY_MS);
    }
    return transport(request);
  }

  return async (host, operation, path, check, init) => {
    const request = {
      method: init.method,
      url: `${hosts[host].base}/${path}`,
      headers: hosts[host].headers,
      json: init.json,
      timeoutMs: opts.timeoutMs,
    };
    let answer: Answer;
    try {
      answer = await exchange(request, init.method === 'GET');
    } catch (error) {
      throw transportError(error, operation);
    }
    if (answer.status < 200 || answer.status >= 300) {
      if (answer.status < 300 || answer.status >= 400) {
        if (init.nullOn?.includes(answer.status)) return null;
        const mapped = init.onStatus?.(answer.status);
        if (mapped !== undefined) throw mapped;
      }
      throw statusError(answer, operation);
    }
    let body: unknown;
    try {
      // an empty body is no JSON document, but not a syntax error either: it fails the shape check
      body = answer.text === '' ? '' : JSON.parse(answer.text);
    } catch {
      throw new AppError(
        ErrorCode.IDENTITY_PROVIDER_ERROR,
        `${UPSTREAM} sent invalid JSON for ${operation}`,
      );
    }
    if (!check(body)) throw shapeError(operation);
    return body;
  };
}

const required = <T>(value: T | null, operation: string): T => {
  if (value === null) throw shapeError(operation);
  return value;
};

/** Sign-in by e-mail code: the code sent, the code checked. */
function otpMethods(call: Upstream): Pick<IdentityProvider, 'sendOtp' | 'verifyOtp'> {
  return {
    async sendOtp(email) {
      await call('auth', 'send OTP', 'passwordless/init', isSuccess, {
        method: 'POST',
        json: { email: normaliseEmail(email) },
      });
    },

    async verifyOtp(email, code) {
      const operation = 'verify OTP';
      const body = required(
        await call('auth', operation, 'passwordless/authenticate', isVerify, {
          method: 'POST',
          json: { email: normaliseEmail(email), code },
          // the provider answers a wrong or expired code with 422 (documented) or 401 (seen)
          onStatus: (status) =>
            status === 401 || status === 422
              ? new AppError(
                  ErrorCode.INVALID_OTP,
                  'the code is wrong or has expired; ask for a new one',
                )
              : undefined,
        }),
        operation,
      );
      return { user: toUser(body.user), isNewUser: body.is_new_user ?? false };
    },
  };
}

/** Users: looked up by e-mail, their metadata (the linked wallet's id) written. */
function userMethods(
  call: Upstream,
): Pick<IdentityProvider, 'getUserByEmail' | 'setCustomMetadata'> {
  return {
    async getUserByEmail(email) {
      const body = await call('api', 'look up user', 'v1/users/email/address', isUser, {
        method: 'POST',
        json: { address: normaliseEmail(email) },
        nullOn: [404],
      });
      return body === null ? null : toUser(body);
    },

    async setCustomMetadata(userId, metadata) {
      const operation = 'set user metadata';
      const body = await call(
        'api',
        operation,
        `v1/users/${encodeURIComponent(userId)}/custom_metadata`,
        isUser,
        {
          method: 'POST',
          json: { custom_metadata: metadata },
        },
      );
      return toUser(required(body, operation));
    },
  };
}

/** App-managed wallets: created, fetched, and a hash signed with one. */
function walletMethods(
  call: Upstream,
): Pick<IdentityProvider, 'createWallet' | 'getWallet' | 'rawSign'> {
  return {
    async createWallet() {
      const operation = 'create wallet';
      const body = await call('api', operation, 'v1/wallets', isWallet, {
        method: 'POST',
        json: { chain_type: 'starknet' },
      });
      return toWallet(required(body, operation), operation);
    },

    async getWallet(walletId) {
      const operation = 'get wallet';
      const body = await call(
        'api',
        operation,
        `v1/wallets/${encodeURIComponent(walletId)}`,
        isWallet,
        {
          method: 'GET',
          nullOn: [404],
        },
      );
      return body === null ? null : toWallet(body, operation);
    },

    async rawSign(walletId, hash) {
      const operation = 'raw sign';
      const body = await call(
        'api',
        operation,
        `v1/wallets/${encodeURIComponent(walletId)}/raw_sign`,
        isRawSign,
        {
          method: 'POST',
          // the provider may or may not pad short hashes itself (UNSURE): always send 32 bytes
          json: { params: { hash: padHash(hash) } },
        },
      );
      const signature = required(body, operation).data.signature.toLowerCase();
      return signature.startsWith('0x') ? signature : `0x${signature}`;
    },
  };
}
