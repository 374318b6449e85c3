/** What a review shows of any plan: the calls to be signed in words, and the simulated balance changes. */
import { Box, Text } from 'ink';
import { useUi } from '../context.js';
import { signedAmount } from '../format.js';
import type { BalanceChange, CallView } from '../services.js';

export function PlanCalls({
  calls,
  changes,
  changesNote = '',
}: {
  calls: readonly CallView[];
  changes: readonly BalanceChange[];
  changesNote?: string;
}) {
  const { theme } = useUi();
  return (
    <>
      <Box marginTop={1} flexDirection="column">
        <Text bold>
          What will be signed ({calls.length === 1 ? 'one call' : `${calls.length} calls`}, one
          transaction):
        </Text>
        {calls.map((call, i) => (
          // wrapped, not cut: a review shows each call whole (it scrolls when that is too tall)
          <Text key={`${call.entrypoint}-${i}`} wrap="wrap">
            {i + 1}. {call.description}
          </Text>
        ))}
      </Box>
      <Box marginTop={1} flexDirection="column">
        <Text bold>Simulated balance changes{changesNote}:</Text>
        {changes.map((c, i) => (
          // by place: two tokens outside the registry may show the same symbol
          <Text key={`${c.symbol}-${i}`} color={c.delta < 0n ? theme.warning : theme.success}>
            {signedAmount(c.delta, c.decimals, c.symbol)}
          </Text>
        ))}
      </Box>
    </>
  );
}
