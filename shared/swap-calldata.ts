/**
 * The router's `swap` calldata (docs/contracts.md B): `swaps_len`, per swap
 * `token_in, token_out, rate (fraction × 1e6), protocol, pool_address`, then the tail
 * `token_in, token_out, amount_in.low, amount_in.high, min_received.low, min_received.high,
 * destination`. The emulator encodes with this module; the client decodes the tail to check it
 * against what the user confirmed before signing.
 */
import { parseFelt } from './felt.js';

const U128 = 1n << 128n;
export const RATE_ONE = 1_000_000n;

export interface CalldataSwap {
  tokenIn: string;
  tokenOut: string;
  /** share of token_in given to this swap, × 1e6 */
  rate: bigint;
  protocol: number;
  poolAddress: string;
}

export interface CalldataTail {
  tokenIn: bigint;
  tokenOut: bigint;
  amountIn: bigint;
  minReceived: bigint;
  destination: bigint;
}

function splitU256(value: bigint): [low: bigint, high: bigint] {
  if (value < 0n || value >= U128 * U128) throw new RangeError('not a u256');
  return [value % U128, value / U128];
}

const hex = (value: bigint): string => `0x${value.toString(16)}`;

/** A felt as the router layout writes it (0x-hex or decimal) → its value; RangeError otherwise. */
function felt(text: string): bigint {
  const value = parseFelt(text);
  if (value === undefined) throw new RangeError(`not a felt: ${text.slice(0, 80)}`);
  return value;
}

export function encodeSwapCalldata(swaps: readonly CalldataSwap[], tail: CalldataTail): string[] {
  const out: string[] = [swaps.length.toString()];
  for (const s of swaps) {
    out.push(
      hex(BigInt(s.tokenIn)),
      hex(BigInt(s.tokenOut)),
      s.rate.toString(),
      s.protocol.toString(),
      hex(BigInt(s.poolAddress)),
    );
  }
  const [amountLow, amountHigh] = splitU256(tail.amountIn);
  const [minLow, minHigh] = splitU256(tail.minReceived);
  out.push(
    hex(tail.tokenIn),
    hex(tail.tokenOut),
    amountLow.toString(),
    amountHigh.toString(),
    minLow.toString(),
    minHigh.toString(),
    hex(tail.destination),
  );
  return out;
}

/** Reads the last seven felts; throws RangeError when the calldata cannot be this layout. */
export function decodeSwapCalldataTail(calldata: readonly string[]): CalldataTail {
  if (calldata.length < 8) throw new RangeError('calldata too short for the router layout');
  const felts = calldata.slice(-7).map(felt);
  const [tokenIn, tokenOut, amountLow, amountHigh, minLow, minHigh, destination] = felts as [
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  if (amountLow >= U128 || amountHigh >= U128 || minLow >= U128 || minHigh >= U128)
    throw new RangeError('u256 half out of range');
  const first = calldata[0] ?? '';
  if (!/^(0[xX][0-9a-fA-F]{1,8}|[0-9]{1,8})$/.test(first))
    throw new RangeError('swaps_len is not a small integer');
  const swapsLen = BigInt(first);
  if (BigInt(calldata.length) !== 1n + swapsLen * 5n + 7n)
    throw new RangeError('calldata length does not match swaps_len');
  return {
    tokenIn,
    tokenOut,
    amountIn: amountHigh * U128 + amountLow,
    minReceived: minHigh * U128 + minLow,
    destination,
  };
}

/** The aggregator's router on mainnet (docs/contracts.md B); the sandbox chain serves it at the same address. */
export const ROUTER_ADDRESS = '0x00f6f4cf62e3c010e0ac2451cc7807b5eec19a40b0faacd00cca3914280fdf5a';

/**
 * The whole calldata: its swap list (token in and out of each swap, as numbers) and its tail.
 * Throws RangeError like decodeSwapCalldataTail.
 */
export function decodeSwapCalldata(calldata: readonly string[]): {
  swaps: Array<{ tokenIn: bigint; tokenOut: bigint }>;
  tail: CalldataTail;
} {
  const tail = decodeSwapCalldataTail(calldata);
  const swaps: Array<{ tokenIn: bigint; tokenOut: bigint }> = [];
  for (let at = 1; at < calldata.length - 7; at += 5) {
    swaps.push({ tokenIn: felt(calldata[at] ?? ''), tokenOut: felt(calldata[at + 1] ?? '') });
  }
  return { swaps, tail };
}
