/**
 * schemaCheck (schema-check.ts) answers as TypeBox's compiled validator does, before and after it
 * switches from interpreting to compiling.
 */
import Type from 'typebox';
import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import { schemaCheck } from './schema-check.js';

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
  it("gives the compiled validator's answer for every value, on every call (interpreted, then compiled)", () => {
    const compiled = Compile(Schema);
    const check = schemaCheck(Schema);
    for (let round = 0; round < 3; round++)
      for (const value of values) expect(check.Check(value)).toBe(compiled.Check(value));
    expect(values.filter((value) => compiled.Check(value))).toHaveLength(2);
  });
});
