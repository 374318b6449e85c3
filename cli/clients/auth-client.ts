/**
 * Client of our auth server (docs/architecture.md "Auth server contract"), over the one HTTP
 * layer: every answer checked against the shared schemas (shared/api.ts), every error body
 * mapped to an AppError with the server's code. Only /wallet/find (a read) and /auth/logout (a
 * repeat is harmless) are retried; login,
 * verify, wallet creation and signing are POSTs that may have had an effect and are not.
 */
import {
  GrantCreateResponse,
  GrantListResponse,
  GrantResponse,
  SignMessageResponse,
  type GrantCreateRequest,
  type GrantCreateResponse as GrantCreateResponseT,
  type GrantListResponse as GrantListResponseT,
  type GrantResponse as GrantResponseT,
  type SignMessageResponse as SignMessageResponseT,
  LoginResponse,
  LogoutResponse,
  SignHashResponse,
  VerifyResponse,
  WalletCreateResponse,
  WalletFindResponse,
  type LoginResponse as LoginResponseT,
  type LogoutResponse as LogoutResponseT,
  type SignHashResponse as SignHashResponseT,
  type VerifyResponse as VerifyResponseT,
  type WalletCreateResponse as WalletCreateResponseT,
  type WalletFindResponse as WalletFindResponseT,
} from '../../shared/api.js';
import { printable } from '../../shared/printable.js';
import type { VTokenProof } from '../../shared/vesu.js';
import { createHttpClient, type BackoffOptions, useChecks } from './http.js';
import { schemaCheck } from './schema-check.js';

// the signature's answer, which every money command checks, generated when the bin is built
// (scripts/bundle-plugins.mjs standaloneChecks); the other answers are checked when first asked
useChecks(schemaCheck(SignHashResponse));

interface AuthClientOptions {
  serverUrl: string;
  /** per attempt, for the whole answer; above the server's own upstream timeout (10 s) so its 504 arrives first */
  timeoutMs?: number;
  retries?: number;
  backoff?: BackoffOptions;
}

interface AuthCall {
  signal?: AbortSignal | undefined;
}

interface AuthClient {
  readonly serverUrl: string;
  login(email: string, call?: AuthCall): Promise<LoginResponseT>;
  verify(email: string, code: string, call?: AuthCall): Promise<VerifyResponseT>;
  findWallet(token: string, call?: AuthCall): Promise<WalletFindResponseT>;
  createWallet(token: string, call?: AuthCall): Promise<WalletCreateResponseT>;
  signHash(
    token: string,
    walletId: string,
    hash: string,
    call?: AuthCall,
  ): Promise<SignHashResponseT>;
  /** ends `token` (and every earlier token of its account) on the server */
  logout(token: string, call?: AuthCall): Promise<LogoutResponseT>;
  /**
   * SNIP-12 typed data signed by the server (a grant token's only way to sign), with the
   * deploy-address proofs of the vTokens it calls (the server reads no chain)
   */
  signTypedData(
    token: string,
    walletId: string,
    message: unknown,
    call?: AuthCall & { vTokens?: readonly VTokenProof[] },
  ): Promise<SignMessageResponseT>;
  /** agent grants (docs/server-api.md "Agent grants") */
  createGrant(
    token: string,
    request: GrantCreateRequest,
    call?: AuthCall,
  ): Promise<GrantCreateResponseT>;
  listGrants(token: string, call?: AuthCall): Promise<GrantListResponseT>;
  revokeGrant(token: string, id: string, call?: AuthCall): Promise<GrantResponseT>;
  /** the grant of a grant token */
  currentGrant(grantToken: string, call?: AuthCall): Promise<GrantResponseT>;
}

const AUTH_TIMEOUT_MS = 20_000;

export function createAuthClient(options: AuthClientOptions): AuthClient {
  const http = createHttpClient({
    baseUrl: options.serverUrl,
    service: 'auth server',
    errorBodies: 'app',
    timeoutMs: options.timeoutMs ?? AUTH_TIMEOUT_MS,
    ...(options.retries === undefined ? {} : { retries: options.retries }),
    ...(options.backoff ? { backoff: options.backoff } : {}),
  });
  return {
    serverUrl: http.baseUrl,
    login: async (email, call = {}) => {
      const { body } = await http.post<LoginResponseT>(
        'auth/login',
        { email },
        { signal: call.signal, schema: LoginResponse },
      );
      // the server's words reach the user: printable where they enter (shared/printable.ts)
      return { ...body, message: printable(body.message) };
    },
    verify: async (email, code, call = {}) =>
      (
        await http.post<VerifyResponseT>(
          'auth/verify',
          { email, code },
          { signal: call.signal, schema: VerifyResponse },
        )
      ).body,
    findWallet: async (token, call = {}) =>
      (
        await http.post<WalletFindResponseT>(
          'wallet/find',
          {},
          { signal: call.signal, token, schema: WalletFindResponse, idempotent: true },
        )
      ).body,
    createWallet: async (token, call = {}) =>
      (
        await http.post<WalletCreateResponseT>(
          'wallet/create',
          {},
          { signal: call.signal, token, schema: WalletCreateResponse },
        )
      ).body,
    signHash: async (token, walletId, hash, call = {}) =>
      (
        await http.post<SignHashResponseT>(
          'sign/hash',
          { walletId, hash },
          { signal: call.signal, token, schema: SignHashResponse },
        )
      ).body,
    signTypedData: async (token, walletId, message, call = {}) =>
      (
        await http.post<SignMessageResponseT>(
          'sign/message',
          {
            walletId,
            message,
            ...(call.vTokens === undefined || call.vTokens.length === 0
              ? {}
              : { vTokens: call.vTokens }),
          },
          { signal: call.signal, token, schema: SignMessageResponse },
        )
      ).body,
    createGrant: async (token, request, call = {}) =>
      (
        await http.post<GrantCreateResponseT>('grants', request, {
          signal: call.signal,
          token,
          schema: GrantCreateResponse,
        })
      ).body,
    listGrants: async (token, call = {}) =>
      (
        await http.get<GrantListResponseT>('grants', {
          signal: call.signal,
          token,
          schema: GrantListResponse,
        })
      ).body,
    // idempotent: revoking twice leaves it revoked
    revokeGrant: async (token, id, call = {}) =>
      (
        await http.post<GrantResponseT>(
          `grants/${encodeURIComponent(id)}/revoke`,
          {},
          { signal: call.signal, token, schema: GrantResponse, idempotent: true },
        )
      ).body,
    currentGrant: async (grantToken, call = {}) =>
      (
        await http.get<GrantResponseT>('grants/current', {
          signal: call.signal,
          token: grantToken,
          schema: GrantResponse,
        })
      ).body,
    // idempotent: a repeat with the ended token is TOKEN_REVOKED, which the caller reads as done
    logout: async (token, call = {}) => {
      const { body } = await http.post<LogoutResponseT>(
        'auth/logout',
        {},
        { signal: call.signal, token, schema: LogoutResponse, idempotent: true },
      );
      return { ...body, message: printable(body.message) };
    },
  };
}
