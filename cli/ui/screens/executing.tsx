/**
 * Executing: the transaction is signed and sent; the step shows under a spinner. Esc does not
 * leave (state.ts pins it). The outcome replaces this screen: a receipt, or a failure in plain
 * words with what to do next.
 */
import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import { useUi } from '../context.js';
import { describeFailure } from '../failure.js';
import type { ExecutionStep, TradePlan } from '../services.js';
import { Busy, Title } from '../widgets/layout.js';

const STEP_TEXT: Record<ExecutionStep['step'], string> = {
  signing: 'signing with your wallet…',
  submitting: 'sending the transaction…',
  waiting: 'waiting for the network to include it…',
  confirmed: 'confirmed',
};

export function ExecutingScreen({ plan }: { plan: TradePlan }) {
  const { services, state, dispatch, rootSignal, theme } = useUi();
  const [step, setStep] = useState<ExecutionStep>({ step: 'signing' });

  useEffect(() => {
    const session = state.session;
    if (!session) return;
    const controller = new AbortController();
    const signal = AbortSignal.any([controller.signal, rootSignal]);
    services.execute(plan, session, { signal, onStep: (s) => !signal.aborted && setStep(s) }).then(
      (receipt) => {
        if (!signal.aborted) dispatch({ type: 'replace', screen: { name: 'receipt', receipt } });
      },
      (error: unknown) => {
        if (signal.aborted) return;
        const f = describeFailure(error);
        dispatch({ type: 'replace', screen: { name: 'failure', title: f.title, message: f.message, next: f.next } });
      },
    );
    return () => controller.abort();
    // one execution per visit
    // (the plan and session are fixed for this screen)
  }, [dispatch, plan, rootSignal, services, state.session]);

  return (
    <Box flexDirection="column">
      <Title>
        Swapping {plan.quote.amountIn.amount} {plan.quote.from.symbol} → {plan.quote.to.symbol}
      </Title>
      <Busy label={`${STEP_TEXT[step.step]}${step.detail ? ` ${step.detail}` : ''}`} />
      <Text color={theme.muted}>Ctrl+C stops waiting; a transaction already sent cannot be called back.</Text>
    </Box>
  );
}
