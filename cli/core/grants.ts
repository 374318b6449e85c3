/**
 * Agent grants, the client's side (docs/commands.md "grant"; docs/server-api.md "Agent grants"):
 * the signed-in person creates a grant on the auth server — per-token amounts per rolling 24 h,
 * the recipients it may pay, an expiry — and its token is written to a file (0600, atomically)
 * for an agent's tool server, which then uses that file alone (`readGrantFile`: a stand-in
 * session; requireSession returns it and never reads the person's).
 *
 * The grant file: `{kind: "finance-tui-grant", version: 1, grantId, token, expiresAt, email,
 * userId, walletId, address, publicKey, serverUrl, network, sandbox}`. The token is never shown
 * or logged; a refusal names the file, never its content.
 */
import { resolve } from 'node:path';
import * as Type from 'typebox';
import { Check } from 'typebox/schema';
import type { GrantView } from '../../shared/api.js';
import { formatAmount, parseAmount } from '../../shared/amount.js';
import { AppError, ErrorCode, usageError } from '../../shared/errors.js';
import { narrowMode, nodeFs, openDataFile, writeFileAtomic } from '../../shared/fs.js';
import { listTokens, parseAddress, resolveToken, type Network } from '../../shared/tokens.js';
import { createAuthClient } from '../clients/auth-client.js';
import { ensureAuthServer } from './auth-server.js';
import type { CallOptions } from './call.js';
import { parseDurationWithin } from './duration.js';
import { aboutField, type Field, fieldError } from './remedy.js';
import type { Endpoints } from './endpoints.js';
import { mapSessionError, requireSession, SESSION_FIELDS, type Session } from './session.js';

const { closeSync, fstatSync, readFileSync, statSync } = nodeFs;

/** The longest a grant may last (the server's bound, server/grants.ts GRANT_LIMITS). */
const MAX_GRANT_SECONDS = 90 * 24 * 60 * 60;

/** The same refusal, about `field` (cli/core/remedy.ts: each face names the parameter). */
function about<T>(field: Field, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw aboutField(error, field);
  }
}

/** A grant's expiry, "90s", "30m", "24h", "7d" → seconds; USAGE_ERROR otherwise or past 90 days. */
export function parseDuration(text: string): number {
  return about('expires', () =>
    parseDurationWithin(text, {
      seconds: MAX_GRANT_SECONDS,
      words: 'a grant lasts at most 90 days (90d)',
    }),
  );
}

/** "50 USDC" → the token and its base units (exact; INVALID_AMOUNT, UNKNOWN_TOKEN otherwise). */
export function parseDaily(text: string, network: Network): { token: string; amount: bigint } {
  const parts = text.trim().split(/\s+/);
  if (parts.length !== 2)
    throw fieldError(
      'daily',
      `takes "AMOUNT TOKEN", e.g. "50 USDC" (got "${text.trim().slice(0, 40)}")`,
    );
  return about('daily', () => {
    const token = resolveToken(network, parts[1] as string);
    const amount = parseAmount(parts[0] as string, token.decimals, { label: token.symbol });
    return { token: token.address, amount };
  });
}

interface GrantAmountView {
  symbol: string;
  address: string;
  /** exact decimal */
  amount: string;
  spent: string;
  left: string;
  baseUnits: { amount: string; spent: string; left: string };
}

export interface GrantListItem {
  id: string;
  status: 'active' | 'expired' | 'revoked';
  walletAddress: string;
  daily: GrantAmountView[];
  recipients: string[];
  createdAt: string;
  expiresAt: string;
}

/** A grant as the server answers it, in the registry's words (symbols, exact decimals). */
function grantItem(view: GrantView, network: Network): GrantListItem {
  const tokens = listTokens(network);
  return {
    id: view.id,
    status: view.status,
    walletAddress: view.walletAddress,
    daily: view.daily.map((d) => {
      const token = tokens.find((t) => BigInt(t.address) === BigInt(d.token));
      const decimals = token?.decimals ?? 0;
      return {
        symbol: token?.symbol ?? d.token,
        address: d.token,
        amount: formatAmount(BigInt(d.amount), decimals),
        spent: formatAmount(BigInt(d.spent), decimals),
        left: formatAmount(BigInt(d.left), decimals),
        baseUnits: { amount: d.amount, spent: d.spent, left: d.left },
      };
    }),
    recipients: view.recipients,
    createdAt: view.createdAt,
    expiresAt: view.expiresAt,
  };
}

function personalSession(endpoints: Endpoints): Session {
  if (endpoints.grant !== undefined)
    throw new AppError(
      ErrorCode.GRANT_FORBIDDEN,
      'grants are made, listed and revoked by the signed-in person, not under a grant',
    );
  return requireSession(endpoints);
}

function clientOf(endpoints: Endpoints) {
  return createAuthClient({ serverUrl: endpoints.serverUrl });
}

interface GrantCreateInput {
  /** "AMOUNT TOKEN" each */
  daily: readonly string[];
  recipients: readonly string[];
  /** a duration: 30m, 24h, 7d */
  expires: string;
  /** where the token is written (0600) */
  out: string;
}

interface GrantCreateResult {
  grant: GrantListItem;
  /** the absolute path the token was written to */
  file: string;
  network: string;
  sandbox: boolean;
}

