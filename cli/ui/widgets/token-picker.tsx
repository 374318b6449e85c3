/**
 * Token picker: while focused, typing filters (symbol or name), ↑/↓ move, and the highlighted
 * token is the choice at once (the quote follows it). Unfocused it shows only the choice.
 * `inline` keeps it on its line (a row of a multi-swap or batch): the choice and the filter,
 * without the list below.
 */
import { Box, Text } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { useUi } from '../context.js';
import { useKeyInput } from '../hooks/use-key-input.js';
import { isInterrupt } from '../keymap.js';
import { filterItems, moveHighlight, type PickerItem } from './picker-state.js';

const SHOWN = 4;

export function TokenPicker({
  items,
  value,
  onChange,
  focused,
  inline = false,
}: {
  items: readonly PickerItem[];
  value: string;
  onChange: (symbol: string) => void;
  focused: boolean;
  inline?: boolean;
}) {
  const { theme } = useUi();
  const [filter, setFilter] = useState('');
  const matches = filterItems(items, filter);
  const index = Math.max(
    0,
    matches.findIndex((t) => t.symbol === value),
  );
  // what this picker's own keys have made of it, read and updated by each key press (the key
  // router applies a burst one key at a time: hooks/use-key-input.ts)
  const latest = useRef({ filter, value });
  latest.current = { filter, value };

  useEffect(() => {
    if (!focused) setFilter('');
  }, [focused]);

  useKeyInput(
    (input, key) => {
      if (isInterrupt(input, key) || key.return || key.escape || key.tab) return;
      const now = latest.current;
      if (key.upArrow || key.downArrow) {
        const shown = filterItems(items, now.filter);
        const at = Math.max(
          0,
          shown.findIndex((t) => t.symbol === now.value),
        );
        const next = shown[moveHighlight(at, key.upArrow ? -1 : 1, shown.length)];
        if (next && next.symbol !== now.value) {
          latest.current = { ...now, value: next.symbol };
          onChange(next.symbol);
        }
        return;
      }
      let nextFilter: string;
      if (key.backspace || key.delete) nextFilter = now.filter.slice(0, -1);
      else if (!key.ctrl && !key.meta && /^[\w.]+$/.test(input))
        nextFilter = (now.filter + input).slice(0, 20);
      else return;
      const first = filterItems(items, nextFilter)[0];
      latest.current = { filter: nextFilter, value: first?.symbol ?? now.value };
      setFilter(nextFilter);
      if (first && first.symbol !== now.value) onChange(first.symbol);
    },
    { isActive: focused },
  );

  if (!focused) return <Text>{value}</Text>;
  if (inline) {
    return (
      <Text>
        <Text inverse>{`[${value}]`}</Text>
        {filter === '' ? null : (
          <Text color={matches.length === 0 ? theme.warning : theme.muted}>
            {' '}
            {matches.length === 0 ? `no token matches "${filter}"` : `filter: ${filter}`}
          </Text>
        )}
      </Text>
    );
  }
  const start = Math.min(Math.max(0, index - 1), Math.max(0, matches.length - SHOWN));
  return (
    <Box flexDirection="column">
      <Text>
        <Text inverse>{`[${value}]`}</Text>
        <Text color={theme.muted}>
          {' '}
          {filter === '' ? 'type to filter, ↑/↓ to choose' : `filter: ${filter}`}
        </Text>
      </Text>
      {matches.length === 0 ? <Text color={theme.warning}>no token matches "{filter}"</Text> : null}
      {matches.slice(start, start + SHOWN).map((t) => (
        <Text
          key={t.symbol}
          color={t.symbol === value ? theme.accent : theme.muted}
          wrap="truncate-end"
        >
          {t.symbol === value ? '› ' : '  '}
          {t.symbol.padEnd(7)} {t.name}
        </Text>
      ))}
    </Box>
  );
}
