/**
 * The app's sign-in (docs/architecture.md "Interactive app"): the saved session, the e-mail
 * code asked and checked, sign-out, the sandbox's outbox, and the recipient check the send form
 * runs as the person types (the core's one rule, cli/core/actions/rules.ts).
 */
import type { SessionView } from '../../core/session.js';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import type { Session } from '../services.js';
import type { ServicesModule } from './root.js';

/** The core's session as the screens show it (a saved session: whether its wallet was new is not kept). */
const sessionOf = (view: SessionView, isExisting = true): Session => ({
  email: view.email,
  userId: view.userId,
  walletId: view.walletId,
  walletAddress: view.address,
  expiresAt: view.expiresAt,
  isExisting,
});

export const registerSession: ServicesModule<
  'currentSession' | 'requestCode' | 'verifyCode' | 'logout' | 'sandboxCode' | 'checkRecipient'
> = (root) => ({
  async currentSession() {
    const { m, e } = root.ready();
    const state = m.session.sessionState(e);
    return state.signedIn ? sessionOf(state.session) : null;
  },

  async requestCode(email, { signal }) {
    const { m, e } = root.ready();
    await m.account.login(e, email, { signal });
  },

  async verifyCode(email, code, { signal }) {
    const { m, e } = root.ready();
    const verified = await m.account.verify(e, email, code, { signal });
    return sessionOf(verified, verified.isExisting);
  },

  async logout() {
    await root.ready().m.account.logout(root.env);
  },

  async sandboxCode(email, { signal }) {
    const { m, e } = root.ready();
    try {
      return (await m.account.readOutbox(e, email, { signal })).code;
    } catch (error) {
      if (error instanceof AppError && error.code === ErrorCode.NOT_FOUND) return null;
      throw error;
    }
  },

  checkRecipient(text, session) {
    const { m, e } = root.ready();
    try {
      return {
        address: m.rules.checkRecipient(text, {
          network: e.network,
          account: session.walletAddress,
        }),
      };
    } catch (error) {
      return { problem: error instanceof AppError ? error.message : 'not an address' };
    }
  },
});
