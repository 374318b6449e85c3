/**
 * The amount row of a one-token form (send, trade): the field as typed (never rewritten) and,
 * beside it, the balance held of the token the amount is in.
 */
import { Box, Text } from 'ink';
import { useUi } from '../context.js';
import { amount as showAmount } from '../format.js';
import { AMOUNT_FIELD_LENGTH } from '../screens/form-fields.js';
import type { TokenBalance } from '../services.js';
import { FieldLabel } from './layout.js';
import { TextField } from './text-field.js';

export function AmountRow({
  value,
  onChange,
  focused,
  token,
  held,
}: {
  value: string;
  onChange: (value: string) => void;
  focused: boolean;
  /** the token the amount is in (the placeholder names it) */
  token: string;
  /** what the wallet holds of it, when known */
  held: TokenBalance | undefined;
}) {
  const { theme } = useUi();
  return (
    <Box>
      <FieldLabel label="Amount" focused={focused} />
      <TextField
        value={value}
        onChange={onChange}
        focused={focused}
        maxLength={AMOUNT_FIELD_LENGTH}
        placeholder={`in ${token}`}
      />
      {held ? (
        <Text color={theme.muted}>
          {'  balance '}
          {showAmount(held.amount, held.decimals, held.symbol)}
        </Text>
      ) : null}
    </Box>
  );
}
