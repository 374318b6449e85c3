/**
 * Stark field facts and the felt's spellings, each in one place and free of imports (the quote
 * path loads this). Every check of a `0x` + hex string in the repo reads its pattern from here
 * (docs/architecture.md "Layout").
 */

/** The Stark field prime P = 2^251 + 17·2^192 + 1: a felt is an integer in [0, P). */
export const STARK_PRIME = 2n ** 251n + 17n * 2n ** 192n + 1n;

/** Stark ECDSA signs message hashes in [0, 2^251) only. */
export const MAX_SIGNABLE_HASH = 2n ** 251n - 1n;

/** Starknet contract addresses lie in [0, 2^251); zero is no contract. */
export const ADDRESS_BOUND = 1n << 251n;

/**
 * A felt in hex as it is read (from people, files, our API and outside services): `0x` (or
 * `0X`: sources differ) and 1–64 hex digits of either case. A pattern string for schemas.
 */
export const FELT_HEX_PATTERN = '^0[xX][0-9a-fA-F]{1,64}$';
export const FELT_HEX = new RegExp(FELT_HEX_PATTERN);

/** A felt as this repo writes it (feltHex): `0x` and exactly 64 lower-case hex digits. */
export const FELT_HEX64_PATTERN = '^0x[0-9a-f]{64}$';
const FELT_HEX64 = new RegExp(FELT_HEX64_PATTERN);

/** A Stark signature as one string, r‖s: `0x` and 128 lower-case hex digits (the API's form). */
export const SIGNATURE_HEX_PATTERN = '^0x[0-9a-f]{128}$';
export const SIGNATURE_HEX = new RegExp(SIGNATURE_HEX_PATTERN);

/** A felt as JSON-RPC and calldata carry it: 0x-hex as above, or 1–78 decimal digits. */
export const FELT_TEXT_PATTERN = '^(0[xX][0-9a-fA-F]{1,64}|[0-9]{1,78})$';
export const FELT_TEXT = new RegExp(FELT_TEXT_PATTERN);

/** The one written form of a felt: `0x` + 64 lower-case hex digits (value must be ≥ 0). */
export function feltHex(value: bigint): string {
  return `0x${value.toString(16).padStart(64, '0')}`;
}

/** A felt written as 0x-hex or decimal (FELT_TEXT_PATTERN) below P, or undefined. */
export function parseFelt(value: unknown): bigint | undefined {
  if (typeof value !== 'string' || value.length > 80 || !FELT_TEXT.test(value)) return undefined;
  const felt = BigInt(value);
  return felt < STARK_PRIME ? felt : undefined;
}

/**
 * The value of 0x-hex text as typed or sent: surrounding whitespace and any number of leading
 * zeros are allowed (sources and people pad differently), then FELT_HEX. Undefined for anything
 * else (empty, decimal, 65 significant digits). No field bound: see parseHexFelt.
 */
export function hexValue(text: unknown): bigint | undefined {
  if (typeof text !== 'string' || text.length > 200) return undefined;
  // the written form (feltHex), most text read back, needs no trimming or unpadding
  if (text.length === 66 && FELT_HEX64.test(text)) return BigInt(text);
  const unpadded = text.trim().replace(/^(0[xX])0+(?=[0-9a-fA-F])/, '$1');
  return FELT_HEX.test(unpadded) ? BigInt(unpadded) : undefined;
}

/** A felt typed or sent as 0x-hex (hexValue), below P; undefined otherwise. */
export function parseHexFelt(text: unknown): bigint | undefined {
  const value = hexValue(text);
  return value !== undefined && value < STARK_PRIME ? value : undefined;
}
