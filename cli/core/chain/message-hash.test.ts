/**
 * messageHashOf (message-hash.ts) is starknet.js's getMessageHash, remembered by content: the
 * same answer for the same document and account, and a fresh one for a changed document.
 */
import { OutsideExecutionTypesV2, typedData } from 'starknet';
import { describe, expect, it } from 'vitest';
import { messageHashOf } from './message-hash.js';

const ACCOUNT = '0x02919439a098e6006c1ad7c094ef3b47009ddf1d392c24d9df552aca1965ee8d';
const document = (nonce: string) => ({
  types: OutsideExecutionTypesV2,
  primaryType: 'OutsideExecution',
  domain: {
    name: 'Account.execute_from_outside',
    version: '2',
    chainId: '0x534e5f5345504f4c4941',
    revision: '1',
  },
  message: {
    Caller: '0x414e595f43414c4c4552',
    Nonce: nonce,
    'Execute After': '0x1',
    'Execute Before': '0x6a0a7b00',
    Calls: [{ To: '0x123', Selector: '0x456', Calldata: ['0x1', '0x2'] }],
  },
});

describe('messageHashOf', () => {
  it("is starknet.js's message hash, for the same and for an equal account spelling", () => {
    const doc = document('0x99');
    const expected = typedData.getMessageHash(doc as never, ACCOUNT);
    expect(messageHashOf(doc, ACCOUNT)).toBe(expected);
    expect(messageHashOf(doc, ACCOUNT)).toBe(expected);
    expect(messageHashOf(structuredClone(doc), `0x${ACCOUNT.slice(3)}`)).toBe(expected);
  });

  it('a changed document or another account is hashed again, never answered from memory', () => {
    const doc = document('0x99');
    const first = messageHashOf(doc, ACCOUNT);
    doc.message.Nonce = '0x9a';
    const changed = messageHashOf(doc, ACCOUNT);
    expect(changed).not.toBe(first);
    expect(changed).toBe(typedData.getMessageHash(doc as never, ACCOUNT));
    expect(messageHashOf(doc, '0x1234')).toBe(typedData.getMessageHash(doc as never, '0x1234'));
  });
});
