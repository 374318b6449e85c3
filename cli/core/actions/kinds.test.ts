/**
 * The kinds table's declarations hold together (docs/architecture.md "A kind is one
 * declaration"): an amount's `in` names a token parameter of the same kind, and only an amount
 * has one — the app's forms label the amount with that token and clear it when it changes.
 */
import { describe, expect, it } from 'vitest';
import { ACTION_KIND_NAMES, ACTION_KINDS } from './kinds.js';
import type { ListType } from './kind-params.js';
import { checkLegCounts } from './plan.js';
import type { LegTypeName } from './legs/index.js';

/** The leg each list parameter type's items become. */
const LEG_OF: Record<ListType, LegTypeName> = {
  pairs: 'swap',
  transfers: 'transfer',
  supplies: 'supply',
  stakes: 'stake',
};

describe('the kinds table', () => {
  it.each(ACTION_KIND_NAMES)("%s: each amount's token is a token parameter of the kind", (kind) => {
    const params = ACTION_KINDS[kind].params;
    for (const [name, p] of Object.entries(params)) {
      if (p.in === undefined) continue;
      expect(['amount', 'amount-or-all'], `${kind}.${name}`).toContain(p.type);
      expect(params[p.in]?.type, `${kind}.${name} in ${p.in}`).toBe('token');
    }
  });

  it('every amount of a kind that names a token says which token it is in', () => {
    const unsaid = ACTION_KIND_NAMES.flatMap((kind) =>
      Object.entries(ACTION_KINDS[kind].params)
        .filter(
          ([, p]) =>
            (p.type === 'amount' || p.type === 'amount-or-all') &&
            p.in === undefined &&
            Object.values(ACTION_KINDS[kind].params).some((q) => q.type === 'token'),
        )
        .map(([name]) => `${kind}.${name}`),
    );
    expect(unsaid).toEqual([]);
  });

  // the faces hold a list to its declared bounds before planning (the headless flags, the tool
  // server's schema): they must be the core's own shape, or a face refuses what the core takes
  const lists = ACTION_KIND_NAMES.flatMap((kind) =>
    Object.entries(ACTION_KINDS[kind].params).flatMap(([name, p]) =>
      p.items !== undefined && p.type in LEG_OF
        ? [{ kind, name, items: p.items, leg: LEG_OF[p.type as ListType] }]
        : [],
    ),
  );
  it.each(lists)(
    "$kind.$name: its declared bounds are the core's shape",
    ({ kind, items, leg }) => {
      const legs = (n: number) => Array.from({ length: n }, () => ({ type: leg }));
      expect(() => checkLegCounts(kind, legs(Math.max(items.max, 1)))).not.toThrow();
      expect(() => checkLegCounts(kind, legs(items.max + 1))).toThrow(
        expect.objectContaining({ code: 'BATCH_LIMIT_EXCEEDED' }),
      );
      if (items.min > 0) {
        expect(() => checkLegCounts(kind, legs(items.min))).not.toThrow();
        expect(() => checkLegCounts(kind, legs(items.min - 1))).toThrow(
          expect.objectContaining({ code: 'USAGE_ERROR' }),
        );
      }
      if (items.instead !== undefined) expect(ACTION_KINDS[items.instead]).toBeTruthy();
    },
  );
});
