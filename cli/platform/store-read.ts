/**
 * Reading the program's own files (settings.json, session.json) without loading conf. conf
 * writes them (conf-store.ts: mode 0600, atomically); reading needs only the file, parsed, over
 * the defaults — and conf imports ajv and its helpers at load, ~15 ms of every command's start
 * (`npm run bench:startup`), for commands such as `status` and `quote` that never write.
 *
 * The same rules as through conf: a missing file is the defaults; a file that does not parse, is
 * not a JSON object, or does not match its schema is CONFIG_ERROR naming the file — never a
 * crash, and never a quote of the file (it may hold a token or an API key).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { AppError, ErrorCode } from '../../shared/errors.js';
import { dataDir } from './paths.js';

export interface StoreName {
  env: NodeJS.ProcessEnv;
  /** file name without .json */
  configName: string;
  /** how messages name the file's role: "settings", "session" */
  what: string;
}

export function storeFile(env: NodeJS.ProcessEnv, configName: string): string {
  return join(dataDir(env), `${configName}.json`);
}

export function invalidStore(what: string, file: string, why: string, cause?: unknown): AppError {
  return new AppError(
    ErrorCode.CONFIG_ERROR,
    `the ${what} file ${file} is invalid: ${why}; fix or delete it`,
    {
      details: { file },
      ...(cause === undefined ? {} : { cause }),
    },
  );
}

/** The file's contents over `defaults` (unchecked: pass them to checkStored or storedProblem). */
export function readStore(
  name: StoreName,
  defaults: Record<string, unknown> = {},
): Record<string, unknown> {
  const file = storeFile(name.env, name.configName);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ...defaults };
    throw invalidStore(name.what, file, 'it could not be read', error);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalidStore(name.what, file, 'it is not valid JSON', error);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw invalidStore(name.what, file, 'it is not a JSON object');
  return { ...defaults, ...(parsed as Record<string, unknown>) };
}

/** What is wrong with `value` against `schema`, naming the first bad key (never the value). */
export function storedProblem(schema: TSchema, value: unknown): string | undefined {
  if (Value.Check(schema, value)) return undefined;
  const first = Value.Errors(schema, value)[0] as
    { instancePath?: string; message?: string } | undefined;
  return `${first?.instancePath?.replace(/^\//, '').replace(/\//g, '.') || 'the file'} ${first?.message ?? 'is invalid'}`;
}

/** `value` as `schema` describes it, or CONFIG_ERROR naming the file and the first bad key. */
export function checkStored<S extends TSchema>(
  schema: S,
  value: unknown,
  name: StoreName,
): Static<S> {
  const problem = storedProblem(schema, value);
  if (problem !== undefined)
    throw invalidStore(name.what, storeFile(name.env, name.configName), problem);
  return value as Static<S>;
}
