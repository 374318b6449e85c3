/**
 * The verify flow of docs/contracts.md part A, over any IdentityProvider: authenticate → user by
 * e-mail → custom_metadata.server_wallet_id → that wallet → reuse it if it is an app-managed
 * Starknet wallet, else provision a new one and link it in the user's metadata.
 *
 * A wallet may hold funds, and the link in the user's metadata is the only way back to it: every
 * path that writes the link is guarded so that a usable wallet is never unlinked.
 * - Upstream failures propagate unchanged. A failed wallet lookup never leads to a new wallet:
 *   only a definite 404 does, since replacing a wallet that merely did not answer would strand
 *   whatever the user holds at its address.
 * - A usable linked wallet is never replaced (/wallet/create refuses with WALLET_EXISTS); the
 *   authenticate answer's link counts as much as the lookup's.
 * - Provisioning one user's wallet is serialised (a KeyedLock: in process, and through Redis
 *   across instances), and the user is read again inside the lock: the second of two concurrent
 *   callers finds the first one's wallet instead of linking its own over it.
 * - When the e-mail lookup cannot find a user that just authenticated, nothing is written: the
 *   authenticate answer may carry only part of the metadata, and writing it back would drop the
 *   rest, the wallet link included.
 * - A metadata write the provider answers without our link is an error, never a wallet handed
 *   out unlinked (funds sent to it would be stranded at the next sign-in).
 */
import { AppError, ErrorCode } from '../../shared/errors.js';
import type { KeyedLock } from '../locks.js';
import type { IdentityProvider, IdentityUser, IdentityWallet } from './types.js';

/** The metadata key linking a user to the wallet our server signs with. */
export const SERVER_WALLET_KEY = 'server_wallet_id';

/** Our server can sign with a wallet only when it is Starknet and has no owner but the app. */
function isUsableWallet(wallet: IdentityWallet): boolean {
  return wallet.chainType === 'starknet' && wallet.ownerId === null;
}

/**
 * The wallet linked in the user's metadata when our server can still sign with it; null when
 * none is linked, the provider answers 404 for it, or it is not app-managed Starknet. A lookup
 * that fails any other way throws: "did not answer" must never read as "has no wallet".
 */
async function linkedUsableWallet(
  identity: IdentityProvider,
  user: IdentityUser,
): Promise<IdentityWallet | null> {
  const linkedId = user.customMetadata[SERVER_WALLET_KEY];
  if (typeof linkedId !== 'string' || linkedId === '') return null;
  const wallet = await identity.getWallet(linkedId);
  return wallet !== null && isUsableWallet(wallet) ? wallet : null;
}

/** What provisioning needs besides the provider: the per-user lock and how long to wait for it. */
export interface Provisioning {
  identity: IdentityProvider;
  lock: KeyedLock;
  /** longest wait for another request provisioning the same user (it makes up to 4 upstream calls) */
  waitMs: number;
}

function providerError(message: string): AppError {
  return new AppError(ErrorCode.IDENTITY_PROVIDER_ERROR, `identity provider ${message}`);
}

/** Serialises provisioning of one user; the lock key is the provider's user id. */
function underUserLock<T>(
  provisioning: Provisioning,
  userId: string,
  fn: () => Promise<T>,
): Promise<T> {
  return provisioning.lock.withLock(`provision:${userId}`, fn, {
    waitMs: provisioning.waitMs,
    onTimeout: () =>
      new AppError(
        ErrorCode.PROVISIONING_IN_PROGRESS,
        'A wallet is being set up for this account by another request; try again in a moment',
      ),
  });
}

/**
 * Creates an app-managed wallet and records it as the user's server wallet, keeping every other
 * metadata key (the provider replaces the whole object on write). Call it only under the user's
 * lock, with `user` read inside the lock.
 */
