/**
 * Send: a token, an amount (with the balance and a "max" key) and a recipient address, checked
 * as the core reads it; Enter plans the transfer — the core's `send` action, the same pipeline
 * as a batch (checked, built, simulated; nothing signed) — and opens the one review every plan
 * has: exactly what leaves, to whom, the fee (or "sponsored"); `y` signs and sends it, and the
 * executing screen follows it to a receipt.
 */
import { Box } from 'ink';
import { useMemo, useState } from 'react';
import { formatAmount } from '../../../shared/amount.js';
import { useUi } from '../context.js';
import { useHeld } from '../hooks/use-held.js';
import { type Bindings, useKeys } from '../hooks/use-keys.js';
import { usePlanReview } from '../hooks/use-plan-review.js';
import type { PlanRequest, SendRequest } from '../services.js';
import { AmountRow } from '../widgets/amount-row.js';
import { ErrorLine, FieldLabel, Title } from '../widgets/layout.js';
import { PlanStatus } from '../widgets/plan-status.js';
import { TextField } from '../widgets/text-field.js';
import { TokenPicker } from '../widgets/token-picker.js';
import {
  ADDRESS_FIELD_LENGTH,
  amountProblem,
  DEFAULT_SEND_TOKEN,
  type RecipientCheck,
  recipientProblem,
  type SendForm,
} from './form-fields.js';

const FIELDS = ['token', 'amount', 'to'] as const;
type Field = SendForm['focus'];

/** The request to plan, or why there is none yet (empty fields are not problems to show). */
function sendRequestOf(
  form: SendForm,
  decimals: number | undefined,
  checkRecipient: RecipientCheck,
): { request: SendRequest } | { problem: string | undefined } {
  const problem =
    amountProblem(form.amount, form.token, decimals) ?? recipientProblem(form.to, checkRecipient);
  if (problem !== undefined || form.amount.trim() === '' || form.to.trim() === '')
    return { problem };
  return { request: { token: form.token, amount: form.amount.trim(), to: form.to.trim() } };
}

/** `initial`: the form as it was left for the review (Esc or `n` comes back to it). */
export function SendScreen({ initial }: { initial?: SendForm | undefined }) {
  const { services, state: app, dispatch } = useUi();
  const tokens = useMemo(() => services.tokens(), [services]);
  const [form, setForm] = useState<SendForm>(
    () => initial ?? { token: DEFAULT_SEND_TOKEN, amount: '', to: '', focus: 'amount' },
  );
  const heldOf = useHeld();
  const review = usePlanReview();
  const session = app.session;

  const decimals = tokens.find((t) => t.symbol === form.token)?.decimals;
  const wanted = session
    ? sendRequestOf(form, decimals, (text) => services.checkRecipient(text, session))
    : { problem: 'not signed in' };
  const request = 'request' in wanted ? wanted.request : undefined;
  const action: PlanRequest | undefined = request && {
    kind: 'send',
    slippageBps: services.settings().slippageBps,
    params: request,
  };
  const held = heldOf(form.token);
  const set = (patch: Partial<SendForm>): void => setForm((f) => ({ ...f, ...patch }));
  const focus = (field: Field): boolean => form.focus === field && !review.running;

  const bindings: Bindings = {
    nextField: () =>
      set({ focus: FIELDS[(FIELDS.indexOf(form.focus) + 1) % FIELDS.length] ?? 'amount' }),
    submit: () => {
      if (!action || !session) {
        // Enter on an unfinished form moves on to the next empty field
        set({ focus: form.amount.trim() === '' ? 'amount' : 'to' });
        return;
      }
      review.plan(action, { name: 'send', form });
    },
    back: () => dispatch({ type: 'back' }),
  };
  if (form.focus === 'amount' && held)
    bindings.max = () => set({ amount: formatAmount(held.amount, held.decimals) });
  useKeys(bindings, { isActive: !review.running, wording: { submit: 'review' } });

  return (
    <Box flexDirection="column">
      <Title>Send</Title>
      <Box>
        <FieldLabel label="Token" focused={focus('token')} />
        <TokenPicker
          items={tokens}
          value={form.token}
          onChange={(token) => set({ token })}
          focused={focus('token')}
        />
      </Box>
      <AmountRow
        value={form.amount}
        onChange={(amount) => set({ amount })}
        focused={focus('amount')}
        token={form.token}
        held={held}
      />
      <Box>
        <FieldLabel label="To" focused={focus('to')} />
        <TextField
          value={form.to}
          onChange={(to) => set({ to })}
          focused={focus('to')}
          maxLength={ADDRESS_FIELD_LENGTH}
          placeholder="0x… recipient address"
        />
      </Box>
      <Box marginTop={1} flexDirection="column">
        {'problem' in wanted && wanted.problem !== undefined ? (
          <ErrorLine message={wanted.problem} />
        ) : null}
        <PlanStatus
          review={review}
          busy="checking, building and simulating the transfer…"
          // a failed plan is said while the form still asks for what failed: a change clears it
          failure={review.failureWhile(action)}
        />
      </Box>
    </Box>
  );
}
