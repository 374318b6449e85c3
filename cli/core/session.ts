/**
 * The signed-in session (docs/architecture.md "Client behaviour"): kept in
 * `<data folder>/session.json` through store.ts (0600, written atomically under the file's lock),
 * one at a time.
 *
 * A session is used only when all of these hold, checked on every use:
 * - its address is the ArgentX v0.5.0 account of its public key (compared as numbers): the
 *   address is where funds go, the key is what signs — a file or a server pairing them wrongly
 *   is refused (ADDRESS_MISMATCH, exit 4);
 * - it belongs to where the command talks: the same server URL and network outside the sandbox;
 *   in the sandbox, the data folder's sandbox (its URLs change with every start, its JWT secret
 *   is kept in the data folder, so its tokens outlive a restart). Otherwise AUTH_REQUIRED;
 * - it has not expired (expiresAt, or the server answers 401): SESSION_EXPIRED.
 * Each refusal says how to sign in again. The token never appears in a message or a document.
 */
import * as Type from 'typebox';
import { keepAddressesFor } from './address-memo.js';
import { signInRemedy } from './remedy.js';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { FELT_HEX_PATTERN } from '../../shared/felt.js';
import {
  argentAccountAddress,
  padHash,
  splitSignature,
  verifyStarkSignature,
} from '../../shared/starknet.js';
import type { Network } from '../../shared/tokens.js';
import { checkStored, readStore, removeStore, storeFile, writeStore } from '../platform/store.js';
import { createAuthClient } from '../clients/auth-client.js';
import { schemaCheck } from '../clients/schema-check.js';
import type { SignHash, SignTypedData } from './chain/index.js';
import type { Endpoints, NetworkName } from './endpoints.js';

export interface Session {
  email: string;
  /** the JWT: never shown, never logged */
  token: string;
  /** ISO 8601 */
  expiresAt: string;
  userId: string;
  walletId: string;
  /** 0x + 64 hex */
  address: string;
  publicKey: string;
  serverUrl: string;
  network: Network;
  sandbox: boolean;
  /**
   * set when this "session" is an agent grant (cli/core/grants.ts): `token` is then the grant's
   * token, which signs only typed data the server checks (docs/server-api.md "Agent grants")
   */
  grantId?: string;
}

/** A session as commands and screens show it: everything but the token. */
export interface SessionView {
  email: string;
  userId: string;
  walletId: string;
  address: string;
  publicKey: string;
  expiresAt: string;
  serverUrl: string;
  network: NetworkName;
  sandbox: boolean;
}

const text = (maxLength: number) => Type.String({ minLength: 1, maxLength });
const Felt = Type.String({ pattern: FELT_HEX_PATTERN });
/** A saved session's fields (a grant file carries the same, its own token among them: grants.ts). */
export const SESSION_FIELDS = {
  email: text(254),
  token: text(8192),
  expiresAt: text(64),
  userId: text(200),
  walletId: text(200),
  address: Felt,
  publicKey: Felt,
  serverUrl: text(2048),
  network: Type.Union([Type.Literal('mainnet'), Type.Literal('sepolia')]),
  sandbox: Type.Boolean(),
};
const SessionFileSchema = Type.Object({
  session: Type.Optional(Type.Object(SESSION_FIELDS, { additionalProperties: false })),
});
// generated when the bin is built (scripts/bundle-plugins.mjs standaloneChecks)
const SessionFileCheck = schemaCheck(SessionFileSchema);

type Stored = { session?: Session };
const STORE = { configName: 'session', what: 'session' } as const;

export function sessionFile(env: NodeJS.ProcessEnv): string {
  return storeFile(env, 'session');
}

/** The saved session as stored (unchecked), or undefined. CONFIG_ERROR for a corrupt file. */
export function readSession(env: NodeJS.ProcessEnv): Session | undefined {
  return checkStored(SessionFileCheck, readStore({ env, ...STORE }), { env, ...STORE }).session;
}

export async function saveSession(env: NodeJS.ProcessEnv, session: Session): Promise<void> {
  await writeStore({ env, ...STORE }, { session } satisfies Stored);
}

/** Removes the session file; returns the e-mail of the session that was there, if one was. */
export async function clearSession(env: NodeJS.ProcessEnv): Promise<{ email?: string }> {
  let email: string | undefined;
  // a corrupt file is removed all the same: logging out must always work
  await removeStore({ env, ...STORE }, (current) => {
    try {
      email = checkStored(SessionFileCheck, current, { env, ...STORE }).session?.email;
    } catch {
      // unreadable or not a session: removed, and no e-mail to name
    }
    return false;
  });
  return email === undefined ? {} : { email };
}

export { loginCommand } from './remedy.js';

/** Whether `address` is the ArgentX v0.5.0 account of `publicKey`, as numbers. */
export function addressMatchesKey(address: string, publicKey: string): boolean {
  try {
    return BigInt(padHash(address)) === BigInt(argentAccountAddress(publicKey));
  } catch {
    return false;
  }
}

