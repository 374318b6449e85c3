/**
 * The identity-provider adapter (docs/contracts.md part A) over HTTP with ky. Production and the
 * sandbox run this same code; only the two base URLs differ.
 *
 * Failure mapping (types.ts): a bad code → INVALID_OTP 401; a timeout → UPSTREAM_TIMEOUT 504;
 * any other upstream status (a redirect included: never followed), a refused connection,
 * unreadable JSON or an unexpected shape → IDENTITY_PROVIDER_ERROR 502. Messages name the upstream, the operation and the status, plus
 * the provider's machine code when it sends one; never credentials, codes, e-mail addresses,
 * tokens, or upstream bodies (which may carry any of those). The ky error is not attached as a
 * cause either: it holds the request, and the request holds the Authorization header.
 */
import ky, { isHTTPError, isTimeoutError, type KyInstance, type Options } from 'ky';
import Type from 'typebox';
import { Value } from 'typebox/value';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { padHash } from '../../shared/starknet.js';
import { createNodeFetch, ResponseTooLargeError } from './node-fetch.js';
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
  /** for tests that need to watch the wire; defaults to node-fetch.ts (node:http, keep-alive) */
  fetch?: typeof fetch;
}

const UPSTREAM = 'identity provider';

const Hex = Type.String({ pattern: '^0x[0-9a-fA-F]{1,64}$' });

