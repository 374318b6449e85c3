/**
 * The aggregator's router on the sandbox chain, at its mainnet address (docs/contracts.md B):
 * `swap` with the aggregator's calldata layout (shared/swap-calldata.ts), executed on the SAME
 * pool objects the aggregator emulator quotes from, so the next quote reflects the trade.
 *
 * What `swap` does, in order (any failure reverts the whole transaction):
 * 1. pulls exactly amount_in of token_in from the caller through its allowance (transfer_from);
 * 2. runs the swaps in calldata order. A swap's input is rate/1e6 of all of token_in the route
 *    has received so far (amount_in for the input token, the outputs of earlier swaps for an
 *    intermediate one), floored — except that the last swap spending a token takes all of it
 *    that is left, so no dust stays behind. That is exactly how the aggregator emulator splits
 *    an amount (the last leg gets the remainder), so a route executed on unchanged pools yields
 *    exactly its quoted outputAmount. Each pool must exist at pool_address, speak `protocol` and
 *    hold the pair; its output is the constant-product formula of sandbox/aggregator/pools.ts;
 * 3. checks the gross output (before the service fee, which is how the aggregator computes
 *    min_received from its gross outputAmount) against min_received, else reverts
 *    "Insufficient output amount";
 * 4. takes the service fee (shared/fees.ts: 2 bps when every swap goes straight from token_in to
 *    token_out, 15 bps otherwise, rounded up) to the fee collector and pays the rest to the
 *    destination. Every token move is an ERC-20 Transfer event of its token.
 */
import { shortString } from 'starknet';
import { SELECTOR, selectorOf, u256Felts } from '../../shared/erc20.js';
import { applyServiceFee, DIRECT_FEE_BPS, ROUTED_FEE_BPS } from '../../shared/fees.js';
import { RATE_ONE } from '../../shared/swap-calldata.js';
import { getAmountOut, type Pool } from '../aggregator/pools.js';
import { POOL_TRANSFER_SELECTOR } from './contracts.js';
import { type CallContext, type Contract, EntryPointNotFound, hex, Revert } from './executor.js';

export const SWAP_SELECTOR = selectorOf('swap');
/** Where the router's service fee goes. */
const FEE_COLLECTOR_ADDRESS = BigInt(shortString.encodeShortString('SANDBOX_ROUTER_FEES'));
export const ROUTER_CLASS_HASH = selectorOf('sandbox::router');
const U128 = 1n << 128n;
const MAX_SWAPS = 64n;

const u256 = (value: bigint): bigint[] => u256Felts(value).map(BigInt);

interface Step {
  tokenIn: bigint;
  tokenOut: bigint;
  rate: bigint;
  protocol: bigint;
  pool: bigint;
}

