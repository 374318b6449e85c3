/**
 * A program in a real terminal: tmux on its own socket, keys sent with send-keys, the screen read
 * with capture-pane, every wait a wait for something on screen (never a fixed sleep).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { expect } from 'vitest';
import { BIN } from './process.js';

export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

export interface Terminal {
  tmux(...args: string[]): string;
  /** the pane's text, with 50 lines of scrollback */
  screen(): string;
  /** the visible pane only (a resize or a receipt may leave older frames in the scrollback) */
  visible(): string;
  /** send keys: tmux key names (Enter, Escape, C-c, Down), or `{ text }` typed literally */
  keys(...keys: Array<string | { text: string }>): void;
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<string>;
  waitUntil(done: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): void;
}

/**
 * Runs `command` (a shell line) in a new tmux session. The environment is the caller's, without
 * CI: under CI Ink renders only the final frame.
 */
export function openTerminal(
  name: string,
  env: NodeJS.ProcessEnv,
  command: string,
  size = { columns: 110, rows: 45 },
): Terminal {
  const socket = `finance-tui-${name}-${process.pid}`;
  const childEnv = { ...env };
  delete childEnv.CI;
  const tmux = (...args: string[]): string =>
    execFileSync('tmux', ['-L', socket, ...args], { env: childEnv, encoding: 'utf8' });
  tmux(
    'new-session',
    '-d',
    '-s',
    'app',
    '-x',
    String(size.columns),
    '-y',
    String(size.rows),
    command,
  );
  const screen = (): string => tmux('capture-pane', '-p', '-t', 'app', '-S', '-50');
  const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 100));

  return {
    tmux,
    screen,
    visible: () => tmux('capture-pane', '-p', '-t', 'app'),
    keys(...keys) {
      for (const key of keys) {
        if (typeof key === 'string') tmux('send-keys', '-t', 'app', key);
        else tmux('send-keys', '-t', 'app', '-l', key.text);
      }
    },
    async waitFor(text, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const current = screen();
        if (typeof text === 'string' ? current.includes(text) : text.test(current)) return current;
        if (Date.now() > deadline)
          throw new Error(`the screen never showed ${String(text)}; it shows:\n${current}`);
        await pause();
      }
    },
    async waitUntil(done, what, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (!done()) {
        if (Date.now() > deadline)
          throw new Error(`never saw ${what}; the screen shows:\n${screen()}`);
        await pause();
      }
    },
    close() {
      spawnSync('tmux', ['-L', socket, 'kill-server'], { env: childEnv });
    },
  };
}

/** A shell line: the app, then its exit code and the terminal's modes once it has left. */
export const appThen = (args: string): string =>
  `'${process.execPath}' '${BIN}' ${args}; echo "EXIT:$?"; stty -a; sleep 600`;

/** the home menu's highlighted item */
const selectedItem = (term: Terminal): string => /› (\S+)/.exec(term.visible())?.[1] ?? '';

/** Down the home menu to `label`, each key waited for (the marker moves). */
export async function menuTo(term: Terminal, label: string): Promise<void> {
  for (let i = 0; i < 12 && !term.visible().includes(`› ${label}`); i++) {
    const before = selectedItem(term);
    term.keys('Down');
    await term.waitUntil(() => selectedItem(term) !== before, 'the menu selection to move');
  }
  expect(term.visible()).toContain(`› ${label}`);
}

/**
 * Signs in on a sandbox app's sign-in screen as a person does: the e-mail, Enter, Ctrl+F (the
 * code from the sandbox outbox), Enter; resolves with the home screen.
 */
export async function signInFromOutbox(term: Terminal, email: string): Promise<string> {
  // the sandbox starts first: generous on a loaded machine
  await term.waitFor('Sign in', 90_000);
  term.keys({ text: email }, 'Enter');
  await term.waitFor(`code sent to ${email}`);
  term.keys('C-f');
  await term.waitFor('code filled from the sandbox outbox');
  expect(term.screen()).toContain('••••••');
  term.keys('Enter');
  return term.waitFor(/Wallet\s+0x[0-9a-f]{4}…[0-9a-f]{4}/, 60_000);
}
