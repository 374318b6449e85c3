/**
 * The slippage of a swap form (trade, multi-swap, batch): the presets in a row, then "custom"
 * with a percent field; ↑/↓ choose while it has the focus.
 */
import { Box, Text } from 'ink';
import { formatBpsAsPercent } from '../../../shared/fees.js';
import { useUi } from '../context.js';
import type { Bindings } from '../hooks/use-keys.js';
import {
  CONFIRM_WORD,
  cycleSlippage,
  SLIPPAGE_PRESETS,
  type SlippageChoice,
  slippageOf,
} from '../screens/trade-state.js';
import { slippageLevel } from '../../core/actions/rules.js';
import { FieldLabel } from './layout.js';
import { TextField } from './text-field.js';

export function SlippageField({
  value,
  onChange,
  focused,
}: {
  value: SlippageChoice;
  onChange: (patch: Partial<SlippageChoice>) => void;
  focused: boolean;
}) {
  const { theme } = useUi();
  const custom = value.slippageChoice === SLIPPAGE_PRESETS.length;
  // the chosen one in brackets: seen without colour (NO_COLOR) as well
  const shown = (label: string, chosen: boolean): string => (chosen ? `[${label}]` : ` ${label} `);
  const slippage = slippageOf(value);
  const level = 'bps' in slippage ? slippageLevel(slippage.bps) : 'ok';
  return (
    <Box flexDirection="column">
      <Box>
        <FieldLabel label="Slippage" focused={focused} />
        {SLIPPAGE_PRESETS.map((bps, i) => (
          <Text
            key={bps}
            inverse={value.slippageChoice === i && focused}
            color={value.slippageChoice === i ? theme.accent : theme.muted}
          >
            {shown(formatBpsAsPercent(bps), value.slippageChoice === i)}
          </Text>
        ))}
        <Text color={custom ? theme.accent : theme.muted}>{shown('custom', custom)} </Text>
        {custom ? (
          <TextField
            value={value.customSlippage}
            onChange={(customSlippage) => onChange({ customSlippage })}
            focused={focused}
            maxLength={12}
            placeholder="%"
          />
        ) : null}
      </Box>
      {'bps' in slippage && level !== 'ok' ? (
        <Text color={level === 'very-high' ? theme.danger : theme.warning} wrap="wrap">
          ! slippage {formatBpsAsPercent(slippage.bps)} is high: you accept up to{' '}
          {formatBpsAsPercent(slippage.bps)} less than quoted
          {level === 'very-high' ? `; the review asks you to type ${CONFIRM_WORD}` : ''}
        </Text>
      ) : null}
    </Box>
  );
}

/** The keys of a focused slippage field: ↑/↓ move through the presets and "custom". */
export function slippageKeys(
  value: SlippageChoice,
  onChange: (patch: Partial<SlippageChoice>) => void,
): Bindings {
  return {
    up: () => onChange({ slippageChoice: cycleSlippage(value.slippageChoice, -1) }),
    down: () => onChange({ slippageChoice: cycleSlippage(value.slippageChoice, 1) }),
  };
}
