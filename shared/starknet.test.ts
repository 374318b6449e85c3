import { computeHashOnElements, getStarkKey, pedersen, Point, sign, utils } from '@scure/starknet';
import fc from 'fast-check';
import { hash } from 'starknet';
import { describe, expect, it } from 'vitest';
import { addressViaStarknetJs } from '../test/helpers/argent-address.js';
import { isAppError } from './errors.js';
import {
  ADDRESS_CHAIN_PREFIX,
  ARGENT_X_V050_CLASS_HASH,
  argentAccountAddress,
  CALLDATA_CHAIN_PREFIX,
  deployedAddress,
  deployedAddressesByLast,
  hashChain,
  argentAccountConstructorCalldata,
  joinSignature,
  padHash,
  signStarkHash,
  splitSignature,
  verifyStarkSignature,
} from './starknet.js';

const PRIVATE_KEY = '0x2dccce1da22003777062ee0870e9881b460a8b7eca276870f57c601f182136c';
const PUBLIC_KEY = padHash(getStarkKey(PRIVATE_KEY));

/** The address formula by hand (Pedersen chain, mod 2^251 - 256), with the calldata written out. */
function addressByHand(publicKey: string): string {
  const calldataHash = computeHashOnElements([0n, BigInt(publicKey), 1n]);
  const prefix = BigInt(`0x${Buffer.from('STARKNET_CONTRACT_ADDRESS').toString('hex')}`);
  // pedersen returns 0x-hex strings
  const raw = BigInt(
    computeHashOnElements([
      prefix,
      0n,
      BigInt(publicKey),
      BigInt(ARGENT_X_V050_CLASS_HASH),
      calldataHash,
    ]) as string,
  );
  const bound = 2n ** 251n - 256n;
  return padHash(`0x${(raw % bound).toString(16)}`);
}

describe('argentAccountAddress', () => {
  it('compiles the constructor calldata to [Starknet variant 0, pubkey, Option::None 1]', () => {
    expect(argentAccountConstructorCalldata(PUBLIC_KEY)).toEqual([
      '0',
      BigInt(PUBLIC_KEY).toString(),
      '1',
    ]);
  });

  it('matches starknet.js and a hand-written Pedersen computation', () => {
    const address = argentAccountAddress(PUBLIC_KEY);
    expect(address).toMatch(/^0x[0-9a-f]{64}$/);
    expect(address).toBe(addressViaStarknetJs(PUBLIC_KEY));
    expect(address).toBe(addressByHand(PUBLIC_KEY));
  });

  it('agrees for random keys and does not depend on key padding or case', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (seed) => {
        fc.pre(utils.isValidPrivateKey(seed));
        const key = getStarkKey(seed); // unpadded 0x-hex
        const address = argentAccountAddress(key);
        expect(address).toBe(addressViaStarknetJs(padHash(key)));
        expect(argentAccountAddress(key.toUpperCase().replace('0X', '0x'))).toBe(address);
      }),
      { numRuns: 10 },
    );
  });

  it("starts its hash chains from the class's constant states, recomputed here", () => {
    // the chain over 0 and the prefix, element by element, as computeHashOnElements folds it
    const stateOver = (prefix: readonly bigint[]): bigint =>
      prefix.reduce((state, element) => BigInt(pedersen(state, element)), 0n);
    expect(stateOver(CALLDATA_CHAIN_PREFIX.prefix)).toBe(CALLDATA_CHAIN_PREFIX.state);
    expect(stateOver(ADDRESS_CHAIN_PREFIX.prefix)).toBe(ADDRESS_CHAIN_PREFIX.state);
    expect(ADDRESS_CHAIN_PREFIX.prefix).toEqual([
      BigInt(`0x${Buffer.from('STARKNET_CONTRACT_ADDRESS').toString('hex')}`),
      0n,
    ]);
    // with or without a matching prefix, hashChain is computeHashOnElements
    for (const data of [
      [0n, 5n, 1n],
      [7n, 5n, 1n],
      [0n],
      [],
      [...ADDRESS_CHAIN_PREFIX.prefix, 3n, 4n, 5n],
    ]) {
      const expected = BigInt(computeHashOnElements(data) as string);
      expect(hashChain(data, CALLDATA_CHAIN_PREFIX)).toBe(expected);
      expect(hashChain(data, ADDRESS_CHAIN_PREFIX)).toBe(expected);
      expect(hashChain(data)).toBe(expected);
    }
  });

  it("deployedAddress is starknet.js's calculateContractAddressFromHash for any deployment", () => {
    // the sandbox's chain addresses every deployment with it (sandbox/chain/contracts.ts)
    const felt = fc.bigInt({ min: 0n, max: 2n ** 251n - 1n });
    const hex = (value: bigint): string => `0x${value.toString(16)}`;
    fc.assert(
      fc.property(felt, felt, felt, fc.array(felt, { maxLength: 3 }), (d, salt, cls, calldata) => {
        expect(deployedAddress(d, salt, cls, calldata)).toBe(
          padHash(
            hash.calculateContractAddressFromHash(hex(salt), hex(cls), calldata.map(hex), hex(d)),
          ),
        );
      }),
      { numRuns: 10 },
    );
  });

  it('deployedAddressesByLast is deployedAddress for each last element, in order', () => {
    const [deployer, salt, classHash] = [0x1234n, 0n, 0x5678n];
    // few hashes: each address here is a dozen Pedersen hashes, milliseconds each
    for (const head of [[], [3n, 0x4d5n]]) {
      const lasts = [9n, 0n, 9n];
      expect(deployedAddressesByLast(deployer, salt, classHash, head, lasts)).toEqual(
        lasts.map((last) => deployedAddress(deployer, salt, classHash, [...head, last])),
      );
    }
    expect(deployedAddressesByLast(deployer, salt, classHash, [1n], [])).toEqual([]);
  });

  it('differs for different keys (the key really is the salt and the owner)', () => {
    const other = padHash(getStarkKey('0x1234'));
    expect(argentAccountAddress(other)).not.toBe(argentAccountAddress(PUBLIC_KEY));
  });
});

