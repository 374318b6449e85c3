/**
 * The verify flow of docs/contracts.md part A, over any IdentityProvider: authenticate → user by
 * e-mail → custom_metadata.server_wallet_id → that wallet → reuse it if it is an app-managed
 * Starknet wallet, else provision a new one and link it in the user's metadata.
 *
 * Upstream failures propagate unchanged. Above all, a failed wallet lookup never leads to a new
 * wallet: only a definite 404 does, since replacing a wallet that merely did not answer would
 * strand whatever the user holds at its address. For the same reason a usable linked wallet is
 * never replaced (provisionWallet refuses with WALLET_EXISTS).
 */
import { AppError, ErrorCode } from '../../shared/errors.js';
import type { IdentityProvider, IdentityUser, IdentityWallet } from './types.js';

/** The metadata key linking a user to the wallet our server signs with. */
export const SERVER_WALLET_KEY = 'server_wallet_id';

/** Our server can sign with a wallet only when it is Starknet and has no owner but the app. */
export function isUsableWallet(wallet: IdentityWallet): boolean {
  return wallet.chainType === 'starknet' && wallet.ownerId === null;
}

/**
 * The wallet linked in the user's metadata when our server can still sign with it; null when
 * none is linked, the provider answers 404 for it, or it is not app-managed Starknet. A lookup
 * that fails any other way throws: "did not answer" must never read as "has no wallet".
 */
export async function linkedUsableWallet(identity: IdentityProvider, user: IdentityUser): Promise<IdentityWallet | null> {
  const linkedId = user.customMetadata[SERVER_WALLET_KEY];
  if (typeof linkedId !== 'string' || linkedId === '') return null;
  const wallet = await identity.getWallet(linkedId);
  return wallet !== null && isUsableWallet(wallet) ? wallet : null;
}

/**
 * Creates an app-managed wallet and records it as the user's server wallet, keeping every other
 * metadata key (the provider replaces the whole object on write).
 * Two concurrent calls for one user each create a wallet and the last metadata write wins; the
 * other wallet is left unused, which costs nothing because it was never shown to anyone.
 */
async function createAndLink(identity: IdentityProvider, user: IdentityUser): Promise<{ user: IdentityUser; wallet: IdentityWallet }> {
  const wallet = await identity.createWallet();
  const updated = await identity.setCustomMetadata(user.id, { ...user.customMetadata, [SERVER_WALLET_KEY]: wallet.id });
  return { user: updated, wallet };
}

/**
 * A new wallet for a user whose linked wallet is missing or unusable. Refuses with 409
 * WALLET_EXISTS while the linked wallet is still usable: overwriting the link would silently
 * detach a wallet that may hold funds, and nothing could find it again.
 */
export async function provisionWallet(
  identity: IdentityProvider,
  user: IdentityUser,
): Promise<{ user: IdentityUser; wallet: IdentityWallet }> {
  if ((await linkedUsableWallet(identity, user)) !== null) {
    throw new AppError(
      ErrorCode.WALLET_EXISTS,
      'This account already has a usable wallet; a new one is only created when it is missing or unusable. Sign in again to use it',
      { status: 409 },
    );
  }
  return createAndLink(identity, user);
}

/**
 * Throws the provider's AppErrors (INVALID_OTP on a bad code). isExisting: a usable wallet was
 * already linked. IDENTITY_PROVIDER_ERROR when the e-mail lookup finds a different account than
 * the one that authenticated: its metadata is not ours to read or write.
 */
export async function verifyAndProvision(
  identity: IdentityProvider,
  email: string,
  code: string,
): Promise<{ user: IdentityUser; wallet: IdentityWallet; isExisting: boolean }> {
  const authenticated = await identity.verifyOtp(email, code);
  // The lookup is the source of truth for metadata (the authenticate answer may omit it); a
  // user that authenticated but cannot be found yet is still that user.
  const user = (await identity.getUserByEmail(email)) ?? authenticated.user;
  if (user.id !== authenticated.user.id) {
    throw new AppError(
      ErrorCode.IDENTITY_PROVIDER_ERROR,
      'identity provider returned a different account for this e-mail than the one that signed in',
      { status: 502 },
    );
  }

  const existing = await linkedUsableWallet(identity, user);
  if (existing !== null) return { user, wallet: existing, isExisting: true };
  return { ...(await createAndLink(identity, user)), isExisting: false };
}
