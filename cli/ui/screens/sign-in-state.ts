/**
 * The sign-in flow as a pure reducer: e-mail, then the code in one masked field. Resend waits
 * RESEND_AFTER_MS; a rate-limited answer waits out its Retry-After; a wrong or expired code
 * keeps the e-mail and clears the field. Times are passed in, so the logic is tested without
 * clocks.
 */
import { ErrorCode } from '../../../shared/errors.js';
import { describeFailure, type Failure, retryAfterSeconds } from '../failure.js';

export const RESEND_AFTER_MS = 30_000;
/**
 * Wrong tries after which the identity provider kills a code (the sandbox's emulator does at 5:
 * sandbox/identity/app.ts DEFAULT_MAX_OTP_ATTEMPTS). Counted here, since a killed code answers as
 * any wrong one (INVALID_OTP); past it no code, typed or filled from the outbox, can work — only
 * a new one.
 */
export const MAX_WRONG_CODES = 5;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface SignInState {
  step: 'email' | 'code';
  email: string;
  code: string;
  busy: 'sending' | 'verifying' | 'filling' | undefined;
  failure: Failure | undefined;
  /** a new code may be asked for from this time (ms) */
  resendAt: number;
  /** rate-limited until this time (ms) */
  blockedUntil: number;
  /** a short note ("code sent to …") */
  note: string | undefined;
  /** wrong codes since the last one was sent */
  wrongTries: number;
}

export type SignInAction =
  | { type: 'email'; value: string }
  | { type: 'code'; value: string }
  | { type: 'sending' }
  | { type: 'sent'; now: number }
  | { type: 'verifying' }
  | { type: 'filling' }
  | { type: 'filled'; code: string | null }
  | { type: 'failed'; error: unknown; now: number }
  | { type: 'changeEmail' };

export const initialSignIn: SignInState = {
  step: 'email',
  email: '',
  code: '',
  busy: undefined,
  failure: undefined,
  resendAt: 0,
  blockedUntil: 0,
  note: undefined,
  wrongTries: 0,
};

/** The code sent last has had MAX_WRONG_CODES wrong tries: the provider has killed it. */
export function codeIsDead(state: SignInState): boolean {
  return state.step === 'code' && state.wrongTries >= MAX_WRONG_CODES;
}

export function emailProblem(email: string): string | undefined {
  if (email.trim() === '') return 'enter your e-mail address';
  if (!EMAIL.test(email.trim()) || email.length > 254)
    return `"${email.slice(0, 60)}" is not an e-mail address`;
  return undefined;
}

export function codeProblem(code: string): string | undefined {
  return /^[0-9]{6}$/.test(code) ? undefined : 'the code is 6 digits';
}

export function signInReducer(state: SignInState, action: SignInAction): SignInState {
  switch (action.type) {
    case 'email':
      return { ...state, email: action.value, failure: undefined };
    case 'code':
      return { ...state, code: action.value, failure: undefined };
    case 'sending':
      return { ...state, busy: 'sending', failure: undefined, note: undefined };
    case 'sent':
      return {
        ...state,
        busy: undefined,
        step: 'code',
        code: '',
        wrongTries: 0,
        failure: undefined,
        resendAt: action.now + RESEND_AFTER_MS,
        note: `code sent to ${state.email.trim()}`,
      };
    case 'verifying':
      return { ...state, busy: 'verifying', failure: undefined };
    case 'filling':
      return { ...state, busy: 'filling', failure: undefined };
    case 'filled':
      // the outbox still shows a code the provider has killed: it is never filled in
      if (codeIsDead(state)) return { ...state, busy: undefined, note: undefined };
      return action.code === null
        ? { ...state, busy: undefined, note: 'no code in the sandbox outbox for this address yet' }
        : {
            ...state,
            busy: undefined,
            code: action.code,
            note: 'code filled from the sandbox outbox',
          };
    case 'failed': {
      const failure = describeFailure(action.error);
      const wait = retryAfterSeconds(action.error);
      const wrong = failure.code === ErrorCode.INVALID_OTP && state.busy === 'verifying';
      return {
        ...state,
        wrongTries: state.wrongTries + (wrong ? 1 : 0),
        busy: undefined,
        failure,
        note: undefined,
        // a wrong code is cleared: the next attempt starts clean
        code: failure.code === ErrorCode.INVALID_OTP ? '' : state.code,
        blockedUntil: wait === undefined ? state.blockedUntil : action.now + wait * 1000,
      };
    }
    case 'changeEmail':
      return { ...initialSignIn, email: state.email };
  }
}

/** What Enter does now, or why it cannot. */
export function canSubmit(
  state: SignInState,
  now: number,
): { ok: true } | { ok: false; why: string } {
  if (state.busy !== undefined) return { ok: false, why: 'busy' };
  if (now < state.blockedUntil) return { ok: false, why: 'rate limited' };
  if (codeIsDead(state)) return { ok: false, why: 'the code is dead' };
  const problem = state.step === 'email' ? emailProblem(state.email) : codeProblem(state.code);
  return problem === undefined ? { ok: true } : { ok: false, why: problem };
}

export function canResend(state: SignInState, now: number): boolean {
  // a dead code is replaced at once: waiting out the resend delay would only keep the person out
  return (
    state.step === 'code' &&
    state.busy === undefined &&
    (now >= state.resendAt || codeIsDead(state)) &&
    now >= state.blockedUntil
  );
}