/** Creates a grant with the person's session and writes its token to `out` (0600, atomically). */
export async function createGrant(
  endpoints: Endpoints,
  input: GrantCreateInput,
  call: CallOptions = {},
): Promise<GrantCreateResult> {
  if (input.daily.length === 0)
    throw fieldError('daily', 'is needed at least once (one per token)');
  const daily = input.daily.map((d) => parseDaily(d, endpoints.network));
  if (new Set(daily.map((d) => d.token)).size !== daily.length)
    throw fieldError('daily', 'names a token twice (one per token)');
  const recipients = input.recipients.map((r) =>
    about('allowRecipient', () => parseAddress(r.trim(), 'the recipient')),
  );
  const expiresInSeconds = parseDuration(input.expires);
  const file = resolve(input.out);
  try {
    if (statSync(file).isDirectory()) throw fieldError('out', `${file} is a folder`);
  } catch (error) {
    if (error instanceof AppError) throw error;
    // absent: written below
  }
  const session = personalSession(endpoints);
  await ensureAuthServer(endpoints, call);
  const client = clientOf(endpoints);
  let created;
  try {
    created = await client.createGrant(
      session.token,
      {
        daily: daily.map((d) => ({ token: d.token, amount: d.amount.toString() })),
        recipients,
        expiresInSeconds,
      },
      { signal: call.signal },
    );
  } catch (error) {
    throw mapSessionError(session, error);
  }
  const grantFile = {
    kind: 'finance-tui-grant',
    version: 1,
    grantId: created.grant.id,
    token: created.token,
    expiresAt: created.grant.expiresAt,
    email: session.email,
    userId: session.userId,
    walletId: session.walletId,
    address: session.address,
    publicKey: session.publicKey,
    serverUrl: session.serverUrl,
    network: session.network,
    sandbox: session.sandbox,
  };
  try {
    writeFileAtomic(file, `${JSON.stringify(grantFile, null, 2)}\n`, 0o600);
  } catch (error) {
    // a grant whose token could not be kept is ended at once: nobody can use it
    await client.revokeGrant(session.token, created.grant.id).catch(() => undefined);
    throw new AppError(
      ErrorCode.CONFIG_ERROR,
      `could not write the grant to ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'}); the grant was revoked`,
    );
  }
  return {
    grant: grantItem(created.grant, endpoints.network),
    file,
    network: endpoints.networkName,
    sandbox: endpoints.sandbox,
  };
}

export async function listGrants(
  endpoints: Endpoints,
  call: CallOptions = {},
): Promise<{ grants: GrantListItem[]; network: string; sandbox: boolean }> {
  const session = personalSession(endpoints);
  await ensureAuthServer(endpoints, call);
  try {
    const { grants } = await clientOf(endpoints).listGrants(session.token, { signal: call.signal });
    return {
      grants: grants.map((g) => grantItem(g, endpoints.network)),
      network: endpoints.networkName,
      sandbox: endpoints.sandbox,
    };
  } catch (error) {
    throw mapSessionError(session, error);
  }
}

export async function revokeGrant(
  endpoints: Endpoints,
  id: string,
  call: CallOptions = {},
): Promise<{ grant: GrantListItem; network: string; sandbox: boolean }> {
  if (!/^[0-9a-f-]{36}$/.test(id.trim()))
    throw usageError(`"${id.trim().slice(0, 40)}" is not a grant id`);
  const session = personalSession(endpoints);
  await ensureAuthServer(endpoints, call);
  try {
    const { grant } = await clientOf(endpoints).revokeGrant(session.token, id.trim(), {
      signal: call.signal,
    });
    return {
      grant: grantItem(grant, endpoints.network),
      network: endpoints.networkName,
      sandbox: endpoints.sandbox,
    };
  } catch (error) {
    throw mapSessionError(session, error);
  }
}

/** What the grant's own token can read of it: the amounts left now. */
export async function currentGrant(
  endpoints: Endpoints,
  call: CallOptions = {},
): Promise<GrantListItem> {
  const grant = endpoints.grant;
  if (grant === undefined) throw new AppError(ErrorCode.GRANT_NOT_FOUND, 'no grant in use');
  await ensureAuthServer(endpoints, call);
  const { grant: view } = await clientOf(endpoints).currentGrant(grant.token, {
    signal: call.signal,
  });
  return grantItem(view, endpoints.network);
}

/** A saved session's fields, the grant's id and its token (shorter than a session's JWT). */
const GrantFileSchema = Type.Object({
  ...SESSION_FIELDS,
  kind: Type.Literal('finance-tui-grant'),
  version: Type.Literal(1),
  grantId: Type.String({ minLength: 1, maxLength: 64 }),
  token: Type.String({ minLength: 1, maxLength: 200 }),
});

/** The grant file as a stand-in session (CONFIG_ERROR naming the file, never its content). */
export function readGrantFile(path: string): Session {
  const file = resolve(path);
  let raw: string;
  try {
    // read only if a regular file (openDataFile: a FIFO in its place would block for ever); the
    // token in it is a secret: narrowed to 0600 as the session file is
    const fd = openDataFile(file);
    try {
      if (fstatSync(fd).size > 64 * 1024) throw new Error('too large');
      narrowMode(file, 0o600, fd);
      raw = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(
      ErrorCode.CONFIG_ERROR,
      `cannot read the grant file ${file} (${(error as NodeJS.ErrnoException).code ?? 'too large'})`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new AppError(ErrorCode.CONFIG_ERROR, `the grant file ${file} is not JSON`);
  }
  if (!Check(GrantFileSchema, value))
    throw new AppError(
      ErrorCode.CONFIG_ERROR,
      `${file} is not a grant file (creating a grant writes one)`,
    );
  return {
    email: value.email,
    token: value.token,
    expiresAt: value.expiresAt,
    userId: value.userId,
    walletId: value.walletId,
    address: value.address,
    publicKey: value.publicKey,
    serverUrl: value.serverUrl,
    network: value.network,
    sandbox: value.sandbox,
    grantId: value.grantId,
  };
}
