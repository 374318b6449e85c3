/**
 * Pragma's on-chain price oracle, the independent price both sides need (docs/contracts.md
 * "F. Pragma oracle", issue 33): where it sits per network, the spot pair that prices each registry
 * token in USD, the views the client asks, their Cairo signatures (judged against the official
 * ABI in shared/abi/pragma-oracle.json, astraly-labs/pragma-oracle b02ad9e4,
 * pragma-oracle/src/oracle/oracle.cairo `IPragmaABI`, pragma-oracle/src/entry/structs.cairo), and
 * the decoding of its `PragmaPricesResponse`.
 *
 * `get_data_median(DataType)` takes the enum `DataType` serialised as its variant index and
 * payload: `SpotEntry(pair_id)` is `[0, pair_id]`, the pair id a short string such as 'ETH/USD'.
 * It answers `PragmaPricesResponse { price: u128, decimals: u32, last_updated_timestamp: u64,
 * num_sources_aggregated: u32, expiration_timestamp: Option<u64> }`: 5 or 6 felts (an `Option`
 * is its variant index, `Some` = 0 followed by the value, `None` = 1). A pair with no entries
 * answers price 0, decimals 0, timestamp 0, no sources and `Some(0)` (oracle.cairo
 * `get_data_for_sources`): no price.
 */
import { shortString } from 'starknet';
import type { EntrypointSignature, Signatures } from './entrypoints.js';
import { selectorsOf } from './erc20.js';
import { type Network, parseAddress, type Token } from './tokens.js';

/**
 * Pragma's oracle per network (issue 33; mainnet's is also the `pragma.oracle` of vesuxyz/vesu-v2
 * deployment.json at d4b21c8c). A sandbox shaped like a network serves one at the same address.
 */
export const PRAGMA_ORACLE: Readonly<Record<Network, string>> = Object.freeze({
  mainnet: parseAddress('0x02a85bd616f912537c50a49a4076db02c00b29b2cdc8a197ce92ed1837fa875b'),
  sepolia: parseAddress('0x036031daa264c24520b11d93af622c848b2499b66b41d611bac95e13cfca131a'),
});

/**
 * The USD spot pair that prices each registry symbol. Bridged USDC (USDC.e) is priced by USDC's
 * pair; a symbol without a pair here has no oracle price.
 */
const PAIRS: Readonly<Record<string, string>> = Object.freeze({
  ETH: 'ETH/USD',
  STRK: 'STRK/USD',
  WBTC: 'WBTC/USD',
  USDC: 'USDC/USD',
  'USDC.e': 'USDC/USD',
  USDT: 'USDT/USD',
  DAI: 'DAI/USD',
});

/** The spot pair id (short string) that prices `token` in USD, or undefined when there is none. */
export function pragmaPairOf(token: Pick<Token, 'symbol'>): string | undefined {
  return PAIRS[token.symbol];
}

/** A pair id as the felt the oracle takes. */
export const pairIdFelt = (pair: string): bigint => BigInt(shortString.encodeShortString(pair));

/** `DataType::SpotEntry(pair_id)` as calldata. */
export const spotEntryCalldata = (pair: string): bigint[] => [0n, pairIdFelt(pair)];

/** The views the client asks of the oracle (astraly-labs/pragma-oracle b02ad9e4, `IPragmaABI`). */
export const PRAGMA_ENTRYPOINT = Object.freeze({
  /** (DataType) → PragmaPricesResponse: the median of the pair's sources */
  get_data_median: 'get_data_median',
} as const);

const DATA_TYPE = 'pragma::entry::structs::DataType';
const sig = (inputs: readonly string[], outputs: readonly string[]): EntrypointSignature =>
  Object.freeze({ inputs: Object.freeze([...inputs]), outputs: Object.freeze([...outputs]) });

export const PRAGMA_SIGNATURE: Signatures<typeof PRAGMA_ENTRYPOINT> = Object.freeze({
  get_data_median: sig([DATA_TYPE], ['pragma::entry::structs::PragmaPricesResponse']),
});

export const PRAGMA_SELECTOR = selectorsOf(PRAGMA_ENTRYPOINT);

/** The same interface's other views the sandbox serves (never asked by the client). */
export const PRAGMA_OTHER_ENTRYPOINT = Object.freeze({
  get_decimals: 'get_decimals',
  get_data: 'get_data',
} as const);
export const PRAGMA_OTHER_SELECTOR = selectorsOf(PRAGMA_OTHER_ENTRYPOINT);

/** The decimals Pragma's USD spot pairs carry. */
export const PRAGMA_USD_DECIMALS = 8;

export interface PragmaPrice {
  /** the median, with `decimals` decimals (USD per whole token) */
  price: bigint;
  decimals: number;
  /** unix seconds */
  lastUpdated: bigint;
  sources: number;
}

const U32 = 1n << 32n;
const U64 = 1n << 64n;
const U128 = 1n << 128n;

/**
 * A `PragmaPricesResponse` from its felts, or undefined when they are not one (a value out of
 * its type's range, a bad `Option`, extra or missing felts): a garbled answer is no price.
 */
export function decodePragmaResponse(felts: readonly bigint[]): PragmaPrice | undefined {
  const [price, decimals, lastUpdated, sources, variant, expiration] = felts;
  if (
    price === undefined ||
    decimals === undefined ||
    lastUpdated === undefined ||
    sources === undefined ||
    variant === undefined
  )
    return undefined;
  if (price >= U128 || decimals >= U32 || lastUpdated >= U64 || sources >= U32) return undefined;
  if (variant === 0n) {
    if (felts.length !== 6 || expiration === undefined || expiration >= U64) return undefined;
  } else if (variant !== 1n || felts.length !== 5) return undefined;
  return { price, decimals: Number(decimals), lastUpdated, sources: Number(sources) };
}

/** The response's felts (the sandbox's answer): a spot answer carries `Some(0)` as the real oracle's does. */
export function encodePragmaResponse(p: PragmaPrice): bigint[] {
  return [p.price, BigInt(p.decimals), p.lastUpdated, BigInt(p.sources), 0n, 0n];
}
