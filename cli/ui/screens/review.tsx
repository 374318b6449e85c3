/**
 * Review of any plan: its headline and the core's lines (widgets/plan-lines.tsx: what leaves,
 * "at most" a bound, what arrives at least, fees, gas, recipients, a position as it is left —
 * the same lines every face shows), the exact calls in human terms and the balance changes the
 * simulation produced; `y`
 * signs and sends. A very high price impact needs the confirmation word typed instead. A plan
 * whose quote is older than 30 s must be planned again (`r`: re-quoted, re-checked, simulated)
 * and the new figures confirmed: nobody signs figures they have not seen. A plan made again
 * because what the reviewed one depended on moved before signing (PLAN_CHANGED) says what moved
 * and marks its new lines (▸).
 */
import { Box, Text } from 'ink';
import { useState } from 'react';
import { formatBpsAsPercent } from '../../../shared/fees.js';
import { useUi } from '../context.js';
import { describeFailure } from '../failure.js';
import { type Bindings, useKeys } from '../hooks/use-keys.js';
import { secondsUntil, useNow } from '../hooks/use-now.js';
import { useScroll } from '../hooks/use-scroll.js';
import { useTask } from '../hooks/use-task.js';
import type { PlanView } from '../services.js';
import { Busy, FailureLine, Title } from '../widgets/layout.js';
import { PlanCalls } from '../widgets/plan-view.js';
import { PlanLines } from '../widgets/plan-lines.js';
import { RebalanceTable } from '../widgets/allocation.js';
import { TextField } from '../widgets/text-field.js';
import { CONFIRM_WORD } from './trade-state.js';
import { slippageLevel } from '../../core/actions/rules.js';
import { byKind } from '../../core/actions/kinds.js';

const TITLES: Record<PlanView['request']['kind'], string> = byKind((k) => k.review);

/** The word the review takes for a plan's acknowledgments (docs/app.md "High price impact"). */
export function ackWord(ids: readonly string[]): string {
  if (ids.length > 0 && ids.every((id) => id === 'exit-restart')) return 'RESTART';
  if (ids.length > 0 && ids.every((id) => id === 'low-health')) return 'RISK';
  return CONFIRM_WORD;
}

