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
import { Point, Signature, sign, verify } from '@scure/starknet';
import { CairoCustomEnum, CairoOption, CairoOptionVariant, CallData } from 'starknet';
import { AppError, ErrorCode } from './errors.js';
import { feltHex, hexValue, MAX_SIGNABLE_HASH, SIGNATURE_HEX } from './felt.js';
import { pedersen } from './pedersen.js';

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
/**
 * Addresses read back from a store (keepAddressesIn), apart from those computed here: an address
 * asked for without the store (argentAccountAddressInMemory) never meets one.
 */
const readBack = new Map<string, string>();
const ADDRESS_CACHE_MAX = 256;

/**
 * Where addresses computed by an earlier process are kept (the client's data folder:
 * cli/core/address-memo.ts; docs/decisions.md "Hashing once per account"). It is handed only what
 * argentAccountAddress computed, and what it gives back is used as if computed here: it must be
 * as private as the session it serves.
 */
export interface AddressStore {
  read(pubkey: string): string | undefined;
  write(pubkey: string, address: string): void;
}
let addressStore: AddressStore | undefined;

/** Keeps addresses across processes in `store` from now on (undefined: in memory only). */
export function keepAddressesIn(store: AddressStore | undefined): void {
  addressStore = store;
}

function remember(pubkey: string, address: string, memo = addresses): string {
  if (memo.size >= ADDRESS_CACHE_MAX) memo.delete(memo.keys().next().value as string);
  memo.set(pubkey, address);
  return address;
}

/** The stored address of `pubkey` when it is one (a felt below 2^251, written form), else undefined. */
function storedAddress(pubkey: string, store: AddressStore | undefined): string | undefined {
  const stored = store?.read(pubkey);
  if (stored === undefined || !/^0x[0-9a-f]{64}$/.test(stored) || BigInt(stored) >= ADDRESS_BOUND)
    return undefined;
  return remember(pubkey, stored, readBack);
}

/** 'STARKNET_CONTRACT_ADDRESS' as a felt: the first element of a contract address's hash. */
const CONTRACT_ADDRESS_PREFIX = BigInt(
  `0x${Buffer.from('STARKNET_CONTRACT_ADDRESS', 'ascii').toString('hex')}`,
);
/** Addresses are reduced below 2^251 − 256 (L2_ADDRESS_UPPER_BOUND). */
const ADDRESS_BOUND = 2n ** 251n - 256n;

/**
 * A Pedersen hash chain (`computeHashOnElements`: pedersen folded over [0, ...data, data.length])
 * whose first elements are the same for every account of the class, started from their known
 * state: `state` is the chain over 0 and `prefix`. Three of an address's ten hashes are such
 * constants (docs/decisions.md "Hashing once per command"); shared/starknet.test.ts recomputes
 * each state and holds the address equal to starknet.js's.
 */
interface ChainPrefix {
  prefix: readonly bigint[];
  state: bigint;
}

/** The constructor calldata's chain over [0, Starknet variant 0]: pedersen(0, 0). */
export const CALLDATA_CHAIN_PREFIX: ChainPrefix = {
  prefix: [0n],
  state: 0x49ee3eba8c1600700ee1b87eb599f16716b0b1022947733551fde4050ca6804n,
};

/** The address's chain over [0, 'STARKNET_CONTRACT_ADDRESS', deployer 0]. */
export const ADDRESS_CHAIN_PREFIX: ChainPrefix = {
  prefix: [CONTRACT_ADDRESS_PREFIX, 0n],
  state: 0x2fded809d413d52f262acd526c5c64d42a20f8295e87773f781c6febdbbdb84n,
};

/** computeHashOnElements(data), from `known`'s state when data starts with its prefix. */
export function hashChain(data: readonly bigint[], known?: ChainPrefix): bigint {
  const from =
    known !== undefined &&
    known.prefix.length <= data.length &&
    known.prefix.every((element, i) => data[i] === element);
  let state = from ? known.state : 0n;
  for (const element of data.slice(from ? known.prefix.length : 0))
    state = pedersen(state, element);
  return pedersen(state, BigInt(data.length));
}

