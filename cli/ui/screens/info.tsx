/** Status, history and log-out: small screens over one call each. */
import { Box, Text, useWindowSize } from 'ink';
import { useEffect, useState } from 'react';
import type { StatusResult } from '../../core/status.js';
import { useUi } from '../context.js';
import { describeFailure } from '../failure.js';
import { whereWords } from '../format.js';
import { ACTION_KINDS, type ActionKind } from '../../core/actions/kinds.js';
import { useKeys } from '../hooks/use-keys.js';
import { useTask } from '../hooks/use-task.js';
import { liquidationWords } from '../../core/liquidations.js';
import type { HistoryEntry, HistoryView } from '../services.js';
import { Busy, ErrorLine, Rows, Title } from '../widgets/layout.js';

export function StatusScreen() {
  const { services, dispatch, state, theme } = useUi();
  const [status, load] = useTask<StatusResult>();
  const refresh = (): void => void load((signal) => services.status({ signal }));
  useEffect(refresh, [load, services]);
  useKeys({ refresh, back: () => dispatch({ type: 'back' }) });
  const line = (
    s: { url: string | null; reachable: boolean; error?: string },
    extra = '',
  ): React.ReactNode => (
    <Text color={s.reachable ? theme.success : theme.danger}>
      {s.reachable ? `ok${extra}` : `DOWN — ${s.error ?? 'not reachable'}`}{' '}
      <Text color={theme.muted}>{s.url ?? ''}</Text>
    </Text>
  );
  return (
    <Box flexDirection="column">
      <Title>Status</Title>
      {status.status === 'running' || status.status === 'idle' ? (
        <Busy label="checking the services…" />
      ) : null}
      {status.status === 'failed' ? (
        <ErrorLine message={describeFailure(status.error).message} hint="press r to try again" />
      ) : null}
      {status.status === 'done' ? (
        <Rows
          rows={[
            [
              'Network',
              `${status.value.sandbox ? whereWords({ sandbox: true, network: state.environment?.network ?? 'mainnet' }) : status.value.network}${status.value.swapsSupported ? '' : ' (swaps are mainnet-only)'}`,
            ],
            [
              'Aggregator',
              line(
                status.value.aggregator,
                status.value.aggregator.message ? ` — ${status.value.aggregator.message}` : '',
              ),
            ],
            [
              'Auth server',
              line(
                status.value.server,
                status.value.server.version ? ` — version ${status.value.server.version}` : '',
              ),
            ],
          ]}
        />
      ) : null}
    </Box>
  );
}

/** History rows shown at once: the live area must stay shorter than the terminal. */
export function historyWindow(
  count: number,
  selected: number,
  rows: number,
): { first: number; last: number } {
  const size = Math.max(3, Math.min(count, rows));
  const first = Math.min(Math.max(0, selected - size + 1), Math.max(0, count - size));
  return { first, last: Math.min(count, first + size) };
}

/**
 * The history's kind column: each kind's label (cli/core/actions/kinds.ts), as wide as the widest
 * so every label is whole and the summaries start together; the summary alone is cut at the edge
 * (the selected entry is shown whole below the list).
 */
const KIND_WIDTH = Math.max(...Object.values(ACTION_KINDS).map((k) => k.label.length));
const kindLabel = (kind: string): string =>
  (ACTION_KINDS[kind as ActionKind]?.label ?? kind).padEnd(KIND_WIDTH);

const STATUS_MARK: Record<HistoryEntry['status'], string> = {
  succeeded: '✓',
  reverted: '✗',
  pending: '…',
  unknown: '?',
  'not-sent': '–',
};
const STATUS_TEXT: Record<HistoryEntry['status'], string> = {
  succeeded: 'succeeded',
  reverted: 'reverted: nothing moved',
  pending: 'sent, no receipt yet',
  unknown: 'no receipt in time: check the chain before sending again',
  'not-sent': 'never executed: its deadline passed unused',
};

