/**
 * Executing: the transaction is signed and sent; the step shows under a spinner. Esc does not
 * leave (state.ts pins it). The outcome replaces this screen: a receipt, or a failure in plain
 * words with what to do next.
 */
import { Box, Static, Text } from 'ink';
import { useEffect, useState } from 'react';
import { useUi } from '../context.js';
import { describeFailure, describeFailureAfterSending } from '../failure.js';
import { PlanChanged } from '../plan-changed.js';
import type { ExecutionStep, PlanView } from '../services.js';
import { Busy, Title } from '../widgets/layout.js';

/** The core's execution events in the screen's words; the hash is a field of the event. */
function stepText(step: ExecutionStep): string {
  switch (step.kind) {
    case 'signing':
      return 'signing with your wallet…';
    case 'submitting':
      return 'sending the transaction…';
    case 'submitted':
    case 'confirming':
      return `waiting for the network to include it… ${step.hash}`;
    case 'confirmed':
      return `confirmed ${step.hash}`;
    // a quote went stale while the review was open: re-quoted, checked and simulated again first
    case 'requoting':
      return 'preparing it again: the quote is older than 30 s, quoting again…';
    case 'fee-mode':
      return `preparing it again: paying gas in ${step.gasToken}…`;
    default:
      return 'preparing it again: checking, building and simulating…';
  }
}

/** What is being executed: the state's own screen object, the same one for the whole visit (one execution). */
type Job = { name: 'executing'; plan: PlanView };

export function ExecutingScreen({ job }: { job: Job }) {
  const { services, state, dispatch, rootSignal, theme } = useUi();
  const [step, setStep] = useState<ExecutionStep>({ kind: 'signing' });
  // the hash, printed once into the scrollback (<Static>) the moment it is known: it stays there
  // whatever happens next — Ctrl+C, a lost connection, the app closing
  const [sent, setSent] = useState<string[]>([]);
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
      if (s.kind === 'submitted') {
        sentAs = s.hash;
        const hash = s.hash;
        setSent((list) => (list.includes(hash) ? list : [...list, hash]));
      }
      if (!signal.aborted) setStep(s);
    };
    const call = { signal, onStep };
    services.execute(job.plan, session, call).then(
      (receipt) => {
        if (!signal.aborted) dispatch({ type: 'replace', screen: { name: 'receipt', receipt } });
      },
      (error: unknown) => {
        if (signal.aborted) return;
        // what the plan depended on moved before signing: nothing was signed; the plan made
        // again is reviewed in its place (docs/app.md "Review")
        if (error instanceof PlanChanged) {
          dispatch({ type: 'replace', screen: { name: 'review', plan: error.plan } });
          return;
        }
        const f =
          sentAs === undefined
            ? describeFailure(error)
            : describeFailureAfterSending(error, sentAs);
        dispatch({
          type: 'replace',
          screen: {
            name: 'failure',
            code: f.code,
            title: f.title,
            message: f.message,
            next: f.next,
            signIn: f.signIn,
          },
        });
      },
    );
    return () => controller.abort();
    // one execution per visit: the job, the session and the services are fixed for this screen
  }, [dispatch, job, rootSignal, services, session]);

  return (
    <Box flexDirection="column">
      <Static items={sent}>
        {(hash) => (
          <Text key={hash}>
            sent {hash} ({job.plan.headline}) — if this app stops before it confirms, do not send it
            again: check the history
          </Text>
        )}
      </Static>
      <Title>{job.plan.headline}</Title>
      <Busy label={stepText(step)} />
      <Text color={theme.muted}>
        Ctrl+C stops waiting; a transaction already sent cannot be called back.
      </Text>
    </Box>
  );
}
