import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, loadSettings, settingsProblem } from './settings.js';

const { aggregatorApiKey: _key, ...stored } = DEFAULT_SETTINGS;

describe('settings file checks', () => {
  it.each([
    ['slippage below 1 bps', { slippageBps: 0 }, 'slippageBps must be >= 1'],
    ['slippage not an integer', { slippageBps: 1.5 }, 'slippageBps'],
    ['an unknown network', { network: 'goerli' }, 'network'],
    ['a server URL that is not http(s)', { serverUrl: 'ftp://example.com' }, 'serverUrl must be an http(s) URL'],
    ['an aggregator URL that is not a URL', { aggregatorUrl: 'nope' }, 'aggregatorUrl must be an http(s) URL'],
  ])('refuses %s, naming the key', (_label, patch, message) => {
    expect(settingsProblem({ ...stored, ...patch })).toContain(message);
  });

  it('accepts the defaults and an API key', () => {
    expect(settingsProblem(stored)).toBeUndefined();
    expect(settingsProblem({ ...stored, aggregatorApiKey: 'k' })).toBeUndefined();
  });

  it('a bad file is CONFIG_ERROR when loaded', () => {
    const dir = mkdtempSync(join(tmpdir(), 'finance-tui-settings-'));
    try {
      writeFileSync(join(dir, 'settings.json'), JSON.stringify({ slippageBps: 99999 }));
      expect(() => loadSettings({ FINANCE_TUI_HOME: dir })).toThrow(expect.objectContaining({ code: 'CONFIG_ERROR', message: expect.stringContaining('slippageBps') }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
