/**
 * The program's files that conf keeps (settings.json, session.json): in the data folder, mode
 * 0600, written atomically by conf (temp file + rename: a crash leaves the old file or the new
 * one, never half of one). Their shape is checked with TypeBox when read (`checkStored`), not
 * through conf's `schema` option, which compiles an ajv schema on every start (~100 ms of each
 * command's start-up). A file that does not parse or does not match is CONFIG_ERROR naming the
 * file — never a crash, and never a quote of the file (it may hold a token or an API key).
 */
import { join } from 'node:path';
import Conf, { type Options } from 'conf';
import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { AppError, ErrorCode } from '../shared/errors.js';
import { dataDir } from './paths.js';

export interface StoreOptions<T extends Record<string, unknown>> {
  env: NodeJS.ProcessEnv;
  /** file name without .json */
  configName: string;
  defaults?: Options<T>['defaults'];
  /** how messages name the file's role: "settings", "session" */
  what: string;
}

export function storeFile(env: NodeJS.ProcessEnv, configName: string): string {
  return join(dataDir(env), `${configName}.json`);
}

function invalid(what: string, file: string, why: string, cause?: unknown): AppError {
  return new AppError(ErrorCode.CONFIG_ERROR, `the ${what} file ${file} is invalid: ${why}; fix or delete it`, {
    status: 400,
    details: { file },
    ...(cause === undefined ? {} : { cause }),
  });
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
    const why = error instanceof SyntaxError || (error as Error)?.name === 'SyntaxError' ? 'it is not valid JSON' : 'it could not be read';
    throw invalid(options.what, join(cwd, `${options.configName}.json`), why, error);
  }
}

/** What is wrong with `value` against `schema`, naming the first bad key (never the value). */
export function storedProblem(schema: TSchema, value: unknown): string | undefined {
  if (Value.Check(schema, value)) return undefined;
  const first = Value.Errors(schema, value)[0] as { instancePath?: string; message?: string } | undefined;
  return `${first?.instancePath?.replace(/^\//, '').replace(/\//g, '.') || 'the file'} ${first?.message ?? 'is invalid'}`;
}

/** `value` as `schema` describes it, or CONFIG_ERROR naming the file and the first bad key. */
export function checkStored<S extends TSchema>(schema: S, value: unknown, options: { env: NodeJS.ProcessEnv; configName: string; what: string }): Static<S> {
  const problem = storedProblem(schema, value);
  if (problem !== undefined) throw invalid(options.what, storeFile(options.env, options.configName), problem);
  return value as Static<S>;
}
