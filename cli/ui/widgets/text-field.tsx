/**
 * The text field: its one key handler (useKeyInput, only while focused) turns key presses into
 * edits; Enter, Esc, Tab, arrows up/down and Ctrl/Meta keys are left to the screen's key
 * router. A masked field shows • for each character and never renders the value.
 */
import { Text } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { useUi } from '../context.js';
import { useKeyInput } from '../hooks/use-key-input.js';
import { editField, type FieldEdit, type FieldRules } from './field-state.js';

interface TextFieldProps extends FieldRules {
  value: string;
  onChange: (value: string) => void;
  focused: boolean;
  placeholder?: string;
  mask?: boolean;
  /** brackets around the focused field when there is no colour (its row has no label to mark) */
  marked?: boolean;
}

function editFor(input: string, key: import('ink').Key): FieldEdit | undefined {
  if (
    key.return ||
    key.escape ||
    key.tab ||
    key.upArrow ||
    key.downArrow ||
    key.pageUp ||
    key.pageDown
  )
    return undefined;
  if (key.leftArrow) return { type: 'left' };
  if (key.rightArrow) return { type: 'right' };
  if (key.home) return { type: 'home' };
  if (key.end) return { type: 'end' };
  if (key.backspace) return { type: 'backspace' };
  if (key.delete) return { type: 'delete' };
  if (key.ctrl && input === 'u') return { type: 'clear' };
  if (key.ctrl || key.meta) return undefined;
  return input === '' ? undefined : { type: 'insert', text: input };
}

export function TextField({
  value,
  onChange,
  focused,
  placeholder = '',
  mask = false,
  marked = false,
  accept,
  maxLength,
}: TextFieldProps) {
  const { theme } = useUi();
  const [cursor, setCursor] = useState(value.length);
  const latest = useRef({ value, cursor, onChange });
  latest.current = { value, cursor: Math.min(cursor, value.length), onChange };
  // a value set from outside (filled, "max", cleared) puts the cursor at its end
  const emitted = useRef(value);
  useEffect(() => {
    if (value !== emitted.current) setCursor(value.length);
    emitted.current = value;
  }, [value]);

  useKeyInput(
    (input, key) => {
      const edit = editFor(input, key);
      if (edit === undefined) return;
      const now = latest.current;
      const next = editField({ value: now.value, cursor: now.cursor }, edit, { accept, maxLength });
      // the field's own view of its value and cursor, current as soon as an edit is made
      latest.current = { ...now, value: next.value, cursor: next.cursor };
      setCursor(next.cursor);
      if (next.value !== now.value) {
        emitted.current = next.value;
        now.onChange(next.value);
      }
    },
    { isActive: focused },
  );

  const shown = mask ? '•'.repeat(value.length) : value;
  if (!focused) {
    return shown === '' ? <Text color={theme.muted}>{placeholder}</Text> : <Text>{shown}</Text>;
  }
  const at = Math.min(cursor, shown.length);
  // without colour the cursor's inverse video may not show: brackets mark the focused field
  // where a label cannot (a field inside a row of fields)
  const [open, close] = marked && !theme.color ? ['[', ']'] : ['', ''];
  return (
    <Text>
      {open}
      {shown === '' && placeholder !== '' ? (
        <Text color={theme.muted}>{placeholder} </Text>
      ) : (
        shown.slice(0, at)
      )}
      <Text inverse>{shown[at] ?? ' '}</Text>
      {shown.slice(at + 1)}
      {close}
    </Text>
  );
}