/**
 * The address `deploy_syscall(classHash, salt, calldata, deploy_from_zero = false)` gives a contract
 * deployed by `deployer` (0 for a counterfactual account): starknet.js's
 * calculateContractAddressFromHash — Pedersen over [prefix, deployer, salt, class hash,
 * Pedersen(calldata)], reduced below 2^251 − 256 — computed with shared/pedersen.ts's Pedersen, on
 * @scure/starknet's curve code, which the client has loaded already (starknet.js pins an older
 * copy; docs/decisions.md "Hashing once per command", "One Pedersen, on fixed-base tables").
 * shared/starknet.test.ts holds it equal to starknet.js's.
 */
export function deployedAddress(
  deployer: bigint,
  salt: bigint,
  classHash: bigint,
  calldata: readonly bigint[],
): string {
  // the chains start from their known states where they begin as an account's do (hashChain)
  const calldataHash = hashChain(calldata, CALLDATA_CHAIN_PREFIX);
  const raw = hashChain(
    [CONTRACT_ADDRESS_PREFIX, deployer, salt, classHash, calldataHash],
    ADDRESS_CHAIN_PREFIX,
  );
  return feltHex(raw % ADDRESS_BOUND);
}

/**
 * deployedAddress for constructor calldata `[...head, last]`, one address for each of `lasts`,
 * in order: what the addresses share (the calldata's chain over `head`, the address's chain up to
 * the class hash) is hashed once, so each further candidate costs 4 Pedersen hashes instead of
 * the whole chains (a vToken's candidate debt assets, shared/vesu.ts vTokenDebtAsset).
 */
export function deployedAddressesByLast(
  deployer: bigint,
  salt: bigint,
  classHash: bigint,
  head: readonly bigint[],
  lasts: readonly bigint[],
): string[] {
  const fold = (prefix: readonly bigint[]): ChainPrefix => ({
    prefix,
    state: prefix.reduce((state, element) => pedersen(state, element), 0n),
  });
  const calldata = fold(head);
  const addressHead = [CONTRACT_ADDRESS_PREFIX, deployer, salt, classHash];
  const address = fold(addressHead);
  return lasts.map((last) => {
    const calldataHash = hashChain([...head, last], calldata);
    return feltHex(hashChain([...addressHead, calldataHash], address) % ADDRESS_BOUND);
  });
}

/**
 * Counterfactual address of the ArgentX v0.5.0 account owned by `publicKey` (salt = key,
 * deployer 0), computed once per key (deployedAddress): remembered in memory, and across
 * processes where a store has been given (keepAddressesIn).
 */
export function argentAccountAddress(publicKey: string): string {
  return accountAddress(publicKey, addressStore);
}

/**
 * The same address, remembered in this process's memory only: never read from nor written to the
 * store keepAddressesIn gave, which is a client's data folder (the client that set it last in
 * this process). For the emulators, which make and check accounts of every client: the sandbox
 * may run in a process that also runs client commands (the process tests' workers:
 * docs/decisions.md "Sandboxes in the worker where they are the set-up").
 */
export function argentAccountAddressInMemory(publicKey: string): string {
  return accountAddress(publicKey, undefined);
}

function accountAddress(publicKey: string, store: AddressStore | undefined): string {
  const pubkey = padHash(publicKey);
  const known =
    addresses.get(pubkey) ??
    (store === undefined ? undefined : (readBack.get(pubkey) ?? storedAddress(pubkey, store)));
  if (known !== undefined) return known;
  const address = remember(
    pubkey,
    deployedAddress(
      0n,
      BigInt(pubkey),
      BigInt(ARGENT_X_V050_CLASS_HASH),
      argentAccountConstructorCalldata(pubkey).map(BigInt),
    ),
  );
  store?.write(pubkey, address);
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

/** base^exponent mod m, square-and-multiply. */
function powMod(base: bigint, exponent: bigint, m: bigint): bigint {
  let result = 1n;
  let b = base % m;
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % m;
    b = (b * b) % m;
  }
  return result;
}

/**
 * A square root of `n` modulo the odd prime `p` (Cipolla's algorithm), or undefined when there is
 * none. Stark's p − 1 is divisible by 2^192, which makes the Tonelli–Shanks loop the curve
 * library uses to decompress a key cost about as much as the rest of a verification; Cipolla's
 * costs two exponentiations. The answer is checked by squaring before it is returned.
 */
