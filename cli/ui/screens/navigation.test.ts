/**
 * Moving between screens: Esc, the live area's height, logout, the settings screen.
 * The TUI over a fake services port (pure UI logic; the real program is driven in tmux by
 * test/tui-terminal.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { moveUntil, openFromHome, signedIn } from '../../../test/helpers/screens.js';
import { KEYS, type Rendered, renderWithProviders } from '../../../test/helpers/tui.js';

let ui: Rendered | undefined;
afterEach(() => {
  ui?.unmount();
  ui = undefined;
});

describe('navigation', () => {
  it('Esc goes back along the stack; menu items the core lacks say so', async () => {
    ui = renderWithProviders(signedIn());
    await ui.waitForFrame((f) => f.includes('› Trade'));
    expect(ui.frame()).toContain('Multi-swap (not yet)');
    await moveUntil(ui, (f) => f.includes('› Multi-swap'), 'Multi-swap');
    let frame = await ui.press(KEYS.enter);
    expect(frame).toContain('not in this version');
    frame = await ui.press(KEYS.escape);
    expect(frame).toContain('› Multi-swap');
    await moveUntil(ui, (f) => f.includes('› Status'), 'Status');
    await ui.press(KEYS.enter);
    frame = await ui.waitForFrame((f) => f.includes('Auth server'));
    expect(frame).toContain('DOWN — not reachable (ECONNREFUSED)');
    frame = await ui.press(KEYS.escape);
    expect(frame).toContain('› Status');
  });

  it('the live area stays shorter than the terminal, and follows a resize; the footer always shows', async () => {
    ui = renderWithProviders(signedIn());
    let frame = await ui.waitForFrame((f) => f.includes('› Trade'));
    expect(frame).toContain('Log out');
    frame = await ui.resize(12);
    expect(frame.split('\n').length).toBeLessThan(12);
    expect(frame).not.toContain('Log out');
    expect(frame).toContain('↑ up · ↓ down · Enter open');
    frame = await ui.resize(50);
    expect(frame).toContain('Log out');
  });

  it('logout asks, then returns to sign-in', async () => {
    const services = signedIn();
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Log out');
    await ui.press('y');
    await ui.waitForFrame((f) => f.includes('Sign in'));
    expect(services.calls).toContain('logout');
  });

  it('settings: a preset and another gas token save; a bad server URL is refused with the reason', async () => {
    const services = signedIn();
    ui = renderWithProviders(services);
    await openFromHome(ui, 'Settings');
    await ui.press(KEYS.right);
    expect(ui.frame()).toContain('Default slippage  2%');
    await ui.press(KEYS.enter);
    expect(services.settingsView.slippageBps).toBe(200);
    await moveUntil(ui, (f) => f.includes('› Gas token'), 'the gas token');
    await ui.press(KEYS.right);
    expect(ui.frame()).toMatch(/› Gas token +(?!STRK)[A-Z]+ \(when gas is not sponsored\)/);
    await ui.press(KEYS.enter);
    expect(services.settingsView.gasToken).not.toBe('STRK');
    await moveUntil(ui, (f) => f.includes('› Auth server URL'), 'the auth server URL');
    await ui.press('\u0015'); // Ctrl+U clears the field
    await ui.type('nope');
    const frame = await ui.press(KEYS.enter);
    expect(frame).toContain('serverUrl must be an http(s) URL');
  });
});