const UserWire = Type.Object({
  id: Type.String({ minLength: 1 }),
  linked_accounts: Type.Array(Type.Object({ type: Type.String(), address: Type.Optional(Type.String()) })),
  custom_metadata: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
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
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

function toUser(wire: UserWire): IdentityUser {
  const email = wire.linked_accounts.find((account) => account.type === 'email' && typeof account.address === 'string');
  const customMetadata: Record<string, MetadataValue> = {};
  // other apps' tooling may have stored shapes we do not use; keep only what the contract allows
  for (const [key, value] of Object.entries(wire.custom_metadata ?? {})) if (isMetadataValue(value)) customMetadata[key] = value;
  return { id: wire.id, email: email?.address?.toLowerCase(), customMetadata };
}

function shapeError(operation: string): AppError {
  return new AppError(ErrorCode.IDENTITY_PROVIDER_ERROR, `${UPSTREAM} sent an unexpected response to ${operation}`, { status: 502 });
}

function toWallet(wire: WalletWire, operation: string): IdentityWallet {
  const ownerId = wire.owner_id ?? null;
  if (wire.chain_type !== 'starknet') {
    // not ours to normalise; the verify flow replaces such a wallet
    return { id: wire.id, address: wire.address, publicKey: wire.public_key ?? '', chainType: wire.chain_type, ownerId };
  }
  if (!Value.Check(StarknetWalletWire, wire)) throw shapeError(operation);
  try {
    return { id: wire.id, address: padHash(wire.address), publicKey: padHash(wire.public_key), chainType: 'starknet', ownerId };
  } catch {
    throw shapeError(operation);
  }
}

/** Only short machine codes are echoed: free-text upstream messages might quote anything. */
function machineCode(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const code = (data as { code?: unknown }).code;
  return typeof code === 'string' && /^[a-z0-9_]{1,64}$/.test(code) ? code : undefined;
}

interface Failure {
  /** set when the provider answered with a non-2xx status */
  status?: number;
  error: AppError;
}

function classify(error: unknown, operation: string): Failure {
  if (isTimeoutError(error)) {
    return {
      error: new AppError(ErrorCode.UPSTREAM_TIMEOUT, `${UPSTREAM} did not answer ${operation} in time`, { status: 504 }),
    };
  }
  if (isHTTPError(error)) {
    const status = error.response.status;
    if (status >= 300 && status < 400) {
      return {
        error: new AppError(ErrorCode.IDENTITY_PROVIDER_ERROR, `${UPSTREAM} answered ${operation} with a redirect (HTTP ${status}); redirects are never followed`, {
          status: 502,
        }),
      };
    }
    const code = machineCode(error.data);
    const detail = code === undefined ? '' : ` (${code})`;
    return {
      status,
      error: new AppError(ErrorCode.IDENTITY_PROVIDER_ERROR, `${UPSTREAM} answered HTTP ${status}${detail} to ${operation}`, { status: 502 }),
    };
  }
  if (error instanceof SyntaxError) {
    return { error: new AppError(ErrorCode.IDENTITY_PROVIDER_ERROR, `${UPSTREAM} sent invalid JSON for ${operation}`, { status: 502 }) };
  }
  if (error instanceof ResponseTooLargeError) {
    return { error: new AppError(ErrorCode.IDENTITY_PROVIDER_ERROR, `${UPSTREAM} sent an oversized answer to ${operation}`, { status: 502 }) };
  }
  return { error: new AppError(ErrorCode.IDENTITY_PROVIDER_ERROR, `${UPSTREAM} could not be reached for ${operation}`, { status: 502 }) };
}

export function createIdentityProvider(opts: IdentityProviderOptions): IdentityProvider {
  const credentials = {
    'privy-app-id': opts.appId,
    authorization: `Basic ${Buffer.from(`${opts.appId}:${opts.appSecret}`).toString('base64')}`,
  };
  const common: Options = {
    timeout: opts.timeoutMs,
    // Never follow a redirect: it would re-send our app credentials and the user's e-mail and OTP
    // code to wherever the Location points. A 3xx is an upstream error (classify above).
    redirect: 'manual',
    // creating wallets or sending codes twice is not harmless: only reads are retried (below)
    retry: 0,
    fetch: opts.fetch ?? createNodeFetch(),
  };
  const authHost = ky.create({ ...common, prefix: opts.authUrl, headers: { ...credentials, origin: opts.origin } });
  const apiHost = ky.create({ ...common, prefix: opts.apiUrl, headers: credentials });
  // one quick retry for a read that met a refused connection or a 5xx; a timeout is not retried
  const readRetry: Options['retry'] = {
    limit: 1,
    methods: ['get'],
    statusCodes: [500, 502, 503, 504],
    delay: () => 100,
    maxRetryAfter: 1000,
    backoffLimit: 1000,
  };

  /**
   * One upstream call: returns the validated body, or null when `nullOn` lists the status.
   * `onStatus` lets a caller turn a status into its own error (a bad code, say).
   */
  async function call<S extends Type.TSchema>(
    host: KyInstance,
    operation: string,
    path: string,
    schema: S,
    init: { method: 'get' | 'post'; json?: unknown; nullOn?: number[]; onStatus?: (status: number) => AppError | undefined },
  ): Promise<Type.Static<S> | null> {
    let body: unknown;
    try {
      const options: Options = { method: init.method, ...(init.json === undefined ? {} : { json: init.json }) };
      if (init.method === 'get') options.retry = readRetry;
      body = await host(path, options).json();
    } catch (error) {
      const failure = classify(error, operation);
      if (failure.status !== undefined) {
        if (init.nullOn?.includes(failure.status)) return null;
        const mapped = init.onStatus?.(failure.status);
        if (mapped !== undefined) throw mapped;
      }
      throw failure.error;
    }
    if (!Value.Check(schema, body)) throw shapeError(operation);
    return body;
  }

  const required = <T>(value: T | null, operation: string): T => {
    if (value === null) throw shapeError(operation);
    return value;
  };

  return {
    async sendOtp(email) {
      await call(authHost, 'send OTP', 'passwordless/init', SuccessWire, { method: 'post', json: { email: normaliseEmail(email) } });
    },

    async verifyOtp(email, code) {
      const operation = 'verify OTP';
      const body = required(
        await call(authHost, operation, 'passwordless/authenticate', VerifyWire, {
          method: 'post',
          json: { email: normaliseEmail(email), code },
          // the provider answers a wrong or expired code with 422 (documented) or 401 (seen)
          onStatus: (status) =>
            status === 401 || status === 422
              ? new AppError(ErrorCode.INVALID_OTP, 'the code is wrong or has expired; ask for a new one', { status: 401 })
              : undefined,
        }),
        operation,
      );
      return { user: toUser(body.user), isNewUser: body.is_new_user ?? false };
    },

    async getUserByEmail(email) {
      const body = await call(apiHost, 'look up user', 'v1/users/email/address', UserWire, {
        method: 'post',
        json: { address: normaliseEmail(email) },
        nullOn: [404],
      });
      return body === null ? null : toUser(body);
    },

    async setCustomMetadata(userId, metadata) {
      const operation = 'set user metadata';
      const body = await call(apiHost, operation, `v1/users/${encodeURIComponent(userId)}/custom_metadata`, UserWire, {
        method: 'post',
        json: { custom_metadata: metadata },
      });
      return toUser(required(body, operation));
    },

    async createWallet() {
      const operation = 'create wallet';
      const body = await call(apiHost, operation, 'v1/wallets', WalletWire, { method: 'post', json: { chain_type: 'starknet' } });
      return toWallet(required(body, operation), operation);
    },

    async getWallet(walletId) {
      const operation = 'get wallet';
      const body = await call(apiHost, operation, `v1/wallets/${encodeURIComponent(walletId)}`, WalletWire, {
        method: 'get',
        nullOn: [404],
      });
      return body === null ? null : toWallet(body, operation);
    },

    async rawSign(walletId, hash) {
      const operation = 'raw sign';
      const body = await call(apiHost, operation, `v1/wallets/${encodeURIComponent(walletId)}/raw_sign`, RawSignWire, {
        method: 'post',
        // the provider may or may not pad short hashes itself (UNSURE): always send 32 bytes
        json: { params: { hash: padHash(hash) } },
      });
      const signature = required(body, operation).data.signature.toLowerCase();
      return signature.startsWith('0x') ? signature : `0x${signature}`;
    },
  };
}
