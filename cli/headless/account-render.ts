/**
 * Human renderings of the account commands (login, verify, logout, wallet, sandbox outbox).
 * `--json` prints the core's plain data instead. Nothing here ever sees a token.
 */
import type {
  LoginResult,
  LogoutResult,
  OutboxResult,
  VerifyResult,
  WalletResult,
} from '../core/account.js';

const SANDBOX_BANNER = 'SANDBOX — local emulators, no real funds';
const banner = (sandbox: boolean): string[] => (sandbox ? [SANDBOX_BANNER] : []);
const place = (r: { sandbox: boolean; network: string; serverUrl: string }): string =>
  r.sandbox ? 'the sandbox' : `${r.network} (${r.serverUrl})`;

/** The login document the headless face prints: the core's, with its own words for what comes next. */
export interface HeadlessLogin extends Omit<LoginResult, 'outbox'> {
  outbox?: { url: string; command: string };
  next: string;
}

export function renderLogin(r: HeadlessLogin): string {
  const lines = [...banner(r.sandbox), `A sign-in code was sent to ${r.email} on ${place(r)}.`];
  if (r.outbox) {
    lines.push(
      'In the sandbox no mail leaves this machine; the code is in its outbox:',
      `  ${r.outbox.command}`,
      `  (or GET ${r.outbox.url})`,
    );
  }
  lines.push(`Then sign in with: ${r.next}`, '');
  return lines.join('\n');
}

export function renderVerify(r: VerifyResult): string {
  return [
    ...banner(r.sandbox),
    `Signed in as ${r.email} on ${place(r)}.`,
    `  wallet      ${r.address}${r.isExisting ? '' : '  (new)'}`,
    `  expires     ${r.expiresAt}`,
    `  session     ${r.sessionFile}`,
    '',
  ].join('\n');
}

export function renderLogout(r: LogoutResult): string {
  if (!r.loggedOut) return 'Not signed in: nothing to sign out of.\n';
  const server =
    r.serverSignOut === 'revoked'
      ? ' The server ended its token.'
      : r.serverSignOut === 'already-ended'
        ? ' Its token had already ended.'
        : '';
  return `Signed out ${r.email ?? ''}: the saved session was removed.${server}\n${r.warning === undefined ? '' : `warning: ${r.warning}\n`}`;
}

export function renderWallet(r: WalletResult): string {
  if (r.wallet === null) {
    return [
      ...banner(r.sandbox),
      `${r.email} has no usable wallet on ${place(r)}; make one with: finance-tui wallet --create${r.sandbox ? ' --sandbox' : ''}`,
      '',
    ].join('\n');
  }
  return [
    ...banner(r.sandbox),
    `${r.created ? 'New wallet' : 'Wallet'} of ${r.email} on ${place(r)}`,
    `  address     ${r.wallet.address}`,
    `  public key  ${r.wallet.publicKey}`,
    `  id          ${r.wallet.id}`,
    '',
  ].join('\n');
}

export function renderOutbox(r: OutboxResult): string {
  return `${r.code}\n`;
}