function decode(calldata: readonly bigint[]): {
  steps: Step[];
  tokenIn: bigint;
  tokenOut: bigint;
  amountIn: bigint;
  minReceived: bigint;
  destination: bigint;
} {
  const count = calldata[0];
  if (
    count === undefined ||
    count === 0n ||
    count > MAX_SWAPS ||
    BigInt(calldata.length) !== 1n + count * 5n + 7n
  ) {
    throw new Revert('Failed to deserialize param #1: calldata does not match swaps_len');
  }
  const steps: Step[] = [];
  for (let i = 0; i < Number(count); i += 1) {
    const [tokenIn, tokenOut, rate, protocol, pool] = calldata.slice(1 + i * 5, 6 + i * 5) as [
      bigint,
      bigint,
      bigint,
      bigint,
      bigint,
    ];
    steps.push({ tokenIn, tokenOut, rate, protocol, pool });
  }
  const [tokenIn, tokenOut, aLow, aHigh, mLow, mHigh, destination] = calldata.slice(-7) as [
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  if (aLow >= U128 || aHigh >= U128 || mLow >= U128 || mHigh >= U128)
    throw new Revert('Failed to deserialize param: u256 out of range');
  return {
    steps,
    tokenIn,
    tokenOut,
    amountIn: aHigh * U128 + aLow,
    minReceived: mHigh * U128 + mLow,
    destination,
  };
}

export class RouterContract implements Contract {
  readonly classHash = ROUTER_CLASS_HASH;
  readonly #pools: ReadonlyMap<bigint, Pool>;

  constructor(pools: readonly Pool[]) {
    this.#pools = new Map(pools.map((pool) => [BigInt(pool.address), pool]));
  }

  invoke(ctx: CallContext, selector: bigint, calldata: readonly bigint[]): bigint[] {
    if (selector !== SWAP_SELECTOR) throw new EntryPointNotFound(selector);
    const order = decode(calldata);
    if (order.amountIn === 0n) throw new Revert('amount_in is zero');
    if (order.destination === 0n) throw new Revert('destination is zero');
    if (order.tokenIn === order.tokenOut) throw new Revert('token_in and token_out are the same');

    ctx.call(order.tokenIn, SELECTOR.transfer_from, [
      ctx.caller,
      ctx.self,
      ...u256(order.amountIn),
    ]);
    const received = new Map<bigint, bigint>([[order.tokenIn, order.amountIn]]);
    const left = new Map<bigint, bigint>([[order.tokenIn, order.amountIn]]);
    order.steps.forEach((step, index) => {
      const pool = this.#pools.get(step.pool);
      if (pool === undefined) throw new Revert(`swap ${index}: no pool at ${hex(step.pool)}`);
      if (BigInt(pool.protocol) !== step.protocol)
        throw new Revert(`swap ${index}: pool ${hex(step.pool)} is not protocol ${step.protocol}`);
      const aIn =
        BigInt(pool.tokenA.address) === step.tokenIn &&
        BigInt(pool.tokenB.address) === step.tokenOut;
      const bIn =
        BigInt(pool.tokenB.address) === step.tokenIn &&
        BigInt(pool.tokenA.address) === step.tokenOut;
      if (!aIn && !bIn)
        throw new Revert(`swap ${index}: pool ${hex(step.pool)} does not trade this pair`);
      if (step.rate <= 0n || step.rate > RATE_ONE)
        throw new Revert(`swap ${index}: rate must be 1..${RATE_ONE}`);
      const available = left.get(step.tokenIn) ?? 0n;
      const lastSpender = !order.steps
        .slice(index + 1)
        .some((later) => later.tokenIn === step.tokenIn);
      const amount = lastSpender
        ? available
        : ((received.get(step.tokenIn) ?? 0n) * step.rate) / RATE_ONE;
      if (amount > available) throw new Revert(`swap ${index}: spends more than the route holds`);
      if (amount === 0n) return;
      const reserves = ctx.state.reserves(pool);
      const [reserveIn, reserveOut] = aIn
        ? [reserves.reserveA, reserves.reserveB]
        : [reserves.reserveB, reserves.reserveA];
      const out = getAmountOut(amount, reserveIn, reserveOut, pool.feeBps);
      if (out === 0n || out >= reserveOut)
        throw new Revert(`swap ${index}: insufficient liquidity`);
      ctx.call(step.tokenIn, POOL_TRANSFER_SELECTOR, [ctx.self, step.pool, ...u256(amount)]);
      ctx.call(step.tokenOut, POOL_TRANSFER_SELECTOR, [step.pool, ctx.self, ...u256(out)]);
      if (aIn) ctx.state.setReserves(pool, reserveIn + amount, reserveOut - out);
      else ctx.state.setReserves(pool, reserveOut - out, reserveIn + amount);
      left.set(step.tokenIn, available - amount);
      received.set(step.tokenOut, (received.get(step.tokenOut) ?? 0n) + out);
      left.set(step.tokenOut, (left.get(step.tokenOut) ?? 0n) + out);
    });
    for (const [token, amount] of left) {
      if (token !== order.tokenOut && amount > 0n)
        throw new Revert(`the route leaves ${amount} of ${hex(token)} unswapped`);
    }
    const gross = left.get(order.tokenOut) ?? 0n;
    if (gross < order.minReceived)
      throw new Revert(
        `Insufficient output amount: ${gross} is below min_received ${order.minReceived}`,
      );
    const direct = order.steps.every(
      (step) => step.tokenIn === order.tokenIn && step.tokenOut === order.tokenOut,
    );
    const { fee, net } = applyServiceFee(gross, direct ? DIRECT_FEE_BPS : ROUTED_FEE_BPS);
    if (fee > 0n)
      ctx.call(order.tokenOut, SELECTOR.transfer, [FEE_COLLECTOR_ADDRESS, ...u256(fee)]);
    if (net > 0n) ctx.call(order.tokenOut, SELECTOR.transfer, [order.destination, ...u256(net)]);
    return u256(net);
  }
}
