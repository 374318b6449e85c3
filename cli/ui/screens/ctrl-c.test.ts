/**
 * Stopping: Ctrl+C and SIGTERM.
 * The TUI over a fake services port (pure UI logic; the real program is driven in tmux by
 * test/tui-terminal.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { signedIn } from '../../../test/helpers/screens.js';
import { KEYS, type Rendered, renderWithProviders } from '../../../test/helpers/tui.js';

let ui: Rendered | undefined;
afterEach(() => {
  ui?.unmount();
  ui = undefined;
});

describe('Ctrl+C', () => {
  it('the first stops (aborting work, waiting for the child to stop) and exits 0', async () => {
    const services = signedIn();
    let stopped: () => void = () => undefined;
    services.close = () => new Promise<void>((resolve) => (stopped = resolve)); // the child takes a moment to stop
    ui = renderWithProviders(services);
    await ui.waitForFrame((f) => f.includes('› Trade'));
    await ui.press(KEYS.enter);
    await ui.type('1');
    await ui.waitForFrame(() => services.quotes.length === 1);
    const frame = await ui.press(KEYS.ctrlC);
    expect(frame).toContain('stopping…');
    expect(services.quotes[0]!.signal.aborted).toBe(true);
    expect(ui.exitCode()).toBeUndefined(); // waits for the child
    stopped();
    await ui.waitForFrame(() => ui?.exitCode() === 0);
    expect(ui.forced()).toBe(false);
  });

  it('SIGTERM (a stop request from outside) stops the same way; a second one forces', async () => {
    const services = signedIn();
    services.close = () => new Promise(() => undefined); // a child that will not stop
    ui = renderWithProviders(services);
    await ui.waitForFrame((f) => f.includes('› Trade'));
    ui.stop();
    await ui.waitForFrame((f) => f.includes('stopping…'));
    ui.stop();
    expect(ui.forced()).toBe(true);
  });
});
