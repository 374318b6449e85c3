/**
 * Writing the program's files (settings.json, session.json) through conf: in the data folder,
 * mode 0600, written atomically (temp file + rename: a crash leaves the old file or the new
 * one, never half of one). Reading goes through store-read.ts, which does not load conf. Their
 * shape is checked with TypeBox, not through conf's `schema` option, which compiles an ajv
 * schema on every start (~100 ms of each command's start-up).
 */
import { join } from 'node:path';
import Conf, { type Options } from 'conf';
import { dataDir } from './paths.js';
import { invalidStore, type StoreName } from './store-read.js';

export interface StoreOptions<T extends Record<string, unknown>> extends StoreName {
  defaults?: Options<T>['defaults'];
}

export function openStore<T extends Record<string, unknown>>(options: StoreOptions<T>): Conf<T> {
  const cwd = dataDir(options.env);
  try {
    return new Conf<T>({
      projectName: 'finance-tui',
      cwd,
      configName: options.configName,
      configFileMode: 0o600,
      ...(options.defaults ? { defaults: options.defaults } : {}),
    });
  } catch (error) {
    const why =
      error instanceof SyntaxError || (error as Error)?.name === 'SyntaxError'
        ? 'it is not valid JSON'
        : 'it could not be read';
    throw invalidStore(options.what, join(cwd, `${options.configName}.json`), why, error);
  }
}
