/**
 * The settings file for writing (the settings screen): through conf, 0600 and atomic
 * (conf-store.ts). Kept apart from settings.ts, which only reads, so that commands that never
 * save a setting do not load conf.
 */
import type Conf from 'conf';
import { openStore } from './conf-store.js';
import { SETTINGS_STORE, type Stored, STORED_DEFAULTS } from './settings.js';

export function openSettingsStore(env: NodeJS.ProcessEnv): Conf<Stored> {
  return openStore<Stored>({ env, ...SETTINGS_STORE, defaults: STORED_DEFAULTS });
}
