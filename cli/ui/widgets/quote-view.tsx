/** A quote's figures, the way the headless table shows them, with impact in warning colours. */
import { Box, Text } from 'ink';
import type { QuoteSummary } from '../../core/quote-summary.js';
import { money } from '../format.js';
import { useUi } from '../context.js';
import { quoteImpactLevel } from '../screens/trade-state.js';
import { Rows } from './layout.js';

export function QuoteView({
  quote,
  slippagePercent,
}: {
  quote: QuoteSummary;
  slippagePercent: string;
}) {
  const { theme } = useUi();
  const level = quoteImpactLevel(quote);
  const impactColour =
    level === 'high' ? theme.danger : level === 'warn' ? theme.warning : undefined;
  const gas =
    quote.gas.estimatedGasUsed === null
      ? 'unknown'
      : `${quote.gas.estimatedGasUsed} gas${quote.gas.estimatedGasUsedInUsd ? ` (~$${quote.gas.estimatedGasUsedInUsd})` : ''}`;
  const routes = quote.route.map((leg) => {
    const path = [leg.hops[0]?.from ?? '?', ...leg.hops.map((h) => h.to)].join(' → ');
    const pools = leg.hops.map((h) => h.pools.map((p) => p.poolName).join(' + ')).join(', ');
    return `${leg.percent} ${path} via ${pools}`;
  });
  return (
    <Box flexDirection="column">
      <Rows
        rows={[
          ['You pay', money(quote.amountIn, quote.from.decimals)],
          [
            'You receive (est.)',
            <Text key="r" bold>
              {money(quote.expectedOutput, quote.to.decimals)}
            </Text>,
          ],
          [
            'Minimum received',
            `${money(quote.minimumReceived, quote.to.decimals)}  (slippage ${slippagePercent})`,
          ],
          ['Service fee', `${quote.fee.percent}  ${money(quote.fee.amount, quote.to.decimals)}`],
          [
            'Price impact',
            <Text key="i" color={impactColour}>
              {quote.priceImpact === null ? 'unknown' : quote.priceImpact.percent}
              {level === 'high'
                ? '  very high: you may lose much of the value'
                : level === 'warn'
                  ? '  high'
                  : ''}
            </Text>,
          ],
          ['Route', routes[0] ?? ''],
          ...routes.slice(1, 4).map((line): [string, string] => ['', line]),
          ...(routes.length > 4
            ? [['', `… ${routes.length - 4} more legs`] as [string, string]]
            : []),
          ['Gas (estimate)', gas],
        ]}
      />
    </Box>
  );
}
