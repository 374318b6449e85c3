/**
 * The program's own JSON files in the data folder (settings.json, session.json, sandbox.json),
 * read and written the one way (shared/fs.ts; docs/architecture.md "Persistence"):
 *
 * - Written atomically (temp file + fsync + rename), mode 0600 in a 0700 folder, each write under
 *   the file's lock, so the app and a headless command saving at once lose nothing (updateStore
 *   reads, changes and writes under one lock). The lock is waited for asynchronously: a lock held
 *   by another process never freezes the app's screen (it says it is waiting). A write that fails is CONFIG_ERROR naming the
 *   file, and leaves the old file whole.
 * - Read: a missing file is the defaults; a file that does not parse, is not a JSON object, or
 *   does not match its schema is CONFIG_ERROR naming the file — never a crash, and never a quote
 *   of the file (it may hold a token or an API key). A file found open to other users is
 *   narrowed to 0600 first.
 */
import { join } from 'node:path';
import type { Static, TSchema } from 'typebox';
// typebox/schema's Errors is what Value.Errors calls; imported from there, the bundle leaves out
// the rest of typebox/value (docs/decisions.md "Built-ins required, TypeBox by name")
import { Errors } from 'typebox/schema';
import type { SchemaCheck } from '../clients/schema-check.js';
import { AppError, ErrorCode } from '../../shared/errors.js';
import {
  narrowMode,
  nodeFs,
  openDataFile,
  withFileLock,
  writeFileAtomic,
} from '../../shared/fs.js';
import { dataDir } from './paths.js';

const { closeSync, readFileSync, rmSync } = nodeFs;

interface StoreName {
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
  let fd: number;
  try {
    fd = openDataFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ...defaults };
    throw invalidStore(
      name.what,
      file,
      code === 'ENOTREG' ? 'it is not a regular file' : `it could not be read (${code ?? 'error'})`,
      error,
    );
  }
  let text: string;
  try {
    narrowMode(file, 0o600, fd);
    text = readFileSync(fd, 'utf8');
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw invalidStore(name.what, file, 'it could not be read', error);
  } finally {
    closeSync(fd);
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

/**
 * What is wrong with `value` against the check's schema, naming the first bad key (never the
 * value). The check is the file module's own `schemaCheck`, made at its top level: the bin's
 * bundle generates it when built (scripts/bundle-plugins.mjs `standaloneChecks`).
 */
export function storedProblem<S extends TSchema>(
  check: SchemaCheck<S>,
  value: unknown,
): string | undefined {
  if (check.Check(value)) return undefined;
  const first = Errors(check.schema, value)[1][0] as
    | { instancePath?: string; message?: string }
    | undefined;
  return `${first?.instancePath?.replace(/^\//, '').replace(/\//g, '.') || 'the file'} ${first?.message ?? 'is invalid'}`;
}

/** `value` as `schema` describes it, or CONFIG_ERROR naming the file and the first bad key. */
export function checkStored<S extends TSchema>(
  check: SchemaCheck<S>,
  value: unknown,
  name: StoreName,
): Static<S> {
  const problem = storedProblem(check, value);
  if (problem !== undefined)
    throw invalidStore(name.what, storeFile(name.env, name.configName), problem);
  return value as Static<S>;
}

const lockOptions = (name: StoreName) => ({ what: `the ${name.what} file` });

function writeLocked(name: StoreName, file: string, value: Record<string, unknown>): void {
  try {
    writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`, 0o600);
  } catch (error) {
    throw new AppError(
      ErrorCode.CONFIG_ERROR,
      `the ${name.what} file ${file} could not be written (${(error as NodeJS.ErrnoException).code ?? 'error'}); it is unchanged`,
      { details: { file }, cause: error },
    );
  }
}

/** Replaces the file with `value`: atomic, 0600, under the file's lock. */
export async function writeStore(name: StoreName, value: Record<string, unknown>): Promise<void> {
  const file = storeFile(name.env, name.configName);
  await withFileLock(file, () => writeLocked(name, file, value), lockOptions(name));
}

/**
 * Read-modify-write under the file's lock: `change` gets the file over `defaults` (as readStore)
 * and returns what to write; a throw from it writes nothing. Returns what was written.
 */
export async function updateStore(
  name: StoreName,
  defaults: Record<string, unknown>,
  change: (current: Record<string, unknown>) => Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const file = storeFile(name.env, name.configName);
  return withFileLock(
    file,
    () => {
      const next = change(readStore(name, defaults));
      writeLocked(name, file, next);
      return next;
    },
    lockOptions(name),
  );
}

/** Removes the file under its lock; `keep` (given the contents, or undefined when unreadable) may veto. */
export async function removeStore(
  name: StoreName,
  keep: (current: Record<string, unknown> | undefined) => boolean = () => false,
): Promise<void> {
  const file = storeFile(name.env, name.configName);
  await withFileLock(
    file,
    () => {
      let current: Record<string, unknown> | undefined;
      try {
        current = readStore(name);
      } catch {
        current = undefined;
      }
      if (!keep(current)) rmSync(file, { force: true });
    },
    lockOptions(name),
  );
}
