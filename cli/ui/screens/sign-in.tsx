/** Sign in: e-mail → a 6-digit code in one masked field; resend, rate limits, sandbox fill. */
import { Box, Text } from 'ink';
import { useReducer } from 'react';
import { useUi } from '../context.js';
import { type Bindings, useKeys } from '../hooks/use-keys.js';
import { secondsUntil, useNow } from '../hooks/use-now.js';
import { useTask } from '../hooks/use-task.js';
import type { Session } from '../services.js';
import { Busy, ErrorLine, FailureLine, Title } from '../widgets/layout.js';
import { TextField } from '../widgets/text-field.js';
import {
  canResend,
  canSubmit,
  codeIsDead,
  codeProblem,
  emailProblem,
  initialSignIn,
  MAX_WRONG_CODES,
  signInReducer,
  type SignInAction,
  type SignInState,
} from './sign-in-state.js';

/** `email`: filled in (after a logout); `note`: said first ("logged out"). */
export function SignInScreen({
  email: knownEmail = '',
  note,
}: {
  email?: string | undefined;
  note?: string | undefined;
}) {
  const { services, dispatch: app, state: appState, now: clock, theme } = useUi();
  const [state, dispatch] = useReducer(signInReducer, initialSignIn, (s) => ({
    ...s,
    email: knownEmail,
    note,
  }));
  const dead = codeIsDead(state);
  const [, run] = useTask<unknown>();
  const sandbox = appState.environment?.sandbox === true && services.sandboxCode !== undefined;
  const waiting =
    clock() < state.blockedUntil || (state.step === 'code' && clock() < state.resendAt);
  const now = useNow(waiting || state.busy !== undefined);

  const send = (): void => {
    dispatch({ type: 'sending' });
    const email = state.email.trim();
    void run(async (signal) => {
      try {
        await services.requestCode(email, { signal });
        dispatch({ type: 'sent', now: clock() });
      } catch (error) {
        if (!signal.aborted) dispatch({ type: 'failed', error, now: clock() });
      }
    });
  };

  const verify = (): void => {
    dispatch({ type: 'verifying' });
    const email = state.email.trim();
    const code = state.code;
    void run(async (signal) => {
      try {
        const session: Session = await services.verifyCode(email, code, { signal });
        if (!signal.aborted) app({ type: 'signedIn', session });
      } catch (error) {
        if (!signal.aborted) dispatch({ type: 'failed', error, now: clock() });
      }
    });
  };

  const fill = (): void => {
    const read = services.sandboxCode;
    if (read === undefined) return;
    dispatch({ type: 'filling' });
    void run(async (signal) => {
      try {
        const code = await read(state.email.trim(), { signal });
        dispatch({ type: 'filled', code });
      } catch (error) {
        if (!signal.aborted) dispatch({ type: 'failed', error, now: clock() });
      }
    });
  };

  const bindings: Bindings = {
    submit: () => {
      if (!canSubmit(state, clock()).ok) return;
      if (state.step === 'email') send();
      else verify();
    },
  };
  if (state.step === 'code') {
    bindings.back = () => dispatch({ type: 'changeEmail' });
    bindings.resend = () => {
      if (canResend(state, clock())) send();
    };
    if (sandbox && !dead) bindings.fillCode = fill;
  }
  useKeys(bindings, {
    isActive: state.busy === undefined,
    wording: { submit: state.step === 'email' ? 'send code' : 'sign in', back: 'change e-mail' },
  });

  const blocked = secondsUntil(state.blockedUntil, now);
  const resendIn = secondsUntil(state.resendAt, now);
  const problem = state.step === 'email' ? emailProblem(state.email) : codeProblem(state.code);

  return (
    <Box flexDirection="column">
      <Title>Sign in</Title>
      <SignInFields state={state} dispatch={dispatch} />
      {state.busy === 'sending' ? <Busy label="sending a code…" /> : null}
      {state.busy === 'verifying' ? <Busy label="checking the code…" /> : null}
      {state.busy === 'filling' ? <Busy label="reading the sandbox outbox…" /> : null}
      {state.note ? (
        <Text color={theme.success} wrap="truncate-end">
          {state.note}
        </Text>
      ) : null}
      {dead ? (
        <ErrorLine
          message={`This code is dead: ${MAX_WRONG_CODES} wrong tries, and the server no longer takes it.`}
          hint="Press Ctrl+R to send a new code."
        />
      ) : state.failure ? (
        <FailureLine failure={state.failure} />
      ) : null}
      {blocked > 0 ? (
        <Text color={theme.warning}>rate limited: try again in {blocked} s</Text>
      ) : null}
      {state.step === 'code' && blocked === 0 ? (
        <Text color={theme.muted}>
          {resendIn > 0 && !dead ? `resend available in ${resendIn} s` : 'Ctrl+R sends a new code'}
        </Text>
      ) : null}
      {state.step === 'code' && sandbox && !dead ? (
        <Text color={theme.muted} wrap="wrap">
          sandbox: the code is in the emulated mailbox {'(GET /sandbox/outbox/<email>)'}; Ctrl+F
          fills it
        </Text>
      ) : null}
      {problem !== undefined && (state.step === 'code' ? state.code !== '' : state.email !== '') ? (
        <Text color={theme.muted}>{problem}</Text>
      ) : null}
    </Box>
  );
}

/** The e-mail field, or the e-mail said and the masked code field. */
function SignInFields({
  state,
  dispatch,
}: {
  state: SignInState;
  dispatch: (action: SignInAction) => void;
}) {
  return (
    <>
      {state.step === 'email' ? (
        <Box>
          <Text>E-mail </Text>
          <TextField
            value={state.email}
            onChange={(value) => dispatch({ type: 'email', value })}
            focused={state.busy === undefined}
            placeholder="you@example.com"
            maxLength={254}
            accept={/\S/}
          />
        </Box>
      ) : (
        <Box flexDirection="column">
          <Text wrap="truncate-end">E-mail {state.email.trim()}</Text>
          <Box>
            <Text>Code </Text>
            <TextField
              value={state.code}
              onChange={(value) => dispatch({ type: 'code', value })}
              focused={state.busy === undefined}
              mask
              maxLength={6}
              accept={/[0-9]/}
              placeholder="6 digits"
            />
          </Box>
        </Box>
      )}
    </>
  );
}
