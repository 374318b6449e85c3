/**
 * The SNIP-12 (revision 1) message hash of a SNIP-9 v2 outside execution, the one document a money
 * command signs (execute.ts `checkTypedData` refuses any other types): the same hash as
 * starknet.js's `typedData.getMessageHash`, computed without its generic encoder. Its three type
 * hashes are fixed by the types, so they are numbers here rather than a keccak each per command,
 * and its Poseidon is shared/poseidon.ts's (docs/benchmarks.md "Issue 35, sixth round").
 *
 * Only a document whose every value is in the plain form the paymaster sends is hashed here; for
 * anything else (`undefined`) the caller asks starknet.js, which answers or refuses as it always
 * did. What is accepted is read as starknet.js reads it: felts, addresses and u128s are 0x-hex or
 * decimal text below their bound (shared/felt.ts `parseFelt`); a selector is 0x-hex (starknet.js
 * hashes any other text as a name); a domain field is a whole number, number text, or printable
 * ASCII text of 1–31 characters (a short string). outside-hash.test.ts holds the hash equal to
 * starknet.js's on random documents and the refusals equal to its.
 */
import { OutsideExecutionTypesV2 } from 'starknet';
import { FELT_HEX, FELT_TEXT, parseFelt, STARK_PRIME } from '../../../shared/felt.js';
import { poseidonHashMany } from '../../../shared/poseidon.js';

/**
 * sn_keccak of each type's SNIP-12 encoding, as OpenZeppelin's Cairo code writes them
 * (packages/utils/src/cryptography/snip12.cairo `STARKNET_DOMAIN_TYPE_HASH`;
 * packages/account/src/extensions/src9/snip12_utils.cairo `OUTSIDE_EXECUTION_TYPE_HASH`,
 * `CALL_TYPE_HASH`); the test recomputes them with starknet.js.
 */
export const STARKNET_DOMAIN_TYPE_HASH =
  0x1ff2f602e42168014d405a94f75e8a93d640751d71d16311266e140d8b0a210n;
export const OUTSIDE_EXECUTION_TYPE_HASH =
  0x312b56c05a7965066ddbda31c016d8d05afc305071c0ca3cdc2192c3c2f1f0fn;
export const CALL_TYPE_HASH = 0x3635c7f2a7ba93844c0d064e18e487f35ab90f7c39d00f186a781fc3f0c2ca9n;
/** 'StarkNet Message' as a short string, the message hash's first element */
const STARKNET_MESSAGE = 0x537461726b4e6574204d657373616765n;

const TYPES_V2 = JSON.stringify(OutsideExecutionTypesV2);
const U128_BOUND = 1n << 128n;
const SHORT_TEXT = /^[\x20-\x7e]{1,31}$/;

type Record_ = Record<string, unknown>;
const isRecord = (value: unknown): value is Record_ =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A domain field (shortstring) as starknet.js's getHex reads it, below P; else undefined. */
function shortstring(value: unknown): bigint | undefined {
  let felt: bigint | undefined;
  if (typeof value === 'number') felt = Number.isSafeInteger(value) ? BigInt(value) : undefined;
  else if (typeof value !== 'string') felt = undefined;
  else if (FELT_TEXT.test(value)) felt = BigInt(value);
  // text BigInt refuses is a short string: one byte per character (printable, so two hex digits)
  else if (SHORT_TEXT.test(value) && !isBigIntText(value))
    felt = BigInt(`0x${Buffer.from(value, 'latin1').toString('hex')}`);
  return felt !== undefined && felt >= 0n && felt < STARK_PRIME ? felt : undefined;
}

/** Text BigInt() reads as a number (whitespace, 0b/0o prefixes): starknet.js would too. */
function isBigIntText(value: string): boolean {
  try {
    BigInt(value);
    return true;
  } catch {
    return false;
  }
}

const u128 = (value: unknown): bigint | undefined => {
  const felt = parseFelt(value);
  return felt !== undefined && felt < U128_BOUND ? felt : undefined;
};

const selector = (value: unknown): bigint | undefined =>
  typeof value === 'string' && FELT_HEX.test(value) && BigInt(value) < STARK_PRIME
    ? BigInt(value)
    : undefined;

function callHash(call: unknown): bigint | undefined {
  if (!isRecord(call) || !Array.isArray(call.Calldata)) return undefined;
  const to = parseFelt(call.To);
  const entry = selector(call.Selector);
  const calldata: bigint[] = [];
  for (const item of call.Calldata as unknown[]) {
    const felt = parseFelt(item);
    if (felt === undefined) return undefined;
    calldata.push(felt);
  }
  if (to === undefined || entry === undefined) return undefined;
  return poseidonHashMany([CALL_TYPE_HASH, to, entry, poseidonHashMany(calldata)]);
}

function domainHash(domain: unknown): bigint | undefined {
  if (!isRecord(domain) || domain.revision === undefined || String(domain.revision) !== '1')
    return undefined;
  const fields = [domain.name, domain.version, domain.chainId, domain.revision].map(shortstring);
  if (fields.some((field) => field === undefined)) return undefined;
  return poseidonHashMany([STARKNET_DOMAIN_TYPE_HASH, ...(fields as bigint[])]);
}

function messageStructHash(message: unknown): bigint | undefined {
  if (!isRecord(message) || !Array.isArray(message.Calls)) return undefined;
  const fields = [
    parseFelt(message.Caller),
    parseFelt(message.Nonce),
    u128(message['Execute After']),
    u128(message['Execute Before']),
  ];
  const calls = (message.Calls as unknown[]).map(callHash);
  if (fields.some((field) => field === undefined) || calls.some((call) => call === undefined))
    return undefined;
  return poseidonHashMany([
    OUTSIDE_EXECUTION_TYPE_HASH,
    ...(fields as bigint[]),
    poseidonHashMany(calls as bigint[]),
  ]);
}

/**
 * The message hash of an outside execution for `account`, written as starknet.js writes it
 * (0x and lower-case hex, no padding), or undefined when the document is not one this file
 * reads (see above).
 */
export function outsideExecutionHash(typed: unknown, account: string): string | undefined {
  if (!isRecord(typed) || typed.primaryType !== 'OutsideExecution') return undefined;
  if (JSON.stringify(typed.types) !== TYPES_V2) return undefined;
  const accountFelt = parseFelt(account);
  const domain = domainHash(typed.domain);
  const message = messageStructHash(typed.message);
  if (accountFelt === undefined || domain === undefined || message === undefined) return undefined;
  return `0x${poseidonHashMany([STARKNET_MESSAGE, domain, accountFelt, message]).toString(16)}`;
}
