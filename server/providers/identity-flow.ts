/**
 * The verify flow of CONTRACTS.md part A, over any IdentityProvider: authenticate → user by
 * e-mail → custom_metadata.server_wallet_id → that wallet → reuse it if it is an app-managed
 * Starknet wallet, else provision a new one and link it in the user's metadata.
 *
 * Upstream failures propagate unchanged. Above all, a failed wallet lookup never leads to a new
 * wallet: only a definite 404 does, since replacing a wallet that merely did not answer would
 * strand whatever the user holds at its address.
 */
import type { IdentityProvider, IdentityUser, IdentityWallet } from './types.js';

/** The metadata key linking a user to the wallet our server signs with. */
export const SERVER_WALLET_KEY = 'server_wallet_id';

/** Our server can sign with a wallet only when it is Starknet and has no owner but the app. */
export function isUsableWallet(wallet: IdentityWallet): boolean {
  return wallet.chainType === 'starknet' && wallet.ownerId === null;
}

/**
 * Creates an app-managed wallet and records it as the user's server wallet, keeping every other
 * metadata key (the provider replaces the whole object on write).
 * Two concurrent calls for one user each create a wallet and the last metadata write wins; the
 * other wallet is left unused, which costs nothing because it was never shown to anyone.
 */
export async function provisionWallet(
  identity: IdentityProvider,
  user: IdentityUser,
): Promise<{ user: IdentityUser; wallet: IdentityWallet }> {
  const wallet = await identity.createWallet();
  const updated = await identity.setCustomMetadata(user.id, { ...user.customMetadata, [SERVER_WALLET_KEY]: wallet.id });
  return { user: updated, wallet };
}

/** Throws the provider's AppErrors (INVALID_OTP on a bad code). isExisting: a usable wallet was already linked. */
export async function verifyAndProvision(
  identity: IdentityProvider,
  email: string,
  code: string,
): Promise<{ user: IdentityUser; wallet: IdentityWallet; isExisting: boolean }> {
  const authenticated = await identity.verifyOtp(email, code);
  // The lookup is the source of truth for metadata (the authenticate answer may omit it); a
  // user that authenticated but cannot be found yet is still that user.
  const user = (await identity.getUserByEmail(email)) ?? authenticated.user;

  const linkedId = user.customMetadata[SERVER_WALLET_KEY];
  if (typeof linkedId === 'string' && linkedId !== '') {
    const wallet = await identity.getWallet(linkedId);
    if (wallet !== null && isUsableWallet(wallet)) return { user, wallet, isExisting: true };
  }

  const provisioned = await provisionWallet(identity, user);
  return { ...provisioned, isExisting: false };
}