async function createAndLink(
  identity: IdentityProvider,
  user: IdentityUser,
): Promise<{ user: IdentityUser; wallet: IdentityWallet }> {
  const wallet = await identity.createWallet();
  const updated = await identity.setCustomMetadata(user.id, {
    ...user.customMetadata,
    [SERVER_WALLET_KEY]: wallet.id,
  });
  if (updated.customMetadata[SERVER_WALLET_KEY] !== wallet.id) {
    // the new wallet was never shown to anyone; the old link (if any) is whatever the provider kept
    throw providerError(
      'did not record the new wallet in the account; nothing was changed on our side, try again',
    );
  }
  return { user: updated, wallet };
}

/**
 * /wallet/create: a new wallet for the token's user when the linked one is missing or unusable.
 * The user is read inside the lock and must still be the token's (`userId`), else 401. Refuses
 * with 409 WALLET_EXISTS while the linked wallet is still usable: overwriting the link would
 * silently detach a wallet that may hold funds, and nothing could find it again.
 */
export async function provisionWallet(
  provisioning: Provisioning,
  claims: { email: string; userId: string },
): Promise<{ user: IdentityUser; wallet: IdentityWallet }> {
  const { identity } = provisioning;
  return underUserLock(provisioning, claims.userId, async () => {
    // The provider has no get-user-by-id, so the token carries the e-mail; the id check makes sure
    // the address still belongs to the same account (e-mails can be unlinked and relinked).
    const user = await identity.getUserByEmail(claims.email);
    if (user === null || user.id !== claims.userId) {
      throw new AppError(ErrorCode.UNAUTHORIZED, 'This account no longer exists, sign in again');
    }
    if ((await linkedUsableWallet(identity, user)) !== null) {
      throw new AppError(
        ErrorCode.WALLET_EXISTS,
        'This account already has a usable wallet; a new one is only created when it is missing or unusable. Sign in again to use it',
      );
    }
    return createAndLink(identity, user);
  });
}

/** The first usable wallet linked by any of these views of one user (lookup first). */
async function firstUsableLink(
  identity: IdentityProvider,
  users: IdentityUser[],
): Promise<IdentityWallet | null> {
  const seen = new Set<unknown>();
  for (const user of users) {
    const linked = user.customMetadata[SERVER_WALLET_KEY];
    if (seen.has(linked)) continue;
    seen.add(linked);
    const wallet = await linkedUsableWallet(identity, user);
    if (wallet !== null) return wallet;
  }
  return null;
}

/**
 * Throws the provider's AppErrors (INVALID_OTP on a bad code). isExisting: a usable wallet was
 * already linked. IDENTITY_PROVIDER_ERROR when the e-mail lookup finds a different account than
 * the one that authenticated (its metadata is not ours to read or write), or none at all while
 * nothing usable is linked (we would have to write metadata we cannot see).
 */
export async function verifyAndProvision(
  provisioning: Provisioning,
  email: string,
  code: string,
): Promise<{ user: IdentityUser; wallet: IdentityWallet; isExisting: boolean }> {
  const { identity } = provisioning;
  const authenticated = (await identity.verifyOtp(email, code)).user;
  // The lookup is the source of truth for metadata (the authenticate answer may omit some).
  const lookedUp = await identity.getUserByEmail(email);
  if (lookedUp !== null && lookedUp.id !== authenticated.id) {
    throw providerError('returned a different account for this e-mail than the one that signed in');
  }
  const views = lookedUp === null ? [authenticated] : [lookedUp, authenticated];
  const existing = await firstUsableLink(identity, views);
  if (existing !== null)
    return { user: lookedUp ?? authenticated, wallet: existing, isExisting: true };
  if (lookedUp === null)
    throw providerError(
      'signed this account in but cannot find it by e-mail yet; sign in again in a moment',
    );

  return underUserLock(provisioning, authenticated.id, async () => {
    // again, inside the lock: another request (or instance) may have linked a wallet meanwhile
    const user = await identity.getUserByEmail(email);
    if (user === null || user.id !== authenticated.id)
      throw providerError('no longer finds the account that signed in; sign in again');
    const linked = await linkedUsableWallet(identity, user);
    if (linked !== null) return { user, wallet: linked, isExisting: true };
    return { ...(await createAndLink(identity, user)), isExisting: false };
  });
}
