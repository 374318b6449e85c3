import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getPublicKey, getStarkKey, utils } from '@scure/starknet';
import { afterEach, describe, expect, it } from 'vitest';
import { addressViaStarknetJs } from '../../test/helpers/argent-address.js';
import {
  ARGENT_X_V050_CLASS_HASH,
  argentAccountAddress,
  argentAccountAddressInMemory,
  keepAddressesIn,
  keepKeyPointsIn,
  type KeyParity,
  padHash,
  signStarkHash,
  verifyStarkSignature,
} from '../../shared/starknet.js';
import { keepAddressesFor } from './address-memo.js';

const homes: string[] = [];
const home = (): { env: NodeJS.ProcessEnv; file: string } => {
  const dir = mkdtempSync(join(tmpdir(), 'finance-tui-address-memo-'));
  homes.push(dir);
  return { env: { FINANCE_TUI_HOME: dir }, file: join(dir, 'accounts.json') };
};
afterEach(() => {
  keepAddressesIn(undefined);
  keepKeyPointsIn(undefined);
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const newKey = (): string => padHash(getStarkKey(utils.randomPrivateKey()));

/**
 * A data folder whose store remembers, for a new key, a value that is not the key's account (so
 * a read of it shows, and a hash would not give it), kept for the process as a command keeps it.
 */
function rememberingAnotherAddress(): { file: string; key: string; remembered: string } {
  const { env, file } = home();
  const key = newKey();
  const remembered = padHash('0x1234');
  writeFileSync(
    file,
    JSON.stringify({ classHash: ARGENT_X_V050_CLASS_HASH, addresses: { [key]: remembered } }),
  );
  keepAddressesFor(env);
  return { file, key, remembered };
}

const stored = (file: string): Record<string, string> =>
  (JSON.parse(readFileSync(file, 'utf8')) as { addresses: Record<string, string> }).addresses;

describe('keepAddressesFor', () => {
  it('keeps each computed address in <data>/accounts.json, 0600, as starknet.js computes it', () => {
    const { env, file } = home();
    keepAddressesFor(env);
    const keys = [newKey(), newKey()];
    const addresses = keys.map((key) => argentAccountAddress(key));
    // starknet.js's address of each key, computed once (the cross-check is a dozen Pedersen hashes)
    const expected = keys.map(addressViaStarknetJs);
    expect(stored(file)).toEqual({ [keys[0]!]: expected[0], [keys[1]!]: expected[1] });
    expect(addresses).toEqual(expected);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("the emulators' address neither reads nor writes the client's store (argentAccountAddressInMemory)", () => {
    const { file, key, remembered } = rememberingAnotherAddress();
    expect(argentAccountAddressInMemory(key)).toBe(addressViaStarknetJs(key));
    // nor what a client read back from it before, in the same process
    const { key: readFirst } = rememberingAnotherAddress();
    expect(argentAccountAddress(readFirst)).toBe(remembered);
    expect(argentAccountAddressInMemory(readFirst)).toBe(addressViaStarknetJs(readFirst));
    const other = newKey();
    expect(argentAccountAddressInMemory(other)).toBe(addressViaStarknetJs(other));
    expect(stored(file)).toEqual({ [key]: remembered });
  });

  it('reads an address back instead of hashing again (what another process wrote)', () => {
    const { key, remembered } = rememberingAnotherAddress();
    expect(argentAccountAddress(key)).toBe(remembered);
  });

  it('a file of another account class is not read: its addresses are of that class', () => {
    const remembered = padHash('0x1234');
    for (const classHash of [undefined, padHash('0x5678')]) {
      const { env, file } = home();
      const key = newKey();
      writeFileSync(file, JSON.stringify({ classHash, addresses: { [key]: remembered } }));
      keepAddressesFor(env);
      const expected = addressViaStarknetJs(key);
      expect(argentAccountAddress(key)).toBe(expected);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
        classHash: ARGENT_X_V050_CLASS_HASH,
        addresses: { [key]: expected },
      });
    }
  });

  it('a garbled file or entry is computed again and the file rewritten; never an error', () => {
    const ours = `"classHash": "${ARGENT_X_V050_CLASS_HASH}"`;
    for (const text of [
      '{',
      '[]',
      `{${ours}, "addresses": 5}`,
      `{${ours}, "addresses": {"0x1": "0x2"}}`,
    ]) {
      const { env, file } = home();
      const key = newKey();
      writeFileSync(file, text);
      keepAddressesFor(env);
      const expected = addressViaStarknetJs(key);
      expect(argentAccountAddress(key)).toBe(expected);
      expect(stored(file)).toEqual({ [key]: expected });
    }
    const { env, file } = home();
    const key = newKey();
    // a value that is no address (2^251 − 256 or above) is not taken
    writeFileSync(
      file,
      JSON.stringify({
        classHash: ARGENT_X_V050_CLASS_HASH,
        addresses: { [key]: `0x${'f'.repeat(64)}` },
      }),
    );
    keepAddressesFor(env);
    expect(argentAccountAddress(key)).toBe(addressViaStarknetJs(key));
  });

  it('keeps the 16 most recent keys', () => {
    const { env, file } = home();
    keepAddressesFor(env);
    const keys = Array.from({ length: 18 }, newKey);
    for (const key of keys) argentAccountAddress(key);
    expect(Object.keys(stored(file))).toEqual(keys.slice(2));
  });
});

describe("a key's point tried first (KeyPointStore)", () => {
  /** a new key: its private key, its public key (x) and the parity of its point's y */
  const newPair = (): { secret: string; key: string; parity: KeyParity } => {
    const secret = `0x${Buffer.from(utils.randomPrivateKey()).toString('hex')}`;
    const point = getPublicKey(secret, false);
    return {
      secret,
      key: padHash(getStarkKey(secret)),
      parity: point[point.length - 1]! % 2 === 1 ? 'odd' : 'even',
    };
  };
  const points = (file: string): unknown =>
    (JSON.parse(readFileSync(file, 'utf8')) as { points?: unknown }).points;

  it("keeps the parity of the point a key's signature verified against, beside its address", () => {
    const { env, file } = home();
    keepAddressesFor(env);
    const pairs = [newPair(), newPair(), newPair()];
    for (const { secret, key } of pairs) {
      const address = argentAccountAddress(key);
      expect(verifyStarkSignature('0xabc', signStarkHash('0xabc', secret), key)).toBe(true);
      expect(stored(file)[key]).toBe(address);
    }
    expect(points(file)).toEqual(Object.fromEntries(pairs.map((p) => [p.key, p.parity])));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // a bad signature keeps nothing and is still refused
    const other = newPair();
    expect(verifyStarkSignature('0xabc', signStarkHash('0xabd', other.secret), other.key)).toBe(
      false,
    );
    expect(points(file)).not.toHaveProperty(other.key);
  });

  it('orders the tries only: a wrong or garbled parity still verifies, and is corrected', () => {
    const { env, file } = home();
    const pair = newPair();
    const wrong: KeyParity = pair.parity === 'odd' ? 'even' : 'odd';
    writeFileSync(
      file,
      JSON.stringify({
        classHash: ARGENT_X_V050_CLASS_HASH,
        addresses: {},
        points: { [pair.key]: wrong },
      }),
    );
    keepAddressesFor(env);
    expect(verifyStarkSignature('0x1', signStarkHash('0x1', pair.secret), pair.key)).toBe(true);
    expect(points(file)).toEqual({ [pair.key]: pair.parity });
    writeFileSync(
      file,
      JSON.stringify({
        classHash: ARGENT_X_V050_CLASS_HASH,
        addresses: {},
        points: { [pair.key]: 'maybe' },
      }),
    );
    keepAddressesFor(env);
    expect(verifyStarkSignature('0x2', signStarkHash('0x2', pair.secret), pair.key)).toBe(true);
    expect(points(file)).toEqual({ [pair.key]: pair.parity });
  });

  it('writes only when the point that verified is not the one kept', () => {
    const pair = newPair();
    const writes: Array<[string, KeyParity]> = [];
    let kept: KeyParity | undefined;
    keepKeyPointsIn({
      read: () => kept,
      write: (key, parity) => {
        writes.push([key, parity]);
        kept = parity;
      },
    });
    const signature = signStarkHash('0x3', pair.secret);
    expect(verifyStarkSignature('0x3', signature, pair.key)).toBe(true);
    expect(verifyStarkSignature('0x3', signature, pair.key)).toBe(true);
    expect(writes).toEqual([[pair.key, pair.parity]]);
    // another hash under the kept point: refused, nothing written
    expect(verifyStarkSignature('0x4', signature, pair.key)).toBe(false);
    expect(writes).toHaveLength(1);
  });
});