describe('padHash', () => {
  it.each([
    ['0x1', `0x${'0'.repeat(63)}1`],
    ['0xABC', `0x${'0'.repeat(61)}abc`],
    [`0x${'f'.repeat(63)}`, `0x0${'f'.repeat(63)}`],
    [`0x000${'1'.repeat(62)}`, `0x00${'1'.repeat(62)}`],
  ])('pads %s', (input, expected) => {
    expect(padHash(input)).toBe(expected);
  });

  it.each([
    ['no prefix', 'abc'],
    ['empty digits', '0x'],
    ['not hex', '0xzz'],
    ['253 bits', `0x1${'0'.repeat(63)}`],
    ['256 bits', `0x${'f'.repeat(64)}`],
  ])('rejects %s with VALIDATION_ERROR', (_name, input) => {
    let caught: unknown;
    try {
      padHash(input);
    } catch (error) {
      caught = error;
    }
    expect(isAppError(caught) && caught.code === 'VALIDATION_ERROR').toBe(true);
  });

  it('accepts exactly 252 bits', () => {
    expect(padHash(`0x${'f'.repeat(63)}`)).toHaveLength(66);
  });
});

describe('splitSignature / joinSignature', () => {
  it('splits r‖s into two 0x + 64 hex halves, lower-cased', () => {
    const r = 'A'.repeat(64);
    const s = `${'0'.repeat(63)}5`;
    expect(splitSignature(`0x${r}${s}`)).toEqual([`0x${'a'.repeat(64)}`, `0x${s}`]);
  });

  it('round-trips with joinSignature', () => {
    const sig = joinSignature(123n, 456n);
    const [r, s] = splitSignature(sig);
    expect([BigInt(r), BigInt(s)]).toEqual([123n, 456n]);
  });

  it.each(['0x1234', `${'a'.repeat(128)}`, `0x${'a'.repeat(127)}`, `0x${'g'.repeat(128)}`])(
    'rejects %s',
    (input) => {
      expect(() => splitSignature(input)).toThrow(/128 hex/);
    },
  );
});

