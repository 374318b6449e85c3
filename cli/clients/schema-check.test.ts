/**
 * schemaCheck (schema-check.ts) answers as TypeBox's compiled validator does, before and after it
 * switches from interpreting to compiling (once the compiler, loaded on demand, is there).
 */
import * as Type from 'typebox';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import { loadCompiler, schemaCheck } from './schema-check.js';

const Schema = Type.Object({
  status: Type.Literal('ok'),
  version: Type.Optional(Type.String({ pattern: '^[0-9]+\\.[0-9]+\\.[0-9]+$' })),
  items: Type.Array(Type.Object({ amount: Type.String({ pattern: '^[0-9]+$' }) })),
});

const values: unknown[] = [
  { status: 'ok', items: [] },
  { status: 'ok', version: '1.2.3', items: [{ amount: '12' }] },
  { status: 'ok', version: 'v1', items: [] },
  { status: 'down', items: [] },
  { status: 'ok', items: [{ amount: '-1' }] },
  { status: 'ok', items: [{ amount: 12 }] },
  { status: 'ok' },
  null,
  'ok',
  [],
];

describe('schemaCheck', () => {
  it("gives the compiled validator's answer for every value, on every call (interpreted, then compiled)", async () => {
    const compiled = Compile(Schema);
    const check = schemaCheck(Schema);
    for (let round = 0; round < 3; round++)
      for (const value of values) expect(check.Check(value)).toBe(compiled.Check(value));
    // past its first checks it asked for the compiler; once loaded, the next check compiles (the
    // tests are shuffled: another may have loaded it already, so whether it compiled during the
    // rounds above depends on the order — only that it is compiled after is the rule)
    await loadCompiler();
    for (let round = 0; round < 2; round++)
      for (const value of values) expect(check.Check(value)).toBe(compiled.Check(value));
    expect(check.compiled).toBe(true);
    expect(values.filter((value) => compiled.Check(value))).toHaveLength(2);
  });

  it('interprets a schema checked only a few times, whether or not the compiler is loaded', async () => {
    await loadCompiler();
    const check = schemaCheck(Schema);
    for (const value of values.slice(0, 8)) check.Check(value);
    expect(check.compiled).toBe(false);
  });
});
