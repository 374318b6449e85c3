/**
 * The slippage of a swap form (trade, multi-swap, batch): the presets in a row, then "custom"
 * with a percent field; ↑/↓ choose while it has the focus.
 */
import { Box, Text } from 'ink';
import { formatBpsAsPercent } from '../../../shared/fees.js';
import { useUi } from '../context.js';
import type { Bindings } from '../hooks/use-keys.js';
import { cycleSlippage, SLIPPAGE_PRESETS, type SlippageChoice } from '../screens/trade-state.js';
import { TextField } from './text-field.js';

export function SlippageField({ value, onChange, focused }: { value: SlippageChoice; onChange: (patch: Partial<SlippageChoice>) => void; focused: boolean }) {
  const { theme } = useUi();
  const custom = value.slippageChoice === SLIPPAGE_PRESETS.length;
  return (
    <Box>
      <Text>{'Slippage '}</Text>
      {SLIPPAGE_PRESETS.map((bps, i) => (
        <Text key={bps} inverse={value.slippageChoice === i && focused} color={value.slippageChoice === i ? theme.accent : theme.muted}>
          {` ${formatBpsAsPercent(bps)} `}
        </Text>
      ))}
      <Text color={custom ? theme.accent : theme.muted}>{' custom '}</Text>
      {custom ? <TextField value={value.customSlippage} onChange={(customSlippage) => onChange({ customSlippage })} focused={focused} accept={/[0-9.]/} maxLength={6} placeholder="%" /> : null}
    </Box>
  );
}

/** The keys of a focused slippage field: ↑/↓ move through the presets and "custom". */
export function slippageKeys(value: SlippageChoice, onChange: (patch: Partial<SlippageChoice>) => void): Bindings {
  return {
    up: () => onChange({ slippageChoice: cycleSlippage(value.slippageChoice, -1) }),
    down: () => onChange({ slippageChoice: cycleSlippage(value.slippageChoice, 1) }),
  };
}