export function addressMismatch(
  what: string,
  email: string | undefined,
  sandbox: boolean,
): AppError {
  return new AppError(
    ErrorCode.ADDRESS_MISMATCH,
    `${what}: its wallet address is not the account of its public key, so it is refused`,
    { details: { ...signInRemedy(email, sandbox) } },
  );
}

function sessionExpired(session: Pick<Session, 'email' | 'sandbox'>, why: string): AppError {
  return new AppError(ErrorCode.SESSION_EXPIRED, why, {
    details: { ...signInRemedy(session.email, session.sandbox) },
  });
}

/** A 401 from the server on a session's token means the session is over (expired or revoked). */
export function mapSessionError(
  session: Pick<Session, 'email' | 'sandbox'>,
  error: unknown,
): unknown {
  if (
    error instanceof AppError &&
    (error.code === ErrorCode.UNAUTHORIZED ||
      error.code === ErrorCode.TOKEN_EXPIRED ||
      error.code === ErrorCode.TOKEN_REVOKED)
  ) {
    return sessionExpired(
      session,
      `the server no longer accepts the session of ${session.email} (${error.code})`,
    );
  }
  return error;
}

function sameServer(a: string, b: string): boolean {
  try {
    const x = new URL(a);
    const y = new URL(b);
    return (
      x.origin === y.origin && x.pathname.replace(/\/+$/, '') === y.pathname.replace(/\/+$/, '')
    );
  } catch {
    return false;
  }
}

function describeTarget(target: { sandbox: boolean; network: Network; serverUrl: string }): string {
  return target.sandbox ? 'the sandbox' : `${target.network} at ${target.serverUrl}`;
}

export function viewOf(session: Session): SessionView {
  return {
    email: session.email,
    userId: session.userId,
    walletId: session.walletId,
    address: session.address,
    publicKey: session.publicKey,
    expiresAt: session.expiresAt,
    serverUrl: session.serverUrl,
    network: session.sandbox ? 'sandbox' : session.network,
    sandbox: session.sandbox,
  };
}

/**
 * The session the command may use against `endpoints`, or the refusal that says why not and how
 * to sign in (see the file comment for the checks and their order).
 */
export function requireSession(
  endpoints: Pick<Endpoints, 'env' | 'sandbox' | 'network' | 'serverUrl' | 'grant'>,
  options: { now?: () => number } = {},
): Session {
  // the key's address as an earlier command computed it, if one did (address-memo.ts)
  keepAddressesFor(endpoints.env);
  // under an agent grant the grant stands in for the session: the person's file is never read
  if (endpoints.grant !== undefined) return requireGrant(endpoints, endpoints.grant, options);
  const session = readSession(endpoints.env);
  if (session === undefined) {
    throw new AppError(ErrorCode.AUTH_REQUIRED, 'not signed in', {
      details: { ...signInRemedy(undefined, endpoints.sandbox) },
    });
  }
  if (!addressMatchesKey(session.address, session.publicKey)) {
    throw addressMismatch(
      `the saved session (${sessionFile(endpoints.env)})`,
      session.email,
      session.sandbox,
    );
  }
  const sameTarget =
    session.sandbox === endpoints.sandbox &&
    session.network === endpoints.network &&
    (endpoints.sandbox || sameServer(session.serverUrl, endpoints.serverUrl));
  if (!sameTarget) {
    throw new AppError(
      ErrorCode.AUTH_REQUIRED,
      `the saved session of ${session.email} is for ${describeTarget(session)}, not ${describeTarget(endpoints)}`,
      { details: { ...signInRemedy(session.email, endpoints.sandbox) } },
    );
  }
  const expiresAt = Date.parse(session.expiresAt);
  const now = (options.now ?? Date.now)();
  if (Number.isNaN(expiresAt) || expiresAt <= now) {
    throw sessionExpired(
      session,
      `the session of ${session.email} expired${Number.isNaN(expiresAt) ? '' : ` at ${new Date(expiresAt).toISOString()}`}`,
    );
  }
  return session;
}

/** The checks of requireSession, on a grant's stand-in session: its key, its target, its expiry. */
function requireGrant(
  endpoints: Pick<Endpoints, 'sandbox' | 'network' | 'serverUrl'>,
  grant: Session,
  options: { now?: () => number },
): Session {
  if (!addressMatchesKey(grant.address, grant.publicKey))
    throw addressMismatch('the grant file', grant.email, grant.sandbox);
  const sameTarget =
    grant.sandbox === endpoints.sandbox &&
    grant.network === endpoints.network &&
    (endpoints.sandbox || sameServer(grant.serverUrl, endpoints.serverUrl));
  if (!sameTarget)
    throw new AppError(
      ErrorCode.AUTH_REQUIRED,
      `the grant is for ${describeTarget(grant)}, not ${describeTarget(endpoints)}`,
    );
  const expiresAt = Date.parse(grant.expiresAt);
  if (Number.isNaN(expiresAt) || expiresAt <= (options.now ?? Date.now)())
    throw new AppError(
      ErrorCode.GRANT_EXPIRED,
      `the grant expired${Number.isNaN(expiresAt) ? '' : ` at ${new Date(expiresAt).toISOString()}`}; the person can make a new one (grant create)`,
    );
  return grant;
}

