import { typedData } from 'starknet';
import { describe, expect, it } from 'vitest';
import { everyRevision1Type, fannedOutTypes, legacyMail, outsideExecution } from '../test/helpers/typed-data.js';
import { checkTypedDataBounds, TYPED_DATA_LIMITS, typedDataWork } from './typed-data-bounds.js';

const refusal = (data: unknown, limits = TYPED_DATA_LIMITS): string => {
  try {
    checkTypedDataBounds(data, limits);
  } catch (error) {
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
    return (error as Error).message;
  }
  throw new Error('not refused');
};

describe('legitimate typed data passes, well inside the budget', () => {
  it.each([
    { description: 'the paymaster OutsideExecution', data: outsideExecution() },
    { description: 'an OutsideExecution of 10 calls × 80 calldata felts', data: outsideExecution(10, 80) },
    { description: 'revision 1 with presets, enums, a merkletree, long strings and arrays', data: everyRevision1Type() },
    { description: 'revision 0 (legacy Mail)', data: legacyMail() },
  ])('$description', ({ data }) => {
    expect(() => checkTypedDataBounds(data)).not.toThrow();
    // and starknet.js really hashes it (the bounds mirror its encoder, they do not replace it)
    expect(typedData.getMessageHash(data as never, '0x1234')).toMatch(/^0x[0-9a-f]+$/);
    expect(typedDataWork(data)).toBeLessThan(TYPED_DATA_LIMITS.maxWork);
  });

  it('data that is not typed data is left to starknet.js (which refuses it at once)', () => {
    for (const data of [null, 'text', [1, 2], {}, { types: {}, primaryType: 'X', domain: {}, message: {} }]) expect(typedDataWork(data)).toBe(0);
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
    // …while a shallow fan-out is cheap
    expect(typedDataWork(fannedOutTypes(4, 3))).toBeLessThan(TYPED_DATA_LIMITS.maxWork / 10);
  });

  it('a type that refers to itself, directly or through another', () => {
    const data = outsideExecution();
    expect(refusal({ ...data, types: { ...data.types, Call: [...data.types.Call, { name: 'Next', type: 'Call' }] } })).toMatch(/refers to itself/);
    expect(refusal({ ...data, types: { ...data.types, Call: [{ name: 'Back', type: 'OutsideExecution' }] } })).toMatch(/refers to itself/);
  });

  it('too many types, too many fields, too large', () => {
    const data = outsideExecution();
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`T${i}`, [{ name: 'x', type: 'felt' }]]));
    expect(refusal({ ...data, types: { ...data.types, ...many } })).toMatch(/types \(at most 64\)/);
    const wide = Array.from({ length: 65 }, (_, i) => ({ name: `f${i}`, type: 'felt' }));
    expect(refusal({ ...data, types: { ...data.types, Call: wide } })).toMatch(/65 fields \(at most 64\)/);
    // size first: extra keys cost starknet.js nothing, but are parsed and walked by everyone
    expect(refusal({ ...data, message: { ...data.message, padding: 'x'.repeat(140_000) } })).toMatch(/bytes \(at most 131072\)/);
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
      types: { ...outsideExecution().types, Batch: [{ name: 'Items', type: 'Item*' }], Item: [] as Array<{ name: string; type: string }> },
      primaryType: 'Batch',
      message: { Items: Array.from({ length: 1_000 }, () => ({})) },
    };
    expect(refusal(data)).toMatch(/too much work/);
  });

  it('an overlong scalar, and a field typed with an inherited property name', () => {
    const data = outsideExecution();
    expect(refusal({ ...data, message: { ...data.message, Nonce: '9'.repeat(300) } })).toMatch(/longer than 256 characters/);
    expect(refusal({ ...data, types: { ...data.types, Call: [{ name: 'x', type: 'constructor' }] } })).toMatch(/not a type of this data/);
  });

  it('stops where starknet.js would throw: a struct array that fails on its first entry is not charged in full', () => {
    const data = fannedOutTypes(4, 3);
    const types = { ...data.types, Root: [{ name: 'items', type: 'T0_0*' }] };
    const failsAtOnce = { ...data, types, primaryType: 'Root', message: { items: Array.from({ length: 5_000 }, () => ({})) } };
    expect(typedDataWork(failsAtOnce)).toBeLessThan(TYPED_DATA_LIMITS.maxWork / 10);
  });
});
