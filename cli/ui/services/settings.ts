/**
 * The app's settings (docs/architecture.md "Interactive app"): read and saved through the
 * platform's one settings file, and the lock waits the header shows.
 */
import type { Settings } from '../../platform/settings.js';
import { watchLockWaits } from '../../../shared/fs.js';
import type { SettingsPatch, SettingsView } from '../services.js';
import type { ServicesModule } from './root.js';

const view = (s: Settings): SettingsView => ({
  slippageBps: s.slippageBps,
  network: s.network,
  serverUrl: s.serverUrl,
  gasToken: s.gasToken,
});

export const registerSettings: ServicesModule<'settings' | 'updateSettings' | 'watchLockWaits'> = (
  root,
) => ({
  settings() {
    return view(root.ready().m.settings.loadSettings(root.env));
  },

  async updateSettings(patch: SettingsPatch) {
    const { m } = root.ready();
    await m.settings.saveSettings(root.env, patch);
    return view(m.settings.loadSettings(root.env));
  },

  watchLockWaits,
});
