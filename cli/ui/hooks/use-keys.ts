/**
 * The key router for one screen or widget: the only useInput it has, bound to action names from
 * the keymap, inactive when `isActive` is false or stdin cannot do raw mode (Ink would throw).
 * Ctrl+C never reaches a screen: the root owns it.
 */
import { useInput, useStdin } from 'ink';
import { useRef } from 'react';
import { type Action, actionFor, isInterrupt } from '../keymap.js';

export type Bindings = Partial<Record<Action, () => void>>;

export function useKeys(bindings: Bindings, options: { isActive?: boolean } = {}): void {
  const { isRawModeSupported } = useStdin();
  // the latest handlers without re-subscribing on every render
  const latest = useRef(bindings);
  latest.current = bindings;
  useInput(
    (input, key) => {
      if (isInterrupt(input, key)) return;
      const current = latest.current;
      const action = actionFor(Object.keys(current) as Action[], input, key);
      if (action !== undefined) current[action]?.();
    },
    { isActive: (options.isActive ?? true) && isRawModeSupported },
  );
}
