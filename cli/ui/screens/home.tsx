/**
 * Home: the wallet (shortened; `a` shows it in full), the network, balances with a USD total at
 * the aggregator's prices, and the menu. Menu items the core cannot do yet are shown, marked,
 * and say why when chosen.
 */
import { Box, Text } from 'ink';
import { useCallback, useContext, useEffect, useState } from 'react';
import { ScreenRows, useUi } from '../context.js';
import { useKeys } from '../hooks/use-keys.js';
import { useTask } from '../hooks/use-task.js';
import { amount, shortAddress, usd } from '../format.js';
import type { Balances, Features } from '../services.js';
import type { Screen } from '../state.js';
import { describeFailure } from '../failure.js';
import { Busy, FailureLine, Rows, Title } from '../widgets/layout.js';

interface MenuItem {
  label: string;
  screen: Screen;
  /** the feature this item needs, if any */
  needs?: keyof Features;
}

export const MENU: readonly MenuItem[] = [
  { label: 'Trade', screen: { name: 'trade' } },
  { label: 'Multi-swap', screen: { name: 'multiSwap' }, needs: 'multiSwap' },
  { label: 'Batch', screen: { name: 'batch' }, needs: 'batch' },
  { label: 'Send', screen: { name: 'send' }, needs: 'send' },
  { label: 'History', screen: { name: 'history' }, needs: 'history' },
  { label: 'Status', screen: { name: 'status' } },
  // Rebalance opens from the Portfolio screen (Enter): one entry keeps the home within 80×24
  { label: 'Portfolio', screen: { name: 'portfolio' }, needs: 'portfolio' },
  // stake, exit, withdraw and claim open from the Staking screen, through the shared review
  { label: 'Staking', screen: { name: 'staking' } },
  // supply, withdraw, borrow, repay and close open from the Lending screen, through the review
  { label: 'Lending', screen: { name: 'lending' } },
  { label: 'Settings', screen: { name: 'settings' } },
  { label: 'Log out', screen: { name: 'logout' } },
];

/** The menu's column beside the balances: its longest label with the marker and " (not yet)". */
const MENU_WIDTH = 24;

/**
 * The menu items shown in `rows` lines, the selected one always among them: all of them when they
 * fit, else a window with "↑ more"/"↓ more" lines (each taking a line of its own).
 */
export function menuWindow(
  count: number,
  selected: number,
  rows: number,
): { first: number; last: number } {
  if (count <= rows) return { first: 0, last: count };
  const size = Math.max(1, rows - 2);
  const first = Math.min(Math.max(0, selected - size + 1), Math.max(0, count - size));
  return { first, last: Math.min(count, first + size) };
}

const NOT_YET = 'not in this version: the core does not provide it yet';

export function HomeScreen({
  quit,
  selected: initial = 0,
}: {
  quit: () => void;
  selected?: number | undefined;
}) {
  const { state, dispatch, services, theme } = useUi();
  const [selected, setSelected] = useState(initial);
  const [fullAddress, setFullAddress] = useState(false);
  const [balances, loadBalances] = useTask<Balances>();
  const session = state.session;
  const rows = useContext(ScreenRows);

  const refresh = useCallback((): void => {
    if (session && services.features.balances)
      void loadBalances((signal) => services.balances(session, { signal }));
  }, [session, services, loadBalances]);
  // load on arrival (all three are stable while the screen is shown); `r` reloads
  useEffect(refresh, [refresh]);

  const open = (item: MenuItem): void => {
    if (item.needs !== undefined && !services.features[item.needs]) {
      dispatch({
        type: 'open',
        screen: { name: 'unavailable', what: item.label, why: NOT_YET },
        returnTo: { name: 'home', selected },
      });
      return;
    }
    dispatch({ type: 'open', screen: item.screen, returnTo: { name: 'home', selected } });
  };

  useKeys(
    {
      up: () => setSelected((i) => (i + MENU.length - 1) % MENU.length),
      down: () => setSelected((i) => (i + 1) % MENU.length),
      submit: () => open(MENU[selected] ?? MENU[0]!),
      showAddress: () => setFullAddress((v) => !v),
      refresh,
      quit,
    },
    { wording: { submit: 'open', showAddress: fullAddress ? 'short address' : 'full address' } },
  );

  // the wallet and network lines and the gap take 3 rows; a shorter window scrolls the menu
  const { first, last } = menuWindow(MENU.length, selected, rows - 3);
  if (session === null) return null;
  return (
    <Box flexDirection="column">
      <Rows
        rows={[
          [
            'Wallet',
            <Text key="w">
              {fullAddress ? session.walletAddress : shortAddress(session.walletAddress)}
            </Text>,
          ],
          [
            'Network',
            <Text key="n">
              {state.environment?.sandbox
                ? `sandbox (${state.environment.network}-like, no real funds)`
                : state.environment?.network}
            </Text>,
          ],
        ]}
      />
      {/* the menu beside the balances: all of it fits 80×24 with a wallet's tokens */}
      <Box marginTop={1}>
        <Box flexDirection="column" width={MENU_WIDTH} flexShrink={0}>
          {first > 0 ? <Text color={theme.muted}>{'  ↑ more'}</Text> : null}
          {MENU.slice(first, last).map((item, i) => {
            const index = first + i;
            const off = item.needs !== undefined && !services.features[item.needs];
            return (
              <Text
                key={item.label}
                color={index === selected ? theme.accent : off ? theme.muted : undefined}
                wrap="truncate-end"
              >
                {index === selected ? '› ' : '  '}
                {item.label}
                {off ? ' (not yet)' : ''}
              </Text>
            );
          })}
          {last < MENU.length ? <Text color={theme.muted}>{'  ↓ more'}</Text> : null}
        </Box>
        <Box flexDirection="column" flexGrow={1}>
          <Title>Balances</Title>
          <BalancesView balances={balances} enabled={services.features.balances} />
        </Box>
      </Box>
    </Box>
  );
}

function BalancesView({
  balances,
  enabled,
}: {
  balances: ReturnType<typeof useTask<Balances>>[0];
  enabled: boolean;
}) {
  const { theme } = useUi();
  if (!enabled)
    return (
      <Text color={theme.muted}>
        balances are not available in this version (no chain reader yet)
      </Text>
    );
  if (balances.status === 'idle' || balances.status === 'running')
    return <Busy label="reading balances…" />;
  if (balances.status === 'failed') {
    const f = describeFailure(balances.error);
    return <FailureLine failure={f} hint="press r to try again" />;
  }
  const value = balances.value;
  if (!value.available) return <Text color={theme.muted}>{value.reason}</Text>;
  if (value.tokens.length === 0) return <Text color={theme.muted}>no tokens yet</Text>;
  return (
    <Box flexDirection="column">
      {value.tokens.map((t) => (
        <Text key={t.symbol} wrap="wrap">
          {amount(t.amount, t.decimals, t.symbol).padEnd(28)}{' '}
          <Text color={theme.muted}>{t.usdCents === undefined ? 'no price' : usd(t.usdCents)}</Text>
        </Text>
      ))}
      <Text wrap="wrap">
        <Text bold>Total {usd(value.totalUsdCents)}</Text>
        <Text color={theme.muted}> wallet tokens (positions: Portfolio)</Text>
      </Text>
    </Box>
  );
}
