/**
 * Shared steps of the screen tests (cli/ui/screens/*.test.ts): a signed-in fake services port,
 * and opening a menu item from home the way a user would.
 */
import { fakeServices, SESSION } from './fake-services.js';
import { KEYS, type Rendered } from './tui.js';

export const signedIn = (options: Parameters<typeof fakeServices>[0] = {}) =>
  fakeServices({ session: SESSION, ...options });

/** Home → the menu item `label` (moving up from Trade, the way a user would) → Enter. */
export async function openFromHome(rendered: Rendered, label: string): Promise<string> {
  await rendered.waitForFrame((f) => f.includes('› Trade'));
  for (let i = 0; i < 12 && !rendered.frame().includes(`› ${label}`); i++)
    await rendered.press(KEYS.up);
  return rendered.press(KEYS.enter);
}

/** A form's action picker (`↑ Label ↓`) → the action `label`, by its label, not by counting keys. */
export async function chooseAction(rendered: Rendered, label: string): Promise<string> {
  for (let i = 0; i < 12 && !rendered.frame().includes(`↑ ${label} ↓`); i++)
    await rendered.press(KEYS.down);
  if (!rendered.frame().includes(`↑ ${label} ↓`)) throw new Error(`no action "${label}" offered`);
  return rendered.frame();
}
