/**
 * The history file's check (cli/core/history.ts): its schema (history-schema.ts) compiled, since
 * the file holds up to 1000 entries and is checked on every read and write. Here TypeBox's
 * compiler builds it when first asked (cli/clients/schema-check.ts). In the bin's bundle this
 * module is replaced by the same validator generated when the bin was built, from the same schema
 * (scripts/bundle-plugins.mjs `standaloneHistoryCheck`, TypeBox's own `Code`): a command that
 * records a transaction neither loads TypeBox's compiler nor builds and evaluates the validator's
 * code (~10 ms of a trade's CPU: docs/benchmarks.md "Issue 35, seventh round").
 * test/bundle-patches.test.ts holds the generated check to TypeBox's answers.
 */
import { compiledCheck } from '../clients/schema-check.js';
import { HistoryFile } from './history-schema.js';

export const historyFileCheck = (): Promise<{ Check(value: unknown): boolean }> =>
  compiledCheck(HistoryFile);
