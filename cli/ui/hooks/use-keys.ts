/**
 * The key router of a screen: the only key handler it has (useKeyInput: one key press at a time,
 * each applied before the next, so a binding always sees what the keys before it did), bound to
 * action names from the keymap, inactive when `isActive` is false. The footer lists exactly the
 * actions bound here (with the screen's wording), so it cannot drift from the keys. Ctrl+C never
 * reaches a screen: the root owns it.
 */
import { useEffect } from 'react';
import { NO_FOOTER, useUi } from '../context.js';
import { type Action, actionFor, isInterrupt } from '../keymap.js';
import { useKeyInput } from './use-key-input.js';

export type Bindings = Partial<Record<Action, () => void>>;

export function useKeys(
  bindings: Bindings,
  options: { isActive?: boolean; wording?: Partial<Record<Action, string>> } = {},
): void {
  const { setFooter } = useUi();
  // the footer follows the bound actions and their wording by content (both are new objects on
  // every render): the effect reads them back from these strings
  const actionList = Object.keys(bindings).join(',');
  const wordingJson = JSON.stringify(options.wording ?? {});
  useEffect(() => {
    const actions = (actionList === '' ? [] : actionList.split(',')) as Action[];
    setFooter({ actions, wording: JSON.parse(wordingJson) as Partial<Record<Action, string>> });
  }, [actionList, wordingJson, setFooter]);
  useEffect(() => () => setFooter(NO_FOOTER), [setFooter]);
  useKeyInput(
    (input, key) => {
      if (isInterrupt(input, key)) return;
      const action = actionFor(Object.keys(bindings) as Action[], input, key);
      if (action !== undefined) bindings[action]?.();
    },
    { isActive: options.isActive ?? true },
  );
}
