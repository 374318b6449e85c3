import { randomBytes } from 'node:crypto';
import { hash } from 'starknet';
import { describe, expect, it } from 'vitest';
import { selectorOf } from './erc20.js';
import { KNOWN_SELECTORS, knownSelector } from './selectors.js';

describe('the known selectors', () => {
  it('are each the sn_keccak of their name, as starknet.js spells it', () => {
    expect(KNOWN_SELECTORS.size).toBeGreaterThan(40);
    for (const [name, selector] of KNOWN_SELECTORS)
      expect(selector, name).toBe(hash.getSelectorFromName(name));
  });

  it('answer only their own names: any other is left to be hashed', () => {
    for (const name of ['transfer ', 'Transfer2', '', '__proto__', 'constructor', 'toString'])
      expect(knownSelector(name), name).toBeUndefined();
    expect(knownSelector(42)).toBeUndefined();
    expect(knownSelector(undefined)).toBeUndefined();
  });

  it('selectorOf gives the same value for a known name and for a name it has to hash', () => {
    expect(selectorOf('balance_of')).toBe(BigInt(hash.getSelectorFromName('balance_of')));
    const other = `not_known_${randomBytes(4).toString('hex')}`;
    expect(knownSelector(other)).toBeUndefined();
    expect(selectorOf(other)).toBe(BigInt(hash.getSelectorFromName(other)));
  });
});