describe('verifyStarkSignature', () => {
  const message = '0x5f3e0a'; // unpadded on purpose

  it('accepts a signature made by the key (signStarkHash, padded or unpadded hash)', () => {
    const signature = signStarkHash(message, PRIVATE_KEY);
    expect(signature).toMatch(/^0x[0-9a-f]{128}$/);
    expect(verifyStarkSignature(message, signature, PUBLIC_KEY)).toBe(true);
    expect(verifyStarkSignature(padHash(message), signature, PUBLIC_KEY)).toBe(true);
  });

  it('accepts a signature made directly with @scure/starknet', () => {
    const raw = sign(padHash(message), PRIVATE_KEY);
    expect(verifyStarkSignature(message, joinSignature(raw.r, raw.s), PUBLIC_KEY)).toBe(true);
  });

  it('rejects another hash, another key, a tampered signature and garbage', () => {
    const signature = signStarkHash(message, PRIVATE_KEY);
    expect(verifyStarkSignature('0x5f3e0b', signature, PUBLIC_KEY)).toBe(false);
    expect(verifyStarkSignature(message, signature, padHash(getStarkKey('0x1234')))).toBe(false);
    const tampered = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
    expect(verifyStarkSignature(message, tampered, PUBLIC_KEY)).toBe(false);
    expect(verifyStarkSignature(message, '0x1234', PUBLIC_KEY)).toBe(false);
    expect(verifyStarkSignature(message, `0x${'0'.repeat(128)}`, PUBLIC_KEY)).toBe(false);
    expect(verifyStarkSignature('nope', signature, PUBLIC_KEY)).toBe(false);
    expect(verifyStarkSignature(message, signature, '0x0')).toBe(false);
  });

  it('holds for random keys and hashes', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 251n - 1n }),
        fc.bigInt({ min: 1n, max: 2n ** 250n }),
        (h, k) => {
          const hashHex = `0x${h.toString(16)}`;
          const key = `0x${k.toString(16)}`;
          const signature = signStarkHash(hashHex, key);
          expect(verifyStarkSignature(hashHex, signature, getStarkKey(key))).toBe(true);
          expect(
            verifyStarkSignature(`0x${(h ^ 1n).toString(16)}`, signature, getStarkKey(key)),
          ).toBe(false);
        },
      ),
      { numRuns: 10 },
    );
  });

  it('accepts either point with the key x (y and −y: the key k and n − k), refuses an x on no point', () => {
    const n = Point.CURVE().n;
    for (const k of [0x1234n, 0xabcdef987n, 2n ** 200n + 7n]) {
      const x = getStarkKey(`0x${k.toString(16)}`);
      expect(getStarkKey(`0x${(n - k).toString(16)}`)).toBe(x);
      for (const signer of [k, n - k]) {
        const signature = signStarkHash(message, `0x${signer.toString(16)}`);
        expect(verifyStarkSignature(message, signature, x)).toBe(true);
        expect(verifyStarkSignature('0x5f3e0b', signature, x)).toBe(false);
      }
    }
    // an x on no point of the curve (the library refuses to decompress it): no signature is valid
    const onNoPoint = (x: bigint): boolean => {
      try {
        Point.fromHex(`02${x.toString(16).padStart(64, '0')}`);
        return false;
      } catch {
        return true;
      }
    };
    const noPoint = [...Array(64).keys()].map((i) => BigInt(i + 2)).find(onNoPoint);
    expect(noPoint).toBeDefined();
    const signature = signStarkHash(message, PRIVATE_KEY);
    expect(verifyStarkSignature(message, signature, `0x${noPoint!.toString(16)}`)).toBe(false);
  });

  it('refuses to sign a hash at or above 2^251', () => {
    expect(() => signStarkHash(`0x8${'0'.repeat(62)}`, PRIVATE_KEY)).toThrow(/2\^251/);
  });
});
