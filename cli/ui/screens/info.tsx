/** Status, history and log-out: small screens over one call each. */
import { Box, Static, Text } from 'ink';
import { useEffect } from 'react';
import type { StatusResult } from '../../core/status.js';
import { useUi } from '../context.js';
import { describeFailure } from '../failure.js';
import { useKeys } from '../hooks/use-keys.js';
import { useTask } from '../hooks/use-task.js';
import type { HistoryEntry } from '../services.js';
import { Busy, ErrorLine, Rows, Title } from '../widgets/layout.js';

export function StatusScreen() {
  const { services, dispatch, theme } = useUi();
  const [status, load] = useTask<StatusResult>();
  const refresh = (): void => void load((signal) => services.status({ signal }));
  useEffect(refresh, [load, services]);
  useKeys({ refresh, back: () => dispatch({ type: 'back' }) });
  const line = (s: { url: string | null; reachable: boolean; error?: string }, extra = ''): React.ReactNode => (
    <Text color={s.reachable ? theme.success : theme.danger}>
      {s.reachable ? `ok${extra}` : `DOWN — ${s.error ?? 'not reachable'}`} <Text color={theme.muted}>{s.url ?? ''}</Text>
    </Text>
  );
  return (
    <Box flexDirection="column">
      <Title>Status</Title>
      {status.status === 'running' || status.status === 'idle' ? <Busy label="checking the services…" /> : null}
      {status.status === 'failed' ? <ErrorLine message={describeFailure(status.error).message} hint="press r to try again" /> : null}
      {status.status === 'done' ? (
        <Rows
          rows={[
            ['Network', `${status.value.sandbox ? 'sandbox (mainnet-like)' : status.value.network}${status.value.swapsSupported ? '' : ' (swaps are mainnet-only)'}`],
            ['Aggregator', line(status.value.aggregator, status.value.aggregator.message ? ` — ${status.value.aggregator.message}` : '')],
            ['Auth server', line(status.value.server, status.value.server.version ? ` — version ${status.value.server.version}` : '')],
          ]}
        />
      ) : null}
    </Box>
  );
}

export function HistoryScreen() {
  const { services, state, dispatch, theme } = useUi();
  const [history, load] = useTask<HistoryEntry[]>();
  useEffect(() => {
    const session = state.session;
    if (session) void load((signal) => services.history(session, { signal }));
  }, [load, services, state.session]);
  useKeys({ back: () => dispatch({ type: 'back' }) });
  return (
    <Box flexDirection="column">
      {history.status === 'done' ? (
        <Static items={history.value}>
          {(entry) => (
            <Text key={entry.transactionHash} wrap="truncate-end">
              {entry.at} {entry.status === 'succeeded' ? '✓' : entry.status === 'reverted' ? '✗' : '…'} {entry.summary} <Text color={theme.muted}>{entry.transactionHash}</Text>
            </Text>
          )}
        </Static>
      ) : null}
      <Title>History</Title>
      {history.status === 'running' ? <Busy label="reading history…" /> : null}
      {history.status === 'failed' ? <ErrorLine message={describeFailure(history.error).message} /> : null}
      {history.status === 'done' ? <Text color={theme.muted}>{history.value.length === 0 ? 'no transactions yet' : `${history.value.length} transactions (above)`}</Text> : null}
    </Box>
  );
}

export function LogoutScreen() {
  const { services, dispatch, theme } = useUi();
  const [out, logout] = useTask<void>();
  useKeys(
    {
      confirm: () => void logout(() => services.logout()).then(() => dispatch({ type: 'signedOut' })),
      cancel: () => dispatch({ type: 'back' }),
      back: () => dispatch({ type: 'back' }),
    },
    { isActive: out.status !== 'running', wording: { confirm: 'log out', cancel: 'stay' } },
  );
  return (
    <Box flexDirection="column">
      <Title>Log out</Title>
      <Text>Forget this session on this computer? Your wallet stays yours; sign in again with your e-mail.</Text>
      {out.status === 'failed' ? <ErrorLine message={describeFailure(out.error).message} /> : null}
      {out.status === 'running' ? <Busy label="logging out…" /> : <Text color={theme.muted}>y logs out, n or Esc keeps you signed in</Text>}
    </Box>
  );
}
