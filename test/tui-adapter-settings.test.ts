/**
 * The app's real services port (cli/ui/adapter.ts) over the real settings file: what the settings
 * screen saves is what every later command reads (store.ts writes and reads it), 0600; a bad
 * value is refused with the reason and nothing is written.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../cli/platform/settings.js';
import { createServices } from '../cli/ui/adapter.js';
import { cleanEnv, tempHome } from './helpers/process.js';

const home = tempHome();
afterAll(() => home.cleanup());

describe('settings through the real adapter', () => {
  it('saves slippage and gas token to settings.json (0600), read back by the commands; refuses a bad value and writes nothing', async () => {
    const env = cleanEnv({ FINANCE_TUI_HOME: home.dir });
    const services = createServices({ env, sandbox: false });
    await services.connect({ signal: new AbortController().signal });
    try {
      expect(services.settings()).toMatchObject({
        slippageBps: 100,
        gasToken: 'STRK',
        network: 'mainnet',
      });
      expect(await services.updateSettings({ slippageBps: 250, gasToken: 'ETH' })).toMatchObject({
        slippageBps: 250,
        gasToken: 'ETH',
      });
      const file = join(home.dir, 'settings.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(loadSettings(env)).toMatchObject({ slippageBps: 250, gasToken: 'ETH' });

      const before = readFileSync(file, 'utf8');
      await expect(
        services.updateSettings({ network: 'sepolia', gasToken: 'DAI' }),
      ).rejects.toThrow(/not saved: gasToken must be a sepolia token of the registry/);
      await expect(services.updateSettings({ serverUrl: 'ftp://example.com' })).rejects.toThrow(
        /not saved: serverUrl must be an http\(s\) URL/,
      );
      expect(readFileSync(file, 'utf8')).toBe(before);
    } finally {
      await services.close();
    }
  });
});
