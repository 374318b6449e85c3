/**
 * outside-hash.ts is starknet.js's SNIP-12 message hash for a SNIP-9 v2 outside execution: the
 * same hash of random documents in every spelling it reads; its type hashes are the ones
 * starknet.js computes from the types; a document it does not read is left to starknet.js
 * (undefined), so messageHashOf answers, or refuses, exactly as starknet.js does.
 */
import fc from 'fast-check';
import { OutsideExecutionTypesV2, typedData } from 'starknet';
import { describe, expect, it } from 'vitest';
import { STARK_PRIME } from '../../../shared/felt.js';
import { outsideExecution } from '../../../test/helpers/typed-data.js';
import { messageHashOf } from './message-hash.js';
import {
  CALL_TYPE_HASH,
  OUTSIDE_EXECUTION_TYPE_HASH,
  outsideExecutionHash,
  STARKNET_DOMAIN_TYPE_HASH,
} from './outside-hash.js';

const felt = fc.bigInt({ min: 0n, max: STARK_PRIME - 1n });
/** a felt as a document may spell it: 0x-hex (either case, leading zeros or not) or decimal */
const feltText = (bound = STARK_PRIME) =>
  fc
    .tuple(fc.bigInt({ min: 0n, max: bound - 1n }), fc.constantFrom('hex', 'HEX', 'pad', 'dec'))
    .map(([v, form]) =>
      form === 'dec'
        ? v.toString()
        : form === 'pad'
          ? `0x${v.toString(16).padStart(64, '0')}`
          : form === 'HEX'
            ? `0X${v.toString(16).toUpperCase()}`
            : `0x${v.toString(16)}`,
    );
const shortText = fc.stringMatching(/^[A-Za-z_.][\x20-\x7e]{0,30}$/);

const documents = fc.record({
  domain: fc.record({
    name: fc.oneof(fc.constant('Account.execute_from_outside'), shortText),
    version: fc.constantFrom('2', 2, '0x2'),
    chainId: fc.oneof(
      fc.constantFrom('SN_MAIN', 'SN_SEPOLIA', '0x534e5f53414e44424f58'),
      shortText,
    ),
    revision: fc.constantFrom('1', 1),
  }),
  message: fc.record({
    Caller: feltText(),
    Nonce: feltText(),
    'Execute After': feltText(1n << 128n),
    'Execute Before': feltText(1n << 128n),
    Calls: fc.array(
      fc.record({
        To: feltText(),
        Selector: felt.map((v) => `0x${v.toString(16)}`),
        Calldata: fc.array(feltText(), { maxLength: 12 }),
      }),
      { maxLength: 4 },
    ),
  }),
  account: feltText(),
});

const typedOf = (doc: { domain: unknown; message: unknown }) => ({
  types: OutsideExecutionTypesV2,
  primaryType: 'OutsideExecution',
  domain: doc.domain,
  message: doc.message,
});

describe('outsideExecutionHash', () => {
  it("is starknet.js's message hash of random outside executions", () => {
    fc.assert(
      fc.property(documents, (doc) => {
        const typed = typedOf(doc);
        const expected = typedData.getMessageHash(typed as never, doc.account);
        expect(outsideExecutionHash(typed, doc.account)).toBe(expected);
      }),
      { numRuns: 30 },
    );
  });

  it('has the type hashes starknet.js computes from the SNIP-9 v2 types', () => {
    const typeHash = (type: string) =>
      BigInt(typedData.getTypeHash(OutsideExecutionTypesV2 as never, type, '1' as never));
    expect(STARKNET_DOMAIN_TYPE_HASH).toBe(typeHash('StarknetDomain'));
    expect(OUTSIDE_EXECUTION_TYPE_HASH).toBe(typeHash('OutsideExecution'));
    expect(CALL_TYPE_HASH).toBe(typeHash('Call'));
  });

  /** the paymaster's document (test/helpers/typed-data.ts), one call, typed loosely to change it */
  const base = () => {
    const doc = outsideExecution(1, 2);
    return {
      ...doc,
      types: doc.types as unknown,
      domain: doc.domain as Record<string, unknown>,
      message: doc.message as Record<string, unknown>,
    };
  };
  const call = (doc: ReturnType<typeof base>) =>
    (doc.message.Calls as Array<Record<string, unknown>>)[0]!;
  const ACCOUNT = '0x2919439a098e6006c1ad7c094ef3b47009ddf1d392c24d9df552aca1965ee8d';

  const unread: Array<[string, (doc: ReturnType<typeof base>) => void]> = [
    ['a selector given by name', (d) => (call(d).Selector = 'transfer')],
    ['a selector at or above P', (d) => (call(d).Selector = `0x${STARK_PRIME.toString(16)}`)],
    ['a nonce at or above P', (d) => (d.message.Nonce = `0x${STARK_PRIME.toString(16)}`)],
    [
      'a u128 past its bound',
      (d) => (d.message['Execute Before'] = `0x${(1n << 128n).toString(16)}`),
    ],
    ['a number in the calldata', (d) => (call(d).Calldata = [1, '0x2'])],
    ['a missing field', (d) => delete d.message.Caller],
    ['calls that are not an array', (d) => (d.message.Calls = { 0: call(d) })],
    ['a chain id BigInt reads with spaces', (d) => (d.domain.chainId = ' 12')],
    ['a chain id with a control character', (d) => (d.domain.chainId = 'SN\tMAIN')],
    ['a 32-character chain id', (d) => (d.domain.chainId = 'A'.repeat(32))],
    ['a negative version', (d) => (d.domain.version = -2)],
    ['revision 0', (d) => (d.domain.revision = '0')],
    ['another primary type', (d) => (d.primaryType = 'Call')],
    [
      'other types',
      (d) => ((d.types as Record<string, unknown>).Extra = [{ name: 'x', type: 'felt' }]),
    ],
  ];

  it.each(unread)('leaves %s to starknet.js, which answers or refuses as before', (_, change) => {
    const doc = base();
    change(doc);
    expect(outsideExecutionHash(doc, ACCOUNT)).toBeUndefined();
    let expected: string | Error;
    try {
      expected = typedData.getMessageHash(doc as never, ACCOUNT);
    } catch (error) {
      expected = error as Error;
    }
    if (typeof expected === 'string') expect(messageHashOf(doc, ACCOUNT)).toBe(expected);
    else expect(() => messageHashOf(doc, ACCOUNT)).toThrow(expected.message);
  });

  it('leaves an account at or above P to starknet.js', () => {
    const doc = base();
    const account = `0x${(STARK_PRIME + 5n).toString(16)}`;
    expect(outsideExecutionHash(doc, account)).toBeUndefined();
    expect(messageHashOf(doc, account)).toBe(typedData.getMessageHash(doc as never, account));
  });
});
