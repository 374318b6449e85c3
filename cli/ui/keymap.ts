/**
 * One table of actions and their keys. Screens bind handlers to action names (useKeys); the
 * footer shows the keys of the actions the current screen binds. Letter keys are only bound
 * where no text field is focused; inside a field, actions use Enter, Esc, Tab, arrows or Ctrl.
 */
import type { Key } from 'ink';

interface KeySpec {
  /** a printable character (matched without Ctrl/Meta) */
  char?: string;
  /** a letter with Ctrl */
  ctrl?: string;
  special?:
    | 'return'
    | 'escape'
    | 'tab'
    | 'upArrow'
    | 'downArrow'
    | 'leftArrow'
    | 'rightArrow'
    | 'pageUp'
    | 'pageDown';
}

interface ActionDef {
  keys: readonly KeySpec[];
  /** what the footer shows for the key */
  label: string;
  /** what the footer says it does */
  help: string;
}

const KEYMAP = {
  back: { keys: [{ special: 'escape' }], label: 'Esc', help: 'back' },
  submit: { keys: [{ special: 'return' }], label: 'Enter', help: 'continue' },
  up: { keys: [{ special: 'upArrow' }], label: '↑', help: 'up' },
  down: { keys: [{ special: 'downArrow' }], label: '↓', help: 'down' },
  left: { keys: [{ special: 'leftArrow' }], label: '←', help: 'previous' },
  right: { keys: [{ special: 'rightArrow' }], label: '→', help: 'next' },
  nextField: { keys: [{ special: 'tab' }], label: 'Tab', help: 'next field' },
  quit: { keys: [{ char: 'q' }], label: 'q', help: 'quit' },
  showAddress: { keys: [{ char: 'a' }], label: 'a', help: 'full address' },
  refresh: { keys: [{ char: 'r' }], label: 'r', help: 'refresh' },
  /** refresh where a text field takes the letters (the Lending form) */
  reload: { keys: [{ ctrl: 'r' }], label: 'Ctrl+R', help: 'refresh' },
  resend: { keys: [{ ctrl: 'r' }], label: 'Ctrl+R', help: 'resend code' },
  fillCode: { keys: [{ ctrl: 'f' }], label: 'Ctrl+F', help: 'fill code from sandbox outbox' },
  max: { keys: [{ ctrl: 'x' }], label: 'Ctrl+X', help: 'max' },
  slippage: { keys: [{ ctrl: 's' }], label: 'Ctrl+S', help: 'slippage' },
  swapTokens: { keys: [{ ctrl: 'w' }], label: 'Ctrl+W', help: 'swap tokens' },
  addSwap: { keys: [{ ctrl: 'n' }], label: 'Ctrl+N', help: 'add swap' },
  addSend: { keys: [{ ctrl: 't' }], label: 'Ctrl+T', help: 'add send' },
  addSupply: { keys: [{ ctrl: 'u' }], label: 'Ctrl+U', help: 'add supply' },
  addStake: { keys: [{ ctrl: 'k' }], label: 'Ctrl+K', help: 'add stake' },
  removeRow: { keys: [{ ctrl: 'd' }], label: 'Ctrl+D', help: 'remove row' },
  toggle: { keys: [{ ctrl: 'o' }], label: 'Ctrl+O', help: 'toggle' },
  confirm: { keys: [{ char: 'y' }], label: 'y', help: 'confirm' },
  cancel: { keys: [{ char: 'n' }], label: 'n', help: 'cancel' },
} as const satisfies Record<string, ActionDef>;

export type Action = keyof typeof KEYMAP;

function matchesKey(spec: KeySpec, input: string, key: Key): boolean {
  if (spec.special !== undefined) return key[spec.special] === true;
  if (spec.ctrl !== undefined) return key.ctrl && input.toLowerCase() === spec.ctrl;
  if (spec.char !== undefined) return !key.ctrl && !key.meta && input === spec.char;
  return false;
}

/** The first of `actions` whose keys match the key press, if any. */
export function actionFor(actions: readonly Action[], input: string, key: Key): Action | undefined {
  return actions.find((action) => KEYMAP[action].keys.some((spec) => matchesKey(spec, input, key)));
}

/** Ctrl+C is the root's, always: no screen may bind it. */
export function isInterrupt(input: string, key: Key): boolean {
  return key.ctrl && input === 'c';
}

/** "Esc back · Enter continue" for the footer, with per-screen wording where given. */
export function footerText(
  actions: readonly Action[],
  wording: Partial<Record<Action, string>> = {},
): string {
  return actions
    .map((action) => `${KEYMAP[action].label} ${wording[action] ?? KEYMAP[action].help}`)
    .join(' · ');
}
