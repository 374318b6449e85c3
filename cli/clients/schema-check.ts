/**
 * One answer check per schema for the client's outside answers (http.ts, aggregator-schemas.ts):
 * TypeBox's interpreting check for a schema's first few answers, its compiled validator from
 * then on. A command checks each schema once or twice, and compiling one (building its code and
 * evaluating it) cost more than a command's other checks together (docs/benchmarks.md
 * "Start-up"); a long-lived process (the app, the MCP server) checks the same schemas again and
 * again, where compiling pays. Both give the same answer for the same schema and value.
 *
 * TypeBox's compiler is most of TypeBox's code (~270 kB of the bundle against ~70 kB for the
 * interpreter, typebox/schema's Check, which is what Value.Check calls): it is loaded only when a
 * schema has been checked INTERPRETED_CHECKS times, and checks stay interpreted until it has
 * loaded, so a command that checks each answer once or twice never loads it
 * (docs/decisions.md "Built-ins required, TypeBox by name").
 */
import type { Static, TSchema } from 'typebox';
import { Check } from 'typebox/schema';

/** Checks interpreted before a schema is compiled. */
const INTERPRETED_CHECKS = 8;

type Compiler = (schema: TSchema) => { Check(value: unknown): boolean };

let compiler: Compiler | undefined;
let loading: Promise<void> | undefined;

/** Loads TypeBox's compiler once; resolves when it is there (or could not be loaded: stay interpreted). */
export function loadCompiler(): Promise<void> {
  loading ??= import('typebox/compile').then(
    (module) => {
      compiler = module.Compile as Compiler;
    },
    () => undefined,
  );
  return loading;
}

/**
 * A schema's compiled validator, for code that already waits (a file read): checks of a document
 * of many entries (the history, up to 1000) cost more interpreted than compiled, since the
 * interpreter builds each pattern's RegExp per value. Interpreted if the compiler cannot load.
 */
export async function compiledCheck(schema: TSchema): Promise<{ Check(value: unknown): boolean }> {
  await loadCompiler();
  return compiler !== undefined ? compiler(schema) : { Check: (value) => Check(schema, value) };
}

export interface SchemaCheck<T extends TSchema> {
  Check(value: unknown): value is Static<T>;
  /** the schema checked (to describe a value that fails: TypeBox's Errors) */
  readonly schema: T;
  /** whether this schema's checks now run compiled (tests) */
  readonly compiled: boolean;
}

export function schemaCheck<T extends TSchema>(schema: T): SchemaCheck<T> {
  let interpreted = 0;
  let compiled: { Check(value: unknown): boolean } | undefined;
  return {
    Check: (value: unknown): value is Static<T> => {
      if (compiled !== undefined) return compiled.Check(value);
      if (interpreted >= INTERPRETED_CHECKS) {
        if (compiler !== undefined) {
          compiled = compiler(schema);
          return compiled.Check(value);
        }
        void loadCompiler();
      }
      interpreted += 1;
      return Check(schema, value);
    },
    get compiled() {
      return compiled !== undefined;
    },
    schema,
  };
}
