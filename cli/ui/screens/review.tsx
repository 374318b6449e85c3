/**
 * Review: the exact calls in human terms, the balance changes the simulation produced, the
 * quote; `y` confirms. A very high price impact needs the confirmation word typed instead.
 * A plan older than its expiry is re-planned (re-quoted) before it can be confirmed.
 */
import { Box, Text } from 'ink';
import { useState } from 'react';
import { formatBpsAsPercent } from '../../../shared/fees.js';
import { useUi } from '../context.js';
import { describeFailure } from '../failure.js';
import { type Bindings, useKeys } from '../hooks/use-keys.js';
import { useNow } from '../hooks/use-now.js';
import { useTask } from '../hooks/use-task.js';
import type { QuoteRequest, TradePlan } from '../services.js';
import { Busy, ErrorLine, Title } from '../widgets/layout.js';
import { PlanCalls } from '../widgets/plan-view.js';
import { QuoteView } from '../widgets/quote-view.js';
import { TextField } from '../widgets/text-field.js';
import { CONFIRM_WORD, impactLevel } from './trade-state.js';

export function ReviewScreen({ plan: initial }: { plan: TradePlan }) {
  const { dispatch, services, state, theme } = useUi();
  const [plan, setPlan] = useState(initial);
  const [typed, setTyped] = useState('');
  const [replanning, replan] = useTask<TradePlan>();
  const now = useNow(true);
  const expired = now >= plan.expiresAt;
  const mustType = impactLevel(plan.quote) === 'danger';
  const q = plan.quote;
  const request: QuoteRequest = { amount: q.amountIn.amount, from: q.from.symbol, to: q.to.symbol, slippageBps: plan.slippageBps };

  const confirm = (): void => {
    if (expired || (mustType && typed !== CONFIRM_WORD)) return;
    dispatch({ type: 'replace', screen: { name: 'executing', plan } });
  };
  const bindings: Bindings = { back: () => dispatch({ type: 'back' }) };
  if (expired) {
    bindings.refresh = () => {
      if (!state.session) return;
      const session = state.session;
      void replan((signal) => services.plan(request, session, { signal })).then((p) => p && setPlan(p));
    };
  } else if (mustType) bindings.submit = confirm;
  else {
    bindings.confirm = confirm;
    bindings.cancel = () => dispatch({ type: 'back' });
  }
  useKeys(bindings, { isActive: replanning.status !== 'running', wording: { confirm: 'sign and send', cancel: 'cancel', refresh: 're-quote', submit: 'confirm' } });
  const failure = replanning.status === 'failed' ? describeFailure(replanning.error) : undefined;

  return (
    <Box flexDirection="column">
      <Title>Review the swap</Title>
      <QuoteView quote={q} slippagePercent={formatBpsAsPercent(request.slippageBps)} />
      <PlanCalls calls={plan.calls} changes={plan.simulatedChanges} />
      <Box marginTop={1} flexDirection="column">
        {expired ? <Text color={theme.warning}>This quote has expired: press r to re-quote before confirming.</Text> : null}
        {replanning.status === 'running' ? <Busy label="re-quoting and simulating…" /> : null}
        {failure ? <ErrorLine message={`${failure.title}: ${failure.message}`} hint={failure.next} /> : null}
        {mustType && !expired ? (
          <Box flexDirection="column">
            <Text color={theme.danger}>Price impact is very high. Type {CONFIRM_WORD} and press Enter to confirm anyway.</Text>
            <Box>
              <Text>Confirm </Text>
              <TextField value={typed} onChange={setTyped} focused={replanning.status !== 'running'} maxLength={10} accept={/[A-Za-z]/} />
            </Box>
          </Box>
        ) : null}
      </Box>
    </Box>
  );
}
