/** The allocation drawn as bars (a picture, not only a table), and a rebalance's table. */
import { Box, Text } from 'ink';
import { useUi } from '../context.js';
import type { Portfolio, RebalanceView } from '../services.js';

const BAR_WIDTH = 24;

/** `units` hundredths of a percent as a bar of BAR_WIDTH cells for 100 % (a character, not only colour: NO_COLOR). */
function barOf(units: number, width = BAR_WIDTH): string {
  const cells = Math.round((units * width) / 10_000);
  return '█'.repeat(cells) + '·'.repeat(Math.max(0, width - cells));
}

export function AllocationBars({ portfolio }: { portfolio: Portfolio }) {
  const { theme } = useUi();
  if (portfolio.tokens.length === 0)
    return <Text color={theme.muted}>The wallet holds no registry token.</Text>;
  return (
    <Box flexDirection="column">
      {portfolio.tokens.map((t) => (
        <Text key={t.symbol} wrap="truncate-end">
          {t.symbol.padEnd(7)}
          {t.share === null ? (
            <Text color={theme.warning}>
              {'unpriced'.padEnd(BAR_WIDTH)} {t.amount}
            </Text>
          ) : (
            <>
              <Text color={theme.accent}>{barOf(t.share.units)}</Text>{' '}
              {`${t.share.percent} %`.padStart(8)}{' '}
              <Text color={theme.muted}>
                ${t.value?.usd} · {t.amount}
              </Text>
            </>
          )}
        </Text>
      ))}
    </Box>
  );
}

export function RebalanceTable({ view }: { view: RebalanceView }) {
  const { theme } = useUi();
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text bold>
        {'token'.padEnd(8)}
        {'now %'.padStart(8)}
        {'target %'.padStart(10)}
        {`after %${view.afterFrom === 'simulation' ? ' (simulated)' : ''}`.padStart(22)}
      </Text>
      {view.rows.map((r) => (
        <Text key={r.symbol}>
          {r.symbol.padEnd(8)}
          {r.now.padStart(8)}
          {r.target.padStart(10)}
          {(r.after ?? '—').padStart(22)}
        </Text>
      ))}
      <Text color={theme.muted} wrap="wrap">
        Shares: {view.baseNote}. Band {view.band} points; minimum trade ${view.minTradeUsd}.
      </Text>
      {view.notes.map((n) => (
        <Text key={n} color={theme.warning} wrap="wrap">
          ! {n}
        </Text>
      ))}
    </Box>
  );
}
