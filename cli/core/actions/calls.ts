/**
 * The router's `swap` call (the aggregator's calldata verbatim), and the reading back of an
 * ERC-20 approve/transfer from its own felts, for the pre-sign checks. The approve and transfer
 * calls themselves are built by the chain library (cli/core/chain/calls.ts).
 */
import { fromU256 } from '../../../shared/erc20.js';
import { parseFelt } from '../../../shared/felt.js';
import type { ChainCall } from '../chain/calls.js';

export function swapCall(router: string, calldata: readonly string[]): ChainCall {
  return { contractAddress: router, entrypoint: 'swap', calldata: [...calldata] };
}

/**
 * `[address, low, high]`, the calldata of approve(spender, amount) and transfer(recipient,
 * amount), read back from the call itself; undefined when it is not exactly that.
 */
export function decodeAddressAmount(
  calldata: readonly string[],
): { address: bigint; amount: bigint } | undefined {
  if (calldata.length !== 3) return undefined;
  const [address, low, high] = calldata.map(parseFelt);
  if (address === undefined || low === undefined || high === undefined) return undefined;
  const amount = fromU256(low, high);
  return amount === undefined ? undefined : { address, amount };
}
