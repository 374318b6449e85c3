import { typedData } from 'starknet';
import { describe, expect, it } from 'vitest';
import {
  everyRevision1Type,
  fannedOutTypes,
  legacyMail,
  outsideExecution,
} from '../test/helpers/typed-data.js';
import { checkTypedData, TYPED_DATA_LIMITS } from './typed-data-bounds.js';

const refusal = (data: unknown, limits = TYPED_DATA_LIMITS): string => {
  try {
    checkTypedData(data, limits);
  } catch (error) {
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR' });
    return (error as Error).message;
  }
  throw new Error('not refused');
};

describe('legitimate typed data passes, well inside the budget', () => {
  it.each([
    { description: 'the paymaster OutsideExecution', data: outsideExecution() },
    {
      description: 'an OutsideExecution of 10 calls × 20 calldata felts',
      data: outsideExecution(10, 20),
    },
    {
      description: 'revision 1 with presets, enums, a merkletree, long strings and arrays',
      data: everyRevision1Type(),
    },
    { description: 'revision 0 (legacy Mail)', data: legacyMail() },
  ])('$description', ({ data }) => {
    const checked = checkTypedData(data);
    // starknet.js really hashes it, and the copy the route hashes means the same as the request
    const hash = typedData.getMessageHash(data as never, '0x1234');
    expect(hash).toMatch(/^0x[0-9a-f]+$/);
    expect(typedData.getMessageHash(checked.data, '0x1234')).toBe(hash);
    expect(checked.work).toBeLessThan(TYPED_DATA_LIMITS.maxWork);
  });

  it('the copy holds only what the hasher reads: undeclared keys are left behind', () => {
    const data = outsideExecution(1, 2);
    const checked = checkTypedData({
      ...data,
      extra: 'x'.repeat(1_000),
      message: { ...data.message, Unread: [1, 2, 3] },
    });
    expect(Object.keys(checked.data)).toEqual(['types', 'primaryType', 'domain', 'message']);
    expect(checked.data.message).not.toHaveProperty('Unread');
    expect(checked.revision).toBe('1');
  });
});

