/**
 * What the auth server needs from its upstreams, as plain interfaces: routes depend on these,
 * the real adapters implement them over HTTP, and route tests may pass fakes.
 * All methods throw AppError on failure (INVALID_OTP, IDENTITY_PROVIDER_ERROR, PAYMASTER_ERROR,
 * UPSTREAM_TIMEOUT); messages never contain credentials, codes or tokens.
 */
import type { JsonRpcRequest } from '../../shared/api.js';

export type MetadataValue = string | number | boolean;

export interface IdentityUser {
  /** did:privy:… */
  id: string;
  /** first linked e-mail address, lower-cased */
  email: string | undefined;
  customMetadata: Record<string, MetadataValue>;
}

export interface IdentityWallet {
  id: string;
  /** 0x + 64 hex, the ArgentX v0.5.0 counterfactual address */
  address: string;
  /** 0x-hex Stark public key (x coordinate) */
  publicKey: string;
  chainType: string;
  /** null for an app-managed wallet */
  ownerId: string | null;
}

export interface IdentityProvider {
  sendOtp(email: string): Promise<void>;
  /** Throws AppError INVALID_OTP (401) on a wrong or expired code. */
  verifyOtp(email: string, code: string): Promise<{ user: IdentityUser; isNewUser: boolean }>;
  getUserByEmail(email: string): Promise<IdentityUser | null>;
  setCustomMetadata(userId: string, metadata: Record<string, MetadataValue>): Promise<IdentityUser>;
  createWallet(): Promise<IdentityWallet>;
  /** null when the provider answers 404 */
  getWallet(walletId: string): Promise<IdentityWallet | null>;
  /** hash: 0x-hex, padded to 32 bytes inside; returns 0x + 128 hex (r‖s) */
  rawSign(walletId: string, hash: string): Promise<string>;
}

/** Relays one JSON-RPC request to the paymaster and returns its JSON-RPC response body. */
export interface PaymasterRelay {
  relay(request: JsonRpcRequest): Promise<unknown>;
}
