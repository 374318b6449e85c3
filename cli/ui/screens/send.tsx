/**
 * Send: a token, an amount (with the balance and a "max" key) and a recipient address, checked
 * as the core reads it; Enter plans the transfer (checked, built, simulated — nothing signed)
 * and opens the review. The review shows exactly what leaves, to whom, and the fee (or
 * "sponsored"); `y` signs and sends it, and the executing screen follows it to a receipt.
 */
import { Box, Text } from 'ink';
import { useMemo, useState } from 'react';
import { formatAmount } from '../../../shared/amount.js';
import { useUi } from '../context.js';
import { describeFailure } from '../failure.js';
import { amount as showAmount } from '../format.js';
import { useHeld } from '../hooks/use-held.js';
import { type Bindings, useKeys } from '../hooks/use-keys.js';
import { useNow } from '../hooks/use-now.js';
import { useTask } from '../hooks/use-task.js';
import type { SendPlanView, SendRequest, Session } from '../services.js';
import { Busy, ErrorLine, Title } from '../widgets/layout.js';
import { feeText, PlanCalls } from '../widgets/plan-view.js';
import { TextField } from '../widgets/text-field.js';
import { TokenPicker } from '../widgets/token-picker.js';
import { amountProblem, DEFAULT_SEND_TOKEN, type RecipientCheck, recipientProblem } from './form-fields.js';

const FIELDS = ['token', 'amount', 'to'] as const;
type Field = (typeof FIELDS)[number];

interface SendForm {
  token: string;
  amount: string;
  to: string;
  focus: Field;
}

/** The request to plan, or why there is none yet (empty fields are not problems to show). */
function sendRequestOf(form: SendForm, decimals: number | undefined, checkRecipient: RecipientCheck): { request: SendRequest } | { problem: string | undefined } {
  const problem = amountProblem(form.amount, form.token, decimals) ?? recipientProblem(form.to, checkRecipient);
  if (problem !== undefined || form.amount.trim() === '' || form.to.trim() === '') return { problem };
  return { request: { token: form.token, amount: form.amount.trim(), to: form.to.trim() } };
}

export function SendScreen() {
  const { services, state: app, dispatch, theme } = useUi();
  const tokens = useMemo(() => services.tokens(), [services]);
  const [form, setForm] = useState<SendForm>({ token: DEFAULT_SEND_TOKEN, amount: '', to: '', focus: 'amount' });
  const heldOf = useHeld();
  const [planning, plan] = useTask<SendPlanView>();
  const [progress, setProgress] = useState('');
  const session = app.session;

  const decimals = tokens.find((t) => t.symbol === form.token)?.decimals;
  const wanted = session ? sendRequestOf(form, decimals, (text) => services.checkRecipient(text, session)) : { problem: 'not signed in' };
  const request = 'request' in wanted ? wanted.request : undefined;
  const held = heldOf(form.token);
  const set = (patch: Partial<SendForm>): void => setForm((f) => ({ ...f, ...patch }));
  const focus = (field: Field): boolean => form.focus === field && planning.status !== 'running';

  const bindings: Bindings = {
    nextField: () => set({ focus: FIELDS[(FIELDS.indexOf(form.focus) + 1) % FIELDS.length] ?? 'amount' }),
    submit: () => {
      if (!request || !session) {
        // Enter on an unfinished form moves on to the next empty field
        set({ focus: form.amount.trim() === '' ? 'amount' : 'to' });
        return;
      }
      setProgress('');
      void plan((signal) => services.planSend(request, session, { signal, onProgress: (message) => !signal.aborted && setProgress(message) })).then((p) => {
        if (p) dispatch({ type: 'open', screen: { name: 'sendReview', plan: p } });
      });
    },
    back: () => dispatch({ type: 'back' }),
  };
  if (form.focus === 'amount' && held) bindings.max = () => set({ amount: formatAmount(held.amount, held.decimals) });
  useKeys(bindings, { isActive: planning.status !== 'running', wording: { submit: 'review' } });
  const planFailure = planning.status === 'failed' ? describeFailure(planning.error) : undefined;

  return (
    <Box flexDirection="column">
      <Title>Send</Title>
      <Box>
        <Text>{'Token    '}</Text>
        <TokenPicker items={tokens} value={form.token} onChange={(token) => set({ token })} focused={focus('token')} />
      </Box>
      <Box>
        <Text>{'Amount   '}</Text>
        <TextField value={form.amount} onChange={(value) => set({ amount: value })} focused={focus('amount')} accept={/[0-9.]/} maxLength={40} placeholder={`in ${form.token}`} />
        {held ? <Text color={theme.muted}>  balance {showAmount(held.amount, held.decimals, held.symbol)}</Text> : null}
      </Box>
      <Box>
        <Text>{'To       '}</Text>
        <TextField value={form.to} onChange={(to) => set({ to })} focused={focus('to')} accept={/[0-9a-fA-FxX]/} maxLength={66} placeholder="0x… recipient address" />
      </Box>
      <Box marginTop={1} flexDirection="column">
        {'problem' in wanted && wanted.problem !== undefined ? <ErrorLine message={wanted.problem} /> : null}
        {planning.status === 'running' ? <Busy label={progress || 'checking, building and simulating the transfer…'} /> : null}
        {planFailure ? <ErrorLine message={`${planFailure.title}: ${planFailure.message}`} hint={planFailure.next} /> : null}
      </Box>
    </Box>
  );
}

export function SendReviewScreen({ plan: initial }: { plan: SendPlanView }) {
  const { dispatch, services, state, theme } = useUi();
  const [plan, setPlan] = useState(initial);
  const [replanning, replan] = useTask<SendPlanView>();
  const now = useNow(true);
  const expired = now >= plan.expiresAt;
  const session: Session | null = state.session;

  const bindings: Bindings = { back: () => dispatch({ type: 'back' }) };
  if (expired) {
    bindings.refresh = () => {
      if (!session) return;
      const request: SendRequest = { token: plan.token.symbol, amount: formatAmount(plan.amount, plan.token.decimals), to: plan.to };
      void replan((signal) => services.planSend(request, session, { signal })).then((p) => p && setPlan(p));
    };
  } else {
    bindings.confirm = () => dispatch({ type: 'replace', screen: { name: 'sendExecuting', plan } });
    bindings.cancel = () => dispatch({ type: 'back' });
  }
  useKeys(bindings, { isActive: replanning.status !== 'running', wording: { confirm: 'sign and send', cancel: 'cancel', refresh: 'plan again' } });
  const failure = replanning.status === 'failed' ? describeFailure(replanning.error) : undefined;

  return (
    <Box flexDirection="column">
      <Title>Review the transfer</Title>
      <Text>
        Sends   <Text bold>{formatAmount(plan.amount, plan.token.decimals)} {plan.token.symbol}</Text>
      </Text>
      <Text wrap="truncate-end">To      {plan.to}</Text>
      <Text>Fee     {feeText(plan.fee)}</Text>
      {plan.deploysAccount ? <Text color={theme.muted}>This first transaction also deploys your wallet's account.</Text> : null}
      <PlanCalls calls={plan.calls} changes={plan.simulatedChanges} changesNote=" (the fee apart)" />
      <Box marginTop={1} flexDirection="column">
        {expired ? <Text color={theme.warning}>This plan has expired: press r to plan it again before confirming.</Text> : null}
        {replanning.status === 'running' ? <Busy label="planning and simulating again…" /> : null}
        {failure ? <ErrorLine message={`${failure.title}: ${failure.message}`} hint={failure.next} /> : null}
      </Box>
    </Box>
  );
}
