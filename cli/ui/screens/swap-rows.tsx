/**
 * Multi-swap and Batch: one form of rows, one line each — swaps ("100 USDC → ETH") and, in a
 * batch, sends ("5 STRK → 0x…"), supplies ("100 USDC", to the main Vesu pool) and stakes
 * ("100 STRK → Sandbox Alpha") — each checked as it is typed, with the balance of its token;
 * the slippage applies to every swap. Enter plans the whole form as one transaction (quoted,
 * checked, built, simulated — nothing signed) and opens the review every swap plan shares. The
 * rows' rules and limits are rows-state.ts.
 */
import { Box, Text } from 'ink';
import { useMemo, useReducer } from 'react';
import { formatAmount } from '../../../shared/amount.js';
import { useUi } from '../context.js';
import { amount as showAmount, shortAddress } from '../format.js';
import { useHeld } from '../hooks/use-held.js';
import { type Bindings, useKeys } from '../hooks/use-keys.js';
import { usePlanReview } from '../hooks/use-plan-review.js';
import type { TokenBalance } from '../services.js';
import { ErrorLine, Title } from '../widgets/layout.js';
import { PlanStatus } from '../widgets/plan-status.js';
import type { PickerItem } from '../widgets/picker-state.js';
import { SlippageField, slippageKeys } from '../widgets/slippage-field.js';
import { TextField } from '../widgets/text-field.js';
import { TokenPicker } from '../widgets/token-picker.js';
import { ADDRESS_FIELD_LENGTH, AMOUNT_FIELD_LENGTH, type RecipientCheck } from './form-fields.js';
import type { ScreenName } from '../state.js';
import {
  checkRows,
  initialRows,
  LIMITS,
  type Row,
  type RowField,
  type RowsForm,
  type RowsKind,
  rowsReducer,
  swapCount,
} from './rows-state.js';

const TITLE: Record<RowsKind, string> = { 'multi-swap': 'Multi-swap', batch: 'Batch' };

const ABOUT: Record<RowsKind, string> = {
  'multi-swap': `${LIMITS['multi-swap'].minSwaps} to ${LIMITS['multi-swap'].maxSwaps} swaps in one transaction`,
  batch: `up to ${LIMITS.batch.maxSwaps} swaps, ${LIMITS.batch.maxSends} sends, ${LIMITS.batch.maxEach} supplies and ${LIMITS.batch.maxEach} stakes in one transaction`,
};

const SCREEN = { 'multi-swap': 'multiSwap', batch: 'batch' } as const satisfies Record<
  RowsKind,
  ScreenName
>;

