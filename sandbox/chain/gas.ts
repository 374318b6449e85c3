/**
 * The sandbox chain's fee model, in integer math.
 *
 * Gas is a fixed function of what a transaction does (not measured), so a fee estimated at
 * build time is exactly the fee charged at execution unless the gas price moved in between:
 *   L2 gas      = 1 000 000 + 300 000 per call + 200 000 per router swap step + 2 500 000 to deploy
 *   L1 data gas = 128 + 64 per call + 256 to deploy;  L1 gas = 0
 * fee (fri, 1e-18 STRK) = L2 gas × L2 price + L1 data gas × L1 data price. At the default prices a
 * one-transfer paymaster transaction (the transfer + the fee transfer) costs 0.016 STRK.
 *
 * Token prices in STRK come from the pools (the aggregator's arbitraged market): price_in_strk
 * of a token is what one whole token (10^decimals base units) is worth in fri.
 */
import { selectorOf } from '../../shared/erc20.js';
import { ROUTER_ADDRESS } from '../../shared/swap-calldata.js';
import { resolveToken, type Token } from '../../shared/tokens.js';
import type { Pool } from '../aggregator/pools.js';
import { spotPrices } from '../aggregator/router.js';

export interface GasPrices {
  /** fri per L1 gas */
  l1: bigint;
  /** fri per L1 data gas */
  l1Data: bigint;
  /** fri per L2 gas */
  l2: bigint;
}

export const DEFAULT_GAS_PRICES: Readonly<GasPrices> = Object.freeze({
  l1: 30_000_000_000_000n,
  l1Data: 1_000_000_000_000n,
  l2: 10_000_000_000n,
});

export interface GasUsage {
  l1: bigint;
  l1Data: bigint;
  l2: bigint;
}

const L2_BASE = 1_000_000n;
const L2_PER_CALL = 300_000n;
const L2_PER_SWAP_STEP = 200_000n;
const L2_DEPLOY = 2_500_000n;
const L1_DATA_BASE = 128n;
const L1_DATA_PER_CALL = 64n;
const L1_DATA_DEPLOY = 256n;

const ROUTER = BigInt(ROUTER_ADDRESS);
const SWAP = selectorOf('swap');

export function gasUsage(
  calls: ReadonlyArray<{ to: bigint; selector: bigint; calldata: readonly bigint[] }>,
  deploy: boolean,
): GasUsage {
  let steps = 0n;
  for (const call of calls) {
    // a router swap costs per pool step (its calldata starts with swaps_len); bounded by the call size
    if (call.to === ROUTER && call.selector === SWAP) {
      const declared = call.calldata[0] ?? 0n;
      steps += declared < BigInt(call.calldata.length) ? declared : 0n;
    }
  }
  const count = BigInt(calls.length);
  return {
    l1: 0n,
    l1Data: L1_DATA_BASE + L1_DATA_PER_CALL * count + (deploy ? L1_DATA_DEPLOY : 0n),
    l2: L2_BASE + L2_PER_CALL * count + L2_PER_SWAP_STEP * steps + (deploy ? L2_DEPLOY : 0n),
  };
}

export function feeInFri(usage: GasUsage, prices: GasPrices): bigint {
  return usage.l1 * prices.l1 + usage.l1Data * prices.l1Data + usage.l2 * prices.l2;
}

const STRK_UNIT = 10n ** 18n;

/** price_in_strk of every token the pools can price: fri per whole token. */
export function pricesInStrk(pools: readonly Pool[]): Map<string, bigint> {
  const usd = spotPrices(pools, resolveToken('mainnet', 'USDC').address);
  const strk = resolveToken('mainnet', 'STRK').address;
  const strkUsd = usd.get(strk);
  const out = new Map<string, bigint>();
  if (strkUsd === undefined || strkUsd === 0n) return out;
  for (const [address, price] of usd) {
    // STRK itself is exactly one STRK, whatever the rounding of its USD price
    out.set(address, address === strk ? STRK_UNIT : (price * STRK_UNIT) / strkUsd);
  }
  return out;
}

const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

/** A fee in fri → base units of `token` at `priceInStrk`, rounded up (the paymaster is never short). */
export function friToToken(fri: bigint, token: Token, priceInStrk: bigint): bigint {
  if (priceInStrk <= 0n) throw new RangeError('price must be positive');
  return ceilDiv(fri * 10n ** BigInt(token.decimals), priceInStrk);
}

/** The suggested maximum: the estimate plus half, rounded up. */
export const suggestedMax = (estimate: bigint): bigint => ceilDiv(estimate * 3n, 2n);
