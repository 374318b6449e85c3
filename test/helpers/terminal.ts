/**
 * A program in a real terminal: tmux on its own socket, keys sent with send-keys, the screen read
 * with capture-pane, every wait a wait for something on screen (never a fixed sleep).
 */
import { execFileSync, spawnSync } from 'node:child_process';

export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

export interface Terminal {
  tmux(...args: string[]): string;
  /** the pane's text, with 50 lines of scrollback */
  screen(): string;
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
