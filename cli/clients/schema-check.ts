/**
 * One answer check per schema for the client's outside answers (http.ts, aggregator-schemas.ts):
 * TypeBox's interpreting `Value.Check` for a schema's first few answers, its compiled validator
 * from then on. A command checks each schema once or twice, and compiling one (building its code
 * and evaluating it) cost more than a command's other checks together (docs/benchmarks.md
 * "Start-up"); a long-lived process (the app, the MCP server) checks the same schemas again and
 * again, where compiling pays. Both give the same answer for the same schema and value.
 */
import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';

/** Checks interpreted before a schema is compiled. */
const INTERPRETED_CHECKS = 8;

export interface SchemaCheck<T extends TSchema> {
  Check(value: unknown): value is Static<T>;
}

export function schemaCheck<T extends TSchema>(schema: T): SchemaCheck<T> {
  let interpreted = 0;
  let compiled: { Check(value: unknown): boolean } | undefined;
  return {
    Check: (value: unknown): value is Static<T> => {
      if (compiled !== undefined) return compiled.Check(value);
      if (interpreted < INTERPRETED_CHECKS) {
        interpreted += 1;
        return Value.Check(schema, value);
      }
      compiled = Compile(schema);
      return compiled.Check(value);
    },
  };
}
