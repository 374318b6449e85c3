/**
 * Signing in and the account's wallet: login (a code by e-mail), verify (the code → a saved
 * session), logout (the server ends the token, then the file goes), the wallet (find or create), and the sandbox's outbox. Plain data in and
 * out; the token stays in the session file and never reaches a result, a message or a log.
 */
import * as Type from 'typebox';
import { Email, OtpCode } from '../../shared/api.js';
import { AppError, cancelledError, ErrorCode, usageError } from '../../shared/errors.js';
import { createAuthClient } from '../clients/auth-client.js';
import { createHttpClient } from '../clients/http.js';
import { schemaCheck } from '../clients/schema-check.js';
import { keepAddressesFor } from './address-memo.js';
import { ensureAuthServer } from './auth-server.js';
import type { CallOptions } from './call.js';
import { type Endpoints, type NetworkName, runningSandboxServerUrl } from './endpoints.js';
import {
  addressMatchesKey,
  addressMismatch,
  clearSession,
  loginCommand,
  mapSessionError,
  readSession,
  requireSession,
  saveSession,
  type Session,
  sessionFile,
  type SessionView,
  viewOf,
} from './session.js';

const EmailCheck = schemaCheck(Email);
const CodeCheck = schemaCheck(OtpCode);
const OutboxEntry = Type.Object({ email: Type.String(), code: OtpCode, sentAt: Type.String() });

/** Trimmed and lower-cased (the identity provider's own rule), or USAGE_ERROR. */
function normaliseEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (!EmailCheck.Check(email))
    // what was typed is repeated only when it looks like an address: a sign-in code given in its
    // place (the two swapped) is never printed
    throw usageError(
      raw.includes('@')
        ? `"${raw.slice(0, 80)}" is not an e-mail address`
        : 'that is not an e-mail address (the e-mail comes first, then the code)',
    );
  return email;
}

const where = (endpoints: Endpoints) => ({
  network: endpoints.networkName,
  sandbox: endpoints.sandbox,
  serverUrl: endpoints.serverUrl,
});

export interface LoginResult {
  email: string;
  sent: true;
  /** the server's own words */
  message: string;
  network: NetworkName;
  sandbox: boolean;
  serverUrl: string;
  /** sandbox only: where the code is, since no mail leaves the machine (each face says what comes next) */
  outbox?: { url: string };
}

export async function login(
  endpoints: Endpoints,
  rawEmail: string,
  call: CallOptions = {},
): Promise<LoginResult> {
  const email = normaliseEmail(rawEmail);
  await ensureAuthServer(endpoints, call);
  const answer = await createAuthClient({ serverUrl: endpoints.serverUrl }).login(email, {
    signal: call.signal,
  });
  return {
    email,
    sent: true,
    message: answer.message,
    ...where(endpoints),
    ...(endpoints.sandbox && endpoints.identityUrl
      ? {
          outbox: { url: `${endpoints.identityUrl}/sandbox/outbox/${encodeURIComponent(email)}` },
        }
      : {}),
  };
}

export interface VerifyResult extends SessionView {
  /** the account already had a wallet (false: one was made for it now) */
  isExisting: boolean;
  sessionFile: string;
}

/**
 * The code for a session: checked, then saved. A server whose answer pairs an address with a
 * key it does not belong to is refused and nothing is saved. The code never appears in a message.
 */
export async function verify(
  endpoints: Endpoints,
  rawEmail: string,
  code: string,
  call: CallOptions = {},
): Promise<VerifyResult> {
  const email = normaliseEmail(rawEmail);
  if (!CodeCheck.Check(code)) throw usageError('the code is the 6 digits from the sign-in mail');
  await ensureAuthServer(endpoints, call);
  const answer = await createAuthClient({ serverUrl: endpoints.serverUrl }).verify(email, code, {
    signal: call.signal,
  });
  keepAddressesFor(endpoints.env); // computed here once, then read back by every command
  if (!addressMatchesKey(answer.walletAddress, answer.walletPublicKey)) {
    throw addressMismatch(`the server's answer for ${email}`, email, endpoints.sandbox);
  }
  if (Number.isNaN(Date.parse(answer.expiresAt))) {
    throw new AppError(
      ErrorCode.INVALID_RESPONSE,
      'the auth server sent a session without a valid expiry time',
    );
  }
  const session: Session = {
    email,
    token: answer.token,
    expiresAt: answer.expiresAt,
    userId: answer.userId,
    walletId: answer.walletId,
    address: answer.walletAddress,
    publicKey: answer.walletPublicKey,
    serverUrl: endpoints.serverUrl,
    network: endpoints.network,
    sandbox: endpoints.sandbox,
  };
  await saveSession(endpoints.env, session);
  return {
    ...viewOf(session),
    isExisting: answer.isExisting,
    sessionFile: sessionFile(endpoints.env),
  };
}

export interface LogoutResult {
  loggedOut: boolean;
  email?: string;
  /**
   * What the server did with the session's token: `revoked` — it and every earlier token of the
   * account no longer work; `already-ended` — expired or signed out before; `not-reached` — the
   * server could not be told (`warning` says why and until when the token still works).
   */
  serverSignOut?: 'revoked' | 'already-ended' | 'not-reached';
  warning?: string;
}

/** Where a saved session's token is accepted: its server, or the running sandbox's (whose URL changes with each start). */
function signOutUrl(env: NodeJS.ProcessEnv, session: Session): string | undefined {
  return session.sandbox ? runningSandboxServerUrl(env) : session.serverUrl;
}

