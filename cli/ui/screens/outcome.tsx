/**
 * The end of a transaction: a receipt — the core's receipt lines (widgets/plan-lines.tsx), kept
 * in the terminal's scrollback through <Static> — or
 * a failure in plain words with what to do next. Enter goes home.
 */
import { Box, Static, Text } from 'ink';
import { useUi } from '../context.js';
import { useKeys } from '../hooks/use-keys.js';
import type { Receipt } from '../services.js';
import { Title } from '../widgets/layout.js';
import { PlanLines } from '../widgets/plan-lines.js';

export function ReceiptScreen({ receipt }: { receipt: Receipt }) {
  const { dispatch, theme } = useUi();
  useKeys({ submit: () => dispatch({ type: 'home' }) }, { wording: { submit: 'home' } });
  const ok = receipt.status === 'succeeded';
  const title = `${ok ? `✓ ${receipt.headline ?? 'Swap confirmed'}` : '✗ Transaction reverted: nothing changed'}  ${receipt.transactionHash}`;
  return (
    <Box flexDirection="column">
      <Static items={[{ id: receipt.transactionHash, receipt }]}>
        {(item) => (
          <Box key={item.id} flexDirection="column">
            <Text color={ok ? theme.success : theme.danger}>{title}</Text>
            <Box flexDirection="column" marginLeft={2}>
              {ok ? null : <Text>{item.receipt.revertReason ?? 'no reason given'}</Text>}
              <PlanLines lines={item.receipt.lines} />
            </Box>
          </Box>
        )}
      </Static>
      <Title>{ok ? 'Done' : 'Reverted'}</Title>
      {!ok ? (
        <Text color={theme.muted}>
          A reverted transaction moves no tokens (only the fee, when you paid one). Check the
          amounts and try again.
        </Text>
      ) : null}
    </Box>
  );
}

export function FailureScreen({
  title,
  message,
  next,
  signIn,
  code,
}: {
  title: string;
  message: string;
  next: string;
  signIn: boolean;
  code?: string | undefined;
}) {
  const { dispatch, services, theme } = useUi();
  // a session the server no longer accepts is forgotten here too, so the next start signs in
  // rather than opening a home that cannot work
  const submit = signIn
    ? () =>
        void services
          .logout()
          .catch(() => undefined)
          .finally(() =>
            dispatch({ type: 'signedOut', note: 'Your session ended. Enter sends a new code.' }),
          )
    : () => dispatch({ type: 'home' });
  useKeys({ submit }, { wording: { submit: signIn ? 'sign in' : 'home' } });
  return (
    <Box flexDirection="column">
      <Text color={theme.danger} bold>
        ✗ {title}
        {code === undefined ? null : <Text color={theme.muted}> ({code})</Text>}
      </Text>
      <Text wrap="wrap">{message}</Text>
      <Text color={theme.muted} wrap="wrap">
        {next}
      </Text>
    </Box>
  );
}

export function UnavailableScreen({ what, why }: { what: string; why: string }) {
  const { dispatch, theme } = useUi();
  useKeys({ back: () => dispatch({ type: 'back' }) });
  return (
    <Box flexDirection="column">
      <Title>{what}</Title>
      <Text color={theme.muted} wrap="wrap">
        {why}
      </Text>
    </Box>
  );
}
