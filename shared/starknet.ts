/**
 * Stark-curve helpers shared by the identity emulator, the auth server and the client.
 *
 * Account address (verified Nov 2026, see shared/starknet.test.ts):
 * the identity provider's Starknet wallets are ArgentX ("Ready") v0.5.0 accounts. Privy's own
 * "use tier 2 chains → Starknet" recipe computes the address as
 *   calculateContractAddressFromHash(publicKey, CLASS_HASH_V0_5_0,
 *     CallData.compile({ owner: new CairoCustomEnum({ Starknet: { pubkey } }),
 *                        guardian: new CairoOption(CairoOptionVariant.None) }), 0)
 * and starkzap's ArgentXV050Preset and starknet-rs' ArgentAccountFactory (v0.4 constructor,
 * `owner: Signer::Starknet(felt)`, `guardian: Option<Signer>`) encode the same calldata:
 * enum variant 0 + pubkey, then Option::None = 1, i.e. [0, pubkey, 1]. The test recomputes the
 * address from scratch with @scure/starknet's Pedersen to pin both the calldata and the hash.
 */
import { computeHashOnElements, Signature, sign, verify } from '@scure/starknet';
import { CairoCustomEnum, CairoOption, CairoOptionVariant, CallData } from 'starknet';
import { AppError, ErrorCode } from './errors.js';
import { feltHex, hexValue, MAX_SIGNABLE_HASH, SIGNATURE_HEX } from './felt.js';

/** ArgentX v0.5.0 account class (argent-contracts-starknet deployments/account.txt). */
export const ARGENT_X_V050_CLASS_HASH =
  '0x073414441639dcd11d1846f287650a00c60c416b9d3ba45d31c651672125b2c2';

const MAX_BITS = 252;

function invalid(message: string): AppError {
  return new AppError(ErrorCode.VALIDATION_ERROR, message);
}

/**
 * Normalises a 0x-hex felt (hash, key or address) to 0x + 64 lower-case hex digits.
 * Throws AppError VALIDATION_ERROR for anything that is not hex or is wider than 252 bits.
 */
export function padHash(hex: string): string {
  const value = hexValue(hex);
  if (value === undefined) throw invalid('expected a 0x-prefixed hex value');
  if (value.toString(2).length > MAX_BITS) throw invalid('hex value is wider than 252 bits');
  return feltHex(value);
}

/** Constructor calldata of an ArgentX v0.5.0 account with a Starknet owner key and no guardian. */
export function argentAccountConstructorCalldata(publicKey: string): string[] {
  const pubkey = padHash(publicKey);
  return CallData.compile({
    owner: new CairoCustomEnum({ Starknet: { pubkey } }),
    guardian: new CairoOption<unknown>(CairoOptionVariant.None),
  });
}

/**
 * Addresses already computed, by padded key: a command checks its session's address, builds its
 * account and its deployment from the same key, and each is a dozen Pedersen hashes
 * (docs/benchmarks.md "A trade's CPU"). Bounded, for the server's many users.
 */
const addresses = new Map<string, string>();
const ADDRESS_CACHE_MAX = 256;

/** 'STARKNET_CONTRACT_ADDRESS' as a felt: the first element of a contract address's hash. */
const CONTRACT_ADDRESS_PREFIX = BigInt(
  `0x${Buffer.from('STARKNET_CONTRACT_ADDRESS', 'ascii').toString('hex')}`,
);
/** Addresses are reduced below 2^251 − 256 (L2_ADDRESS_UPPER_BOUND). */
const ADDRESS_BOUND = 2n ** 251n - 256n;

/**
 * Counterfactual address of the ArgentX v0.5.0 account owned by `publicKey` (salt = key,
 * deployer 0): starknet.js's calculateContractAddressFromHash — Pedersen over [prefix, deployer,
 * salt, class hash, Pedersen(calldata)], reduced below 2^251 − 256 — computed with
 * @scure/starknet's Pedersen, the curve code the client has loaded already (starknet.js pins an
 * older copy whose Pedersen tables would be built for this one hash; docs/decisions.md "Hashing
 * once per command"). shared/starknet.test.ts holds it equal to starknet.js's.
 */
export function argentAccountAddress(publicKey: string): string {
  const pubkey = padHash(publicKey);
  const known = addresses.get(pubkey);
  if (known !== undefined) return known;
  // bigint in, 0x-hex out
  const calldataHash = computeHashOnElements(
    argentAccountConstructorCalldata(pubkey).map(BigInt),
  ) as string;
  const raw = computeHashOnElements([
    CONTRACT_ADDRESS_PREFIX,
    0n,
    BigInt(pubkey),
    BigInt(ARGENT_X_V050_CLASS_HASH),
    BigInt(calldataHash),
  ]) as string;
  const address = feltHex(BigInt(raw) % ADDRESS_BOUND);
  if (addresses.size >= ADDRESS_CACHE_MAX)
    addresses.delete(addresses.keys().next().value as string);
  addresses.set(pubkey, address);
  return address;
}

/** Splits a 64-byte r‖s signature (0x + 128 hex) into [r, s], each 0x + 64 lower-case hex. */
export function splitSignature(signature: string): [string, string] {
  const lower = typeof signature === 'string' ? signature.toLowerCase() : '';
  if (!SIGNATURE_HEX.test(lower)) throw invalid('expected a signature of 0x + 128 hex digits');
  const body = lower.slice(2);
  return [`0x${body.slice(0, 64)}`, `0x${body.slice(64)}`];
}

/** Joins r and s into the provider's wire form, 0x + 128 lower-case hex. */
export function joinSignature(r: bigint, s: bigint): string {
  return `${feltHex(r)}${feltHex(s).slice(2)}`;
}

/**
 * Signs a (padded or unpadded) 0x-hex hash with a Stark private key; returns 0x + 128 hex.
 * The hash must be below 2^251 (the Stark ECDSA message range); larger values throw VALIDATION_ERROR.
 */
export function signStarkHash(hashHex: string, privateKey: string): string {
  const padded = padHash(hashHex);
  if (BigInt(padded) > MAX_SIGNABLE_HASH)
    throw invalid('hash is outside the Stark signing range (must be < 2^251)');
  const signature = sign(padded, padHash(privateKey));
  return joinSignature(signature.r, signature.s);
}

/**
 * Checks an r‖s signature over `hashHex` against a Stark public key given as its x coordinate
 * (what the provider calls public_key). Malformed input is simply "not valid", never a throw.
 * Both y parities are tried: the account contract's check_ecdsa_signature accepts either point.
 */
export function verifyStarkSignature(
  hashHex: string,
  signature: string,
  publicKey: string,
): boolean {
  try {
    const [r, s] = splitSignature(signature);
    const message = padHash(hashHex);
    const x = padHash(publicKey).slice(2);
    const parsed = new Signature(BigInt(r), BigInt(s));
    for (const prefix of ['02', '03']) {
      try {
        if (verify(parsed, message, `${prefix}${x}`)) return true;
      } catch {
        // not a point on the curve with this parity, or out-of-range values
      }
    }
    return false;
  } catch {
    return false;
  }
}
