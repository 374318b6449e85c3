/**
 * A program in a real terminal: tmux on its own socket, keys sent with send-keys, the screen read
 * with capture-pane, every wait a wait for something on screen (never a fixed sleep). A wait
 * reads the screen again as soon as the program has written to its terminal — tmux's pipe-pane
 * copies the pane's output to a file, watched here — and at the latest every POLL_MS: the frame
 * a key asked for is seen within milliseconds of its drawing, not up to a poll later
 * (docs/decisions.md "The terminal tests wait for the pane's output").
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { BIN } from './process.js';

/** the longest a wait goes without reading the screen again (the program wrote nothing) */
const POLL_MS = 100;
/** after the program's first write, how long the rest of its frame has to arrive */
const SETTLE_MS = 10;
/**
 * the shortest gap between two reads of the screen while the program keeps writing, for a wait's
 * first FAST_READS reads (a frame a key asked for); after them, POLL_MS as before, so a long wait
 * through a spinner reads the pane no more often than the poll did
 */
const MIN_GAP_MS = 25;
const FAST_READS = 4;

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

  // the pane's output, copied by tmux to a file: each write to it is a sign the screen changed
  const outputDir = mkdtempSync(join(tmpdir(), 'finance-tui-terminal-'));
  const outputFile = join(outputDir, 'output');
  writeFileSync(outputFile, '');
  /** how many times the pane has written since the terminal opened */
  let writes = 0;
  const woken = new Set<() => void>();
  const watcher = watch(outputFile, () => {
    writes++;
    for (const wake of [...woken]) wake();
  });
  watcher.unref();
  tmux('pipe-pane', '-O', '-t', 'app', `cat >> '${outputFile}'`);
  /**
   * Until the screen is worth reading again: the pane wrote after `seen` (its count of writes when
   * the screen was last read), the frame had SETTLE_MS to finish and MIN_GAP_MS (POLL_MS after
   * the wait's first FAST_READS `reads`) have passed since `readAt`; or POLL_MS went by without a
   * write.
   */
  const pause = (seen: number, readAt: number, reads: number): Promise<void> =>
    new Promise((resolve) => {
      let settle: NodeJS.Timeout | undefined;
      const done = (): void => {
        clearTimeout(fallback);
        clearTimeout(settle);
        woken.delete(onWrite);
        resolve();
      };
      const onWrite = (): void => {
        if (settle !== undefined) return;
        const minGap = reads < FAST_READS ? MIN_GAP_MS : POLL_MS;
        const gap = Math.max(SETTLE_MS, readAt + minGap - Date.now());
        settle = setTimeout(done, gap);
      };
      const fallback = setTimeout(done, POLL_MS);
      woken.add(onWrite);
      if (writes !== seen) onWrite();
    });

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
      for (let reads = 1; ; reads++) {
        const seen = writes;
        const readAt = Date.now();
        const current = screen();
        if (typeof text === 'string' ? current.includes(text) : text.test(current)) return current;
        if (Date.now() > deadline)
          throw new Error(`the screen never showed ${String(text)}; it shows:\n${current}`);
        await pause(seen, readAt, reads);
      }
    },
    async waitUntil(done, what, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (let reads = 1; ; reads++) {
        const seen = writes;
        const readAt = Date.now();
        if (done()) return;
        if (Date.now() > deadline)
          throw new Error(`never saw ${what}; the screen shows:\n${screen()}`);
        await pause(seen, readAt, reads);
      }
    },
    close() {
      watcher.close();
      spawnSync('tmux', ['-L', socket, 'kill-server'], { env: childEnv });
      rmSync(outputDir, { recursive: true, force: true });
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