/** `initial`: the form as it was left for the review (Esc comes back to it). */
export function SwapRowsScreen({
  kind,
  initial,
}: {
  kind: RowsKind;
  initial?: RowsForm | undefined;
}) {
  const { services, state: app, dispatch, theme } = useUi();
  const tokens = useMemo(() => services.tokens(), [services]);
  const defaultSlippageBps = services.settings().slippageBps;
  const [form, update] = useReducer(
    rowsReducer,
    initial,
    (typed) => typed ?? initialRows(kind, defaultSlippageBps),
  );
  const heldOf = useHeld();
  const review = usePlanReview();
  const session = app.session;
  const running = review.running;

  const checkRecipient: RecipientCheck = (text) =>
    session ? services.checkRecipient(text, session) : { problem: 'not signed in' };
  const decimalsOf = (symbol: string): number | undefined =>
    tokens.find((t) => t.symbol === symbol)?.decimals;
  const check = checkRows(form, { decimalsOf, checkRecipient, defaultSlippageBps });
  const focus = form.focus;
  const heldIn = (row: Row): TokenBalance | undefined =>
    heldOf(row.kind === 'swap' ? row.from : row.token);

  const bindings: Bindings = {
    nextField: () => update({ type: 'nextField' }),
    submit: () => {
      if (check.empty !== undefined) {
        // Enter on an unfinished form moves on to the first empty field
        update({ type: 'focus', focus: check.empty });
        return;
      }
      const request = check.request;
      if (!request || !session) return;
      review.plan(request, { name: SCREEN[kind], form });
    },
    back: () => dispatch({ type: 'back' }),
    addSwap: () => update({ type: 'addSwap' }),
  };
  if (kind === 'batch') {
    bindings.addSend = () => update({ type: 'addSend' });
    bindings.addSupply = () => update({ type: 'addSupply' });
    bindings.addStake = () => update({ type: 'addStake' });
  }
  if (focus === 'slippage')
    Object.assign(
      bindings,
      slippageKeys(form, (patch) => update({ type: 'slippage', patch })),
    );
  else {
    bindings.removeRow = () => update({ type: 'removeRow' });
    const row = form.rows[focus.row];
    const held = row && focus.field === 'amount' ? heldIn(row) : undefined;
    if (held)
      bindings.max = () =>
        update({
          type: 'edit',
          row: focus.row,
          field: 'amount',
          value: formatAmount(held.amount, held.decimals),
        });
  }
  useKeys(bindings, {
    isActive: !running,
    wording: {
      nextField: 'next',
      submit: 'review',
      addSwap: kind === 'multi-swap' ? 'add row' : 'add swap',
      removeRow: 'remove',
      up: 'slippage',
      down: 'slippage',
    },
  });

  const fieldOf = (row: number): RowField | undefined =>
    running || focus === 'slippage' || focus.row !== row ? undefined : focus.field;
  const pickingToken =
    !running &&
    focus !== 'slippage' &&
    focus.field !== 'amount' &&
    !(focus.field === 'to' && form.rows[focus.row]?.kind !== 'swap');

  return (
    <Box flexDirection="column">
      <Title>{TITLE[kind]}</Title>
      <Text color={theme.muted} wrap="wrap">
        {ABOUT[kind]}
      </Text>
      {form.rows.map((row, i) => (
        <RowLine
          key={i}
          row={row}
          index={i}
          field={fieldOf(i)}
          tokens={tokens}
          held={heldIn(row)}
          problem={check.problems[i]}
          onEdit={(field, value) => update({ type: 'edit', row: i, field, value })}
        />
      ))}
      {swapCount(form) > 0 ? (
        <SlippageField
          value={form}
          onChange={(patch) => update({ type: 'slippage', patch })}
          focused={!running && focus === 'slippage'}
        />
      ) : null}
      <Box marginTop={1} flexDirection="column">
        {pickingToken ? (
          <Text color={theme.muted}>type to filter the tokens, ↑/↓ to choose</Text>
        ) : null}
        {check.problems.map((problem, i) =>
          problem === undefined ? null : <ErrorLine key={i} message={`${i + 1}. ${problem}`} />,
        )}
        {check.slippageProblem !== undefined ? <ErrorLine message={check.slippageProblem} /> : null}
        {form.notice !== undefined ? <Text color={theme.warning}>{form.notice}</Text> : null}
        <PlanStatus
          review={review}
          busy="quoting, checking, building and simulating…"
          // a failed plan is said while the form still asks for what failed: a change clears it
          failure={review.failureWhile(check.request)}
        />
      </Box>
    </Box>
  );
}

/** One row on one line: "1. swap 100 USDC → ETH   balance …" or "3. send 5 STRK → 0x0123…cdef". */
function RowLine({
  row,
  index,
  field,
  tokens,
  held,
  problem,
  onEdit,
}: {
  row: Row;
  index: number;
  /** the focused field of this row, if any */
  field: RowField | undefined;
  tokens: readonly PickerItem[];
  held: TokenBalance | undefined;
  problem: string | undefined;
  onEdit: (field: RowField, value: string) => void;
}) {
  const { theme } = useUi();
  const picker = (which: 'from' | 'to' | 'token', value: string) => (
    <TokenPicker
      inline
      items={tokens}
      value={value}
      onChange={(symbol) => onEdit(which, symbol)}
      focused={field === which}
    />
  );
  return (
    <Text wrap="wrap">
      <Text
        color={problem === undefined ? theme.muted : theme.danger}
      >{`${field === undefined ? '  ' : '› '}${index + 1}. ${row.kind} `}</Text>
      <TextField
        value={row.amount}
        onChange={(value) => onEdit('amount', value)}
        focused={field === 'amount'}
        marked
        maxLength={AMOUNT_FIELD_LENGTH}
        placeholder="amount"
      />
      <Text> </Text>
      {row.kind === 'swap' ? picker('from', row.from) : picker('token', row.token)}
      {row.kind === 'supply' ? <Text color={theme.muted}> to the main Vesu pool</Text> : null}
      {row.kind === 'supply' ? null : <Text> → </Text>}
      {row.kind === 'supply' ? null : row.kind === 'swap' ? (
        picker('to', row.to)
      ) : field === 'to' || row.to.trim() === '' ? (
        <TextField
          value={row.to}
          onChange={(value) => onEdit('to', value)}
          focused={field === 'to'}
          marked
          maxLength={ADDRESS_FIELD_LENGTH}
          placeholder={
            row.kind === 'stake' ? 'validator name or staker 0x…' : '0x… recipient address'
          }
        />
      ) : (
        <Text>{row.kind === 'stake' ? row.to.trim() : shortAddress(row.to.trim())}</Text>
      )}
      {held ? (
        <Text
          color={theme.muted}
        >{`   balance ${showAmount(held.amount, held.decimals, held.symbol)}`}</Text>
      ) : null}
    </Text>
  );
}
