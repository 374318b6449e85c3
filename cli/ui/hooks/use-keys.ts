/**
 * The key router of a screen: the only useInput it has, bound to action names from the keymap,
 * inactive when `isActive` is false or stdin cannot do raw mode (Ink would throw). The footer
 * lists exactly the actions bound here (with the screen's wording), so it cannot drift from
 * the keys. Ctrl+C never reaches a screen: the root owns it.
 */
import { useInput, useStdin } from 'ink';
import { useEffect, useRef } from 'react';
import { NO_FOOTER, useUi } from '../context.js';
import { type Action, actionFor, isInterrupt } from '../keymap.js';

export type Bindings = Partial<Record<Action, () => void>>;

export function useKeys(
  bindings: Bindings,
  options: { isActive?: boolean; wording?: Partial<Record<Action, string>> } = {},
): void {
  const { isRawModeSupported } = useStdin();
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
  // the latest handlers without re-subscribing on every render
  const latest = useRef(bindings);
  latest.current = bindings;
  useInput(
    (input, key) => {
      if (isInterrupt(input, key)) return;
      // Typed text and Enter can arrive in one chunk ("alice@example.com\r": a fast typist, a
      // paste, a busy machine); Ink does not split Enter out of text. The field takes the text;
      // Enter runs once React has applied it, so the handler sees the new value.
      if (!key.return && input.length > 1 && /[\r\n]/.test(input)) {
        setTimeout(() => latest.current.submit?.(), 0);
        return;
      }
      const current = latest.current;
      const action = actionFor(Object.keys(current) as Action[], input, key);
      if (action !== undefined) current[action]?.();
    },
    { isActive: (options.isActive ?? true) && isRawModeSupported },
  );
}