/** For a screen that shows who is signed in: the session, or why there is none usable. */
type SessionState =
  | { signedIn: true; session: SessionView }
  | {
      signedIn: false;
      code: 'AUTH_REQUIRED' | 'SESSION_EXPIRED' | 'ADDRESS_MISMATCH';
      message: string;
    };

const REFUSALS = new Set<string>([
  ErrorCode.AUTH_REQUIRED,
  ErrorCode.SESSION_EXPIRED,
  ErrorCode.ADDRESS_MISMATCH,
]);

/** requireSession as data: a refusal is a state, not an error (a corrupt file still throws CONFIG_ERROR). */
export function sessionState(
  endpoints: Pick<Endpoints, 'env' | 'sandbox' | 'network' | 'serverUrl' | 'grant'>,
  options: { now?: () => number } = {},
): SessionState {
  try {
    return { signedIn: true, session: viewOf(requireSession(endpoints, options)) };
  } catch (error) {
    if (error instanceof AppError && REFUSALS.has(error.code)) {
      return {
        signedIn: false,
        code: error.code as 'AUTH_REQUIRED' | 'SESSION_EXPIRED' | 'ADDRESS_MISMATCH',
        message: error.message,
      };
    }
    throw error;
  }
}

/**
 * The server's signature over `hash`, checked against the session's public key before it is
 * handed on: a server (or anything between) answering with another key's signature, or garbage,
 * is INVALID_RESPONSE rather than a transaction that fails later. `over` names what was signed.
 */
async function verifiedSignature(
  session: Session,
  hash: string,
  sign: () => Promise<{ signature: string }>,
  over = '',
): Promise<{ r: string; s: string }> {
  let signature: string;
  try {
    signature = (await sign()).signature;
  } catch (error) {
    throw mapSessionError(session, error);
  }
  if (!verifyStarkSignature(hash, signature, session.publicKey)) {
    throw new AppError(
      ErrorCode.INVALID_RESPONSE,
      `the auth server's signature does not verify against the wallet's public key${over}; refusing it`,
    );
  }
  const [r, s] = splitSignature(signature);
  return { r, s };
}

/**
 * POST /sign/hash for the session's wallet, its signature checked (verifiedSignature). A 401 ends
 * the session (SESSION_EXPIRED); 429 is RATE_LIMITED with retryAfterSeconds.
 */
export function createSignHash(
  session: Session,
  options: { serverUrl: string; timeoutMs?: number },
): SignHash {
  const client = createAuthClient({
    serverUrl: options.serverUrl,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  return (hash, signal) =>
    verifiedSignature(session, hash, () =>
      client.signHash(session.token, session.walletId, hash, { signal }),
    );
}

/** The call targets and calldata felts of an outside execution's typed data (what a vToken proof may be for). */
function feltsNamedBy(data: Parameters<SignTypedData>[0]): string[] {
  const calls = (data.message as { Calls?: unknown }).Calls;
  if (!Array.isArray(calls)) return [];
  return calls.flatMap((call: unknown) => {
    const { To, Calldata } = (call ?? {}) as { To?: unknown; Calldata?: unknown };
    return [To, ...(Array.isArray(Calldata) ? Calldata : [])].filter(
      (f): f is string => typeof f === 'string',
    );
  });
}

/**
 * POST /sign/message with the typed data itself, for an agent grant (the server decodes and
 * checks what it signs), with the deploy-address proofs of the vTokens it names (vtoken-origin.ts
 * vTokenProofsFor: the server reads no chain, so it recomputes them). The signature is checked against the wallet's key over the hash
 * computed here (the one message hash the signer uses: chain/message-hash.ts), so the server
 * cannot hand back a signature of anything else.
 */
export function createSignTypedData(
  session: Session,
  options: { serverUrl: string; timeoutMs?: number },
): SignTypedData {
  const client = createAuthClient({
    serverUrl: options.serverUrl,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  return async (data, accountAddress, signal) => {
    const [{ messageHashOf }, { vTokenProofsFor }] = await Promise.all([
      import('./chain/message-hash.js'),
      import('./vtoken-origin.js'),
    ]);
    const hash = padHash(messageHashOf(data, accountAddress));
    const vTokens = vTokenProofsFor(feltsNamedBy(data));
    return verifiedSignature(
      session,
      hash,
      () => client.signTypedData(session.token, session.walletId, data, { signal, vTokens }),
      ' over this typed data',
    );
  };
}