describe('refused before hashing, naming the bound', () => {
  it('fanned-out types 24 deep (3 kB that would block the event loop ~10 s)', () => {
    const data = fannedOutTypes(24);
    expect(JSON.stringify(data).length).toBeLessThan(4_000);
    expect(refusal(data)).toMatch(/nested deeper than 8 levels/);
  });

  it('fanned-out types within the depth bound are charged what starknet.js would spend', () => {
    // 7 types a level, 8 deep: 7^8 expansions; depth alone does not catch it, the work budget does
    expect(refusal(fannedOutTypes(8, 7))).toMatch(/too much work/);
    // …while a shallow fan-out is cheap: its type hash is charged, then the empty message is refused
    expect(refusal(fannedOutTypes(4, 3))).toMatch(/message\."f0" is missing/);
  });

  it('a type that refers to itself, directly or through another', () => {
    const data = outsideExecution();
    expect(
      refusal({
        ...data,
        types: { ...data.types, Call: [...data.types.Call, { name: 'Next', type: 'Call' }] },
      }),
    ).toMatch(/refers to itself/);
    expect(
      refusal({
        ...data,
        types: { ...data.types, Call: [{ name: 'Back', type: 'OutsideExecution' }] },
      }),
    ).toMatch(/refers to itself/);
  });

  it('too many types, too many fields, too large', () => {
    const data = outsideExecution();
    const many = Object.fromEntries(
      Array.from({ length: 65 }, (_, i) => [`T${i}`, [{ name: 'x', type: 'felt' }]]),
    );
    expect(refusal({ ...data, types: { ...data.types, ...many } })).toMatch(/types \(at most 64\)/);
    const wide = Array.from({ length: 65 }, (_, i) => ({ name: `f${i}`, type: 'felt' }));
    expect(refusal({ ...data, types: { ...data.types, Call: wide } })).toMatch(
      /65 fields \(at most 64\)/,
    );
    // size first: extra keys cost starknet.js nothing, but are parsed and walked by everyone
    expect(
      refusal({ ...data, message: { ...data.message, padding: 'x'.repeat(140_000) } }),
    ).toMatch(/more than 131072 bytes/);
  });

  it('many cheap-looking elements: each one goes through Poseidon', () => {
    const data = outsideExecution(1, 0);
    data.message.Calls[0]!.Calldata = Array.from({ length: 2_000 }, () => '1');
    expect(JSON.stringify(data).length).toBeLessThan(16_000);
    expect(refusal(data)).toMatch(/too much work/);
  });

  it('a struct array whose entries all get a type hash', () => {
    const data = {
      ...outsideExecution(),
      types: {
        ...outsideExecution().types,
        Batch: [{ name: 'Items', type: 'Item*' }],
        Item: [] as Array<{ name: string; type: string }>,
      },
      primaryType: 'Batch',
      message: { Items: Array.from({ length: 1_000 }, () => ({})) },
    };
    expect(refusal(data)).toMatch(/too much work/);
  });

  it('an overlong scalar, and a field typed with an inherited property name', () => {
    const data = outsideExecution();
    expect(refusal({ ...data, message: { ...data.message, Nonce: '9'.repeat(300) } })).toMatch(
      /longer than 256 characters/,
    );
    expect(
      refusal({ ...data, types: { ...data.types, Call: [{ name: 'x', type: 'constructor' }] } }),
    ).toMatch(/inherited object property/);
  });

  it('what the hasher could not read is refused, not charged: a struct entry without its fields', () => {
    const data = fannedOutTypes(4, 3);
    const types = { ...data.types, Root: [{ name: 'items', type: 'T0_0*' }] };
    const failsAtOnce = {
      ...data,
      types,
      primaryType: 'Root',
      message: { items: Array.from({ length: 5_000 }, () => ({})) },
    };
    expect(refusal(failsAtOnce)).toMatch(/too much work|is missing/);
  });

  it('what it cannot classify: not typed data, an unknown revision spelling, reserved or inherited names, misplaced enums and merkletrees', () => {
    const data = outsideExecution();
    const { StarknetDomain: _, ...withoutDomain } = data.types;
    const cases: Array<[unknown, RegExp]> = [
      [null, /must be an object/],
      ['text', /must be an object/],
      [[1, 2], /must be an object/],
      [{}, /"types" must be an object/],
      [{ ...data, primaryType: ['OutsideExecution'] }, /"primaryType" must be a type name/],
      [{ ...data, domain: { ...data.domain, revision: [1] } }, /domain.revision must be/],
      [{ ...data, domain: { ...data.domain, revision: 0 } }, /domain.revision must be/],
      [{ ...data, types: withoutDomain }, /no domain type for its revision/],
      [{ ...data, types: { ...data.types, felt: [] } }, /reserved/],
      [{ ...data, types: { ...data.types, u256: [] } }, /preset/],
      [
        { ...data, types: { ...data.types, Call: [{ name: 'x', type: 'constructor' }] } },
        /inherited/,
      ],
      [
        { ...data, types: { ...data.types, Call: [{ name: 'x', type: 'Mystery' }] } },
        /neither declared nor a revision 1 basic type/,
      ],
      [
        { ...data, types: { ...data.types, Call: [{ name: 'x', type: 'enum' }] } },
        /must name a declared type of variants/,
      ],
      [
        {
          ...data,
          types: { ...data.types, Call: [{ name: 'x', type: 'merkletree*', contains: 'felt' }] },
        },
        /can only be the type of a struct field/,
      ],
      [
        {
          ...data,
          types: { ...data.types, Call: [{ name: 'x', type: 'merkletree', contains: 'felt*' }] },
        },
        /leaf type \(not an array\)/,
      ],
      [
        {
          ...data,
          types: {
            ...data.types,
            Call: [
              { name: 'x', type: 'felt' },
              { name: 'x', type: 'felt' },
            ],
          },
        },
        /two fields named/,
      ],
      [{ ...data, primaryType: 'Nope' }, /primaryType "Nope" is not a type/],
      [{ ...data, message: { ...data.message, Calls: 'no' } }, /must be an array/],
      [
        { ...data, message: { ...data.message, Caller: { x: 1 } } },
        /must be a string, a number or a boolean/,
      ],
      [{ ...data, message: { ...data.message, Caller: null } }, /is missing/],
    ];
    for (const [input, reason] of cases)
      expect(refusal(input), JSON.stringify(input).slice(0, 120)).toMatch(reason);
  });

  it('an error message shows names printable and short', () => {
    const data = outsideExecution();
    const message = refusal({ ...data, primaryType: `\u202e${'x'.repeat(100)}\n` });
    expect(message).toMatch(/^[\x20-\x7e…]*$/);
    expect(message.length).toBeLessThan(200);
  });
});