/**
 * Signs out: the server is told first (POST /auth/logout: the token, and every earlier token of
 * the account, stop working there), then the session file is removed — whatever the server
 * answered, so logging out always works locally. No server is started for it: one that is not
 * running cannot be holding this session's requests. A server that cannot be reached leaves the
 * token valid until it expires; the result says so rather than pretend.
 */
export async function logout(
  env: NodeJS.ProcessEnv,
  call: CallOptions = {},
  options: { now?: () => number } = {},
): Promise<LogoutResult> {
  let session: Session | undefined;
  try {
    session = readSession(env);
  } catch {
    // a corrupt file is removed all the same: logging out must always work
  }
  if (session === undefined) {
    await clearSession(env);
    return { loggedOut: false };
  }
  try {
    return {
      loggedOut: true,
      email: session.email,
      ...(await tellServer(env, session, call, (options.now ?? Date.now)())),
    };
  } finally {
    await clearSession(env);
  }
}

async function tellServer(
  env: NodeJS.ProcessEnv,
  session: Session,
  call: CallOptions,
  now: number,
): Promise<Pick<LogoutResult, 'serverSignOut' | 'warning'>> {
  if (Date.parse(session.expiresAt) <= now) return { serverSignOut: 'already-ended' };
  const notReached = (why: string) => ({
    serverSignOut: 'not-reached' as const,
    warning: `the server was not told (${why}): a copy of this session's token would keep working there until ${session.expiresAt}`,
  });
  const url = signOutUrl(env, session);
  if (url === undefined) return notReached('no sandbox is running');
  try {
    await createAuthClient({ serverUrl: url, timeoutMs: 5_000, retries: 1 }).logout(session.token, {
      signal: call.signal,
    });
    return { serverSignOut: 'revoked' };
  } catch (error) {
    if (call.signal?.aborted) throw cancelledError(call.signal.reason);
    if (
      error instanceof AppError &&
      (error.code === ErrorCode.TOKEN_REVOKED || error.code === ErrorCode.TOKEN_EXPIRED)
    )
      return { serverSignOut: 'already-ended' };
    return notReached(
      error instanceof AppError ? `${error.code}: ${error.message}` : 'unexpected failure',
    );
  }
}

export interface WalletResult {
  email: string;
  wallet: { id: string; address: string; publicKey: string } | null;
  /** --create made this wallet now (and the session now holds a token for it) */
  created: boolean;
  network: NetworkName;
  sandbox: boolean;
  serverUrl: string;
}

/**
 * The session's wallet as the server knows it (POST /wallet/find), or a new one (POST
 * /wallet/create, whose fresh token replaces the saved one). Every wallet is checked: its
 * address must be its key's account.
 */
export async function wallet(
  endpoints: Endpoints,
  options: { create?: boolean; now?: () => number } = {},
  call: CallOptions = {},
): Promise<WalletResult> {
  const session = requireSession(endpoints, options.now ? { now: options.now } : {});
  await ensureAuthServer(endpoints, call);
  const client = createAuthClient({ serverUrl: endpoints.serverUrl });
  const checked = <W extends { address: string; publicKey: string } | null>(found: W): W => {
    if (found !== null && !addressMatchesKey(found.address, found.publicKey))
      throw addressMismatch(
        `the server's wallet for ${session.email}`,
        session.email,
        session.sandbox,
      );
    return found;
  };
  try {
    if (options.create) {
      const made = await client.createWallet(session.token, { signal: call.signal });
      checked(made.wallet);
      await saveSession(endpoints.env, {
        ...session,
        token: made.token,
        expiresAt: made.expiresAt,
        walletId: made.wallet.id,
        address: made.wallet.address,
        publicKey: made.wallet.publicKey,
      });
      return { email: session.email, wallet: made.wallet, created: true, ...where(endpoints) };
    }
    const found = await client.findWallet(session.token, { signal: call.signal });
    return {
      email: session.email,
      wallet: checked(found.wallet),
      created: false,
      ...where(endpoints),
    };
  } catch (error) {
    throw mapSessionError(session, error);
  }
}

export interface OutboxResult {
  email: string;
  code: string;
  sentAt: string;
  outboxUrl: string;
}

/** The latest code the sandbox's identity emulator "sent" to `email` (sandbox only). */
export async function readOutbox(
  endpoints: Endpoints,
  rawEmail: string,
  call: CallOptions = {},
): Promise<OutboxResult> {
  const email = normaliseEmail(rawEmail);
  if (!endpoints.sandbox || endpoints.identityUrl === undefined) {
    throw usageError('the outbox exists only in the sandbox: real codes arrive by e-mail');
  }
  const url = `${endpoints.identityUrl}/sandbox/outbox/${encodeURIComponent(email)}`;
  const http = createHttpClient({
    baseUrl: endpoints.identityUrl,
    service: 'sandbox identity provider',
    retries: 0,
    timeoutMs: 5_000,
  });
  try {
    const { body } = await http.get<{ email: string; code: string; sentAt: string }>(
      `sandbox/outbox/${encodeURIComponent(email)}`,
      {
        signal: call.signal,
        schema: OutboxEntry,
      },
    );
    return { email, code: body.code, sentAt: body.sentAt, outboxUrl: url };
  } catch (error) {
    if (error instanceof AppError && error.details?.status === 404) {
      throw new AppError(
        ErrorCode.NOT_FOUND,
        `no code has been sent to ${email} in this sandbox; send one with: ${loginCommand(email, true)}`,
      );
    }
    throw error;
  }
}