/** The transactions this client sent from the signed-in wallet, newest first; ↑/↓ select one to see it whole. */
export function HistoryScreen() {
  const { services, state, dispatch, theme } = useUi();
  const { rows } = useWindowSize();
  const [history, load] = useTask<HistoryView>();
  const [selected, setSelected] = useState(0);
  const refresh = (): void => {
    const session = state.session;
    if (session) void load((signal) => services.history(session, { signal }));
  };
  useEffect(refresh, [load, services, state.session]);
  const entries = history.status === 'done' ? history.value.entries : [];
  const setAside = history.status === 'done' ? history.value.setAside : null;
  useKeys({
    up: () => setSelected((i) => Math.max(0, i - 1)),
    down: () => setSelected((i) => Math.min(Math.max(0, entries.length - 1), i + 1)),
    refresh,
    back: () => dispatch({ type: 'back' }),
  });
  // the header, title, details and footer take about 14 rows
  const { first, last } = historyWindow(entries.length, selected, rows - 14);
  const current = entries[selected];
  return (
    <Box flexDirection="column">
      <Title>
        History{' '}
        {entries.length > 0 ? (
          <Text color={theme.muted}>
            ({selected + 1} of {entries.length}, newest first)
          </Text>
        ) : null}
      </Title>
      {history.status === 'running' || history.status === 'idle' ? (
        <Busy label="reading history…" />
      ) : null}
      {history.status === 'failed' ? (
        <ErrorLine message={describeFailure(history.error).message} hint="press r to try again" />
      ) : null}
      {setAside !== null ? (
        <Text color={theme.warning} wrap="wrap">
          The history file could not be read; it was moved to {setAside} and a new one begun.
        </Text>
      ) : null}
      {history.status === 'done' && (history.value.liquidations ?? []).length > 0 ? (
        <Box flexDirection="column" marginBottom={1}>
          <Text color={theme.danger} bold>
            Liquidated (read from the chain; not sent by this client)
          </Text>
          {(history.value.liquidations ?? []).map((l) => (
            <Text key={l.transactionHash} color={theme.danger} wrap="wrap">
              {l.collateral.token}/{l.debt.token} {liquidationWords(l)}
            </Text>
          ))}
        </Box>
      ) : null}
      {history.status === 'done' && history.value.liquidationsNote ? (
        <Text color={theme.muted} wrap="wrap">
          {history.value.liquidationsNote}
        </Text>
      ) : null}
      {history.status === 'done' && entries.length === 0 ? (
        <Text color={theme.muted}>no transactions from this wallet yet</Text>
      ) : null}
      {entries.slice(first, last).map((entry, i) => {
        const index = first + i;
        const colour =
          entry.status === 'reverted'
            ? theme.danger
            : entry.status === 'succeeded'
              ? undefined
              : theme.warning;
        return (
          <Text
            key={entry.transactionHash}
            color={index === selected ? theme.accent : colour}
            wrap="truncate-end"
          >
            {index === selected ? '› ' : '  '}
            {entry.at.slice(0, 16).replace('T', ' ')} {STATUS_MARK[entry.status]}{' '}
            {entry.contradiction === undefined ? '' : 'CONTRADICTED '}
            {kindLabel(entry.kind)} {entry.summary}
          </Text>
        );
      })}
      {current ? (
        <Box marginTop={1} flexDirection="column">
          {/* the selected entry whole (the list above cuts long lines): wrapped, never cut */}
          <Text wrap="wrap">
            {/* a reverted or never-executed transaction moved nothing: its summary is only a plan */}
            {current.status === 'reverted' || current.status === 'not-sent'
              ? 'Planned '
              : 'What    '}
            {current.summary}
          </Text>
          <Text wrap="wrap">
            {'Hash    '}
            {current.transactionHash}
          </Text>
          <Text wrap="wrap">
            {'Status  '}
            {STATUS_TEXT[current.status]}
            {current.status === 'reverted'
              ? current.fee === undefined
                ? ' (no fee recorded: sponsored, or not known)'
                : ` but its fee, ${current.fee}`
              : ''}
          </Text>
          {current.revertReason ? (
            <Text wrap="wrap">
              {'Reason  '}
              {current.revertReason}
            </Text>
          ) : null}
          {current.contradiction === undefined ? null : (
            <Text color={theme.warning} wrap="wrap">
              {'Warning '}
              the chain&apos;s answers contradict each other ({current.contradiction}): how it ended
              is not known; do not send it again before it is settled
            </Text>
          )}
        </Box>
      ) : null}
      <Text color={theme.muted}>A record kept on this computer; the chain is the truth.</Text>
    </Box>
  );
}

export function LogoutScreen() {
  const { services, dispatch, theme } = useUi();
  const [out, logout] = useTask<void>();
  useKeys(
    {
      confirm: () =>
        void logout(() => services.logout()).then(() =>
          dispatch({
            type: 'signedOut',
            note: 'Logged out: this computer no longer holds your session. Enter sends a new code.',
          }),
        ),
      cancel: () => dispatch({ type: 'back' }),
      back: () => dispatch({ type: 'back' }),
    },
    { isActive: out.status !== 'running', wording: { confirm: 'log out', cancel: 'stay' } },
  );
  return (
    <Box flexDirection="column">
      <Title>Log out</Title>
      <Text>
        Forget this session on this computer? Your wallet stays yours; sign in again with your
        e-mail.
      </Text>
      {out.status === 'failed' ? <ErrorLine message={describeFailure(out.error).message} /> : null}
      {out.status === 'running' ? (
        <Busy label="logging out…" />
      ) : (
        <Text color={theme.muted}>y logs out, n or Esc keeps you signed in</Text>
      )}
    </Box>
  );
}
