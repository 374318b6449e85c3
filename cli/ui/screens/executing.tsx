/**
 * Executing: the transaction is signed and sent; the step shows under a spinner. Esc does not
 * leave (state.ts pins it). The outcome replaces this screen: a receipt, or a failure in plain
 * words with what to do next.
 */
import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import { useUi } from '../context.js';
import { describeFailure, describeFailureAfterSending } from '../failure.js';
import type { ExecutionStep, SendPlanView, SwapPlanView } from '../services.js';
import { amount } from '../format.js';
import { Busy, Title } from '../widgets/layout.js';

const STEP_TEXT: Record<ExecutionStep['step'], string> = {
  building: 'preparing it again:',
  signing: 'signing with your wallet…',
  submitting: 'sending the transaction…',
  waiting: 'waiting for the network to include it…',
  confirmed: 'confirmed',
};

/** What is being executed: the state's own screen object, the same one for the whole visit (one execution). */
export type Job = { name: 'executing'; plan: SwapPlanView } | { name: 'sendExecuting'; plan: SendPlanView };

function titleOf(job: Job): string {
  if (job.name === 'executing') return job.plan.headline;
  return `Sending ${amount(job.plan.amount, job.plan.token.decimals, job.plan.token.symbol)} to ${job.plan.to}`;
}

export function ExecutingScreen({ job }: { job: Job }) {
  const { services, state, dispatch, rootSignal, theme } = useUi();
  const [step, setStep] = useState<ExecutionStep>({ step: 'signing' });
  // the session as the visit began: nothing that changes the app state later may restart (or
  // cancel) a transaction that may already have left
  const [session] = useState(state.session);

  useEffect(() => {
    if (!session) return;
    const controller = new AbortController();
    const signal = AbortSignal.any([controller.signal, rootSignal]);
    // the hash once the transaction has left: from then on a failure must not say "try again"
    let sentAs: string | undefined;
    const onStep = (s: ExecutionStep): void => {
      if (s.step === 'waiting' && s.detail?.startsWith('0x')) sentAs = s.detail;
      if (!signal.aborted) setStep(s);
    };
    const call = { signal, onStep };
    const run = job.name === 'executing' ? services.execute(job.plan, session, call) : services.executeSend(job.plan, session, call);
    run.then(
      (receipt) => {
        if (!signal.aborted) dispatch({ type: 'replace', screen: { name: 'receipt', receipt } });
      },
      (error: unknown) => {
        if (signal.aborted) return;
        const f = sentAs === undefined ? describeFailure(error) : describeFailureAfterSending(error, sentAs);
        dispatch({ type: 'replace', screen: { name: 'failure', title: f.title, message: f.message, next: f.next, signIn: f.signIn } });
      },
    );
    return () => controller.abort();
    // one execution per visit: the job, the session and the services are fixed for this screen
  }, [dispatch, job, rootSignal, services, session]);

  return (
    <Box flexDirection="column">
      <Title>{titleOf(job)}</Title>
      <Busy label={`${STEP_TEXT[step.step]}${step.detail ? ` ${step.detail}` : ''}`} />
      <Text color={theme.muted}>Ctrl+C stops waiting; a transaction already sent cannot be called back.</Text>
    </Box>
  );
}