function sqrtMod(n: bigint, p: bigint): bigint | undefined {
  const value = ((n % p) + p) % p;
  if (value === 0n) return 0n;
  const half = (p - 1n) / 2n;
  if (powMod(value, half, p) !== 1n) return undefined;
  // a with a² − n a non-residue (half of all a are; the first few almost always do)
  let a = 1n;
  let w = (a * a - value + p) % p;
  while (powMod(w, half, p) !== p - 1n) {
    a += 1n;
    w = (((a * a - value) % p) + p) % p;
  }
  // (a + √w)^((p + 1) / 2) in F_p(√w)
  let [r0, r1] = [1n, 0n];
  let [b0, b1] = [a, 1n];
  for (let e = (p + 1n) / 2n; e > 0n; e >>= 1n) {
    if (e & 1n) [r0, r1] = [(r0 * b0 + ((r1 * b1) % p) * w) % p, (r0 * b1 + r1 * b0) % p];
    [b0, b1] = [(b0 * b0 + ((b1 * b1) % p) * w) % p, (2n * b0 * b1) % p];
  }
  return (r0 * r0) % p === value ? r0 : undefined;
}

/**
 * The two curve points with x coordinate `x` (y and p − y), as uncompressed keys (04 ‖ x ‖ y),
 * or none when x is on no point; remembered per x (a command checks every signature of its one
 * account against the same key).
 */
const pointsByX = new Map<string, string[]>();
function pointsWithX(xHex: string): string[] {
  const known = pointsByX.get(xHex);
  if (known !== undefined) return known;
  const { a, b, p } = Point.CURVE();
  const x = BigInt(`0x${xHex}`);
  const y = x < p ? sqrtMod(x * x * x + a * x + b, p) : undefined;
  const hex64 = (v: bigint): string => v.toString(16).padStart(64, '0');
  const points = y === undefined ? [] : [y, (p - y) % p].map((v) => `04${xHex}${hex64(v)}`);
  if (pointsByX.size >= 256) pointsByX.delete(pointsByX.keys().next().value as string);
  pointsByX.set(xHex, points);
  return points;
}

/**
 * Where the client keeps which of a key's two points (the parity of its y) its signatures verify
 * against: a Stark public key is only x, it names two points, and a wallet's signatures always
 * verify against the same one. Tried first, it spares the other point's full verification (~10
 * ms, on every money command for half the keys: docs/decisions.md "A key's point tried first").
 * It orders the tries and nothing else: every signature is still verified, against either point.
 * The client keeps it with the addresses (cli/core/address-memo.ts); the server keeps none.
 */
export interface KeyPointStore {
  read(pubkey: string): KeyParity | undefined;
  write(pubkey: string, parity: KeyParity): void;
}
export type KeyParity = 'even' | 'odd';
let keyPointStore: KeyPointStore | undefined;

/** Keeps the parity of each key's verifying point in `store` from now on (undefined: none). */
export function keepKeyPointsIn(store: KeyPointStore | undefined): void {
  keyPointStore = store;
}

/** The parity of an uncompressed point's y (its last hex digit). */
const parityOf = (point: string): KeyParity =>
  Number.parseInt(point.slice(-1), 16) % 2 === 1 ? 'odd' : 'even';

/**
 * Checks an r‖s signature over `hashHex` against a Stark public key given as its x coordinate
 * (what the provider calls public_key). Malformed input is simply "not valid", never a throw.
 * Both points with that x are tried (y and −y): the account contract's check_ecdsa_signature
 * accepts either; the one the key's signatures verified against before first (KeyPointStore).
 * The points are found with one square root (sqrtMod), not one per parity by the curve library's
 * slower one; the library still checks each is on the curve and verifies.
 */
export function verifyStarkSignature(
  hashHex: string,
  signature: string,
  publicKey: string,
): boolean {
  try {
    const [r, s] = splitSignature(signature);
    const message = padHash(hashHex);
    const key = padHash(publicKey);
    const parsed = new Signature(BigInt(r), BigInt(s));
    const points = pointsWithX(key.slice(2));
    const preferred = keyPointStore?.read(key);
    // the point the key's signatures verified against last time first (KeyPointStore)
    const ordered =
      points.length === 2 && parityOf(points[1]!) === preferred ? [points[1]!, points[0]!] : points;
    for (const point of ordered) {
      try {
        if (verify(parsed, message, point)) {
          if (parityOf(point) !== preferred) keyPointStore?.write(key, parityOf(point));
          return true;
        }
      } catch {
        // out-of-range values
      }
    }
    return false;
  } catch {
    return false;
  }
}
