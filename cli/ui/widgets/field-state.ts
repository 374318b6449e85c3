/**
 * A one-line text field's editing, as a pure reducer: insert (typed or pasted text, filtered
 * to the characters the field accepts, capped at its length), delete, cursor moves. The value
 * is the screen's (controlled); the field keeps only its cursor.
 */
interface FieldState {
  value: string;
  cursor: number;
}

export type FieldEdit =
  | { type: 'insert'; text: string }
  | { type: 'backspace' }
  | { type: 'delete' }
  | { type: 'left' }
  | { type: 'right' }
  | { type: 'home' }
  | { type: 'end' }
  | { type: 'clear' };

export interface FieldRules {
  /** characters the field takes (others are dropped) */
  accept?: RegExp;
  maxLength?: number;
}

export function editField(state: FieldState, edit: FieldEdit, rules: FieldRules = {}): FieldState {
  const cursor = Math.min(Math.max(0, state.cursor), state.value.length);
  const { value } = state;
  switch (edit.type) {
    case 'insert': {
      let text = [...edit.text]
        .filter(
          (ch) =>
            ch >= ' ' && ch !== '\u007f' && (rules.accept === undefined || rules.accept.test(ch)),
        )
        .join('');
      const room = (rules.maxLength ?? Infinity) - value.length;
      if (room <= 0 || text === '') return { value, cursor };
      text = text.slice(0, room);
      return {
        value: value.slice(0, cursor) + text + value.slice(cursor),
        cursor: cursor + text.length,
      };
    }
    case 'backspace':
      return cursor === 0
        ? { value, cursor }
        : { value: value.slice(0, cursor - 1) + value.slice(cursor), cursor: cursor - 1 };
    case 'delete':
      return { value: value.slice(0, cursor) + value.slice(cursor + 1), cursor };
    case 'left':
      return { value, cursor: Math.max(0, cursor - 1) };
    case 'right':
      return { value, cursor: Math.min(value.length, cursor + 1) };
    case 'home':
      return { value, cursor: 0 };
    case 'end':
      return { value, cursor: value.length };
    case 'clear':
      return { value: '', cursor: 0 };
  }
}
