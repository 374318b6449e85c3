/**
 * Every typed-data shape starknet.js's hasher accepts is either bounded or refused by
 * server/typed-data-bounds.ts, and the bound classifies the revision exactly as the hasher does.
 * Work is counted, never timed: starknet.js's own encoder runs with its hash primitives and field
 * reads counted (helpers/counted-hasher.ts), and for every input the bound accepts
 *   counted work ≤ the bound's estimate ≤ the budget,
 * the hasher's revision (seen in the primitive of its final hash) is the bound's, and the copy the
 * route hashes hashes like the request itself. Whatever the input, the bound answers or refuses
 * with 400 VALIDATION_ERROR: it never throws anything else (which the route would make a 500).
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type { TypedData } from 'starknet';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors.js';
import { checkTypedData, type CheckedTypedData, TYPED_DATA_LIMITS } from './typed-data-bounds.js';
import { type CountedHash, countedHasher } from '../test/helpers/counted-hasher.js';
import { fannedOutTypes, SHAPE_FAMILIES, STARKNET_DOMAIN } from '../test/helpers/typed-data.js';

let hasher: Awaited<ReturnType<typeof countedHasher>>;
beforeAll(async () => {
  hasher = await countedHasher();
});

/** The bound's answer: the checked data, or the refusal (anything but a VALIDATION_ERROR fails the test). */
function check(data: unknown): CheckedTypedData | 'refused' {
  try {
    return checkTypedData(data);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'VALIDATION_ERROR') {
      throw new Error(
        `the bound threw something other than a VALIDATION_ERROR: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
        { cause: error },
      );
    }
    return 'refused';
  }
}

/** What the property asserts for data the bound accepted. */
function expectBounded(original: unknown, checked: CheckedTypedData): CountedHash {
  const counted = hasher.hash(checked.data);
  expect(checked.work).toBeLessThanOrEqual(TYPED_DATA_LIMITS.maxWork);
  expect(counted.work, JSON.stringify(counted.count)).toBeLessThanOrEqual(checked.work + 1e-9);
  if ('hash' in counted.result) {
    expect(counted.revision).toBe(checked.revision);
    // the copy is what the request means: hashed, the request itself gives the same (counted)
    // hash. A copy equal to the request, prototypes and all, hashes the same by construction (the
    // hasher reads nothing else): only a copy that differs is hashed again, to compare.
    if (!isDeepStrictEqual(checked.data, original)) {
      const direct = hasher.hash(original as TypedData);
      expect(direct.result).toEqual(counted.result);
      expect(direct.revision).toBe(checked.revision);
    }
  }
  return counted;
}

// ---------------------------------------------------------------------------------------------
// Random typed data of every shape the hasher takes: revisions in every spelling, struct graphs
// (fanned out, sometimes cyclic), arrays, presets, enums, merkletrees, long strings; values built
// from the types with a seeded generator, then sometimes damaged.

const ABSENT = Symbol('absent');

interface FieldSpec {
  name: string;
  type: string;
  contains?: string;
}

interface Spec {
  revision: '0' | '1';
  revisionValue: unknown;
  /** usually the revision's own domain type; sometimes the other one */
  domainType: string;
  types: Record<string, FieldSpec[]>;
  primaryType: string;
  seed: number;
  /** typical array / merkle sizes; sometimes large, to meet the budget */
  size: number;
  damage: number;
}

const SCALARS = {
  '1': [
    'felt',
    'shortstring',
    'u128',
    'ContractAddress',
    'ClassHash',
    'bool',
    'timestamp',
    'i128',
    'selector',
  ],
  '0': ['felt', 'shortstring', 'selector', 'bool', 'string', 'u128', 'enum'],
} as const;

const fieldKind = (revision: '0' | '1') =>
  revision === '1'
    ? fc.constantFrom(
        'scalar',
        'scalarArray',
        'struct',
        'structArray',
        'longString',
        'preset',
        'enum',
        'merkletree',
        'backReference',
      )
    : fc.constantFrom(
        'scalar',
        'scalarArray',
        'struct',
        'structArray',
        'merkletree',
        'merkleArray',
        'backReference',
      );

const specArbitrary: fc.Arbitrary<Spec> = fc
  .record({
    revision: fc.constantFrom<'0' | '1'>('0', '1'),
    typeCount: fc.integer({ min: 1, max: 6 }),
    odd: fc.integer({ min: 0, max: 19 }),
    seed: fc.integer(),
    size: fc.oneof(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 400 })),
    damage: fc.integer({ min: 0, max: 9 }),
  })
  .chain(({ revision, typeCount, odd, seed, size, damage }) =>
    fc
      .record({
        spelling:
          revision === '1'
            ? fc.constantFrom<unknown>('1', 1)
            : fc.constantFrom<unknown>(ABSENT, null, '0'),
        weird: fc.constantFrom<unknown>(0, [1], ['1'], true, '01', 2, {}, [], ' 1', '1.0'),
        fields: fc.array(
          fc.array(
            fc.record({
              kind: fieldKind(revision),
              pick: fc.nat(),
              width: fc.integer({ min: 0, max: 3 }),
            }),
            { maxLength: 5 },
          ),
          { minLength: typeCount, maxLength: typeCount },
        ),
      })
      .map(({ spelling, weird, fields }): Spec => {
        const types: Record<string, FieldSpec[]> = {};
        const name = (i: number) => `T${i}`;
        fields.forEach((list, i) => {
          types[name(i)] = list.map(({ kind, pick, width }, f): FieldSpec => {
            const scalars = SCALARS[revision];
            const scalar = scalars[pick % scalars.length] as string;
            // references go to later types only (acyclic), except backReference
            const later =
              i + 1 < typeCount ? name(i + 1 + (pick % (typeCount - i - 1))) : undefined;
            const fieldName = `f${f}`;
            switch (kind) {
              case 'scalarArray':
                return { name: fieldName, type: `${scalar}*` };
              case 'struct':
                return { name: fieldName, type: later ?? scalar };
              case 'structArray':
                return { name: fieldName, type: `${later ?? scalar}*` };
              case 'longString':
                return { name: fieldName, type: 'string' };
              case 'preset':
                return {
                  name: fieldName,
                  type: (['u256', 'TokenAmount', 'NftId'] as const)[pick % 3] as string,
                };
              case 'enum': {
                const variants = `V${i}_${f}`;
                types[variants] = Array.from({ length: width + 1 }, (_, v) => {
                  const members = Array.from({ length: (pick + v) % 3 }, (_, m) =>
                    m === 0 && later !== undefined && (pick + v) % 2 === 0
                      ? later
                      : (scalars[(pick + m + v) % scalars.length] as string) + (m === 1 ? '*' : ''),
                  );
                  return { name: `v${v}`, type: `(${members.join(',')})` };
                });
                return { name: fieldName, type: 'enum', contains: variants };
              }
              case 'merkletree':
                return {
                  name: fieldName,
                  type: 'merkletree',
                  contains: pick % 2 === 0 && later !== undefined ? later : 'felt',
                };
              case 'merkleArray':
                return { name: fieldName, type: 'merkletree*', contains: 'felt' };
              case 'backReference':
                return { name: fieldName, type: name(pick % (i + 1)) };
              default:
                return { name: fieldName, type: scalar };
            }
          });
        });
        const domainType =
          revision === '1'
            ? odd === 0
              ? 'StarkNetDomain'
              : 'StarknetDomain'
            : odd === 0
              ? 'StarknetDomain'
              : 'StarkNetDomain';
        types[domainType] =
          revision === '1'
            ? STARKNET_DOMAIN
            : [
                { name: 'name', type: 'felt' },
                { name: 'version', type: 'felt' },
                { name: 'chainId', type: 'felt' },
              ];
        return {
          revision,
          revisionValue: odd === 1 ? weird : spelling,
          domainType,
          types,
          primaryType: name(0),
          seed,
          size,
          damage,
        };
      }),
  );

/**
 * Types fanned out in layers: `width` types a level, each referring to every type of the next
 * level, mostly through arrays (left empty in the message, so the type walk is the cost that
 * matters, as in the attack), `levels` deep.
 */
const fanOutArbitrary: fc.Arbitrary<Spec> = fc
  .record({
    revision: fc.constantFrom<'0' | '1'>('0', '1'),
    levels: fc.integer({ min: 2, max: 10 }),
    width: fc.integer({ min: 1, max: 5 }),
    structs: fc.integer({ min: 0, max: 3 }),
    seed: fc.integer(),
  })
  .map(({ revision, levels, width, structs, seed }): Spec => {
    const types: Record<string, FieldSpec[]> = {};
    const name = (level: number, index: number) => `F${level}_${index}`;
    for (let level = 0; level < levels; level++) {
      for (let index = 0; index < width; index++) {
        types[name(level, index)] =
          level + 1 < levels
            ? Array.from({ length: width }, (_, next) => ({
                name: `g${next}`,
                type:
                  next < structs && level < 2 ? name(level + 1, next) : `${name(level + 1, next)}*`,
              }))
            : [{ name: 'x', type: 'felt' }];
      }
    }
    const domainType = revision === '1' ? 'StarknetDomain' : 'StarkNetDomain';
    types[domainType] = revision === '1' ? STARKNET_DOMAIN : [{ name: 'name', type: 'felt' }];
    return {
      revision,
      revisionValue: revision === '1' ? '1' : ABSENT,
      domainType,
      types,
      primaryType: name(0, 0),
      seed,
      size: 0,
      damage: 9,
    };
  });

/** mulberry32: the values of a spec, reproducible from its seed */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const PRESETS: Record<string, FieldSpec[]> = {
  u256: [
    { name: 'low', type: 'u128' },
    { name: 'high', type: 'u128' },
  ],
  TokenAmount: [
    { name: 'token_address', type: 'ContractAddress' },
    { name: 'amount', type: 'u256' },
  ],
  NftId: [
    { name: 'collection_address', type: 'ContractAddress' },
    { name: 'token_id', type: 'u256' },
  ],
};

function buildValues(spec: Spec): TypedData {
  const random = prng(spec.seed);
  const int = (max: number) => Math.floor(random() * (max + 1));
  const length = () => (random() < 0.9 ? int(Math.min(spec.size, 12)) : int(spec.size));
  let budget = 20_000; // values built at most
  const scalar = (type: string): unknown => {
    switch (type) {
      case 'bool':
        return random() < 0.5;
      case 'shortstring':
        return random() < 0.5 ? 'finance-tui' : int(1_000);
      case 'string':
        return spec.revision === '1' ? 'x'.repeat(int(random() < 0.9 ? 80 : 5_000)) : 'short';
      case 'selector':
        return random() < 0.5
          ? 'transfer'
          : '0x83afd3f4caedc6eebf44246fe54e38c95e3179a5ec9ea81740eca5b482d12e';
      case 'i128':
        return String(int(2_000) - 1_000);
      case 'u128':
      case 'timestamp':
        return String(int(1_000_000));
      default:
        return random() < 0.7 ? `0x${int(0xffffff).toString(16)}` : int(1_000);
    }
  };
  const value = (type: string, contains?: string, depth = 0): unknown => {
    // a cyclic spec would go on for ever
    if (--budget < 0 || depth > 12) return 0;
    const fields = spec.types[type] ?? (spec.revision === '1' ? PRESETS[type] : undefined);
    if (fields !== undefined) {
      const struct: Record<string, unknown> = {};
      for (const field of fields) struct[field.name] = value(field.type, field.contains, depth + 1);
      return struct;
    }
    if (type.endsWith('*')) return list(length(), type.slice(0, -1), undefined, depth + 1);
    if (type === 'enum' && spec.revision === '1') {
      const variants = spec.types[contains ?? ''] ?? [];
      const variant = variants[int(variants.length - 1)];
      if (variant === undefined) return {};
      const members = variant.type.slice(1, -1).split(',');
      return {
        [variant.name]: members.map((member) =>
          member === '' ? null : value(member, undefined, depth + 1),
        ),
      };
    }
    if (type === 'merkletree')
      return list(Math.max(1, length()), contains ?? 'felt', undefined, depth + 1);
    return scalar(type);
  };
  // `count` values of `type`, one after another (a plain loop: up to 20,000 values a run)
  const list = (count: number, type: string, contains: string | undefined, depth: number) => {
    const values: unknown[] = [];
    for (let i = 0; i < count; i++) values.push(value(type, contains, depth));
    return values;
  };
  const domain: Record<string, unknown> = {
    name: 'finance-tui tests',
    version: '1',
    chainId: 'SN_MAIN',
  };
  if (spec.revisionValue !== ABSENT) domain.revision = spec.revisionValue;
  else if (spec.revision === '1') domain.revision = '1';
  return {
    types: spec.types,
    primaryType: spec.primaryType,
    domain,
    message: value(spec.primaryType),
  } as TypedData;
}

/** JSON nested 5,000 deep (past maxValueDepth): read, never written, so built once for every run. */
const DEEP: unknown = (() => {
  let deep: unknown = 1;
  for (let i = 0; i < 5_000; i++) deep = i % 2 === 0 ? [deep] : { a: deep };
  return deep;
})();

/**
 * Sometimes damage the message: a field gone, null, the wrong shape, deep nesting, extra keys.
 * In place: `data` is the run's own, just built (its types are the spec's, never written here).
 */
function damage(data: TypedData, spec: Spec): unknown {
  if (spec.damage >= 4) return data;
  const random = prng(spec.seed ^ 0x5bd1e995);
  const objects: Array<Record<string, unknown>> = [];
  const collect = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(collect);
    else if (typeof node === 'object' && node !== null) {
      objects.push(node as Record<string, unknown>);
      Object.values(node).forEach(collect);
    }
  };
  collect(data.message);
  const target = objects[Math.floor(random() * objects.length)];
  const key = target === undefined ? undefined : Object.keys(target)[0];
  if (target === undefined || key === undefined) return data;
  const damages = [
    () => delete target[key],
    () => (target[key] = null),
    () => (target[key] = { unexpected: [1, 2, 3] }),
    () => (target[key] = DEEP),
  ];
  damages[spec.damage]?.();
  return data;
}

describe('typed data the bound accepts is bounded, and classified as the hasher does', () => {
  it('random typed data of every shape (3,000 runs): refused, or counted work ≤ estimate ≤ budget with the same revision', () => {
    let accepted = 0;
    let hashed = 0;
    fc.assert(
      fc.property(fc.oneof(specArbitrary, specArbitrary, fanOutArbitrary), (spec) => {
        const data = damage(buildValues(spec), spec);
        const checked = check(data);
        if (checked === 'refused') return;
        accepted += 1;
        if ('hash' in expectBounded(data, checked).result) hashed += 1;
      }),
      { numRuns: 3_000 },
    );
    // the generator is no use if it only ever makes refused data
    expect(accepted).toBeGreaterThan(600);
    expect(hashed).toBeGreaterThan(300);
    // counted work, not time: the bound is on the machine (3,000 hashes take ~40 s under load)
  }, 120_000);

  it('arbitrary JSON in every slot (3,000 runs): the bound answers or refuses with 400, nothing else', () => {
    const json = fc.jsonValue({ maxDepth: 4 });
    const types = fc.dictionary(
      fc.oneof(
        fc.constantFrom(
          'StarknetDomain',
          'StarkNetDomain',
          'u256',
          'enum',
          'constructor',
          'T*',
          '(a,b)',
        ),
        fc.string({ maxLength: 6 }),
      ),
      fc.oneof(
        json,
        fc.array(
          fc.record(
            {
              name: fc.oneof(fc.string({ maxLength: 4 }), json),
              type: fc.oneof(
                fc.constantFrom(
                  'felt',
                  'enum',
                  'merkletree',
                  'T',
                  'T*',
                  '(felt)',
                  'u256',
                  'string',
                ),
                json,
              ),
              contains: fc.oneof(fc.constantFrom('felt', 'T'), json),
            },
            { requiredKeys: ['name', 'type'] },
          ),
          { maxLength: 4 },
        ),
      ),
      { maxKeys: 5 },
    );
    fc.assert(
      fc.property(
        fc.record(
          {
            types: fc.oneof(types, json),
            primaryType: fc.oneof(fc.constantFrom('T', 'StarknetDomain', 'u256'), json),
            domain: fc.oneof(fc.record({ revision: json }), json),
            message: json,
          },
          { requiredKeys: [] },
        ),
        (data) => {
          const checked = check(data);
          if (checked !== 'refused') expectBounded(data, checked);
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it('every spelling of the revision: accepted ones agree with the hasher, anything it might guess at is refused', () => {
    const spellings: unknown[] = [
      ABSENT,
      null,
      '0',
      '1',
      1,
      0,
      [1],
      ['1'],
      [[1]],
      true,
      '01',
      2,
      {},
      [],
      ' 1',
    ];
    for (const domainTypes of [
      ['StarknetDomain'],
      ['StarkNetDomain'],
      ['StarknetDomain', 'StarkNetDomain'],
    ]) {
      for (const spelling of spellings) {
        const types: Record<string, FieldSpec[]> = { Note: [{ name: 'n', type: 'felt' }] };
        for (const name of domainTypes) types[name] = [{ name: 'name', type: 'felt' }];
        const domain: Record<string, unknown> = { name: 'x' };
        if (spelling !== ABSENT) domain.revision = spelling;
        const data = { types, primaryType: 'Note', domain, message: { n: '0x1' } };
        const checked = check(data);
        const direct = hasher.hash(data as TypedData);
        const label = `${domainTypes.join('+')} revision ${spelling === ABSENT ? 'absent' : JSON.stringify(spelling)}`;
        if (checked === 'refused') {
          // refused: the only spellings we refuse that the hasher takes are the ones it reads through toString
          if ('hash' in direct.result) expect(Array.isArray(spelling), label).toBe(true);
        } else {
          expect(direct.revision, label).toBe(checked.revision);
          expectBounded(data, checked);
        }
      }
    }
  });
});

describe('the attack shapes of issue 15, refused by the bound with its reason', () => {
  const refusal = (data: unknown): string => {
    try {
      checkTypedData(data);
    } catch (error) {
      expect(error).toMatchObject({ code: 'VALIDATION_ERROR' });
      return (error as Error).message;
    }
    throw new Error('not refused');
  };

  it('revision null (hashed as revision 0) with types fanned out 24 deep', () => {
    const fanned = fannedOutTypes(24);
    const { StarknetDomain: _, ...rest } = fanned.types;
    const data = {
      ...fanned,
      types: { ...rest, StarkNetDomain: [{ name: 'name', type: 'felt' }] },
      domain: { name: 'x', revision: null },
    };
    // the hasher would take it as revision 0 (its final hash is Pedersen), after the exponential walk
    expect(refusal(data)).toMatch(/nested deeper than 8 levels/);
  });

  it('a merkletree* of felt leaves (revision 0), which the hasher reads as raw leaves', () => {
    const data = {
      types: {
        StarkNetDomain: [{ name: 'name', type: 'felt' }],
        Root: [{ name: 'roots', type: 'merkletree*', contains: 'felt' }],
      },
      primaryType: 'Root',
      domain: { name: 'x' },
      message: { roots: [Array.from({ length: 20_000 }, () => '1')] },
    };
    expect(refusal(data)).toMatch(/can only be the type of a struct field/);
    // and a merkletree field with too many leaves, or too much work
    const field = {
      ...data,
      types: { ...data.types, Root: [{ name: 'root', type: 'merkletree', contains: 'felt' }] },
      message: { root: Array.from({ length: 300 }, () => '1') },
    };
    expect(refusal(field)).toMatch(/300 leaves \(at most 256\)/);
    expect(
      refusal({ ...field, message: { root: Array.from({ length: 100 }, () => '1') } }),
    ).toMatch(/too much work/);
  });

  it.each(['message', 'domain'] as const)(
    'values nested 5,000 deep in the %s: 400, not a stack overflow',
    (where) => {
      let deep: unknown = '0x1';
      for (let i = 0; i < 5_000; i++) deep = i % 2 === 0 ? [deep] : { a: deep };
      const data = {
        types: {
          StarkNetDomain: [{ name: 'name', type: 'felt' }],
          Note: [{ name: 'n', type: 'felt' }],
        },
        primaryType: 'Note',
        domain: where === 'domain' ? { name: deep } : { name: 'x' },
        message: where === 'message' ? { n: deep } : { n: '0x1' },
      };
      expect(refusal(data)).toMatch(/nested deeper than 64 levels/);
    },
  );
});

// ---------------------------------------------------------------------------------------------
// Issue 27: the heaviest shapes the old budget accepted (1,000 units, without the fixed cost of
// each hash call and field read) took 1.1–1.5× their estimate, 212–357 ms. Counted, not timed:
// bench/typed-data-cost.ts times them.

describe('the heaviest shapes of each family: refused, or counted within the budget', () => {
  const refusal = (data: unknown): string => {
    try {
      checkTypedData(data);
    } catch (error) {
      expect(error).toMatchObject({ code: 'VALIDATION_ERROR' });
      return (error as Error).message;
    }
    throw new Error('not refused');
  };
  const sizeOf = (name: string) => SHAPE_FAMILIES.find(([family]) => family === name)?.[1];

  it.each([
    ['struct of 1 felt * (revision 1)', 324],
    ['struct of 8 felts * (revision 1)', 96],
    ['TokenAmount* (presets)', 135],
    ['OutsideExecution, calls × 80 felts', 11],
    ['felt* (revision 1)', 988],
    ['bool*', 988],
    ['u256*', 242],
  ] as const)('%s at the size the old budget accepted (%i) is refused now', (name, size) => {
    const build = sizeOf(name);
    expect(build).toBeTypeOf('function');
    const data = (build as (size: number) => unknown)(size);
    expect(refusal(data)).toMatch(/too much work/);
    // and what the hasher would have done is well over the budget
    expect(hasher.hash(data as TypedData).work).toBeGreaterThan(TYPED_DATA_LIMITS.maxWork);
  });

  it.each(SHAPE_FAMILIES.map(([name, build]) => [name, build] as const))(
    '%s: the largest accepted is counted within its estimate and the budget',
    (_name, build) => {
      const accepted = (size: number) => check(build(size)) !== 'refused';
      if (!accepted(1)) return;
      let low = 1;
      let high = 2;
      while (high <= 4_096 && accepted(high)) {
        low = high;
        high *= 2;
      }
      while (high - low > 1) {
        const mid = Math.floor((low + high) / 2);
        if (accepted(mid)) low = mid;
        else high = mid;
      }
      const data = build(low);
      const checked = check(data) as CheckedTypedData;
      expect(checked.work).toBeLessThanOrEqual(TYPED_DATA_LIMITS.maxWork);
      expectBounded(data, checked);
    },
  );
});
