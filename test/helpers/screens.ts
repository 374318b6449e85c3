/**
 * Shared steps of the screen tests (cli/ui/screens/*.test.ts): a signed-in fake services port,
 * and opening a menu item from home the way a user would.
 */
import { fakeServices, SESSION } from './fake-services.js';
import { KEYS, type Rendered } from './tui.js';

export const signedIn = (options: Parameters<typeof fakeServices>[0] = {}) =>
  fakeServices({ session: SESSION, ...options });

/**
 * Presses `key` (↓ by default) until `selected(frame)` holds — selecting by what the screen shows,
 * never by counting presses, so a new option elsewhere in a list breaks no test. Throws when
 * `limit` presses never reach it (the option is not offered).
 */
export async function moveUntil(
  rendered: Rendered,
  selected: (frame: string) => boolean,
  what: string,
  key: string = KEYS.down,
  limit = 20,
): Promise<string> {
  for (let i = 0; i < limit && !selected(rendered.frame()); i++) await rendered.press(key);
  if (!selected(rendered.frame())) throw new Error(`${what} is never selected`);
  return rendered.frame();
}

/** Home → the menu item `label` (moving up from Trade, the way a user would) → Enter. */
export async function openFromHome(rendered: Rendered, label: string): Promise<string> {
  await rendered.waitForFrame((f) => f.includes('› Trade'));
  await moveUntil(rendered, (f) => f.includes(`› ${label}`), `the menu item "${label}"`, KEYS.up);
  return rendered.press(KEYS.enter);
}

/** A form's action picker (`↑ Label ↓`) → the action `label`, by its label, not by counting keys. */
export const chooseAction = (
  rendered: Rendered,
  label: string,
  key: string = KEYS.down,
): Promise<string> =>
  moveUntil(rendered, (f) => f.includes(`↑ ${label} ↓`), `the action "${label}"`, key);

/** A field's choice (`[Label]`, a picker's or a preset's) → `label`, by its label. */
export const chooseOption = (
  rendered: Rendered,
  selected: RegExp,
  key: string = KEYS.down,
): Promise<string> => moveUntil(rendered, (f) => selected.test(f), `the choice ${selected}`, key);
