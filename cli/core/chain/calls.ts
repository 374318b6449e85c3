/**
 * Calls a user signs, built exactly: addresses are checked (a felt below 2^251, not zero — the
 * range of Starknet contract addresses) and amounts are u256 as two felts, never rounded.
 */
import { U256_MAX } from '../../../shared/amount.js';
import { u256Felts } from '../../../shared/erc20.js';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { parseAddress, type Token } from '../../../shared/tokens.js';

/** One call of a multicall: starknet.js's `Call` with felts as strings (0x-hex or decimal). */
export interface ChainCall {
  contractAddress: string;
  entrypoint: string;
  calldata: string[];
}

function checkAmount(amount: bigint, token: Token): void {
  if (typeof amount !== 'bigint' || amount <= 0n || amount > U256_MAX) {
    throw new AppError(
      ErrorCode.INVALID_AMOUNT,
      `the ${token.symbol} amount must be a positive u256 in base units`,
    );
  }
}

/** ERC-20 `transfer(to, amount)` of exactly `amount` base units. */
export function buildTransferCall(token: Token, to: string, amount: bigint): ChainCall {
  const recipient = parseAddress(to, 'recipient');
  checkAmount(amount, token);
  return {
    contractAddress: token.address,
    entrypoint: 'transfer',
    calldata: [recipient, ...u256Felts(amount)],
  };
}

/** ERC-20 `approve(spender, amount)` of exactly `amount` base units (never unlimited). */
export function buildApproveCall(token: Token, spender: string, amount: bigint): ChainCall {
  const target = parseAddress(spender, 'spender');
  checkAmount(amount, token);
  return {
    contractAddress: token.address,
    entrypoint: 'approve',
    calldata: [target, ...u256Felts(amount)],
  };
}
