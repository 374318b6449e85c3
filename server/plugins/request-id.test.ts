import { describe, expect, it } from 'vitest';
import { createRequestIds, nextRequestId } from './request-id.js';

/** RFC 9562's layout for a version-8 UUID: the version nibble 8, the variant bits 10. */
const UUID_V8 = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('made request ids', () => {
  it('are version-8 UUIDs, none repeated in 100,000', () => {
    const ids = Array.from({ length: 100_000 }, nextRequestId);
    expect(ids.filter((id) => !UUID_V8.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(100_000);
  });

  it('carry the random part they were made with, then the count', () => {
    const random = Buffer.from('0123456789abcdeffedc', 'hex');
    const next = createRequestIds(random);
    // hex 0123456789abcdeffedc: digits 0–14 as they are, the variant nibble from digit 15 ('f':
    // its low two bits under 10 → b), digits 16–18; the last digit is not used
    expect(next()).toBe('01234567-89ab-8cde-bfed-000000000001');
    expect(next()).toBe('01234567-89ab-8cde-bfed-000000000002');
    const other = createRequestIds(Buffer.from('ffffffffffffffffffff', 'hex'))();
    expect(other).toBe('ffffffff-ffff-8fff-bfff-000000000001');
  });

  it('keep their shape when the 48-bit count comes round', () => {
    const next = createRequestIds(Buffer.alloc(10), 0xffff_ffff_fffe);
    expect(next()).toBe('00000000-0000-8000-8000-ffffffffffff');
    expect(next()).toBe('00000000-0000-8000-8000-000000000000');
    expect(next()).toMatch(UUID_V8);
  });

  it('differ between two processes (their random parts)', () => {
    const a = createRequestIds()();
    const b = createRequestIds()();
    expect(a.slice(0, 24)).not.toBe(b.slice(0, 24));
  });
});
