/**
 * A file lock held by another finance-tui never freezes the app: saving settings waits for it
 * asynchronously (shared/fs.ts withFileLock), the frame says what it waits for, keys are still
 * handled, and the save goes through once the lock is released. The real store on a temp folder;
 * the lock is another owner's: a live pid (this test's own) with a token that is not the saver's.
 * The same through the built program in a terminal: test/tui-terminal.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { saveSettings } from '../../platform/settings.js';
import { openFromHome, signedIn } from '../../../test/helpers/screens.js';
import { KEYS, type Rendered, renderWithProviders } from '../../../test/helpers/tui.js';

let ui: Rendered | undefined;
let home: string | undefined;
afterEach(() => {
  ui?.unmount();
  ui = undefined;
  if (home !== undefined) rmSync(home, { recursive: true, force: true });
  home = undefined;
});

const WAITING = 'waiting for another finance-tui to finish writing the settings file…';

describe('a file lock held by another process', () => {
  it('saving settings: the screen says it waits, still takes keys, and saves once the lock is released', async () => {
    home = mkdtempSync(join(tmpdir(), 'lock-wait-'));
    const env = { FINANCE_TUI_HOME: home };
    const services = signedIn();
    services.updateSettings = async (patch) => {
      await saveSettings(env, patch);
      return { ...services.settings(), ...patch };
    };
    const lock = join(home, 'settings.json.lock');
    writeFileSync(lock, `${process.pid} held-by-another-finance-tui`, { mode: 0o600 });

    ui = renderWithProviders(services);
    await openFromHome(ui, 'Settings');
    let frame = await ui.press(KEYS.right);
    expect(frame).toMatch(/› Default slippage +2%/);
    await ui.press(KEYS.enter);
    frame = await ui.waitForFrame((f) => f.includes(WAITING));
    expect(frame).toContain('saving…');
    // the event loop is free: a key is handled (the row moves) while the save waits
    frame = await ui.press(KEYS.down);
    expect(frame).toMatch(/› Gas token/);
    expect(frame).toContain(WAITING);
    expect(frame).not.toContain('saved;');

    rmSync(lock); // the other process is done
    frame = await ui.waitForFrame((f) => f.includes('saved;'));
    expect(frame).not.toContain(WAITING);
    expect(frame).not.toContain('saving…');
    expect(JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8'))).toMatchObject({
      slippageBps: 200,
    });
  });
});
