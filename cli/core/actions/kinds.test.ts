/**
 * The kinds table's declarations hold together (docs/architecture.md "A kind is one
 * declaration"): an amount's `in` names a token parameter of the same kind, and only an amount
 * has one — the app's forms label the amount with that token and clear it when it changes.
 */
import { describe, expect, it } from 'vitest';
import { ACTION_KIND_NAMES, ACTION_KINDS } from './kinds.js';

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
});