export function ReviewScreen({ plan: initial }: { plan: PlanView }) {
  const { dispatch, services, state, theme, now: clock } = useUi();
  const [plan, setPlan] = useState(initial);
  const [typed, setTyped] = useState('');
  // a word typed and submitted that is not the one asked: said, with the word to type
  const [mistyped, setMistyped] = useState<string | undefined>(undefined);
  const [progress, setProgress] = useState('');
  const [replanning, replan] = useTask<PlanView>();
  const now = useNow(true);
  const expired = now >= plan.expiresAt;
  const slippage = formatBpsAsPercent(plan.slippageBps);
  // a plain transfer has no slippage: only swaps are judged by it (a warning line; the typed
  // word follows the core's list)
  const slippageLoud = plan.quotes.length > 0 ? slippageLevel(plan.slippageBps) : 'ok';
  // the core decides what must be acknowledged (the plan's list); the app asks for its typed word
  const mustType = plan.acknowledgments.length > 0;
  // the typed word names what is acknowledged: a swap's figures, restarting an exit's timer, or a
  // lending position left below the health margin
  const word = ackWord(plan.acknowledgments.map((a) => a.id));
  const typeWhy = plan.acknowledgments
    .map((a) =>
      // a high impact by the route's own figures; one against the oracle says its own words
      a.id === 'high-impact' && /price impact/.test(a.reason)
        ? 'Price impact is very high'
        : a.id === 'high-slippage'
          ? `Slippage ${slippage} is very high`
          : a.reason,
    )
    .join('; ');
  // taller than the window: read to the end (↓) before anything can be confirmed
  const scroll = useScroll();

  const confirm = (): void => {
    // the clock itself, not the last tick: a key pressed just past the expiry must not sign
    if (mustType && typed !== word) {
      setMistyped(typed);
      return;
    }
    if (!scroll.seenAll || clock() >= plan.expiresAt) return;
    dispatch({ type: 'replace', screen: { name: 'executing', plan } });
  };
  const bindings: Bindings = { back: () => dispatch({ type: 'back' }) };
  if (expired) {
    bindings.refresh = () => {
      const session = state.session;
      if (!session) return;
      setTyped('');
      setProgress('');
      void replan((signal) =>
        services.plan(plan.request, session, { signal, onProgress: setProgress }),
      ).then((p) => p && setPlan(p));
    };
  } else if (!scroll.seenAll) bindings.cancel = () => dispatch({ type: 'back' });
  else if (mustType) bindings.submit = confirm;
  else {
    bindings.confirm = confirm;
    bindings.cancel = () => dispatch({ type: 'back' });
  }
  if (scroll.hidden > 0) {
    bindings.down = scroll.down;
    bindings.up = scroll.up;
  }
  useKeys(bindings, {
    isActive: replanning.status !== 'running',
    wording: {
      confirm: 'sign and send',
      cancel: 'cancel',
      refresh: 're-quote',
      submit: 'confirm',
      down: 'read on',
      up: 'back up',
    },
  });
  const failure = replanning.status === 'failed' ? describeFailure(replanning.error) : undefined;
  // made again because the reviewed plan's terms moved before signing: a line it did not have is new
  const isNew = (line: string): boolean =>
    plan.changed !== undefined && !plan.changed.before.includes(line);

  return (
    <Box ref={scroll.ref} flexDirection="column" flexShrink={0} marginTop={-scroll.offset}>
      <Title>{TITLES[plan.request.kind]}</Title>
      {plan.changed ? <ChangedBanner changes={plan.changed.changes} /> : null}
      {scroll.hidden > 0 && !scroll.seenAll ? (
        <Text color={theme.warning} wrap="wrap">
          The plan is taller than the window: ↓ to read all of it ({scroll.hidden - scroll.offset}{' '}
          more lines); y works once you have.
        </Text>
      ) : null}
      <Box flexDirection="column">
        <Text wrap="wrap" {...(isNew(plan.headline) ? { color: theme.warning, bold: true } : {})}>
          {isNew(plan.headline) ? '▸ ' : ''}
          {plan.headline}
        </Text>
        <PlanLines lines={plan.lines} isNew={isNew} />
        {plan.quotes.length > 0 ? (
          <Text color={theme.muted}>slippage {slippage} on every swap</Text>
        ) : null}
      </Box>
      {plan.rebalance ? <RebalanceTable view={plan.rebalance} /> : null}
      {plan.deploysAccount ? (
        <Text color={theme.muted}>This first transaction also deploys your wallet's account.</Text>
      ) : null}
      {slippageLoud !== 'ok' ? (
        <Text color={slippageLoud === 'very-high' ? theme.danger : theme.warning} wrap="wrap">
          ! slippage {slippage} is high: you accept up to {slippage} less than quoted
        </Text>
      ) : null}
      {plan.warnings.map((w) => (
        <Text key={w} color={theme.warning} wrap="wrap">
          ! {w}
        </Text>
      ))}
      <PlanCalls
        calls={plan.calls}
        changes={plan.simulatedChanges}
        changesNote=" (the fee apart)"
      />
      <Box marginTop={1} flexDirection="column">
        {expired ? (
          <Text color={theme.warning}>
            {plan.quotes.length > 0
              ? 'This quote is older than 30 s'
              : 'This plan is near its deadline at the paymaster'}
            : press r to re-quote (and simulate again) before confirming.
          </Text>
        ) : plan.quotes.length > 0 ? (
          <Text color={theme.muted}>quote valid for {secondsUntil(plan.expiresAt, now)} s</Text>
        ) : null}
        {replanning.status === 'running' ? (
          <Busy label={progress || 're-quoting and simulating…'} />
        ) : null}
        {failure ? <FailureLine failure={failure} /> : null}
        {mustType && !expired ? (
          <TypedConfirm
            why={typeWhy}
            word={word}
            typed={typed}
            mistyped={mistyped}
            focused={replanning.status !== 'running'}
            onChange={(text) => {
              setTyped(text);
              setMistyped(undefined);
            }}
          />
        ) : null}
      </Box>
    </Box>
  );
}

/** Said first when a plan was made again because its terms moved before signing. */
function ChangedBanner({ changes }: { changes: readonly string[] }) {
  const { theme } = useUi();
  return (
    <Box flexDirection="column" marginBottom={1}>
      <Text color={theme.warning} bold wrap="wrap">
        ! Nothing was signed: the plan changed since you reviewed it. The new terms are marked ▸;
        confirm them or go back.
      </Text>
      {changes.map((c, i) => (
        <Text key={`changed-${i}`} color={theme.warning} wrap="wrap">
          {'  '}
          {c}
        </Text>
      ))}
    </Box>
  );
}

/** What must be acknowledged, the field its word is typed in, and a word typed wrong. */
function TypedConfirm(props: {
  why: string;
  word: string;
  typed: string;
  mistyped: string | undefined;
  focused: boolean;
  onChange: (text: string) => void;
}) {
  const { theme } = useUi();
  const { why, word, mistyped } = props;
  return (
    <Box flexDirection="column">
      <Text color={theme.danger} wrap="wrap">
        {why}. Type {word} and press Enter to confirm anyway.
      </Text>
      <Box>
        <Text>Confirm </Text>
        <TextField
          value={props.typed}
          onChange={props.onChange}
          focused={props.focused}
          maxLength={10}
          accept={/[A-Za-z]/}
        />
      </Box>
      {mistyped !== undefined ? (
        <Text color={theme.warning} wrap="wrap">
          {mistyped === ''
            ? `Nothing typed: type ${word} (capital letters) and press Enter to confirm, or Esc to go back.`
            : `"${mistyped}" is not ${word}: type ${word} exactly (capital letters) and press Enter to confirm, or Esc to go back.`}
        </Text>
      ) : null}
    </Box>
  );
}
