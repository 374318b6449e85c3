/**
 * Calls a user signs, built exactly: addresses are checked (a felt below 2^251, not zero — the
 * range of Starknet contract addresses) and amounts are u256 as two felts, never rounded.
 */
import { checkBaseUnits } from '../../../shared/amount.js';
import { u256Felts } from '../../../shared/erc20.js';
import { parseAddress, type Token } from '../../../shared/tokens.js';

/** One call of a multicall: starknet.js's `Call` with felts as strings (0x-hex or decimal). */
export interface ChainCall {
  contractAddress: string;
  entrypoint: string;
  calldata: string[];
}

/** ERC-20 `transfer(to, amount)` of exactly `amount` base units. */
export function buildTransferCall(token: Token, to: string, amount: bigint): ChainCall {
  const recipient = parseAddress(to, 'recipient');
  checkBaseUnits(amount, token.symbol);
  return {
    contractAddress: token.address,
    entrypoint: 'transfer',
    calldata: [recipient, ...u256Felts(amount)],
  };
}

/** ERC-20 `approve(spender, amount)` of exactly `amount` base units (never unlimited). */
export function buildApproveCall(token: Token, spender: string, amount: bigint): ChainCall {
  const target = parseAddress(spender, 'spender');
  checkBaseUnits(amount, token.symbol);
  return {
    contractAddress: token.address,
    entrypoint: 'approve',
    calldata: [target, ...u256Felts(amount)],
  };
}
